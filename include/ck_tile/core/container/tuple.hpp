// SPDX-License-Identifier: MIT
// `tuple<Ts...>`: a heterogeneous aggregate for host and device, the container of lengths,
// strides and transforms. A tuple of number<>s is static: all its values live in its type.
//
// Access follows ck_tile: `t[number<I>{}]` reads, `t(number<I>{})` writes, `t.at(number<I>{})`
// does either, `get<I>(t)` works as for std::tuple (and so do structured bindings).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <tuple> // std::tuple_size / std::tuple_element customisation points only
#include <utility>

namespace ck_tile {

template <typename... Ts>
struct tuple;

namespace detail {
template <index_t I, typename T>
struct tuple_leaf
{
    T value;

    CK_TILE_HOST_DEVICE constexpr tuple_leaf() : value{} {}
    template <typename U>
    CK_TILE_HOST_DEVICE constexpr explicit tuple_leaf(U&& u) : value(static_cast<U&&>(u))
    {}
};

template <index_t I, typename T>
CK_TILE_HOST_DEVICE constexpr T& leaf_get(tuple_leaf<I, T>& l)
{
    return l.value;
}
template <index_t I, typename T>
CK_TILE_HOST_DEVICE constexpr const T& leaf_get(const tuple_leaf<I, T>& l)
{
    return l.value;
}

template <typename Ids, typename... Ts>
struct tuple_base;
template <index_t... Is, typename... Ts>
struct tuple_base<sequence<Is...>, Ts...> : tuple_leaf<Is, Ts>...
{
    CK_TILE_HOST_DEVICE constexpr tuple_base() = default;
    template <typename... Us>
    CK_TILE_HOST_DEVICE constexpr explicit tuple_base(int, Us&&... us)
        : tuple_leaf<Is, Ts>(static_cast<Us&&>(us))...
    {}
};

template <typename T>
struct is_tuple : std::false_type
{};
template <typename... Ts>
struct is_tuple<tuple<Ts...>> : std::true_type
{};
} // namespace detail

template <typename T>
inline constexpr bool is_tuple_v = detail::is_tuple<remove_cvref_t<T>>::value;

template <typename... Ts>
struct tuple : detail::tuple_base<make_index_sequence<sizeof...(Ts)>, Ts...>
{
    using base = detail::tuple_base<make_index_sequence<sizeof...(Ts)>, Ts...>;

    CK_TILE_HOST_DEVICE constexpr tuple() = default;

    // One value per element. The single-element case must not hijack copy construction.
    template <typename... Us,
              typename = std::enable_if_t<sizeof...(Us) == sizeof...(Ts) && (sizeof...(Ts) >= 1) &&
                                          (std::is_constructible_v<Ts, Us&&> && ...) &&
                                          !(sizeof...(Us) == 1 &&
                                            (std::is_same_v<remove_cvref_t<Us>, tuple> || ...))>>
    CK_TILE_HOST_DEVICE constexpr tuple(Us&&... us) : base(0, static_cast<Us&&>(us)...)
    {}

    /// Elementwise assignment from a tuple of the same size; with `tie` this writes through.
    template <typename... Us, typename = std::enable_if_t<sizeof...(Us) == sizeof...(Ts) &&
                                                          !std::is_same_v<tuple<Us...>, tuple>>>
    CK_TILE_HOST_DEVICE constexpr tuple& operator=(const tuple<Us...>& o)
    {
        static_for<0, sizeof...(Ts), 1>{}([&](auto i) { get<i>() = o.template get<i>(); });
        return *this;
    }

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return sizeof...(Ts); }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return (is_static_v<Ts> && ...); }

    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) get() const
    {
        static_assert(I >= 0 && I < size(), "tuple index out of range");
        return detail::leaf_get<I>(*this);
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) get()
    {
        static_assert(I >= 0 && I < size(), "tuple index out of range");
        return detail::leaf_get<I>(*this);
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) get(number<I>) const
    {
        return get<I>();
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) get(number<I>)
    {
        return get<I>();
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) at(number<I>) const
    {
        return get<I>();
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) at(number<I>)
    {
        return get<I>();
    }
    /// Read access.
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) operator[](number<I>) const
    {
        return get<I>();
    }
    /// Write access: `t(number<I>{}) = v`.
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) operator()(number<I>)
    {
        return get<I>();
    }
};

template <typename... Ts>
tuple(Ts...) -> tuple<Ts...>;

template <index_t I, typename... Ts>
CK_TILE_HOST_DEVICE constexpr decltype(auto) get(const tuple<Ts...>& t)
{
    return t.template get<I>();
}
template <index_t I, typename... Ts>
CK_TILE_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...>& t)
{
    return t.template get<I>();
}
template <index_t I, typename... Ts>
CK_TILE_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...>&& t)
{
    return static_cast<std::tuple_element_t<I, std::tuple<Ts...>>&&>(t.template get<I>());
}

