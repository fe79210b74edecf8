// SPDX-License-Identifier: MIT
// numeric<T>: the limits of an arithmetic type, usable in host and device code alike.
// numeric_traits<T>: the bit layout of a floating-point type.
//
// The built-in types forward to std::numeric_limits (constexpr, so callable from device code);
// the narrow float types (half.hpp, bfloat16.hpp, float8.hpp) derive theirs from their format.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/fp_format.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/minifloat.hpp"

#include <limits>
#include <type_traits>

namespace ck_tile {

/// Limits of T with the meanings of std::numeric_limits: min() is the smallest positive normal
/// (for floating types), lowest() the most negative finite value.
template <typename T>
struct numeric
{
    static_assert(std::is_arithmetic_v<T>, "numeric<T>: no limits known for this type");
    using limits = std::numeric_limits<T>;

    static constexpr bool has_infinity = limits::has_infinity;

    CK_TILE_HOST_DEVICE static constexpr T min() { return limits::min(); }
    CK_TILE_HOST_DEVICE static constexpr T max() { return limits::max(); }
    CK_TILE_HOST_DEVICE static constexpr T lowest() { return limits::lowest(); }
    CK_TILE_HOST_DEVICE static constexpr T epsilon() { return limits::epsilon(); }
    CK_TILE_HOST_DEVICE static constexpr T round_error() { return limits::round_error(); }
    CK_TILE_HOST_DEVICE static constexpr T infinity() { return limits::infinity(); }
    CK_TILE_HOST_DEVICE static constexpr T quiet_NaN() { return limits::quiet_NaN(); }
    CK_TILE_HOST_DEVICE static constexpr T signaling_NaN() { return limits::signaling_NaN(); }
    CK_TILE_HOST_DEVICE static constexpr T denorm_min() { return limits::denorm_min(); }
    CK_TILE_HOST_DEVICE static constexpr T zero() { return T{0}; }
};

/// Limits of a narrow float type, from its format.
/// @post infinity() is quiet_NaN() for a format without infinities (E4M3): a running maximum
///       seeded with -infinity() then shows up as NaN instead of silently being a finite value.
///       Seed such reductions with lowest() instead.
template <typename F, overflow_mode M>
struct numeric<minifloat<F, M>>
{
    using T   = minifloat<F, M>;
    using raw = typename F::bits_type;

    static constexpr bool has_infinity = F::has_infinity;

    CK_TILE_HOST_DEVICE static constexpr T min() { return T::from_bits(raw(F::min_normal)); }
    CK_TILE_HOST_DEVICE static constexpr T max() { return T::from_bits(raw(F::max_finite)); }
    CK_TILE_HOST_DEVICE static constexpr T lowest()
    {
        return T::from_bits(raw(F::sign_mask | F::max_finite));
    }
    /// 2^-mant_bits: the distance from 1 to the next value.
    CK_TILE_HOST_DEVICE static constexpr T epsilon()
    {
        return T::from_bits(raw(uint64_t(F::bias - F::mant_bits) << F::mant_bits));
    }
    /// 0.5, the largest error of round-to-nearest in units of the last place.
    CK_TILE_HOST_DEVICE static constexpr T round_error()
    {
        return T::from_bits(raw(uint64_t(F::bias - 1) << F::mant_bits));
    }
    CK_TILE_HOST_DEVICE static constexpr T infinity()
    {
        return T::from_bits(raw(F::has_infinity ? F::infinity : F::quiet_nan));
    }
    CK_TILE_HOST_DEVICE static constexpr T quiet_NaN() { return T::from_bits(raw(F::quiet_nan)); }
    CK_TILE_HOST_DEVICE static constexpr T signaling_NaN()
    {
        return T::from_bits(raw(F::signaling_nan));
    }
    CK_TILE_HOST_DEVICE static constexpr T denorm_min() { return T::from_bits(raw(1)); }
    CK_TILE_HOST_DEVICE static constexpr T zero() { return T::from_bits(raw(0)); }
};

/// Bit layout of a binary floating-point type: exp (exponent bits), mant (stored mantissa bits),
/// bias, the format descriptor and the unsigned integer type of its code.
template <typename T>
struct numeric_traits;

namespace detail {
template <typename Format>
struct fp_numeric_traits
{
    using format                        = Format;
    using bitwise_type                  = typename Format::bits_type;
    static constexpr int exp            = Format::exp_bits;
    static constexpr int mant           = Format::mant_bits;
    static constexpr int bias           = Format::bias;
    static constexpr bool has_infinity  = Format::has_infinity;
    static constexpr uint64_t sign_mask = Format::sign_mask;
    static constexpr uint64_t exp_mask  = Format::exp_mask;
    static constexpr uint64_t mant_mask = Format::mant_mask;
};
} // namespace detail

template <>
struct numeric_traits<float> : detail::fp_numeric_traits<fp32_format>
{};
template <>
struct numeric_traits<double> : detail::fp_numeric_traits<fp64_format>
{};
template <typename F, overflow_mode M>
struct numeric_traits<minifloat<F, M>> : detail::fp_numeric_traits<F>
{};

/// @post true iff x is a NaN; works for every floating type here, in constant expressions too.
template <typename T>
CK_TILE_HOST_DEVICE constexpr bool is_nan(T x)
{
    using traits = numeric_traits<T>;
    return traits::format::is_nan(bit_cast<typename traits::bitwise_type>(x));
}
/// @post true iff x is an infinity.
template <typename T>
CK_TILE_HOST_DEVICE constexpr bool is_inf(T x)
{
    using traits = numeric_traits<T>;
    return traits::format::is_inf(bit_cast<typename traits::bitwise_type>(x));
}

} // namespace ck_tile
