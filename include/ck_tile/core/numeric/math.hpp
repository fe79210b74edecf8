// SPDX-License-Identifier: MIT
// Integer helpers for index arithmetic and the binary functors that reductions and scans take.
//
// Every helper is generic over its argument types: given two `number<>`s it returns a
// `number<>` (the result is still known at compile time), given a runtime integer it returns
// a runtime integer with the same value.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"

namespace ck_tile {

// Binary functors. Plain structs (not templates) so that `multiplies{}` reads as in the seeds.
struct plus
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const
    {
        return a + b;
    }
};
struct minus
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const
    {
        return a - b;
    }
};
struct multiplies
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const
    {
        return a * b;
    }
};
struct divides
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const
    {
        return a / b;
    }
};
struct modulus
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const
    {
        return a % b;
    }
};
struct maximize
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const
    {
        return a >= b ? a : b;
    }
};
struct minimize
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const
    {
        return a <= b ? a : b;
    }
};
struct equal
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr bool operator()(const A& a, const B& b) const
    {
        return a == b;
    }
};
struct less
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr bool operator()(const A& a, const B& b) const
    {
        return a < b;
    }
};
struct greater
{
    template <typename A, typename B>
    CK_TILE_HOST_DEVICE constexpr bool operator()(const A& a, const B& b) const
    {
        return a > b;
    }
};

/// @post returns ceil(x / y) for x >= 0, y > 0.
template <typename X, typename Y>
CK_TILE_HOST_DEVICE constexpr auto integer_divide_ceil(X x, Y y)
{
    return (x + y - number<1>{}) / y;
}

/// @post returns floor(x / y) for x >= 0, y > 0.
template <typename X, typename Y>
CK_TILE_HOST_DEVICE constexpr auto integer_divide_floor(X x, Y y)
{
    return x / y;
}

/// Smallest multiple of y that is >= x.
/// @post result % y == 0 && result >= x && result - x < y (x >= 0, y > 0).
template <typename X, typename Y>
CK_TILE_HOST_DEVICE constexpr auto integer_least_multiple(X x, Y y)
{
    return y * integer_divide_ceil(x, y);
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr T max(T x)
{
    return x;
}
template <typename T, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto max(T x, Ts... ys)
{
    const auto y = max(ys...);
    return x > y ? x : y;
}
template <auto x, auto y>
CK_TILE_HOST_DEVICE constexpr auto max(constant<x>, constant<y>)
{
    return constant<(x > y ? x : y)>{};
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr T min(T x)
{
    return x;
}
template <typename T, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto min(T x, Ts... ys)
{
    const auto y = min(ys...);
    return x < y ? x : y;
}
template <auto x, auto y>
CK_TILE_HOST_DEVICE constexpr auto min(constant<x>, constant<y>)
{
    return constant<(x < y ? x : y)>{};
}

/// @post lo <= result <= hi (for lo <= hi).
template <typename T>
CK_TILE_HOST_DEVICE constexpr T clamp(const T& x, const T& lo, const T& hi)
{
    return x < lo ? lo : (hi < x ? hi : x);
}

/// Greatest common divisor of non-negative integers; gcd(0, 0) == 0.
/// @post x % result == 0 && y % result == 0.
CK_TILE_HOST_DEVICE constexpr index_t gcd(index_t x, index_t y)
{
    x = x < 0 ? -x : x;
    y = y < 0 ? -y : y;
    while(y != 0)
    {
        const index_t r = x % y;
        x               = y;
        y               = r;
    }
    return x;
}
template <index_t x, index_t y>
CK_TILE_HOST_DEVICE constexpr auto gcd(number<x>, number<y>)
{
    return number<gcd(x, y)>{};
}
template <typename X, typename... Ys, typename = std::enable_if_t<(sizeof...(Ys) >= 2)>>
CK_TILE_HOST_DEVICE constexpr auto gcd(X x, Ys... ys)
{
    return gcd(x, gcd(ys...));
}

/// Least common multiple of positive integers.
/// @post result % x == 0 && result % y == 0.
CK_TILE_HOST_DEVICE constexpr index_t lcm(index_t x, index_t y)
{
    return (x == 0 || y == 0) ? 0 : (x / gcd(x, y)) * y;
}
template <index_t x, index_t y>
CK_TILE_HOST_DEVICE constexpr auto lcm(number<x>, number<y>)
{
    return number<lcm(x, y)>{};
}
template <typename X, typename... Ys, typename = std::enable_if_t<(sizeof...(Ys) >= 2)>>
CK_TILE_HOST_DEVICE constexpr auto lcm(X x, Ys... ys)
{
    return lcm(x, lcm(ys...));
}

/// @post true iff x > 0 and x is a power of two.
CK_TILE_HOST_DEVICE constexpr bool is_power_of_two_integer(index_t x)
{
    return x > 0 && (x & (x - 1)) == 0;
}

/// Smallest power of two >= x (x >= 1).
CK_TILE_HOST_DEVICE constexpr index_t next_power_of_two(index_t x)
{
    index_t p = 1;
    while(p < x)
        p <<= 1;
    return p;
}

/// floor(log2(x)) for x >= 1.
CK_TILE_HOST_DEVICE constexpr index_t integer_log2_floor(index_t x)
{
    index_t r = 0;
    while(x > 1)
    {
        x >>= 1;
        ++r;
    }
    return r;
}

} // namespace ck_tile
