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
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"
#include "ck_tile/core/utility/functional.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_window.hpp"
#endif

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// @tparam VectorBytes 16 for the fast instances (16-byte accesses; they need aligned rows
///         and cols % Vector == 0), or the element size for the general ones (any alignment).
/// @tparam LanesPerRow_ 0: a row spans whole warps. Otherwise a divisor of the warp size: a
///         warp holds Warp / LanesPerRow short rows side by side (WarpsPerRow must be 1), so a
///         warp's load still moves Warp vectors when rows are only a few vectors long.
template <typename XDataType, index_t RowsPerBlock_, index_t WarpsPerRow_, index_t Repeat_,
          index_t VectorBytes, index_t LanesPerRow_ = 0>
struct row_tile_shape
{
    static constexpr index_t RowsPerBlock = RowsPerBlock_;
    static constexpr index_t WarpsPerRow  = WarpsPerRow_;
    static constexpr index_t Repeat       = Repeat_;
    static constexpr index_t Warp         = get_warp_size();
    static constexpr index_t LanesPerRow  = LanesPerRow_ > 0 ? LanesPerRow_ : Warp;
    static constexpr index_t RowsPerWarp  = Warp / LanesPerRow;
    static_assert(Warp % LanesPerRow == 0, "row_tile_shape: LanesPerRow divides the warp");
    static_assert(RowsPerWarp == 1 || WarpsPerRow == 1,
                  "row_tile_shape: a row narrower than a warp lives in one warp");
    static_assert(RowsPerBlock % RowsPerWarp == 0,
                  "row_tile_shape: a block holds whole warps of short rows");
    static_assert(VectorBytes % static_cast<index_t>(sizeof(XDataType)) == 0,
                  "row_tile_shape: the vector is a whole number of elements");
    static constexpr index_t Vector    = VectorBytes / static_cast<index_t>(sizeof(XDataType));
    static constexpr index_t BlockSize = RowsPerBlock / RowsPerWarp * WarpsPerRow * Warp;
    /// Columns of one chunk; the distance between a thread's Repeat copies is TileN / Repeat.
    static constexpr index_t TileN       = Repeat * WarpsPerRow * LanesPerRow * Vector;
    static constexpr index_t RepeatPitch = WarpsPerRow * LanesPerRow * Vector;
    static_assert(BlockSize <= 1024, "row_tile_shape: at most 1024 threads per block");
    /// Blocks per compute unit the softmax and norm kernels ask the compiler to keep resident
    /// (__launch_bounds__): 1024 threads, at most 64 registers each on NVIDIA, for shapes that
    /// hold at most 32 bytes of a row per thread. These kernels are bound by the bytes in
    /// flight per compute unit, which is the resident rows: without the cap the 8-warp norm
    /// took 72 registers (3 rows per SM instead of 4). Larger per-thread tiles (norm x, weight
    /// and bias of 64 bytes each) would spill under it and keep the compiler's choice.
    static constexpr index_t MinBlocksPerCu =
        Repeat * VectorBytes <= 32 && BlockSize < 1024 ? 1024 / BlockSize : 1;

    // Rows of whole warps. X0: rows (one per row-warp group); X1: columns = Repeat x
    // WarpsPerRow x lanes x Vector. P0 (warp id) -> (row group, warp in the row); P1 (lane) ->
    // lane in the row; Y -> (repeat, element of the vector).
    using wide_encoding = tile_distribution_encoding<
        sequence<>, tuple<sequence<RowsPerBlock>, sequence<Repeat, WarpsPerRow, Warp, Vector>>,
        tuple<sequence<1, 2>, sequence<2>>, tuple<sequence<0, 1>, sequence<2>>, sequence<2, 2>,
        sequence<0, 3>>;
    // Short rows. X0: rows = warps x RowsPerWarp; X1: columns = Repeat x LanesPerRow x Vector.
    // P0 (warp id) -> warp's rows; P1 (lane) -> (row in the warp, lane in the row), the lane in
    // the row fastest so a row's lanes are neighbours; Y -> (repeat, element of the vector).
    using narrow_encoding =
        tile_distribution_encoding<sequence<>,
                                   tuple<sequence<RowsPerBlock / RowsPerWarp, RowsPerWarp>,
                                         sequence<Repeat, LanesPerRow, Vector>>,
                                   tuple<sequence<1>, sequence<1, 2>>,
                                   tuple<sequence<0>, sequence<1, 1>>, sequence<2, 2>,
                                   sequence<0, 2>>;
    using encoding = std::conditional_t<RowsPerWarp == 1, wide_encoding, narrow_encoding>;

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

