// SPDX-License-Identifier: MIT
// Algorithms over tuples and arrays: reorder, subset, concatenation, reductions and scans.
//
// On a tuple every element keeps its own type, so a scan over static lengths yields static
// strides and a scan over mixed lengths yields a mix. On an array everything is a runtime
// value of the array's element type.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/functional.hpp"

namespace ck_tile {

// ---- push / concat ----
template <typename... Ts, typename X>
CK_TILE_HOST_DEVICE constexpr auto container_push_back(const tuple<Ts...>& t, const X& x)
{
    return unpack([&](const auto&... ts) { return make_tuple(ts..., x); }, t);
}
template <typename... Ts, typename X>
CK_TILE_HOST_DEVICE constexpr auto container_push_front(const tuple<Ts...>& t, const X& x)
{
    return unpack([&](const auto&... ts) { return make_tuple(x, ts...); }, t);
}
template <typename T, index_t N>
CK_TILE_HOST_DEVICE constexpr auto container_push_back(const array<T, N>& a, const T& x)
{
    array<T, N + 1> r{};
    for(index_t i = 0; i < N; ++i)
        r[i] = a[i];
    r[N] = x;
    return r;
}
template <typename T, index_t N>
CK_TILE_HOST_DEVICE constexpr auto container_push_front(const array<T, N>& a, const T& x)
{
    array<T, N + 1> r{};
    r[0] = x;
    for(index_t i = 0; i < N; ++i)
        r[i + 1] = a[i];
    return r;
}

/// Concatenation of tuples (tuple_cat), of arrays, or of sequences.
template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto container_concat(const tuple<Xs...>& x)
{
    return x;
}
template <typename... Xs, typename... Ys, typename... Rest>
CK_TILE_HOST_DEVICE constexpr auto container_concat(const tuple<Xs...>& x, const tuple<Ys...>& y,
                                                    const Rest&... rest)
{
    return container_concat(unpack2([](const auto&... zs) { return make_tuple(zs...); }, x, y),
                            rest...);
}
template <typename T, index_t N>
CK_TILE_HOST_DEVICE constexpr auto container_concat(const array<T, N>& x)
{
    return x;
}
template <typename T, index_t N, index_t M, typename... Rest>
CK_TILE_HOST_DEVICE constexpr auto container_concat(const array<T, N>& x, const array<T, M>& y,
                                                    const Rest&... rest)
{
    array<T, N + M> r{};
    for(index_t i = 0; i < N; ++i)
        r[i] = x[i];
    for(index_t i = 0; i < M; ++i)
        r[N + i] = y[i];
    return container_concat(r, rest...);
}
template <index_t... Xs, typename... Rest>
CK_TILE_HOST_DEVICE constexpr auto container_concat(sequence<Xs...>, Rest...)
{
    return merge_sequences(sequence<Xs...>{}, Rest{}...);
}
template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto tuple_cat(const Xs&... xs)
{
    if constexpr(sizeof...(Xs) == 0)
        return tuple<>{};
    else
        return container_concat(xs...);
}

// ---- subsets and reorders ----

/// Elements at the positions `Is`, in that order; a tuple stays a tuple, an array an array.
/// @post get_container_subset(c, sequence<Is...>{})[k] == c[Is_k].
template <typename... Ts, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto get_container_subset(const tuple<Ts...>& t, sequence<Is...>)
{
    return make_tuple(t[number<Is>{}]...);
}
template <typename T, index_t N, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto get_container_subset(const array<T, N>& a, sequence<Is...>)
{
    return array<T, sizeof...(Is)>{a[Is]...};
}

/// Writes `sub[k]` to `c[Is_k]`.
template <typename Container, typename Sub, index_t... Is>
CK_TILE_HOST_DEVICE constexpr void set_container_subset(Container& c, sequence<Is...>,
                                                        const Sub& sub)
{
    static_assert(Sub::size() == sizeof...(Is), "subset of the wrong size");
    static_for<0, sizeof...(Is), 1>{}(
        [&](auto k) { c(number<sequence<Is...>::at(k)>{}) = sub[k]; });
}

/// New position k takes old position new2old[k].
template <typename Container, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto container_reorder_given_new2old(const Container& c,
                                                                   sequence<Is...> new2old)
{
    static_assert(sizeof...(Is) == Container::size(), "reorder map of the wrong size");
    static_assert(is_valid_sequence_map<sequence<Is...>>::value, "reorder map not a permutation");
    return get_container_subset(c, new2old);
}
/// Old position k goes to new position old2new[k].
template <typename Container, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto container_reorder_given_old2new(const Container& c,
                                                                   sequence<Is...>)
{
    return container_reorder_given_new2old(c,
                                           typename sequence_map_inverse<sequence<Is...>>::type{});
}

// ---- reductions and scans ----
namespace detail {
// f(... f(f(acc, c[Begin]), c[Begin+1]) ..., c[End-1])
template <index_t Begin, index_t End, typename C, typename F, typename Acc>
CK_TILE_HOST_DEVICE constexpr auto fold_left(const C& c, const F& f, const Acc& acc)
{
    if constexpr(Begin >= End)
        return acc;
    else
        return fold_left<Begin + 1, End>(c, f, f(acc, c[number<Begin>{}]));
}
// f(c[Begin], f(c[Begin+1], ... f(c[End-1], init)))
template <index_t Begin, index_t End, typename C, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto fold_right(const C& c, const F& f, const Init& init)
{
    if constexpr(Begin >= End)
        return init;
    else
        return f(c[number<Begin>{}], fold_right<Begin + 1, End>(c, f, init));
}
} // namespace detail

/// Left fold of all elements starting from `init`.
/// @post container_reduce(make_tuple(2, 3, 4), multiplies{}, 1) == 24; with number<>s in and
///       a number<> init the result is a number<>.
template <typename C, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_reduce(const C& c, F f, Init init)
{
    return detail::fold_left<0, C::size()>(c, f, init);
}

/// r[i] = f(c[i], f(c[i+1], ... f(c[n-1], init))).
template <typename... Ts, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_reverse_inclusive_scan(const tuple<Ts...>& c, F f,
                                                                    Init init)
{
    constexpr index_t n = sizeof...(Ts);
    return generate_tuple([&](auto i) { return detail::fold_right<i, n>(c, f, init); },
                          number<n>{});
}
/// r[n-1] = init, r[i] = f(c[i+1], r[i+1]): packed strides from lengths.
/// @post container_reverse_exclusive_scan(make_tuple(2, 3, 4), multiplies{}, number<1>{})
///       == (12, 4, 1).
template <typename... Ts, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_reverse_exclusive_scan(const tuple<Ts...>& c, F f,
                                                                    Init init)
{
    constexpr index_t n = sizeof...(Ts);
    return generate_tuple([&](auto i) { return detail::fold_right<i + 1, n>(c, f, init); },
                          number<n>{});
}
/// r[i] = f(... f(init, c[0]) ..., c[i]).
template <typename... Ts, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_inclusive_scan(const tuple<Ts...>& c, F f, Init init)
{
    constexpr index_t n = sizeof...(Ts);
    return generate_tuple([&](auto i) { return detail::fold_left<0, i + 1>(c, f, init); },
                          number<n>{});
}
/// r[0] = init, r[i] = f(r[i-1], c[i-1]).
template <typename... Ts, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_exclusive_scan(const tuple<Ts...>& c, F f, Init init)
{
    constexpr index_t n = sizeof...(Ts);
    return generate_tuple([&](auto i) { return detail::fold_left<0, i>(c, f, init); }, number<n>{});
}

template <typename T, index_t N, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_reverse_inclusive_scan(const array<T, N>& c, F f,
                                                                    Init init)
{
    array<T, N> r{};
    T acc = init;
    for(index_t i = N - 1; i >= 0; --i)
    {
        acc  = f(c[i], acc);
        r[i] = acc;
    }
    return r;
}
template <typename T, index_t N, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_reverse_exclusive_scan(const array<T, N>& c, F f,
                                                                    Init init)
{
    array<T, N> r{};
    T acc = init;
    for(index_t i = N - 1; i >= 0; --i)
    {
        r[i] = acc;
        acc  = f(c[i], acc);
    }
    return r;
}
template <typename T, index_t N, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_inclusive_scan(const array<T, N>& c, F f, Init init)
{
    array<T, N> r{};
    T acc = init;
    for(index_t i = 0; i < N; ++i)
    {
        acc  = f(acc, c[i]);
        r[i] = acc;
    }
    return r;
}
template <typename T, index_t N, typename F, typename Init>
CK_TILE_HOST_DEVICE constexpr auto container_exclusive_scan(const array<T, N>& c, F f, Init init)
{
    array<T, N> r{};
    T acc = init;
    for(index_t i = 0; i < N; ++i)
    {
        r[i] = acc;
        acc  = f(acc, c[i]);
    }
    return r;
}

} // namespace ck_tile
