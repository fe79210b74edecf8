// SPDX-License-Identifier: MIT
// The tile shape shared by the row-wise memory-bound kernels (normalization, softmax,
// reduction over the last axis): a block owns RowsPerBlock rows, each row is swept by
// WarpsPerRow warps, and every lane holds Repeat vectors of Vector contiguous elements per
// chunk of TileN = Repeat * WarpsPerRow * warp * Vector columns.
//
// Why this distribution: lanes of a warp touch consecutive 16-byte vectors (coalesced, one
// LDG.128/STG.128 per vector), the Repeat copies sit TileN / Repeat columns apart so the
// accesses of one instruction stay contiguous across the warp, and a whole row lives in one
// warp (WarpsPerRow == 1: the row's reduction is shuffles only) or in one block (partials meet
// in shared memory once per reduction).
//
// A row longer than TileN is walked chunk by chunk with the same window moved right; a row
// that fits stays in registers between its reduction and its output (one read, one write).
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

/// @tparam VectorBytes 16 for the fast instances (16-byte accesses; they need aligned rows
///         and cols % Vector == 0), or the element size for the general ones (any alignment).
template <typename XDataType, index_t RowsPerBlock_, index_t WarpsPerRow_, index_t Repeat_,
          index_t VectorBytes>
struct row_tile_shape
{
    static constexpr index_t RowsPerBlock = RowsPerBlock_;
    static constexpr index_t WarpsPerRow  = WarpsPerRow_;
    static constexpr index_t Repeat       = Repeat_;
    static constexpr index_t Warp         = get_warp_size();
    static_assert(VectorBytes % static_cast<index_t>(sizeof(XDataType)) == 0,
                  "row_tile_shape: the vector is a whole number of elements");
    static constexpr index_t Vector    = VectorBytes / static_cast<index_t>(sizeof(XDataType));
    static constexpr index_t BlockSize = RowsPerBlock * WarpsPerRow * Warp;
    /// Columns of one chunk; the distance between a thread's Repeat copies is TileN / Repeat.
    static constexpr index_t TileN       = Repeat * WarpsPerRow * Warp * Vector;
    static constexpr index_t RepeatPitch = WarpsPerRow * Warp * Vector;
    static_assert(BlockSize <= 1024, "row_tile_shape: at most 1024 threads per block");

    // X0: rows (one per row-warp group); X1: columns = Repeat x WarpsPerRow x lanes x Vector.
    // P0 (warp id) -> (row group, warp in the row); P1 (lane) -> lane in the row;
    // Y -> (repeat, element of the vector).
    using encoding = tile_distribution_encoding<
        sequence<>, tuple<sequence<RowsPerBlock>, sequence<Repeat, WarpsPerRow, Warp, Vector>>,
        tuple<sequence<1, 2>, sequence<2>>, tuple<sequence<0, 1>, sequence<2>>, sequence<2, 2>,
        sequence<0, 3>>;

    CK_TILE_HOST_DEVICE static constexpr auto make_distribution()
    {
        return make_static_tile_distribution(encoding{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto lengths()
    {
        return make_tuple(number<RowsPerBlock>{}, number<TileN>{});
    }

    /// Calls f(number<buffer index>, column offset from the thread's first column) for each
    /// element the thread holds of one chunk, so kernels can tell real columns from the
    /// masked edge (a masked read is zero, which is not neutral for max or for (x - mean)^2).
    template <typename Tensor, typename F>
    CK_TILE_HOST_DEVICE static constexpr void for_each_element(const F& f)
    {
        static_for<0, Repeat, 1>{}([&](auto r) {
            static_for<0, Vector, 1>{}([&](auto v) {
                constexpr index_t i = Tensor::calculate_offset_from_y(
                    make_multi_index(decltype(r)::value, decltype(v)::value));
                f(number<i>{}, decltype(r)::value * RepeatPitch + decltype(v)::value);
            });
        });
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// The row this thread works on inside the block, and its first column in a chunk.
    CK_TILE_DEVICE static index_t row_in_block() { return get_warp_id() / WarpsPerRow; }
    CK_TILE_DEVICE static index_t warp_in_row() { return get_warp_id() % WarpsPerRow; }
    CK_TILE_DEVICE static index_t first_column()
    {
        return (warp_in_row() * Warp + get_lane_id()) * Vector;
    }
#endif
};

#if !defined(CK_TILE_PLATFORM_HOST)
/// Combines one value per thread over the threads of a row (its WarpsPerRow warps) with the
/// associative, commutative `op`; every thread of the row gets the result. `smem` holds
/// RowsPerBlock * WarpsPerRow floats. Called by every thread of the block (it synchronizes
/// the block when a row spans several warps).
template <typename Shape, typename Op>
CK_TILE_DEVICE float block_row_reduce(float v, const Op& op, float* smem)
{
    // A row never spans two warps' lanes partially: the xor butterfly stays inside the warp.
    for(index_t mask = Shape::Warp / 2; mask > 0; mask /= 2)
        v = op(v, warp_shuffle_xor(v, mask));
    if constexpr(Shape::WarpsPerRow > 1)
    {
        if(get_lane_id() == 0)
            smem[get_warp_id()] = v;
        block_sync_lds();
        const float* row = smem + Shape::row_in_block() * Shape::WarpsPerRow;
        v                = row[0];
        for(index_t w = 1; w < Shape::WarpsPerRow; ++w)
            v = op(v, row[w]);
        // The next reduction reuses smem: nobody may overwrite it before all have read it.
        block_sync_lds();
    }
    return v;
}
#endif

struct row_sum_op
{
    CK_TILE_HOST_DEVICE float operator()(float a, float b) const { return a + b; }
};
/// max/min that propagate NaN, like the references (fmaxf would drop it).
struct row_max_op
{
    CK_TILE_HOST_DEVICE float operator()(float a, float b) const
    {
        return (a != a || b != b) ? a + b : (a > b ? a : b);
    }
};
struct row_min_op
{
    CK_TILE_HOST_DEVICE float operator()(float a, float b) const
    {
        return (a != a || b != b) ? a + b : (a < b ? a : b);
    }
};

} // namespace ck_tile
