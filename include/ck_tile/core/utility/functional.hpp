// SPDX-License-Identifier: MIT
// Compile-time loops. The body receives its induction variable as a `number<i>`, so inside
// the body `i` can index tuples and sequences and appear in template arguments.
// Each loop is one pack expansion (a fold over the comma operator), not a recursion: the
// compiler instantiates the body once per iteration and nothing else.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"

#include <utility>

namespace ck_tile {

struct identity
{
    template <typename T>
    CK_TILE_HOST_DEVICE constexpr T&& operator()(T&& x) const noexcept
    {
        return static_cast<T&&>(x);
    }
};

namespace detail {
template <index_t Begin, index_t Inc, typename F, index_t... Ks>
CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE constexpr void static_for_impl(F& f, sequence<Ks...>)
{
    (f(number<Begin + Ks * Inc>{}), ...);
}
} // namespace detail

/// Calls f(number<Begin>{}), f(number<Begin + Inc>{}), ... while the value is before End.
/// Inc may be negative; the loop is empty when Begin is already at or past End.
/// @post f is called exactly max(0, ceil((End - Begin) / Inc)) times, in order.
template <index_t Begin, index_t End, index_t Inc = 1>
struct static_for
{
    static_assert(Inc != 0, "static_for: zero increment");
    static constexpr index_t count = Inc > 0 ? (End > Begin ? (End - Begin + Inc - 1) / Inc : 0)
                                             : (Begin > End ? (Begin - End - Inc - 1) / (-Inc) : 0);

    template <typename F>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE constexpr void operator()(F&& f) const
    {
        detail::static_for_impl<Begin, Inc>(f, make_index_sequence<count>{});
    }
};

namespace detail {
// Multi-index of linear step `k` of a loop over `Lengths` whose dimension Orders[0] varies
// slowest and Orders[n-1] fastest; the result is in the original dimension order.
template <typename Lengths, typename Orders, index_t K>
struct ford_index_gen
{
    static constexpr index_t n = Lengths::size();
    CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
    {
        array<index_t, n> r{};
        index_t rest = K;
        for(index_t j = n - 1; j >= 0; --j)
        {
            const index_t d = Orders::at(j);
            r.elems[d]      = rest % Lengths::at(d);
            rest /= Lengths::at(d);
        }
        return r;
    }
};
template <typename Lengths, typename Orders, typename F, index_t... Ks>
CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE constexpr void static_ford_impl(F& f, sequence<Ks...>)
{
    (f(sequence_from_values_t<ford_index_gen<Lengths, Orders, Ks>>{}), ...);
}
} // namespace detail

/// Nested compile-time loop over the box [0, Lengths): calls f(sequence<i0, i1, ...>{}) for
/// every multi-index. `Orders` lists the dimensions from the outermost loop to the innermost
/// one (default: dimension 0 outermost, row-major).
/// @post f is called product(Lengths) times, each multi-index exactly once.
template <typename Lengths, typename Orders = make_index_sequence<Lengths::size()>>
struct static_ford
{
    static_assert(Lengths::size() == Orders::size(), "static_ford: orders of the wrong size");
    static_assert(is_valid_sequence_map<Orders>::value, "static_ford: orders not a permutation");

    template <typename F>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE constexpr void operator()(F&& f) const
    {
        detail::static_ford_impl<Lengths, Orders>(f, make_index_sequence<Lengths::product()>{});
    }
};

} // namespace ck_tile
