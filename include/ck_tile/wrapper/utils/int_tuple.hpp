// SPDX-License-Identifier: MIT
// Integer tuples: the shapes, strides and coordinates of the layout algebra.
//
// An int-tuple is an integer (a runtime `index_t` or a static `number<N>`) or a ck_tile::tuple
// of int-tuples, e.g. `make_tuple(number<4>{}, make_tuple(2, number<8>{}))`. Every function
// here keeps what is static static: the size of a tuple of number<>s is a number<>, so a
// layout built from static integers folds to constants however many operations deep it is.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/container_helper.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"
#include "ck_tile/wrapper/utils/require.hpp"

#include <cstdio>
#include <string>
#include <type_traits>

namespace ck_tile::wrapper {

// ---------------------------------------------------------------------------------------------
// Traits
// ---------------------------------------------------------------------------------------------
namespace detail {
template <typename T>
struct is_integer_impl : std::bool_constant<std::is_integral_v<T> && !std::is_same_v<T, bool>>
{};
template <auto v>
struct is_integer_impl<constant<v>> : is_integer_impl<decltype(v)>
{};

template <typename T>
struct is_int_tuple_impl : is_integer_impl<T>
{};
template <typename... Ts>
struct is_int_tuple_impl<tuple<Ts...>>
    : std::bool_constant<(is_int_tuple_impl<remove_cvref_t<Ts>>::value && ...)>
{};

template <typename T, index_t V>
struct is_static_eq : std::false_type
{};
template <auto v, index_t V>
struct is_static_eq<constant<v>, V>
    : std::bool_constant<is_integer_impl<decltype(v)>::value && v == V>
{};

// Same nesting of tuples, whatever the integers (shape and stride of one layout must be).
template <typename A, typename B>
struct is_congruent_impl : std::bool_constant<!is_tuple_v<A> && !is_tuple_v<B>>
{};
template <typename... As, typename... Bs>
struct is_congruent_impl<tuple<As...>, tuple<Bs...>>
{
    static constexpr bool value = [] {
        if constexpr(sizeof...(As) != sizeof...(Bs))
            return false;
        else
            return (is_congruent_impl<remove_cvref_t<As>, remove_cvref_t<Bs>>::value && ...);
    }();
};
} // namespace detail

/// A runtime integer or a number<>: one leaf of an int-tuple (bool is not an integer here).
template <typename T>
inline constexpr bool is_integer_v = detail::is_integer_impl<remove_cvref_t<T>>::value;

/// An integer or a tuple of int-tuples.
template <typename T>
inline constexpr bool is_int_tuple_v = detail::is_int_tuple_impl<remove_cvref_t<T>>::value;

/// True only for a static integer equal to V; a runtime integer is never "known to be V".
template <typename T, index_t V>
inline constexpr bool is_static_eq_v = detail::is_static_eq<remove_cvref_t<T>, V>::value;

/// Same tuple nesting (a shape and its strides).
template <typename A, typename B>
inline constexpr bool is_congruent_v =
    detail::is_congruent_impl<remove_cvref_t<A>, remove_cvref_t<B>>::value;

// ---------------------------------------------------------------------------------------------
// Static-preserving integer arithmetic and small tuple tools
// ---------------------------------------------------------------------------------------------
namespace detail {
/// ceil(a / b) for a >= 0, b > 0; static when both are.
template <typename A, typename B>
CK_TILE_HOST_DEVICE constexpr auto ceil_div(const A& a, const B& b)
{
    if constexpr(is_constant_v<A> && is_constant_v<B>)
        return number<(A::value + B::value - 1) / B::value>{};
    else if constexpr(is_static_eq_v<B, 1>)
        return a;
    else
        return static_cast<index_t>((static_cast<index_t>(a) + static_cast<index_t>(b) - 1) /
                                    static_cast<index_t>(b));
}

/// min(a, b); static when both are.
template <typename A, typename B>
CK_TILE_HOST_DEVICE constexpr auto int_min(const A& a, const B& b)
{
    if constexpr(is_constant_v<A> && is_constant_v<B>)
        return number<((A::value) < (B::value) ? A::value : B::value)>{};
    else
        return static_cast<index_t>(a) < static_cast<index_t>(b) ? static_cast<index_t>(a)
                                                                 : static_cast<index_t>(b);
}

/// max(a, b); static when both are.
template <typename A, typename B>
CK_TILE_HOST_DEVICE constexpr auto int_max(const A& a, const B& b)
{
    if constexpr(is_constant_v<A> && is_constant_v<B>)
        return number<((A::value) < (B::value) ? B::value : A::value)>{};
    else
        return static_cast<index_t>(a) < static_cast<index_t>(b) ? static_cast<index_t>(b)
                                                                 : static_cast<index_t>(a);
}

/// t with its last element replaced by x.
template <typename... Ts, typename X>
CK_TILE_HOST_DEVICE constexpr auto tuple_replace_back(const tuple<Ts...>& t, const X& x)
{
    constexpr index_t n = sizeof...(Ts);
    return generate_tuple(
        [&](auto i) {
            if constexpr(decltype(i)::value == n - 1)
                return x;
            else
                return t[i];
        },
        number<n>{});
}

/// t as a tuple: a tuple stays itself, an integer becomes a one-element tuple.
template <typename T>
CK_TILE_HOST_DEVICE constexpr auto wrap_tuple(const T& t)
{
    if constexpr(is_tuple_v<T>)
        return t;
    else
        return make_tuple(t);
}

template <index_t I, index_t... Is, typename T>
CK_TILE_HOST_DEVICE constexpr auto get_nested(const T& t)
{
    if constexpr(is_tuple_v<T>)
    {
        static_assert(I >= 0 && I < remove_cvref_t<T>::size(), "get: mode index out of range");
        if constexpr(sizeof...(Is) == 0)
            return t[number<I>{}];
        else
            return get_nested<Is...>(t[number<I>{}]);
    }
    else
    {
        // An integer is a rank-1 int-tuple: its only mode is itself.
        static_assert(I == 0, "get: an integer has exactly one mode");
        if constexpr(sizeof...(Is) == 0)
            return t;
        else
            return get_nested<Is...>(t);
    }
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr auto product(const T& t)
{
    if constexpr(is_tuple_v<T>)
        return unpack([](const auto&... xs) { return (number<1>{} * ... * product(xs)); }, t);
    else
        return t;
}

CK_TILE_HOST_DEVICE constexpr index_t max_of() { return 0; }
template <typename... Vs>
CK_TILE_HOST_DEVICE constexpr index_t max_of(index_t v, Vs... vs)
{
    const index_t r = max_of(vs...);
    return v < r ? r : v;
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr auto depth_of(const T& t)
{
    if constexpr(is_tuple_v<T>)
        return unpack(
            [](const auto&... xs) {
                return number<1 + max_of(decltype(depth_of(xs))::value...)>{};
            },
            t);
    else
        return number<0>{};
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr auto flatten_to_tuple(const T& t)
{
    if constexpr(is_tuple_v<T>)
        return unpack([](const auto&... xs) { return ck_tile::tuple_cat(flatten_to_tuple(xs)...); },
                      t);
    else
        return make_tuple(t);
}

template <typename... Cs, typename... Ss, typename... Ds, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto crd2idx_modes(const tuple<Cs...>& c, const tuple<Ss...>& s,
                                                 const tuple<Ds...>& d, sequence<Is...>);

template <index_t I, typename C, typename... Ss, typename... Ds>
CK_TILE_HOST_DEVICE constexpr auto crd2idx_split(const C& c, const tuple<Ss...>& s,
                                                 const tuple<Ds...>& d);
} // namespace detail

// ---------------------------------------------------------------------------------------------
// Size, rank, depth, flatten
// ---------------------------------------------------------------------------------------------

/// Product of the integers of the sub-tuple at Is... (of t itself without indices).
/// @post size(x) == x for an integer; size((a,(b,c))) == a*b*c; static if they all are.
template <index_t... Is, typename T>
requires is_int_tuple_v<T> CK_TILE_HOST_DEVICE constexpr auto size(const T& t)
{
    if constexpr(sizeof...(Is) == 0)
        return detail::product(t);
    else
        return detail::product(detail::get_nested<Is...>(t));
}

/// Number of top-level modes: 1 for an integer, n for an n-tuple. Always static.
template <index_t... Is, typename T>
requires is_int_tuple_v<T> CK_TILE_HOST_DEVICE constexpr auto rank(const T& t)
{
    if constexpr(sizeof...(Is) != 0)
        return wrapper::rank(detail::get_nested<Is...>(t));
    else if constexpr(is_tuple_v<T>)
        return number<T::size()>{};
    else
        return number<1>{};
}

/// Nesting depth: 0 for an integer, 1 + the deepest element for a tuple. Always static.
template <index_t... Is, typename T>
requires is_int_tuple_v<T> CK_TILE_HOST_DEVICE constexpr auto depth(const T& t)
{
    if constexpr(sizeof...(Is) != 0)
        return detail::depth_of(detail::get_nested<Is...>(t));
    else
        return detail::depth_of(t);
}

/// The integers of t in order, as a flat tuple; an integer stays an integer.
/// @post depth(flatten(t)) <= 1; size(flatten(t)) == size(t)
template <typename T>
requires is_int_tuple_v<T> CK_TILE_HOST_DEVICE constexpr auto flatten(const T& t)
{
    if constexpr(is_tuple_v<T>)
        return detail::flatten_to_tuple(t);
    else
        return t;
}

// ---------------------------------------------------------------------------------------------
// Comparisons
// ---------------------------------------------------------------------------------------------

/// Shape A is compatible with shape B when every coordinate of A is also a coordinate of B:
/// an integer A matches anything of size A; a tuple A needs a tuple B of equal rank whose
/// modes are compatible one by one.
/// @post compatible(a, a); compatible(size(b), b)
template <typename A, typename B>
requires(is_int_tuple_v<A>&& is_int_tuple_v<B>) CK_TILE_HOST_DEVICE
    constexpr bool compatible(const A& a, const B& b)
{
    if constexpr(!is_tuple_v<A>)
        return static_cast<index_t>(a) == static_cast<index_t>(wrapper::size(b));
    else if constexpr(!is_tuple_v<B>)
        return false;
    else if constexpr(A::size() != B::size())
        return false;
    else
        return unpack2(
            [](const auto&... xs) {
                constexpr index_t n = sizeof...(xs) / 2;
                const auto all      = make_tuple(xs...);
                bool ok             = true;
                static_for<0, n, 1>{}([&](auto i) {
                    ok = ok && wrapper::compatible(all[i], all[number<n + decltype(i)::value>{}]);
                });
                return ok;
            },
            a, b);
}

/// Same nesting and the same values, static or not (number<2> equals a runtime 2).
template <typename A, typename B>
requires(is_int_tuple_v<A>&& is_int_tuple_v<B>) CK_TILE_HOST_DEVICE
    constexpr bool int_tuple_equal(const A& a, const B& b)
{
    if constexpr(!is_congruent_v<A, B>)
        return false;
    else if constexpr(!is_tuple_v<A>)
        return static_cast<index_t>(a) == static_cast<index_t>(b);
    else
    {
        bool ok = true;
        static_for<0, A::size(), 1>{}([&](auto i) { ok = ok && int_tuple_equal(a[i], b[i]); });
        return ok;
    }
}

// ---------------------------------------------------------------------------------------------
// Coordinates
// ---------------------------------------------------------------------------------------------

/// Index of a coordinate under (shape, stride). The coordinate may be natural (congruent with
/// the shape), 1-D (an integer), or anything in between: an integer met where the shape has a
/// tuple is split over that tuple's modes colexicographically (first mode fastest), and the
/// last mode takes what is left, so a coordinate past the end extends the last mode.
/// @post crd2idx(c, s, d) == sum_i c_i * d_i for the natural coordinate (c_i) of c
template <typename Coord, typename Shape, typename Stride>
CK_TILE_HOST_DEVICE constexpr auto crd2idx(const Coord& c, const Shape& s, const Stride& d)
{
    static_assert(is_congruent_v<Shape, Stride>, "crd2idx: shape and stride differ in nesting");
    if constexpr(is_tuple_v<Coord>)
    {
        static_assert(is_tuple_v<Shape>,
                      "crd2idx: a tuple coordinate where the shape has an integer");
        static_assert(Coord::size() == Shape::size(),
                      "crd2idx: coordinate and shape differ in rank");
        return detail::crd2idx_modes(c, s, d, make_index_sequence<Shape::size()>{});
    }
    else if constexpr(is_tuple_v<Shape>)
        return detail::crd2idx_split<0>(c, s, d);
    else
        return c * d;
}

namespace detail {
template <typename... Cs, typename... Ss, typename... Ds, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto crd2idx_modes(const tuple<Cs...>& c, const tuple<Ss...>& s,
                                                 const tuple<Ds...>& d, sequence<Is...>)
{
    return (number<0>{} + ... +
            wrapper::crd2idx(c[number<Is>{}], s[number<Is>{}], d[number<Is>{}]));
}

template <index_t I, typename C, typename... Ss, typename... Ds>
CK_TILE_HOST_DEVICE constexpr auto crd2idx_split(const C& c, const tuple<Ss...>& s,
                                                 const tuple<Ds...>& d)
{
    constexpr index_t n = sizeof...(Ss);
    if constexpr(n == 0)
        return number<0>{};
    else if constexpr(I == n - 1)
        return wrapper::crd2idx(c, s[number<I>{}], d[number<I>{}]);
    else
    {
        const auto m = wrapper::size(s[number<I>{}]);
        return wrapper::crd2idx(c % m, s[number<I>{}], d[number<I>{}]) +
               crd2idx_split<I + 1>(c / m, s, d);
    }
}

template <index_t I, typename C, typename... Ss>
CK_TILE_HOST_DEVICE constexpr auto idx2crd_split(const C& c, const tuple<Ss...>& s);
} // namespace detail

/// The natural coordinate (congruent with the shape) of a 1-D or partial coordinate.
/// @post crd2idx(idx2crd(c, s), s, d) == crd2idx(c, s, d) for every stride d
template <typename Coord, typename Shape>
CK_TILE_HOST_DEVICE constexpr auto idx2crd(const Coord& c, const Shape& s)
{
    if constexpr(is_tuple_v<Coord>)
    {
        static_assert(is_tuple_v<Shape> && Coord::size() == Shape::size(),
                      "idx2crd: coordinate and shape differ in rank");
        return generate_tuple([&](auto i) { return wrapper::idx2crd(c[i], s[i]); },
                              number<Shape::size()>{});
    }
    else if constexpr(is_tuple_v<Shape>)
        return detail::idx2crd_split<0>(c, s);
    else
        return c;
}

namespace detail {
template <index_t I, typename C, typename... Ss>
CK_TILE_HOST_DEVICE constexpr auto idx2crd_split(const C& c, const tuple<Ss...>& s)
{
    constexpr index_t n = sizeof...(Ss);
    if constexpr(n == 0)
        return tuple<>{};
    else if constexpr(I == n - 1)
        return make_tuple(wrapper::idx2crd(c, s[number<I>{}]));
    else
    {
        const auto m = wrapper::size(s[number<I>{}]);
        return ck_tile::tuple_cat(make_tuple(wrapper::idx2crd(c % m, s[number<I>{}])),
                                  idx2crd_split<I + 1>(c / m, s));
    }
}
} // namespace detail

// ---------------------------------------------------------------------------------------------
// shape_div / shape_mod: the two halves of composition, on shapes
// ---------------------------------------------------------------------------------------------
namespace detail {
// Returns (result, what is left of the divisor), walking the integers left to right.
template <typename S, typename N>
CK_TILE_HOST_DEVICE constexpr auto shape_div_fold(const S& s, const N& n)
{
    if constexpr(is_tuple_v<S>)
    {
        if constexpr(S::size() == 0)
            return make_tuple(tuple<>{}, n);
        else
        {
            const auto first = shape_div_fold(s[number<0>{}], n);
            const auto rest  = shape_div_fold(
                 generate_tuple([&](auto i) { return s[number<decltype(i)::value + 1>{}]; },
                               number<S::size() - 1>{}),
                 first[number<1>{}]);
            return make_tuple(ck_tile::tuple_cat(make_tuple(first[number<0>{}]), rest[number<0>{}]),
                              rest[number<1>{}]);
        }
    }
    else
    {
        CK_TILE_WRAPPER_REQUIRE(s % n == number<0>{} || n % s == number<0>{},
                                "shape_div: divisibility condition violated (each shape and the "
                                "divisor must divide one another)");
        return make_tuple(ceil_div(s, n), ceil_div(n, s));
    }
}

template <typename S, typename N>
CK_TILE_HOST_DEVICE constexpr auto shape_mod_fold(const S& s, const N& n)
{
    if constexpr(is_tuple_v<S>)
    {
        if constexpr(S::size() == 0)
            return make_tuple(tuple<>{}, n);
        else
        {
            const auto first = shape_mod_fold(s[number<0>{}], n);
            const auto rest  = shape_mod_fold(
                 generate_tuple([&](auto i) { return s[number<decltype(i)::value + 1>{}]; },
                               number<S::size() - 1>{}),
                 first[number<1>{}]);
            return make_tuple(ck_tile::tuple_cat(make_tuple(first[number<0>{}]), rest[number<0>{}]),
                              rest[number<1>{}]);
        }
    }
    else
    {
        CK_TILE_WRAPPER_REQUIRE(s % n == number<0>{} || n % s == number<0>{},
                                "shape_mod: divisibility condition violated (each shape and the "
                                "modulus must divide one another)");
        return make_tuple(int_min(s, n), ceil_div(n, s));
    }
}
} // namespace detail

/// "Divides out" the first n elements: every n-th element of the shape, left to right.
/// @post shape_div((6,2), 3) == (2,2); shape_div((3,6,2,8), 9) == (1,2,2,8)
template <typename S, typename N>
requires(is_int_tuple_v<S>&& is_integer_v<N>) CK_TILE_HOST_DEVICE
    constexpr auto shape_div(const S& s, const N& n)
{
    return detail::shape_div_fold(s, n)[number<0>{}];
}

/// "Keeps" the first n elements of the shape, left to right.
/// @post shape_mod((6,2), 3) == (3,1); shape_mod((1,2,2,8), 16) == (1,2,2,4)
template <typename S, typename N>
requires(is_int_tuple_v<S>&& is_integer_v<N>) CK_TILE_HOST_DEVICE
    constexpr auto shape_mod(const S& s, const N& n)
{
    return detail::shape_mod_fold(s, n)[number<0>{}];
}

// ---------------------------------------------------------------------------------------------
// Printing: CuTe notation, `_4` for a static 4 and `4` for a runtime one
// ---------------------------------------------------------------------------------------------

/// "(_4,(2,_8))" for make_tuple(number<4>{}, make_tuple(2, number<8>{})).
template <typename T>
requires is_int_tuple_v<T> CK_TILE_HOST std::string to_string(const T& t)
{
    if constexpr(is_static_v<T> && is_tuple_v<T>)
    {
        // Everything is in the type; a fresh value avoids reading a copied empty object
        // (which GCC's -Wmaybe-uninitialized flags).
        (void)t;
        std::string r = "(";
        static_for<0, T::size(), 1>{}([&](auto i) {
            if constexpr(decltype(i)::value > 0)
                r += ",";
            r += wrapper::to_string(remove_cvref_t<decltype(T{}[i])>{});
        });
        return r + ")";
    }
    else if constexpr(is_tuple_v<T>)
    {
        std::string r = "(";
        static_for<0, T::size(), 1>{}([&](auto i) {
            if constexpr(decltype(i)::value > 0)
                r += ",";
            r += wrapper::to_string(t[i]);
        });
        return r + ")";
    }
    else if constexpr(is_constant_v<T>)
        return "_" + std::to_string(static_cast<long long>(T::value));
    else
        return std::to_string(static_cast<long long>(t));
}

/// The same text through printf, for device code.
template <typename T>
requires is_int_tuple_v<T> CK_TILE_HOST_DEVICE void print_int_tuple(const T& t)
{
    if constexpr(is_tuple_v<T>)
    {
        printf("(");
        static_for<0, T::size(), 1>{}([&](auto i) {
            if constexpr(decltype(i)::value > 0)
                printf(",");
            print_int_tuple(t[i]);
        });
        printf(")");
    }
    else if constexpr(is_constant_v<T>)
        printf("_%lld", static_cast<long long>(T::value));
    else
        printf("%lld", static_cast<long long>(t));
}

} // namespace ck_tile::wrapper
