// SPDX-License-Identifier: MIT
// type_convert<Y>(x): the one way to convert between the numeric types of ck_tile.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/numeric/float_cast.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/minifloat.hpp"

#include <type_traits>

namespace ck_tile {

/// x converted to Y.
/// @post into a narrow float type (half_t, bf16_t, fp8_t, bf8_t): the nearest value, ties to
///       even, rounded once from x's exact value; overflow handled as `Mode` (defaults: half_t and
///       bf16_t to infinity, fp8_t and bf8_t saturating, see their headers); NaN stays NaN.
/// @post out of a narrow float type into float or double: exact. Into another narrow type: as
///       from the exact float value. Into an integer: as static_cast from that float (truncation;
///       undefined when out of the integer's range, as for float).
/// @post between built-in arithmetic types: static_cast. Other types (custom types): their own
///       explicit conversion, static_cast<Y>(x).
template <typename Y, overflow_mode Mode, typename X>
CK_TILE_HOST_DEVICE constexpr Y type_convert(X x)
{
    using x_t = std::remove_cv_t<X>;
    if constexpr(std::is_same_v<Y, x_t>)
        return x;
    else if constexpr(is_minifloat_v<Y>)
    {
        using format = typename Y::format;
        if constexpr(std::is_same_v<x_t, double>)
            return Y::from_bits(double_to_fp_bits<format, Mode>(x));
        else if constexpr(std::is_integral_v<x_t>)
            // Every int32 is a double exactly; rounding then happens once.
            return Y::from_bits(double_to_fp_bits<format, Mode>(static_cast<double>(x)));
        else
            // float, or a narrow type whose float value is exact.
            return Y::from_bits(float_to_fp_bits<format, Mode>(static_cast<float>(x)));
    }
    else if constexpr(is_minifloat_v<x_t>)
        return static_cast<Y>(static_cast<float>(x));
    else
        return static_cast<Y>(x);
}

/// x converted to Y, overflow handled as Y's default (Y::default_overflow for narrow floats).
template <typename Y, typename X>
CK_TILE_HOST_DEVICE constexpr Y type_convert(X x)
{
    if constexpr(is_minifloat_v<Y>)
        return type_convert<Y, Y::default_overflow>(x);
    else
        return type_convert<Y, overflow_mode::non_saturate>(x);
}

} // namespace ck_tile