/// A tuple holding copies of the arguments.
template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto make_tuple(Xs&&... xs)
{
    return tuple<remove_cvref_t<Xs>...>(static_cast<Xs&&>(xs)...);
}

/// A tuple of references, for unpacking results: `tie(a, b) = make_tuple(1, 2)`.
template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto tie(Xs&... xs)
{
    return tuple<Xs&...>(xs...);
}

namespace detail {
template <typename F, typename Tuple, index_t... Is>
CK_TILE_HOST_DEVICE constexpr decltype(auto) unpack_impl(F&& f, Tuple&& t, sequence<Is...>)
{
    return static_cast<F&&>(f)(static_cast<Tuple&&>(t).template get<Is>()...);
}
template <typename F, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto generate_tuple_impl(F& f, sequence<Is...>)
{
    return make_tuple(f(number<Is>{})...);
}
} // namespace detail

/// f(t[0], t[1], ..., t[n-1]).
template <typename F, typename Tuple>
CK_TILE_HOST_DEVICE constexpr decltype(auto) unpack(F&& f, Tuple&& t)
{
    return detail::unpack_impl(static_cast<F&&>(f), static_cast<Tuple&&>(t),
                               make_index_sequence<remove_cvref_t<Tuple>::size()>{});
}

/// f(a[0], ..., a[n-1], b[0], ..., b[m-1]).
template <typename F, typename A, typename B>
CK_TILE_HOST_DEVICE constexpr decltype(auto) unpack2(F&& f, A&& a, B&& b)
{
    return unpack(
        [&](auto&&... as) -> decltype(auto) {
            return unpack([&](auto&&... bs) -> decltype(auto) { return f(as..., bs...); }, b);
        },
        a);
}

/// make_tuple(f(number<0>{}), ..., f(number<N-1>{})).
template <typename F, index_t N>
CK_TILE_HOST_DEVICE constexpr auto generate_tuple(F&& f, number<N>)
{
    return detail::generate_tuple_impl(f, make_index_sequence<N>{});
}

/// sequence<f(number<0>{}), ...>: f must return number<>s.
template <typename F, index_t N>
CK_TILE_HOST_DEVICE constexpr auto generate_sequence_v2(F&& f, number<N>)
{
    return unpack([](auto... xs) { return sequence<decltype(xs)::value...>{}; },
                  generate_tuple(f, number<N>{}));
}

/// make_tuple(f(a[i], b[i], ...)...) over equally long tuples.
template <typename F, typename X, typename... Ys>
CK_TILE_HOST_DEVICE constexpr auto transform_tuples(F&& f, const X& x, const Ys&... ys)
{
    static_assert(((X::size() == Ys::size()) && ...), "transform_tuples: size mismatch");
    return generate_tuple([&](auto i) { return f(x[i], ys[i]...); }, number<X::size()>{});
}

/// Reversed tuple.
template <typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto tuple_reverse(const tuple<Ts...>& t)
{
    constexpr index_t n = sizeof...(Ts);
    return generate_tuple([&](auto i) { return t[number<n - 1 - i>{}]; }, number<n>{});
}

/// The tuple of number<>s with the values of a sequence.
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto to_tuple(sequence<Is...>)
{
    return make_tuple(number<Is>{}...);
}

/// The sequence with the values of a tuple of number<>s.
template <auto... Is>
CK_TILE_HOST_DEVICE constexpr auto to_sequence(tuple<constant<Is>...>)
{
    return sequence<static_cast<index_t>(Is)...>{};
}

/// Equality of two tuples of the same size, elementwise with ==.
template <typename... Xs, typename... Ys>
CK_TILE_HOST_DEVICE constexpr bool operator==(const tuple<Xs...>& a, const tuple<Ys...>& b)
{
    if constexpr(sizeof...(Xs) != sizeof...(Ys))
        return false;
    else
    {
        bool r = true;
        static_for<0, sizeof...(Xs), 1>{}([&](auto i) { r = r && (a[i] == b[i]); });
        return r;
    }
}
template <typename... Xs, typename... Ys>
CK_TILE_HOST_DEVICE constexpr bool operator!=(const tuple<Xs...>& a, const tuple<Ys...>& b)
{
    return !(a == b);
}

} // namespace ck_tile

// Structured bindings: `auto [m, n] = lengths;`
template <typename... Ts>
struct std::tuple_size<ck_tile::tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)>
{};
template <std::size_t I, typename... Ts>
struct std::tuple_element<I, ck_tile::tuple<Ts...>>
{
    using type = std::tuple_element_t<I, std::tuple<Ts...>>;
};
