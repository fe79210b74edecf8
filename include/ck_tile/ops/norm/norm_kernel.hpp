// SPDX-License-Identifier: MIT
// RMSNorm and LayerNorm over the last axis of a row-major [rows, cols] tensor, with an
// optional fused residual add:
//
//   h = residual ? round_to_X(x + r) : x            (h is also written when fused)
//   layernorm: y = (h - mean(h)) * rstd * w (+ b),   rstd = 1 / sqrt(var(h) + eps)
//   rmsnorm:   y = h * rstd * w (+ b),               rstd = 1 / sqrt(mean(h^2) + eps)
//
// mean and rstd per row are written (fp32) when asked. Inputs are converted to fp32 on load
// and everything in between stays fp32. h is rounded to X's type before it is normalized, so
// the result is the same whether the row stays in registers or is re-read from h's copy in
// memory (rows longer than one chunk).
//
// Kernel contract (checked by why_unsupported, which the library's supports() calls):
// a vectorized shape (Vector > 1) needs cols and every row stride to be multiples of Vector
// and every pointer 16-byte aligned; with several rows per block, the block's rows must be
// addressable with 32-bit offsets. The scalar shape (Vector == 1) runs any valid problem.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/sweep_tile.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_window.hpp"
#include "ck_tile/ops/reduce/row_tile.hpp"

#include <cmath>
#include <cstdint>

namespace ck_tile {

/// What a norm kernel is asked to do, in host terms (element strides between rows).
struct norm_host_args
{
    const void* x        = nullptr;
    const void* residual = nullptr;
    const void* weight   = nullptr;
    const void* bias     = nullptr;
    void* y              = nullptr;
    void* residual_out   = nullptr;
    float* mean          = nullptr;
    float* rstd          = nullptr;
    long_index_t rows = 0, cols = 0;
    long_index_t x_stride = 0, residual_stride = 0, y_stride = 0, residual_out_stride = 0;
    float epsilon        = 0.f;
    bool layernorm       = false;
    bool has_bias        = false;
    bool fused_residual  = false;
    bool save_statistics = false;
};

template <typename XDataType_, typename YDataType_, typename WDataType_, typename Shape_>
struct norm_kernel
{
    using XDataType = XDataType_;
    using YDataType = YDataType_;
    using WDataType = WDataType_;
    using Shape     = Shape_;
    using Acc       = float;

    static constexpr index_t BlockSize = Shape::BlockSize;

    struct kargs
    {
        norm_host_args h;
        row_groups<Shape> groups;
    };

    static const char* why_unsupported(const norm_host_args& h)
    {
        using detail::row_layout_unsupported;
        const long_index_t c = h.cols;
        if(const char* w = row_layout_unsupported<Shape>(c, h.x_stride, h.x, sizeof(XDataType)))
            return w;
        if(const char* w = row_layout_unsupported<Shape>(c, h.y_stride, h.y, sizeof(YDataType)))
            return w;
        if(const char* w = row_layout_unsupported<Shape>(c, 0, h.weight, sizeof(WDataType)))
            return w;
        if(h.has_bias)
            if(const char* w = row_layout_unsupported<Shape>(c, 0, h.bias, sizeof(WDataType)))
                return w;
        if(h.fused_residual)
        {
            if(const char* w = row_layout_unsupported<Shape>(c, h.residual_stride, h.residual,
                                                             sizeof(XDataType)))
                return w;
            if(const char* w = row_layout_unsupported<Shape>(c, h.residual_out_stride,
                                                             h.residual_out, sizeof(XDataType)))
                return w;
        }
        return nullptr;
    }

    static kargs make_kargs(const norm_host_args& h) { return {h, row_groups<Shape>::of(h.rows)}; }
    static unsigned grid_size(const kargs& k) { return k.groups.grid_size(); }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        for(long_index_t g = get_block_id(); g < k.groups.count; g += get_grid_size())
            run_row_group(k.h, g);
    }

