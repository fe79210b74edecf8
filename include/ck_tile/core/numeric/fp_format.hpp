// SPDX-License-Identifier: MIT
// Bit layouts of the binary floating-point formats: sign, exponent, mantissa, and how the
// largest exponent is spent. Everything a bit-exact conversion needs to know about a format.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <type_traits>

namespace ck_tile {

/// How a format spends its largest exponent.
enum class fp_encoding
{
    ieee,      ///< IEEE 754: infinity (mantissa 0) and NaNs (mantissa != 0)
    finite_nan ///< no infinity; only the all-ones magnitude is NaN (OCP FP8 E4M3, the "FN" variant)
};

/// What a narrowing conversion does with a value whose rounded magnitude exceeds the largest
/// finite value of the destination (the OCP FP8 specification's two modes).
enum class overflow_mode
{
    saturate,    ///< +-max finite; infinities become +-max finite as well; NaN stays NaN
    non_saturate ///< +-infinity where the format has it, NaN otherwise (E4M3)
};

namespace detail {
template <int Bits>
using unsigned_of_bits_t =
    std::conditional_t<(Bits <= 8), uint8_t,
                       std::conditional_t<(Bits <= 16), uint16_t,
                                          std::conditional_t<(Bits <= 32), uint32_t, uint64_t>>>;
} // namespace detail

/// A binary floating-point format: 1 sign bit, ExpBits exponent bits (bias 2^(ExpBits-1)-1),
/// MantBits stored mantissa bits, normal numbers with an implicit leading one, denormals at the
/// smallest exponent. Codes are held in the low total_bits of an unsigned integer; masks and
/// codes below are magnitudes (sign bit clear) unless their name says otherwise.
template <int ExpBits, int MantBits, fp_encoding Encoding>
struct fp_format
{
    static_assert(ExpBits >= 2 && MantBits >= 1 && 1 + ExpBits + MantBits <= 64);

    static constexpr int exp_bits         = ExpBits;
    static constexpr int mant_bits        = MantBits;
    static constexpr int total_bits       = 1 + ExpBits + MantBits;
    static constexpr int bias             = (1 << (ExpBits - 1)) - 1;
    static constexpr fp_encoding encoding = Encoding;
    static constexpr bool has_infinity    = Encoding == fp_encoding::ieee;
    using bits_type                       = detail::unsigned_of_bits_t<total_bits>;

    static constexpr uint64_t sign_mask      = uint64_t{1} << (total_bits - 1);
    static constexpr uint64_t exp_mask       = ((uint64_t{1} << ExpBits) - 1) << MantBits;
    static constexpr uint64_t mant_mask      = (uint64_t{1} << MantBits) - 1;
    static constexpr uint64_t magnitude_mask = exp_mask | mant_mask;

    /// Largest finite magnitude: the exponent below all-ones for IEEE; for FN every exponent is
    /// finite and only the all-ones mantissa of the top exponent is taken (by NaN).
    static constexpr uint64_t max_finite =
        has_infinity ? ((exp_mask - (uint64_t{1} << MantBits)) | mant_mask) : (magnitude_mask - 1);
    /// Only meaningful when has_infinity.
    static constexpr uint64_t infinity = exp_mask;
    /// IEEE quiet NaN: the top mantissa bit set. FN: the one NaN magnitude.
    static constexpr uint64_t quiet_nan =
        has_infinity ? (exp_mask | (uint64_t{1} << (MantBits - 1))) : magnitude_mask;
    /// A signaling NaN where the format distinguishes them, else its one NaN.
    static constexpr uint64_t signaling_nan = has_infinity ? (exp_mask | 1) : magnitude_mask;
    static constexpr uint64_t min_normal    = uint64_t{1} << MantBits;

    /// @post true iff `bits` (sign ignored) encodes a NaN.
    CK_TILE_HOST_DEVICE static constexpr bool is_nan(uint64_t bits)
    {
        const uint64_t m = bits & magnitude_mask;
        return has_infinity ? ((m & exp_mask) == exp_mask && (m & mant_mask) != 0)
                            : m == magnitude_mask;
    }
    /// @post true iff `bits` (sign ignored) encodes an infinity.
    CK_TILE_HOST_DEVICE static constexpr bool is_inf(uint64_t bits)
    {
        return has_infinity && (bits & magnitude_mask) == exp_mask;
    }
};

using fp64_format     = fp_format<11, 52, fp_encoding::ieee>;
using fp32_format     = fp_format<8, 23, fp_encoding::ieee>;
using fp16_format     = fp_format<5, 10, fp_encoding::ieee>;
using bf16_format     = fp_format<8, 7, fp_encoding::ieee>;
using fp8_e4m3_format = fp_format<4, 3, fp_encoding::finite_nan>; // OCP E4M3FN, max 448
using bf8_e5m2_format = fp_format<5, 2, fp_encoding::ieee>;       // OCP E5M2, max 57344

static_assert(fp32_format::max_finite == 0x7f7fffffu && fp16_format::max_finite == 0x7bffu);
static_assert(fp8_e4m3_format::max_finite == 0x7e && fp8_e4m3_format::quiet_nan == 0x7f);
static_assert(bf8_e5m2_format::max_finite == 0x7b && bf8_e5m2_format::infinity == 0x7c);

} // namespace ck_tile
