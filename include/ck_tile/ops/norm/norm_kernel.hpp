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
        long_index_t row_groups;
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

    static kargs make_kargs(const norm_host_args& h)
    {
        return {h, (h.rows + Shape::RowsPerBlock - 1) / Shape::RowsPerBlock};
    }
    /// Blocks stride over the row groups; more than this many blocks only adds scheduling.
    static unsigned grid_size(const kargs& k)
    {
        return static_cast<unsigned>(k.row_groups < (1 << 20) ? k.row_groups : (1 << 20));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    template <typename T>
    CK_TILE_DEVICE static auto row_view(T* p, long_index_t row0, long_index_t stride, index_t rows,
                                        index_t cols)
    {
        // The block's first row is reached in 64 bits; offsets inside the block fit in 32.
        return make_naive_tensor_view<address_space_enum::global>(
            p + row0 * stride, make_tuple(rows, cols), make_tuple(static_cast<index_t>(stride), 1),
            number<Shape::Vector>{}, number<1>{});
    }

    CK_TILE_DEVICE void operator()(kargs k) const
    {
        for(long_index_t g = get_block_id(); g < k.row_groups; g += get_grid_size())
            run_row_group(k.h, g);
    }

    CK_TILE_DEVICE static void run_row_group(const norm_host_args& h, long_index_t group)
    {
        __shared__ float smem[Shape::RowsPerBlock * Shape::WarpsPerRow];

        constexpr auto dstr    = Shape::make_distribution();
        constexpr auto lengths = Shape::lengths();
        using tile_f           = decltype(make_static_distributed_tensor<Acc>(dstr));

        const long_index_t row0 = group * Shape::RowsPerBlock;
        const long_index_t left = h.rows - row0;
        const index_t nrows =
            static_cast<index_t>(left < Shape::RowsPerBlock ? left : Shape::RowsPerBlock);
        const index_t cols        = static_cast<index_t>(h.cols);
        const long_index_t my_row = row0 + Shape::row_in_block();
        const bool row_valid      = Shape::row_in_block() < nrows;

        const auto* x = static_cast<const XDataType*>(h.x);
        const auto* r = static_cast<const XDataType*>(h.residual);
        const auto* w = static_cast<const WDataType*>(h.weight);
        const auto* b = static_cast<const WDataType*>(h.bias);
        auto* y       = static_cast<YDataType*>(h.y);
        auto* ro      = static_cast<XDataType*>(h.residual_out);

        auto x_win =
            make_tile_window(row_view(x, row0, h.x_stride, nrows, cols), lengths, {0, 0}, dstr);
        auto y_win =
            make_tile_window(row_view(y, row0, h.y_stride, nrows, cols), lengths, {0, 0}, dstr);
        // Weight and bias are one row seen by every row of the block (row stride 0).
        auto w_win  = make_tile_window(row_view(w, 0, 0, nrows, cols), lengths, {0, 0}, dstr);
        auto b_win  = make_tile_window(row_view(h.has_bias ? b : w, 0, 0, nrows, cols), lengths,
                                       {0, 0}, dstr);
        auto r_win  = make_tile_window(row_view(h.fused_residual ? r : x, row0,
                                               h.fused_residual ? h.residual_stride : h.x_stride,
                                                nrows, cols),
                                       lengths, {0, 0}, dstr);
        auto ro_win = make_tile_window(
            row_view(h.fused_residual ? ro : y, row0,
                     h.fused_residual ? h.residual_out_stride : h.y_stride, nrows, cols),
            lengths, {0, 0}, dstr);

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
        auto normalize_store = [&](tile_f& t) {
            tile_f wt, bt;
            w_win.load(wt);
            if(h.has_bias)
                b_win.load(bt);
            sweep_tile(t, [&](auto idx, float& v) {
                v = (v - mean) * rstd * wt(idx);
                if(h.has_bias)
                    v += bt(idx);
            });
            y_win.store(t);
        };

        if(cols <= Shape::TileN)
        {
            // The row fits: one read, statistics from registers, one write.
            tile_f t;
            load_h(t);
            if(h.layernorm)
            {
                float s = 0.f;
                sweep_tile(t, [&](auto, float& v) { s += v; });
                mean    = block_row_reduce<Shape>(s, row_sum_op{}, smem) * inv_n;
                float q = 0.f;
                Shape::template for_each_element<tile_f>([&](auto i, index_t c) {
                    const float d = t.get_thread_buffer()[i] - mean;
                    if(col0 + c < cols)
                        q += d * d;
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
            normalize_store(t);
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

            auto h_view =
                row_view(h.fused_residual ? static_cast<const XDataType*>(ro) : x, row0,
                         h.fused_residual ? h.residual_out_stride : h.x_stride, nrows, cols);
            auto h_win = make_tile_window(h_view, lengths, {0, 0}, dstr);
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

        if(h.save_statistics && row_valid && Shape::warp_in_row() == 0 && get_lane_id() == 0)
        {
            if(h.mean)
                h.mean[my_row] = mean;
            h.rstd[my_row] = rstd;
        }
    }
#endif
};

} // namespace ck_tile
