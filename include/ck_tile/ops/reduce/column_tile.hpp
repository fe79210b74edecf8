// SPDX-License-Identifier: MIT
// The tile shape of reductions over a non-contiguous axis (column sums and their batched
// form, outer x reduced x inner with the inner axis contiguous): a block reads a TileR x TileI
// window, TileR rows of the reduced axis by TileI contiguous inner elements, and walks down
// the reduced axis.
//
// Why this distribution: InnerLanes lanes of a warp read consecutive 16-byte vectors of one
// row (InnerLanes * 16 bytes contiguous, whole 32-byte sectors), the warp's other lanes and the
// block's other warps take further rows, so the block keeps RepeatR * BlockSize vectors in
// flight per step while each thread folds Vector independent columns. The partial results of
// the ThreadsR threads that share a column meet once, in shared memory, at the end.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"
#include "ck_tile/core/utility/functional.hpp"

namespace ck_tile {

/// @tparam VectorBytes 16 for the fast instances (the inner length, the reduced stride and
///         the outer stride multiples of Vector, x 16-byte aligned), or the element size.
template <typename XDataType, index_t Warps_, index_t InnerLanes_, index_t RepeatR_,
          index_t VectorBytes>
struct column_tile_shape
{
    static constexpr index_t Warps      = Warps_;
    static constexpr index_t InnerLanes = InnerLanes_;
    static constexpr index_t RepeatR    = RepeatR_;
    static constexpr index_t Warp       = get_warp_size();
    static_assert(Warp % InnerLanes == 0, "column_tile_shape: InnerLanes divides the warp");
    static_assert(VectorBytes % static_cast<index_t>(sizeof(XDataType)) == 0,
                  "column_tile_shape: the vector is a whole number of elements");
    static constexpr index_t Vector    = VectorBytes / static_cast<index_t>(sizeof(XDataType));
    static constexpr index_t LanesR    = Warp / InnerLanes;
    static constexpr index_t ThreadsR  = Warps * LanesR;
    static constexpr index_t BlockSize = Warps * Warp;
    static constexpr index_t TileR     = RepeatR * ThreadsR;
    static constexpr index_t TileI     = InnerLanes * Vector;
    static_assert(BlockSize <= 1024, "column_tile_shape: at most 1024 threads per block");

    // X0: reduced rows = RepeatR x Warps x LanesR; X1: inner = InnerLanes x Vector.
    // P0 (warp id) -> warp's rows; P1 (lane) -> (row in the warp, inner lane), inner fastest;
    // Y -> (repeat, element of the vector).
    using encoding = tile_distribution_encoding<
        sequence<>, tuple<sequence<RepeatR, Warps, LanesR>, sequence<InnerLanes, Vector>>,
        tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>,
        sequence<0, 1>>;

    CK_TILE_HOST_DEVICE static constexpr auto make_distribution()
    {
        return make_static_tile_distribution(encoding{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto lengths()
    {
        return make_tuple(number<TileR>{}, number<TileI>{});
    }

    /// Calls f(number<buffer index>, row offset from the thread's first row, element v of
    /// its vector) for each element the thread holds of one window.
    template <typename Tensor, typename F>
    CK_TILE_HOST_DEVICE static constexpr void for_each_element(const F& f)
    {
        static_for<0, RepeatR, 1>{}([&](auto r) {
            static_for<0, Vector, 1>{}([&](auto v) {
                constexpr index_t i = Tensor::calculate_offset_from_y(
                    make_multi_index(decltype(r)::value, decltype(v)::value));
                f(number<i>{}, decltype(r)::value * ThreadsR, decltype(v)::value);
            });
        });
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// The thread's first row in a window and its first inner element.
    CK_TILE_DEVICE static index_t first_row()
    {
        return get_warp_id() * LanesR + get_lane_id() / InnerLanes;
    }
    CK_TILE_DEVICE static index_t first_inner() { return (get_lane_id() % InnerLanes) * Vector; }
#endif
};

} // namespace ck_tile
