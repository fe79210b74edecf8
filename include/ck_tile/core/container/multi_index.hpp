// SPDX-License-Identifier: MIT
// `multi_index<N>`: the coordinate type of every transform, adaptor and descriptor.
//
// A multi_index always holds runtime values (an array of index_t); what is known at compile
// time lives in the lengths and strides of the transforms. When a coordinate is built from
// number<>s the compiler still folds it, because every access is by a constant position.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

namespace ck_tile {

template <index_t N>
using multi_index = array<index_t, N>;

/// @post make_multi_index(xs...)[i] == index_t(xs_i); number<>s become their values.
template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto make_multi_index(Xs&&... xs)
{
    return multi_index<sizeof...(Xs)>{static_cast<index_t>(xs)...};
}

/// @post every element is 0.
template <index_t N>
CK_TILE_HOST_DEVICE constexpr auto make_zero_multi_index()
{
    multi_index<N> r{};
    r.fill(0);
    return r;
}

/// The same values as a multi_index (from a tuple of integers/number<>s, or an array).
template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto to_multi_index(const tuple<Xs...>& t)
{
    return unpack([](const auto&... xs) { return make_multi_index(xs...); }, t);
}
template <typename T, index_t N>
CK_TILE_HOST_DEVICE constexpr auto to_multi_index(const array<T, N>& a)
{
    multi_index<N> r{};
    for(index_t i = 0; i < N; ++i)
        r[i] = static_cast<index_t>(a[i]);
    return r;
}
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto to_multi_index(sequence<Is...>)
{
    return make_multi_index(Is...);
}

// Elementwise arithmetic of a multi_index with any container of the same size (a tuple of
// lengths, another multi_index). The left operand fixes the result type.
namespace detail {
template <typename Y, index_t N>
struct is_index_container_of_size : std::false_type
{};
template <typename... Ys, index_t N>
struct is_index_container_of_size<tuple<Ys...>, N> : std::bool_constant<sizeof...(Ys) == N>
{};
template <index_t N>
struct is_index_container_of_size<array<index_t, N>, N> : std::true_type
{};
template <typename Y, index_t N>
inline constexpr bool is_index_container_of_size_v =
    is_index_container_of_size<remove_cvref_t<Y>, N>::value;
} // namespace detail

template <index_t N, typename Y,
          typename = std::enable_if_t<detail::is_index_container_of_size_v<Y, N>>>
CK_TILE_HOST_DEVICE constexpr auto& operator+=(multi_index<N>& x, const Y& y)
{
    static_for<0, N, 1>{}([&](auto i) { x(i) += y[i]; });
    return x;
}
template <index_t N, typename Y,
          typename = std::enable_if_t<detail::is_index_container_of_size_v<Y, N>>>
CK_TILE_HOST_DEVICE constexpr auto& operator-=(multi_index<N>& x, const Y& y)
{
    static_for<0, N, 1>{}([&](auto i) { x(i) -= y[i]; });
    return x;
}
template <index_t N, typename Y,
          typename = std::enable_if_t<detail::is_index_container_of_size_v<Y, N>>>
CK_TILE_HOST_DEVICE constexpr auto operator+(const multi_index<N>& x, const Y& y)
{
    multi_index<N> r = x;
    r += y;
    return r;
}
template <index_t N, typename Y,
          typename = std::enable_if_t<detail::is_index_container_of_size_v<Y, N>>>
CK_TILE_HOST_DEVICE constexpr auto operator-(const multi_index<N>& x, const Y& y)
{
    multi_index<N> r = x;
    r -= y;
    return r;
}
template <index_t N, typename Y,
          typename = std::enable_if_t<detail::is_index_container_of_size_v<Y, N>>>
CK_TILE_HOST_DEVICE constexpr auto operator*(const multi_index<N>& x, const Y& y)
{
    multi_index<N> r = x;
    static_for<0, N, 1>{}([&](auto i) { r(i) *= y[i]; });
    return r;
}
/// Scales every element.
template <index_t N>
CK_TILE_HOST_DEVICE constexpr auto operator*(index_t a, const multi_index<N>& x)
{
    multi_index<N> r = x;
    for(index_t i = 0; i < N; ++i)
        r[i] *= a;
    return r;
}
template <index_t N>
CK_TILE_HOST_DEVICE constexpr auto operator*(const multi_index<N>& x, index_t a)
{
    return a * x;
}
template <index_t N>
CK_TILE_HOST_DEVICE constexpr auto operator-(const multi_index<N>& x)
{
    multi_index<N> r = x;
    for(index_t i = 0; i < N; ++i)
        r[i] = -r[i];
    return r;
}

/// Sum of x[i] * y[i]: the offset of a coordinate under strides.
template <index_t N, typename Y>
CK_TILE_HOST_DEVICE constexpr index_t dot(const multi_index<N>& x, const Y& y)
{
    index_t r = 0;
    static_for<0, N, 1>{}([&](auto i) { r += x[i] * y[i]; });
    return r;
}

} // namespace ck_tile