    /// f(acc, value) folded over the elements of `t` that are real columns of a row of `cols`
    /// elements, when the chunk starts `chunk_col` columns in and this thread's first column
    /// is `first` (masked reads hold zero, which is not neutral for every fold).
    template <typename Tensor, typename F>
    CK_TILE_HOST_DEVICE static float fold_columns(const Tensor& t, index_t chunk_col, index_t first,
                                                  index_t cols, float acc, const F& f)
    {
        for_each_element<Tensor>([&](auto i, index_t e) {
            if(chunk_col + first + e < cols)
                acc = f(acc, type_convert<float>(t.get_thread_buffer()[i]));
        });
        return acc;
    }

    /// fold_columns without a compare per element when the whole chunk lies inside the row
    /// (a row that is a multiple of TileN long, or any chunk but the last): the branch is the
    /// same for every thread of a row, and the per-element compares were a large share of the
    /// instructions of the softmax and LayerNorm folds.
    template <typename Tensor, typename F>
    CK_TILE_HOST_DEVICE static float fold_chunk(const Tensor& t, index_t chunk_col, index_t first,
                                                index_t cols, float acc, const F& f)
    {
        if(chunk_col + TileN > cols)
            return fold_columns(t, chunk_col, first, cols, acc, f);
        for_each_element<Tensor>(
            [&](auto i, index_t) { acc = f(acc, type_convert<float>(t.get_thread_buffer()[i])); });
        return acc;
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// The row this thread works on inside the block, and its first column in a chunk.
    CK_TILE_DEVICE static index_t row_in_block()
    {
        if constexpr(RowsPerWarp == 1)
            return get_warp_id() / WarpsPerRow;
        else
            return get_warp_id() * RowsPerWarp + get_lane_id() / LanesPerRow;
    }
    CK_TILE_DEVICE static index_t warp_in_row()
    {
        return RowsPerWarp == 1 ? get_warp_id() % WarpsPerRow : 0;
    }
    CK_TILE_DEVICE static index_t first_column()
    {
        return (warp_in_row() * LanesPerRow + get_lane_id() % LanesPerRow) * Vector;
    }
    /// The one thread of each row that writes the row's scalar results.
    CK_TILE_DEVICE static bool is_row_leader()
    {
        return warp_in_row() == 0 && get_lane_id() % LanesPerRow == 0;
    }
#endif
};

namespace detail {
/// Why a row-wise kernel of `Shape` cannot address these rows; nullptr when it can. Shared by
/// the row-wise ops: pointer and stride alignment for the vectorized shapes, 32-bit offsets
/// inside a block's view.
template <typename Shape, typename ElemBytes>
inline const char* row_layout_unsupported(long_index_t cols, long_index_t stride, const void* ptr,
                                          ElemBytes elem_bytes)
{
    if(cols > 0x7fffffff)
        return "rows longer than 2^31 - 1 elements are not supported";
    if(Shape::RowsPerBlock > 1 &&
       (Shape::RowsPerBlock - 1) * stride + cols > static_cast<long_index_t>(0x7fffffff))
        return "a block's rows span more than 2^31 elements (32-bit offsets inside a block)";
    if constexpr(Shape::Vector > 1)
    {
        if(cols % Shape::Vector != 0)
            return "the row length is not a multiple of the instance's vector length";
        if(stride % Shape::Vector != 0)
            return "a row stride is not a multiple of the instance's vector length";
        if(ptr && reinterpret_cast<std::uintptr_t>(ptr) % (Shape::Vector * elem_bytes) != 0)
            return "a pointer is not aligned to the instance's vector size (16 bytes)";
    }
    return nullptr;
}
} // namespace detail

/// How the rows of a [rows, cols] problem are dealt to blocks: group g is rows
/// [g * RowsPerBlock, (g + 1) * RowsPerBlock), and blocks stride over the groups.
template <typename Shape>
struct row_groups
{
    long_index_t count = 0;

