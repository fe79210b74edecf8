// SPDX-License-Identifier: MIT
// float/double <-> narrow-format codes: the software conversions (fp_convert.hpp), replaced in
// device code by a conversion instruction where arch/convert.hpp offers one with identical
// results.
#pragma once

#include "ck_tile/core/arch/convert.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/fp_convert.hpp"
#include "ck_tile/core/numeric/fp_format.hpp"

namespace ck_tile {

/// Code of `Format` nearest to x (round to nearest even), overflow handled as Mode.
template <typename Format, overflow_mode Mode>
CK_TILE_HOST_DEVICE constexpr typename Format::bits_type float_to_fp_bits(float x)
{
#if CK_TILE_DEVICE_COMPILE
    if constexpr(arch::float_to_fp_hw<Format, Mode>::available)
        if(!__builtin_is_constant_evaluated())
            return arch::float_to_fp_hw<Format, Mode>::convert(x);
#endif
    return fp_narrow_bits<Format, fp32_format, Mode>(bit_cast<uint32_t>(x));
}

/// Code of `Format` nearest to x, rounded once from the double.
template <typename Format, overflow_mode Mode>
CK_TILE_HOST_DEVICE constexpr typename Format::bits_type double_to_fp_bits(double x)
{
    return fp_narrow_bits<Format, fp64_format, Mode>(bit_cast<uint64_t>(x));
}

/// The float equal to the value of code `bits` (exact).
template <typename Format>
CK_TILE_HOST_DEVICE constexpr float fp_bits_to_float(typename Format::bits_type bits)
{
#if CK_TILE_DEVICE_COMPILE
    if constexpr(arch::fp_to_float_hw<Format>::available)
        if(!__builtin_is_constant_evaluated())
            return arch::fp_to_float_hw<Format>::convert(bits);
#endif
    return bit_cast<float>(fp_widen_bits<fp32_format, Format>(bits));
}

} // namespace ck_tile
