// SPDX-License-Identifier: MIT
// Sweeps: visit every element a thread holds of a distributed tile, fully unrolled.
//
// A tile's distributed spans (one per X dimension) list the Y lengths of that dimension; a
// sweep is the nested loop over them, X0 outermost, each span's Ys in H order (outer H factor
// first). Every index handed to the body is a type, so `tensor(idx)` is a register, never a
// computed address.
//
// The body of sweep_tile may take
//   f(i0, i1, ...)   one tile_distributed_index per X dimension;
//   f(idx)           one tuple of those (the seeds' form; `tensor(idx)` takes it);
//   f(idx, v)        the tuple and a reference to the element (the seeds' in-place form).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <type_traits>

namespace ck_tile {

/// Calls f(tile_distributed_index<...>{}) for every position of a span, last entry fastest.
/// @post f is called product(span lengths) times (once for an empty span), each position once.
template <typename TileDistributedSpan, typename F>
CK_TILE_HOST_DEVICE constexpr void sweep_tile_span(TileDistributedSpan, const F& f)
{
    using lengths = typename TileDistributedSpan::Impl;
    static_ford<lengths>{}(
        [&](auto dstr_idx_impl) { f(make_tile_distributed_index(dstr_idx_impl)); });
}

namespace detail {
// Nested sweep over spans X.. of Spans, carrying the indices of the outer spans.
template <index_t X, typename Spans, typename F, typename... Idx>
CK_TILE_HOST_DEVICE constexpr void sweep_spans(const F& f, Idx... idx)
{
    if constexpr(X == Spans::size())
        f(idx...);
    else
        sweep_tile_span(remove_cvref_t<decltype(Spans{}[number<X>{}])>{},
                        [&](auto i) { sweep_spans<X + 1, Spans>(f, idx..., i); });
}
} // namespace detail

/// Calls f once per element of a DistributedTensor type, in sweep order, with one
/// tile_distributed_index per X dimension: f(i0, i1, ...).
/// @post f is called get_num_of_element_per_thread() times, each distributed index once.
template <typename DistributedTensor, typename F>
CK_TILE_HOST_DEVICE constexpr void sweep_tile(const F& f)
{
    using spans = remove_cvref_t<decltype(DistributedTensor::get_distributed_spans())>;
    detail::sweep_spans<0, spans>(f);
}

/// Calls f once per element of `tensor`, in sweep order, in whichever of the forms in the
/// file comment f accepts (checked in that order).
/// @post f is called get_num_of_element_per_thread() times, each element once.
template <typename DistributedTensor, typename F>
CK_TILE_HOST_DEVICE constexpr void sweep_tile(DistributedTensor&& tensor, const F& f)
{
    using tensor_t = remove_cvref_t<DistributedTensor>;
    static_assert(is_static_distributed_tensor_v<tensor_t>,
                  "sweep_tile: expects a static_distributed_tensor");
    using spans = remove_cvref_t<decltype(tensor_t::get_distributed_spans())>;
    detail::sweep_spans<0, spans>([&](auto... idx) {
        using tuple_idx = tuple<decltype(idx)...>;
        if constexpr(std::is_invocable_v<const F&, decltype(idx)...>)
            f(idx...);
        else if constexpr(std::is_invocable_v<const F&, tuple_idx, decltype(tensor(tuple_idx{}))>)
            f(tuple_idx{}, tensor(tuple_idx{}));
        else
        {
            static_assert(std::is_invocable_v<const F&, tuple_idx>,
                          "sweep_tile: the body must take (i0, i1, ...), (idx) or (idx, value&)");
            f(tuple_idx{});
        }
    });
}

} // namespace ck_tile