    CK_TILE_HOST_DEVICE static constexpr row_groups of(long_index_t rows)
    {
        return {(rows + Shape::RowsPerBlock - 1) / Shape::RowsPerBlock};
    }
    /// More blocks than this only adds scheduling: the blocks stride over the groups.
    CK_TILE_HOST_DEVICE constexpr unsigned grid_size() const
    {
        return static_cast<unsigned>(count < (1 << 20) ? count : (1 << 20));
    }
};

#if !defined(CK_TILE_PLATFORM_HOST)
/// The rows one block works on: where they start and how many there are (the last group may
/// be short), and tile windows over them for any tensor with that row layout.
template <typename Shape>
struct row_block
{
    long_index_t row0;
    index_t nrows;
    index_t cols;

    CK_TILE_DEVICE row_block(long_index_t group, long_index_t rows, long_index_t cols_)
        : row0(group * Shape::RowsPerBlock), cols(static_cast<index_t>(cols_))
    {
        const long_index_t left = rows - row0;
        nrows = static_cast<index_t>(left < Shape::RowsPerBlock ? left : Shape::RowsPerBlock);
    }

    /// The block's rows of `p` (row stride `stride`; 0 repeats one row for every row). The
    /// first row is reached in 64 bits; offsets inside the block fit in 32 (see
    /// row_layout_unsupported).
    template <typename T>
    CK_TILE_DEVICE auto view(T* p, long_index_t stride) const
    {
        return make_naive_tensor_view<address_space_enum::global>(
            p + row0 * stride, make_tuple(nrows, cols), make_tuple(static_cast<index_t>(stride), 1),
            number<Shape::Vector>{}, number<1>{});
    }
    /// A window of one chunk (RowsPerBlock x TileN) at column `col` of the block's rows,
    /// distributed as the shape says; move it right by TileN to walk a long row. Making a
    /// window is a few integer operations: kernels make one where they use it rather than
    /// keeping its registers live across the row's reductions.
    template <typename T>
    CK_TILE_DEVICE auto window(T* p, long_index_t stride, index_t col = 0) const
    {
        return make_tile_window(view(p, stride), Shape::lengths(), {0, col},
                                Shape::make_distribution());
    }

    CK_TILE_DEVICE long_index_t my_row() const { return row0 + Shape::row_in_block(); }
    CK_TILE_DEVICE bool row_valid() const { return Shape::row_in_block() < nrows; }
};

/// Combines one value per thread over the threads of a row (its WarpsPerRow warps) with the
/// associative, commutative `op`; every thread of the row gets the result. `smem` holds
/// RowsPerBlock * WarpsPerRow floats. Called by every thread of the block (it synchronizes
/// the block when a row spans several warps).
template <typename Shape, typename Op>
CK_TILE_DEVICE float block_row_reduce(float v, const Op& op, float* smem)
{
    // A row's lanes are LanesPerRow neighbours (a whole warp, or an aligned group of one):
    // the xor butterfly stays inside them.
    for(index_t mask = Shape::LanesPerRow / 2; mask > 0; mask /= 2)
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

/// Two sums over the threads of a row at once, in one exchange: `a` and `b` become the row's
/// sums. `smem` holds 2 * RowsPerBlock * WarpsPerRow floats. Same calling rules as
/// block_row_reduce; one block synchronization pair instead of two.
template <typename Shape>
CK_TILE_DEVICE void block_row_sum_pair(float& a, float& b, float* smem)
{
    for(index_t mask = Shape::LanesPerRow / 2; mask > 0; mask /= 2)
    {
        a += warp_shuffle_xor(a, mask);
        b += warp_shuffle_xor(b, mask);
    }
    if constexpr(Shape::WarpsPerRow > 1)
    {
        if(get_lane_id() == 0)
        {
            smem[2 * get_warp_id()]     = a;
            smem[2 * get_warp_id() + 1] = b;
        }
        block_sync_lds();
        const float* row = smem + 2 * Shape::row_in_block() * Shape::WarpsPerRow;
        a                = row[0];
        b                = row[1];
        for(index_t w = 1; w < Shape::WarpsPerRow; ++w)
        {
            a += row[2 * w];
            b += row[2 * w + 1];
        }
        block_sync_lds();
    }
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
