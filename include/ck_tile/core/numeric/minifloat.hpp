// SPDX-License-Identifier: MIT
// A floating-point value stored in a narrow binary format (fp16, bf16, fp8, bf8): the common
// value type behind half_t, bf16_t, fp8_t and bf8_t.
//
// Storage is the raw code, so the type is trivially copyable, has the format's size and
// alignment and can be memcpy'd, bit_cast and vectorized like an integer of that width.
// Arithmetic happens in float, the precision every GPU computes these types in.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/float_cast.hpp"
#include "ck_tile/core/numeric/fp_format.hpp"

#include <concepts>

namespace ck_tile {

/// A value of binary format `Format`. `DefaultOverflow` is what conversions into this type do on
/// overflow unless the caller picks a mode (type_convert<Y, overflow_mode::...>).
template <typename Format, overflow_mode DefaultOverflow>
struct minifloat
{
    using format                                    = Format;
    using raw_type                                  = typename Format::bits_type;
    static constexpr overflow_mode default_overflow = DefaultOverflow;

    raw_type data;

    /// Uninitialized, like a built-in float: register arrays of these must cost nothing.
    /// Value-initialization (`half_t{}`) gives +0.
    minifloat() = default;

    /// Nearest value (round to nearest even), overflow as DefaultOverflow.
    CK_TILE_HOST_DEVICE explicit constexpr minifloat(float x)
        : data{float_to_fp_bits<Format, DefaultOverflow>(x)}
    {}
    /// Rounded once from the double, not through float (which could round twice).
    CK_TILE_HOST_DEVICE explicit constexpr minifloat(double x)
        : data{double_to_fp_bits<Format, DefaultOverflow>(x)}
    {}
    /// Exact through double for integers up to 2^53 in magnitude.
    template <std::integral I>
    CK_TILE_HOST_DEVICE explicit constexpr minifloat(I x) : minifloat(static_cast<double>(x))
    {}

    /// The value whose code is `bits`.
    CK_TILE_HOST_DEVICE static constexpr minifloat from_bits(raw_type bits)
    {
        minifloat r{};
        r.data = bits;
        return r;
    }
    /// @post exact: every value of these formats is a float (NaN stays NaN, sign kept).
    CK_TILE_HOST_DEVICE explicit constexpr operator float() const
    {
        return fp_bits_to_float<Format>(data);
    }
    CK_TILE_HOST_DEVICE explicit constexpr operator double() const
    {
        return static_cast<double>(static_cast<float>(*this));
    }

    // Sign operations act on the code, so they are exact for zeros and NaNs as well.
    CK_TILE_HOST_DEVICE friend constexpr minifloat operator-(minifloat a)
    {
        return from_bits(static_cast<raw_type>(a.data ^ Format::sign_mask));
    }
    CK_TILE_HOST_DEVICE friend constexpr minifloat operator+(minifloat a) { return a; }

    CK_TILE_HOST_DEVICE friend constexpr minifloat operator+(minifloat a, minifloat b)
    {
        return minifloat(static_cast<float>(a) + static_cast<float>(b));
    }
    CK_TILE_HOST_DEVICE friend constexpr minifloat operator-(minifloat a, minifloat b)
    {
        return minifloat(static_cast<float>(a) - static_cast<float>(b));
    }
    CK_TILE_HOST_DEVICE friend constexpr minifloat operator*(minifloat a, minifloat b)
    {
        return minifloat(static_cast<float>(a) * static_cast<float>(b));
    }
    CK_TILE_HOST_DEVICE friend constexpr minifloat operator/(minifloat a, minifloat b)
    {
        return minifloat(static_cast<float>(a) / static_cast<float>(b));
    }
    CK_TILE_HOST_DEVICE constexpr minifloat& operator+=(minifloat b) { return *this = *this + b; }
    CK_TILE_HOST_DEVICE constexpr minifloat& operator-=(minifloat b) { return *this = *this - b; }
    CK_TILE_HOST_DEVICE constexpr minifloat& operator*=(minifloat b) { return *this = *this * b; }
    CK_TILE_HOST_DEVICE constexpr minifloat& operator/=(minifloat b) { return *this = *this / b; }

    // Comparisons are the ones of the values: +0 == -0, NaN is unordered.
    CK_TILE_HOST_DEVICE friend constexpr bool operator==(minifloat a, minifloat b)
    {
        return static_cast<float>(a) == static_cast<float>(b);
    }
    CK_TILE_HOST_DEVICE friend constexpr bool operator!=(minifloat a, minifloat b)
    {
        return static_cast<float>(a) != static_cast<float>(b);
    }
    CK_TILE_HOST_DEVICE friend constexpr bool operator<(minifloat a, minifloat b)
    {
        return static_cast<float>(a) < static_cast<float>(b);
    }
    CK_TILE_HOST_DEVICE friend constexpr bool operator<=(minifloat a, minifloat b)
    {
        return static_cast<float>(a) <= static_cast<float>(b);
    }
    CK_TILE_HOST_DEVICE friend constexpr bool operator>(minifloat a, minifloat b)
    {
        return static_cast<float>(a) > static_cast<float>(b);
    }
    CK_TILE_HOST_DEVICE friend constexpr bool operator>=(minifloat a, minifloat b)
    {
        return static_cast<float>(a) >= static_cast<float>(b);
    }
};

template <typename T>
inline constexpr bool is_minifloat_v = false;
template <typename F, overflow_mode M>
inline constexpr bool is_minifloat_v<minifloat<F, M>> = true;

} // namespace ck_tile
