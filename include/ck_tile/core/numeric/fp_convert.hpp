// SPDX-License-Identifier: MIT
// Bit-exact conversions between floating-point formats, in integer arithmetic only.
//
// This is the portable reference path: it is constexpr, runs the same on the host and in
// device code, and defines the results a hardware conversion instruction must reproduce to be
// used in its place (see arch/convert.hpp).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/fp_format.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile {

/// Exact conversion to a format that holds every value of the source (Dst has at least the
/// source's exponent and mantissa bits).
/// @post finite values and infinities are unchanged, zeros keep their sign; a NaN stays NaN with
///       its sign and, between IEEE formats, its payload (left-aligned), so that narrowing back
///       gives the original bits.
template <typename Dst, typename Src>
CK_TILE_HOST_DEVICE constexpr typename Dst::bits_type fp_widen_bits(uint64_t src)
{
    static_assert(Dst::exp_bits >= Src::exp_bits && Dst::mant_bits >= Src::mant_bits,
                  "fp_widen_bits: the destination must hold every source value");
    constexpr int mant_shift = Dst::mant_bits - Src::mant_bits;
    const uint64_t sign      = (src & Src::sign_mask) != 0 ? Dst::sign_mask : 0;
    const uint64_t mag       = src & Src::magnitude_mask;
    using out_t              = typename Dst::bits_type;

    // Same exponent layout (bf16 -> fp32): every code, NaNs and denormals included, is the
    // source code with zeros appended.
    if constexpr(Dst::exp_bits == Src::exp_bits && Src::has_infinity == Dst::has_infinity)
        return static_cast<out_t>(sign | (mag << mant_shift));

    if(Src::is_nan(mag))
    {
        if constexpr(Src::has_infinity && Dst::has_infinity)
            return static_cast<out_t>(sign | Dst::exp_mask |
                                      ((mag & Src::mant_mask) << mant_shift));
        else
            return static_cast<out_t>(sign | Dst::quiet_nan);
    }
    if(Src::is_inf(mag))
        return static_cast<out_t>(sign | Dst::infinity);
    if(mag == 0)
        return static_cast<out_t>(sign);

    int exp       = static_cast<int>(mag >> Src::mant_bits);
    uint64_t mant = mag & Src::mant_mask;
    if(exp == 0)
    {
        // Same exponent range: a denormal stays a denormal with the same scale.
        if constexpr(Dst::exp_bits == Src::exp_bits)
            return static_cast<out_t>(sign | (mant << mant_shift));
        // Wider range: normalize so the leading one becomes the implicit bit.
        exp = 1;
        while((mant >> Src::mant_bits) == 0)
        {
            mant <<= 1;
            --exp;
        }
        mant &= Src::mant_mask;
    }
    const uint64_t dst_exp = static_cast<uint64_t>(exp - Src::bias + Dst::bias);
    return static_cast<out_t>(sign | (dst_exp << Dst::mant_bits) | (mant << mant_shift));
}

/// Conversion to a format with fewer mantissa bits (and no more exponent bits).
/// @post a finite value becomes the destination value nearest to it, ties to the one with an
///       even mantissa (round-to-nearest-even), with gradual underflow to denormals and zero;
///       the sign is kept, also on zero results.
/// @post a rounded magnitude above the largest finite one (treating the code after max_finite as
///       the next value up) is an overflow, handled by Mode; so is an infinite source.
/// @post a NaN stays NaN with its sign; IEEE to IEEE keeps the top payload bits (quiet bit set
///       if nothing is left), FN destinations have a single NaN.
template <typename Dst, typename Src, overflow_mode Mode>
CK_TILE_HOST_DEVICE constexpr typename Dst::bits_type fp_narrow_bits(uint64_t src)
{
    static_assert(Src::mant_bits > Dst::mant_bits && Src::exp_bits >= Dst::exp_bits,
                  "fp_narrow_bits: the destination must be narrower than the source");
    constexpr int drop_bits        = Src::mant_bits - Dst::mant_bits;
    const uint64_t sign            = (src & Src::sign_mask) != 0 ? Dst::sign_mask : 0;
    const uint64_t mag             = src & Src::magnitude_mask;
    using out_t                    = typename Dst::bits_type;
    constexpr uint64_t on_overflow = (Mode == overflow_mode::saturate)
                                         ? Dst::max_finite
                                         : (Dst::has_infinity ? Dst::infinity : Dst::quiet_nan);

    if(Src::is_nan(mag))
    {
        if constexpr(Dst::has_infinity)
        {
            uint64_t payload = (mag & Src::mant_mask) >> drop_bits;
            if(payload == 0)
                payload = Dst::quiet_nan & Dst::mant_mask;
            return static_cast<out_t>(sign | Dst::exp_mask | payload);
        }
        else
            return static_cast<out_t>(sign | Dst::quiet_nan);
    }
    if(Src::is_inf(mag))
        return static_cast<out_t>(sign | on_overflow);
    if(mag == 0)
        return static_cast<out_t>(sign);

    // |x| = sig * 2^(exp - bias - mant_bits), normalized so that bit mant_bits of sig is set.
    int exp      = static_cast<int>(mag >> Src::mant_bits);
    uint64_t sig = mag & Src::mant_mask;
    if(exp == 0)
    {
        exp = 1;
        while((sig >> Src::mant_bits) == 0)
        {
            sig <<= 1;
            --exp;
        }
    }
    else
        sig |= uint64_t{1} << Src::mant_bits;

    // The destination's quantum at this magnitude: its normal spacing, or the denormal spacing
    // below its smallest normal exponent. `shift` drops the source bits finer than that quantum.
    constexpr int dst_emin = 1 - Dst::bias;
    const int unbiased     = exp - Src::bias;
    const int lead         = unbiased > dst_emin ? unbiased : dst_emin;
    const int shift        = lead - unbiased + drop_bits; // >= drop_bits >= 1

    uint64_t rounded = 0;
    if(shift <= Src::mant_bits + 1) // otherwise |x| < half the smallest denormal: rounds to 0
    {
        rounded                = sig >> shift;
        const uint64_t rest    = sig & ((uint64_t{1} << shift) - 1);
        const uint64_t halfway = uint64_t{1} << (shift - 1);
        if(rest > halfway || (rest == halfway && (rounded & 1) != 0))
            ++rounded;
    }
    // `rounded` carries the implicit bit for normals, so adding it to the exponent field below
    // the leading one yields the code; a carry out of the mantissa bumps the exponent, and the
    // smallest normal follows the largest denormal, both by plain addition.
    const uint64_t code = (static_cast<uint64_t>(lead - dst_emin) << Dst::mant_bits) + rounded;
    if(code > Dst::max_finite)
        return static_cast<out_t>(sign | on_overflow);
    return static_cast<out_t>(sign | code);
}

} // namespace ck_tile
