// SPDX-License-Identifier: MIT
// Reduction over the last axis of a [rows, cols] tensor (row stride in x, element stride in y):
// y[i] = finish(fold over j of x[i, j]), in fp32 whatever x and y hold.
//
// The rows are dealt to blocks and read in chunks exactly as the other row-wise kernels read
// them (row_tile.hpp): each thread folds the real columns of its elements into one partial
// value, the row's threads combine their partials (block_row_reduce), and one thread writes.
// Masked columns are skipped, not read as zero, so max and min see only real elements; NaN
// propagates through every fold.
//
// Kernel contract (why_unsupported): the row pattern of reduce_problem.hpp; a vectorized shape
// needs cols and the row stride multiples of Vector and x 16-byte aligned.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/ops/reduce/reduce_problem.hpp"
#include "ck_tile/ops/reduce/row_tile.hpp"

namespace ck_tile {

template <typename XDataType_, typename YDataType_, typename Shape_>
struct reduce_row_kernel
{
    using XDataType = XDataType_;
    using YDataType = YDataType_;
    using Shape     = Shape_;
    using Acc       = float;

    static constexpr index_t BlockSize = Shape::BlockSize;
    static constexpr index_t SharedMemoryBytes =
        static_cast<index_t>(sizeof(float)) * Shape::RowsPerBlock * Shape::WarpsPerRow;

    struct kargs
    {
        reduce_host_args h;
        row_groups<Shape> groups;
    };

    static const char* why_unsupported(const reduce_host_args& h)
    {
        if(h.pattern != reduce_pattern::row)
            return "not a reduction over the last axis of rows (the row kernel's pattern)";
        return detail::row_layout_unsupported<Shape>(h.cols(), h.x_row_stride(), h.x,
                                                     sizeof(XDataType));
    }
    static kargs make_kargs(const reduce_host_args& h)
    {
        return {h, row_groups<Shape>::of(h.rows())};
    }
    static unsigned grid_size(const kargs& k) { return k.groups.grid_size(); }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        // One array for every op's body (see reduce_column_kernel).
        __shared__ float smem[Shape::RowsPerBlock * Shape::WarpsPerRow];
        dispatch_reduce_op(k.h.op, [&](auto fold) {
            for(long_index_t g = get_block_id(); g < k.groups.count; g += get_grid_size())
                run_row_group(k.h, g, fold, smem);
        });
    }

    template <typename Fold>
    CK_TILE_DEVICE static void run_row_group(const reduce_host_args& h, long_index_t group,
                                             Fold fold, float* smem)
    {
        using tile_f = decltype(make_static_distributed_tensor<Acc>(Shape::make_distribution()));

        const row_block<Shape> blk(group, h.rows(), h.cols());
        const index_t col0 = Shape::first_column();
        auto x_win         = blk.window(static_cast<const XDataType*>(h.x), h.x_row_stride());

        float acc = Fold::identity();
        for(index_t c = 0; c < blk.cols; c += Shape::TileN)
        {
            tile_f t;
            x_win.load(t);
            acc = Shape::fold_columns(t, c, col0, blk.cols, acc,
                                      [&](float a, float v) { return fold.fold(a, v); });
            x_win.move({0, Shape::TileN});
        }
        const float r = block_row_reduce<Shape>(acc, fold, smem);
        if(blk.row_valid() && Shape::is_row_leader())
            static_cast<YDataType*>(h.y)[blk.my_row() * h.y_row_stride()] =
                type_convert<YDataType>(reduce_finish(h.op, r, h.cols()));
    }
#endif
};

} // namespace ck_tile