    CK_TILE_DEVICE static void run_row_group(const norm_host_args& h, long_index_t group)
    {
        __shared__ float smem[Shape::RowsPerBlock * Shape::WarpsPerRow];

        using tile_f = decltype(make_static_distributed_tensor<Acc>(Shape::make_distribution()));

        const row_block<Shape> blk(group, h.rows, h.cols);
        const index_t cols        = blk.cols;
        const long_index_t my_row = blk.my_row();
        const bool row_valid      = blk.row_valid();

        const auto* x = static_cast<const XDataType*>(h.x);
        const auto* r = static_cast<const XDataType*>(h.residual);
        const auto* w = static_cast<const WDataType*>(h.weight);
        const auto* b = static_cast<const WDataType*>(h.bias);
        auto* y       = static_cast<YDataType*>(h.y);
        auto* ro      = static_cast<XDataType*>(h.residual_out);

        auto x_win = blk.window(x, h.x_stride);
        auto y_win = blk.window(y, h.y_stride);
        // Weight and bias are one row seen by every row of the block (row stride 0).
        auto w_win = blk.window(w, 0);
        auto b_win = blk.window(h.has_bias ? b : w, 0);
        auto r_win =
            blk.window(h.fused_residual ? r : x, h.fused_residual ? h.residual_stride : h.x_stride);
        auto ro_win = blk.window(h.fused_residual ? ro : y,
                                 h.fused_residual ? h.residual_out_stride : h.y_stride);

        const index_t col0 = Shape::first_column();
        const float inv_n  = 1.f / static_cast<float>(cols);
        float mean = 0.f, rstd = 0.f;

        // h for the chunk under the windows: x (+ r, rounded to X and written back).
        auto load_h = [&](tile_f& t) {
            x_win.load(t);
            if(h.fused_residual)
            {
                tile_f rt;
                r_win.load(rt);
                sweep_tile(t, [&](auto idx, float& v) {
                    v = type_convert<float>(type_convert<XDataType>(v + rt(idx)));
                });
                ro_win.store(t);
            }
        };
        auto normalize_store_with = [&](tile_f& t, const tile_f& wt, const tile_f& bt) {
            sweep_tile(t, [&](auto idx, float& v) {
                v = (v - mean) * rstd * wt(idx);
                if(h.has_bias)
                    v += bt(idx);
            });
            y_win.store(t);
        };
        auto normalize_store = [&](tile_f& t) {
            tile_f wt, bt;
            w_win.load(wt);
            if(h.has_bias)
                b_win.load(bt);
            normalize_store_with(t, wt, bt);
        };

        if(cols <= Shape::TileN)
        {
            // The row fits: one read, statistics from registers, one write. Weight and bias
            // are loaded with x, so their latency hides behind the row's rather than coming
            // after the reductions.
            tile_f t, wt, bt;
            load_h(t);
            w_win.load(wt);
            if(h.has_bias)
                b_win.load(bt);
            if(h.layernorm)
            {
                float s = 0.f;
                sweep_tile(t, [&](auto, float& v) { s += v; });
                mean          = block_row_reduce<Shape>(s, row_sum_op{}, smem) * inv_n;
                const float q = Shape::fold_columns(t, 0, col0, cols, 0.f, [&](float acc, float v) {
                    return acc + (v - mean) * (v - mean);
                });
                rstd =
                    1.f / sqrtf(block_row_reduce<Shape>(q, row_sum_op{}, smem) * inv_n + h.epsilon);
            }
            else
            {
                float q = 0.f;
                sweep_tile(t, [&](auto, float& v) { q += v * v; });
                rstd =
                    1.f / sqrtf(block_row_reduce<Shape>(q, row_sum_op{}, smem) * inv_n + h.epsilon);
            }
            normalize_store_with(t, wt, bt);
        }
        else
        {
            // Long rows: statistics in a first pass, then a second pass re-reads h (the
            // residual sum from memory when fused: this thread wrote exactly those elements).
            // LayerNorm sums (h - h[0]) so the variance does not cancel for large means.
            float shift = 0.f;
            if(h.layernorm && row_valid)
            {
                shift = type_convert<float>(x[my_row * h.x_stride]);
                if(h.fused_residual)
                    shift = type_convert<float>(type_convert<XDataType>(
                        shift + type_convert<float>(r[my_row * h.residual_stride])));
            }
            float s = 0.f, q = 0.f;
            for(index_t c = 0; c < cols; c += Shape::TileN)
            {
                tile_f t;
                load_h(t);
                Shape::template for_each_element<tile_f>([&](auto i, index_t e) {
                    const float d = t.get_thread_buffer()[i] - shift;
                    if(c + col0 + e < cols)
                    {
                        s += d;
                        q += d * d;
                    }
                });
                x_win.move({0, Shape::TileN});
                r_win.move({0, Shape::TileN});
                ro_win.move({0, Shape::TileN});
            }
            if(h.layernorm)
            {
                const float m1  = block_row_reduce<Shape>(s, row_sum_op{}, smem) * inv_n;
                const float m2  = block_row_reduce<Shape>(q, row_sum_op{}, smem) * inv_n;
                const float var = m2 - m1 * m1;
                mean            = shift + m1;
                // Clamp rounding below zero, but keep a NaN (from inf or NaN inputs) a NaN.
                rstd = 1.f / sqrtf((var < 0.f ? 0.f : var) + h.epsilon);
            }
            else
                rstd =
                    1.f / sqrtf(block_row_reduce<Shape>(q, row_sum_op{}, smem) * inv_n + h.epsilon);

            auto h_win = blk.window(h.fused_residual ? static_cast<const XDataType*>(ro) : x,
                                    h.fused_residual ? h.residual_out_stride : h.x_stride);
            for(index_t c = 0; c < cols; c += Shape::TileN)
            {
                tile_f t;
                h_win.load(t);
                normalize_store(t);
                h_win.move({0, Shape::TileN});
                w_win.move({0, Shape::TileN});
                b_win.move({0, Shape::TileN});
                y_win.move({0, Shape::TileN});
            }
        }

        if(h.save_statistics && row_valid && Shape::is_row_leader())
        {
            if(h.mean)
                h.mean[my_row] = mean;
            h.rstd[my_row] = rstd;
        }
    }
#endif
};

} // namespace ck_tile
