// SPDX-License-Identifier: MIT
// Softmax over the last axis of a row-major [rows, cols] tensor, numerically stable:
// y = exp(x - max) / sum(exp(x - max)), in fp32.
//
// A row that fits one chunk (cols <= TileN) is read once and kept in registers. A longer row
// (any length) takes two passes (seed 004, ch. 5): the first keeps, per thread, a running
// maximum m and a sum s rescaled whenever m grows (s <- s * exp(m_old - m_new)); the threads'
// (m, s) pairs then combine as S = sum_t s_t * exp(m_t - M) with M = max_t m_t; the second
// pass writes exp(x - M) / S.
//
// Non-finite inputs follow the formula: a NaN or +inf in a row, or a row of only -inf, gives a
// row of NaN, as the reference and PyTorch do: through the maximum in the online pass, through
// the sum (exp(NaN - m) = NaN, exp(inf - inf) = NaN) in the single-chunk one.
//
// Exponentials are arch::fast_exp (a few ulp of fp32; fp32 outputs are checked to 1e-4).
//
// Kernel contract: as norm_kernel (vectorized shapes need cols and strides multiples of
// Vector and 16-byte aligned pointers). In place (y == x with equal strides) is allowed: every
// element is read before it is written, by the thread that writes it.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/fast_exp.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/sweep_tile.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_window.hpp"
#include "ck_tile/ops/reduce/row_tile.hpp"

#include <cmath>

namespace ck_tile {

struct softmax_host_args
{
    const void* x     = nullptr;
    void* y           = nullptr;
    long_index_t rows = 0, cols = 0, x_stride = 0, y_stride = 0;
};

template <typename XDataType_, typename YDataType_, typename Shape_>
struct softmax_kernel
{
    using XDataType = XDataType_;
    using YDataType = YDataType_;
    using Shape     = Shape_;
    using Acc       = float;

    static constexpr index_t BlockSize      = Shape::BlockSize;
    static constexpr index_t MinBlocksPerCu = Shape::MinBlocksPerCu;

    struct kargs
    {
        softmax_host_args h;
        row_groups<Shape> groups;
    };

    static const char* why_unsupported(const softmax_host_args& h)
    {
        using detail::row_layout_unsupported;
        if(const char* w =
               row_layout_unsupported<Shape>(h.cols, h.x_stride, h.x, sizeof(XDataType)))
            return w;
        return row_layout_unsupported<Shape>(h.cols, h.y_stride, h.y, sizeof(YDataType));
    }
    static kargs make_kargs(const softmax_host_args& h)
    {
        return {h, row_groups<Shape>::of(h.rows)};
    }
    static unsigned grid_size(const kargs& k) { return k.groups.grid_size(); }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        for(long_index_t g = get_block_id(); g < k.groups.count; g += get_grid_size())
            run_row_group(k.h, g);
    }

    CK_TILE_DEVICE static void run_row_group(const softmax_host_args& h, long_index_t group)
    {
        __shared__ float smem[Shape::RowsPerBlock * Shape::WarpsPerRow];

        using tile_f = decltype(make_static_distributed_tensor<Acc>(Shape::make_distribution()));
        constexpr float neg_inf = -__builtin_huge_valf();

        const row_block<Shape> blk(group, h.rows, h.cols);
        const index_t cols = blk.cols;
        const index_t col0 = Shape::first_column();
        const auto* x      = static_cast<const XDataType*>(h.x);

        auto x_win = blk.window(x, h.x_stride);
        auto y_win = blk.window(static_cast<YDataType*>(h.y), h.y_stride);

        // exp(v - m) through the special-function unit (arch/fast_exp.hpp): a few ulp of
        // fp32, well inside the tolerance of every output type, and one instruction where the
        // accurate expf took a dozen (the single-chunk kernel was bound by instruction issue).
        auto exp_from = [](float v, float m) { return arch::fast_exp(v - m); };
        auto plus     = [](float a, float e) { return a + e; };

        if(cols <= Shape::TileN)
        {
            tile_f t;
            x_win.load(t);
            // fmaxf drops a NaN from the maximum, but its exp(NaN - m) = NaN still reaches the
            // sum and through 1 / sum every output of the row, as the reference gives; +inf
            // and all -inf rows give exp(inf - inf) = NaN the same way. One instruction per
            // element instead of the compares and selects of a NaN-propagating maximum.
            const float m = block_row_reduce<Shape>(
                Shape::fold_chunk(t, 0, col0, cols, neg_inf,
                                  [](float a, float v) { return fmaxf(a, v); }),
                row_max_op{}, smem);
            // exp(x - m) once per element, kept in the tile for the sum and the output.
            sweep_tile(t, [&](auto, float& v) { v = exp_from(v, m); });
            const float s = block_row_reduce<Shape>(Shape::fold_chunk(t, 0, col0, cols, 0.f, plus),
                                                    row_sum_op{}, smem);
            const float inv = 1.f / s;
            sweep_tile(t, [&](auto, float& v) { v *= inv; });
            y_win.store(t);
            return;
        }

        // Online pass: per-thread running (m, s).
        float m = neg_inf, s = 0.f;
        for(index_t c = 0; c < cols; c += Shape::TileN)
        {
            tile_f t;
            x_win.load(t);
            // The NaN-propagating maximum here: a thread whose chunk holds only NaN and -inf
            // skips its sum below, so the NaN must travel in m.
            const float cm =
                row_max_op{}(m, Shape::fold_chunk(t, c, col0, cols, neg_inf, row_max_op{}));
            // While the maximum is -inf nothing has been summed yet (s == 0); skipping the
            // rescale avoids exp(-inf - -inf) = NaN for leading -inf columns.
            if(cm != m)
                s = (m == neg_inf) ? s : s * exp_from(m, cm);
            m = cm;
            if(m != neg_inf)
                s += Shape::fold_chunk(t, c, col0, cols, 0.f,
                                       [&](float a, float v) { return a + exp_from(v, m); });
            x_win.move({0, Shape::TileN});
        }
        const float big_m = block_row_reduce<Shape>(m, row_max_op{}, smem);
        // A thread that saw only -inf contributes nothing; when every thread did, big_m is
        // -inf and the second pass yields exp(NaN) = NaN, as the formula does.
        const float mine = (m == neg_inf) ? 0.f : s * exp_from(m, big_m);
        const float inv  = 1.f / block_row_reduce<Shape>(mine, row_sum_op{}, smem);

        auto x2 = blk.window(x, h.x_stride);
        for(index_t c = 0; c < cols; c += Shape::TileN)
        {
            tile_f t;
            x2.load(t);
            sweep_tile(t, [&](auto, float& v) { v = exp_from(v, big_m) * inv; });
            y_win.store(t);
            x2.move({0, Shape::TileN});
            y_win.move({0, Shape::TileN});
        }
    }
#endif
};

} // namespace ck_tile
