// SPDX-License-Identifier: MIT
// RMSNorm and LayerNorm over the last axis of a row-major [rows, cols] tensor, with an
// optional fused residual add:
//
//   h = residual ? round_to_X(x + r) : x            (h is also written when fused)
//   layernorm: y = (h - mean(h)) * rstd * w (+ b),   rstd = 1 / sqrt(var(h) + eps)
//   rmsnorm:   y = h * rstd * w (+ b),               rstd = 1 / sqrt(mean(h^2) + eps)
//
// mean and rstd per row are written (fp32) when asked. x, h, weight and bias stay in their
// storage types in registers and are converted to fp32 where they are used; all arithmetic is
// fp32. h is rounded to X's type before it is normalized, so the result is the same whether
// the row stays in registers or is re-read from h's copy in memory (rows longer than a chunk).
//
// Kernel contract (checked by why_unsupported, which the library's supports() calls):
// a vectorized shape (Vector > 1) needs cols and every row stride to be multiples of Vector
// and every pointer 16-byte aligned; with several rows per block, the block's rows must be
// addressable with 32-bit offsets. The scalar shape (Vector == 1) runs any valid problem.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/async_copy.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/sweep_tile.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_window.hpp"
#include "ck_tile/ops/reduce/row_tile.hpp"

#include <cmath>
#include <cstdint>
#include <type_traits>

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

/// Which normalization a kernel is compiled for: one of the two, or either, chosen per launch
/// by norm_host_args::layernorm. A kernel compiled for one keeps none of the other's code, so
/// it needs fewer registers (an RMSNorm over 16 elements of a 16-bit row fits a 5-block cap).
enum class norm_kind
{
    either,
    layernorm,
    rmsnorm
};

/// RowsInFlight_ > 1: for LayerNorm, a block walks StagedRows rows that fit its tile with
/// RowsInFlight of them in shared memory, the one it normalizes and the next RowsInFlight - 1
/// being copied there (cp.async on NVIDIA), so the next rows' loads stay in flight through the
/// row's two block-wide exchanges (see run_staged_rows). RMSNorm (one exchange, and 5 blocks
/// per SM already), fused residuals and long rows take the unstaged path.
template <typename XDataType_, typename YDataType_, typename WDataType_, typename Shape_,
          norm_kind Kind_ = norm_kind::either, index_t RowsInFlight_ = 1>
struct norm_kernel
{
    using XDataType                 = XDataType_;
    using YDataType                 = YDataType_;
    using WDataType                 = WDataType_;
    using Shape                     = Shape_;
    using Acc                       = float;
    static constexpr norm_kind Kind = Kind_;

    /// The same instance compiled for one kind.
    template <norm_kind K>
    using of_kind = norm_kernel<XDataType, YDataType, WDataType, Shape, K, RowsInFlight_>;

    static constexpr index_t RowsInFlight = RowsInFlight_;
    static constexpr bool Staged          = RowsInFlight > 1;
    /// Rows a staged block walks: four times those in flight, so the first row's wait is a
    /// quarter of the block's time at most (the other resident blocks run meanwhile).
    static constexpr index_t StagedRows = 4 * RowsInFlight;
    static_assert(!Staged || (Shape::RowsPerBlock == 1 && Shape::Vector > 1 &&
                              Shape::Vector * sizeof(XDataType) == 16),
                  "staged rows are whole rows of a block, copied in 16-byte vectors");
    static_assert(RowsInFlight >= 1 && RowsInFlight <= 8,
                  "1 to 8 rows in flight (cp.async.wait_group counts up to 7 pending)");

    static constexpr index_t BlockSize = Shape::BlockSize;
    /// Registers follow the elements a thread holds per chunk more than their bytes (each is
    /// converted to fp32 where it is used): with at most 8 elements (fp32 rows, or 16-bit
    /// rows of one vector per lane) the norm fits 48 registers without spilling, so 5 blocks
    /// of 256 threads stay resident instead of the shape's 4 (fp32 32768 x 4096 LayerNorm
    /// on the H100: 2828 GB/s). RMSNorm alone nearly fits 16 elements of an fp16 row under
    /// that cap too (a few spilled words, and faster at 5 blocks); LayerNorm over 16 spills
    /// more and ran slower at 5 blocks than at 4, and bf16's conversions spill either.
    static constexpr index_t MinBlocksPerCu =
        Shape::MinBlocksPerCu * Shape::BlockSize == 1024 &&
                (Shape::Repeat * Shape::Vector <= 8 ||
                 (Kind == norm_kind::rmsnorm && Shape::Repeat * Shape::Vector <= 16 &&
                  !std::is_same_v<XDataType, bf16_t>))
            ? 1280 / Shape::BlockSize
            : Shape::MinBlocksPerCu;

    /// Whether a launch with `h` normalizes as LayerNorm (constant unless Kind is either).
    CK_TILE_HOST_DEVICE static constexpr bool is_layernorm(const norm_host_args& h)
    {
        if constexpr(Kind == norm_kind::either)
            return h.layernorm;
        else
            return Kind == norm_kind::layernorm;
    }

    /// RMSNorm of 16-bit rows loads the weights after the row's statistics: under the 5-block
    /// cap the registers they would hold through the reduction are what it lacks (fp16 32768 x
    /// 4096 on the H100: 2822 GB/s; LayerNorm lost 1% that way, fp32 RMSNorm 2%).
    static constexpr bool WeightsAfterStatistics =
        Kind == norm_kind::rmsnorm && sizeof(XDataType) == 2;

    struct kargs
    {
        norm_host_args h;
        row_groups<Shape> groups;
    };

    static const char* why_unsupported(const norm_host_args& h)
    {
        using detail::row_layout_unsupported;
        if(Kind != norm_kind::either && is_layernorm(h) != h.layernorm)
            return h.layernorm ? "this kernel is compiled for RMSNorm, not LayerNorm"
                               : "this kernel is compiled for LayerNorm, not RMSNorm";
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

    /// Whether the staged path is compiled: RMSNorm's kernel has none (staged, fp16 32768 x
    /// 4096 RMSNorm ran 2655 GB/s against 2833 from registers; LayerNorm 2710 against 2305).
    static constexpr bool StagedPath = Staged && Kind != norm_kind::rmsnorm;

    /// Whether a launch takes the staged path: LayerNorm rows that fit the tile, no fused
    /// residual.
    CK_TILE_HOST_DEVICE static constexpr bool staged(const norm_host_args& h)
    {
        return StagedPath && is_layernorm(h) && h.cols <= Shape::TileN && !h.fused_residual;
    }

    static kargs make_kargs(const norm_host_args& h)
    {
        if(staged(h))
            return {h, row_groups<Shape>{(h.rows + StagedRows - 1) / StagedRows}};
        return {h, row_groups<Shape>::of(h.rows)};
    }
    static unsigned grid_size(const kargs& k) { return k.groups.grid_size(); }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        if constexpr(StagedPath)
        {
            if(staged(k.h))
            {
                for(long_index_t g = get_block_id(); g < k.groups.count; g += get_grid_size())
                    run_staged_rows(k.h, g);
                return;
            }
        }
        for(long_index_t g = get_block_id(); g < k.groups.count; g += get_grid_size())
            run_row_group(k.h, g);
    }

    /// Rows [g StagedRows, (g + 1) StagedRows) of a problem whose rows fit the tile: each
    /// thread copies its own 16-byte vectors of the next rows into shared memory (masked
    /// columns zero-filled) while the block normalizes the current one from there. A thread
    /// reads back only what it copied, so its own wait_group is all the ordering needed; a
    /// stage is refilled after the row it held has been normalized.
    CK_TILE_DEVICE static void run_staged_rows(const norm_host_args& h, long_index_t g)
    {
        // Raw bytes: a __shared__ array of the element class would ask for its constructor.
        alignas(16)
            __shared__ unsigned char rows_bytes[RowsInFlight * Shape::TileN * sizeof(XDataType)];
        auto stage = [&](index_t i) {
            return reinterpret_cast<XDataType*>(rows_bytes) + (i % RowsInFlight) * Shape::TileN;
        };
        const long_index_t r0   = g * StagedRows;
        const long_index_t left = h.rows - r0;
        const index_t n         = static_cast<index_t>(left < StagedRows ? left : StagedRows);
        const index_t cols      = static_cast<index_t>(h.cols);
        const index_t col0      = Shape::first_column();
        const auto* x           = static_cast<const XDataType*>(h.x);
        auto copy_row           = [&](index_t i) {
            if(i < n)
            {
                const XDataType* src = x + (r0 + i) * h.x_stride;
                XDataType* dst       = stage(i);
                static_for<0, Shape::Repeat, 1>{}([&](auto j) {
                    const index_t c = col0 + decltype(j)::value * Shape::RepeatPitch;
                    const bool real = c < cols;
                    arch::copy_16_bytes_async(dst + c, real ? src + c : src, real ? 16u : 0u);
                });
            }
            arch::copy_async_commit(); // empty groups keep the count per row
        };
        static_for<0, RowsInFlight, 1>{}([&](auto i) { copy_row(decltype(i)::value); });
        for(index_t i = 0; i < n; ++i)
        {
            arch::copy_async_wait<RowsInFlight - 1>(); // row i's group, this thread's copies
            run_row_group(h, r0 + i, stage(i));
            copy_row(i + RowsInFlight);
        }
        arch::copy_async_wait<0>();
    }

    /// One group of the unstaged grid, or (staged_row given) one fitting row of the staged
    /// path, read from its shared-memory stage instead of global memory.
    CK_TILE_DEVICE static void run_row_group(const norm_host_args& h, long_index_t group,
                                             const XDataType* staged_row = nullptr)
    {
        __shared__ float smem[2 * Shape::RowsPerBlock * Shape::WarpsPerRow];

        // x (and h) and the weight stay in registers in their storage types and are converted
        // where they are used: a 16-bit row takes half the registers of an fp32 copy, and the
        // registers decide how many rows an SM keeps in flight (these kernels are bound by the
        // bytes in flight, not by instructions).
        using tile_x =
            decltype(make_static_distributed_tensor<XDataType>(Shape::make_distribution()));
        using tile_w =
            decltype(make_static_distributed_tensor<WDataType>(Shape::make_distribution()));
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

        const index_t col0 = Shape::first_column();
        const float inv_n  = 1.f / static_cast<float>(cols);
        float mean = 0.f, rstd = 0.f;
        auto to_f = [](auto v) { return type_convert<float>(v); };

        // Windows are made where they are used (see row_block::window), so none is live
        // across the row's reductions.
        // h for the chunk at column c: x (+ r, rounded to X and written back).
        auto load_h = [&](tile_x& t, index_t c) {
            blk.window(x, h.x_stride, c).load(t);
            if(h.fused_residual)
            {
                tile_x rt;
                blk.window(r, h.residual_stride, c).load(rt);
                sweep_tile(t, [&](auto idx, XDataType& v) {
                    v = type_convert<XDataType>(to_f(v) + to_f(rt(idx)));
                });
                blk.window(ro, h.residual_out_stride, c).store(t);
            }
        };
        // Weight and bias for the chunk at column c: one row seen by every row of the block
        // (row stride 0).
        auto load_weights = [&](tile_w& wt, tile_w& bt, index_t c) {
            blk.window(w, 0, c).load(wt);
            if(h.has_bias)
                blk.window(b, 0, c).load(bt);
        };
        // y for the chunk at column c; the bias is a uniform branch around the sweep, not a
        // select per element.
        auto normalize_store = [&](const tile_x& t, const tile_w& wt, const tile_w& bt, index_t c) {
            tile_f out;
            auto sweep = [&](auto with_bias) {
                sweep_tile(out, [&](auto idx, float& v) {
                    v = (to_f(t(idx)) - mean) * rstd * to_f(wt(idx));
                    if constexpr(decltype(with_bias)::value)
                        v += to_f(bt(idx));
                });
            };
            if(h.has_bias)
                sweep(std::true_type{});
            else
                sweep(std::false_type{});
            blk.window(y, h.y_stride, c).store(out);
        };
        auto square = [](float acc, float v) { return acc + v * v; };
        // Long rows take LayerNorm's statistics about the row's first element (h[0]) in one
        // pass: sums of h - h[0] and (h - h[0])^2 neither lose the mean's low bits nor cancel
        // in the variance for rows with a large mean, and both come from one exchange. A
        // non-finite h[0] shifts by zero instead, so an inf keeps the mean an inf and a NaN
        // keeps it a NaN, as in the reference.
        // Every thread of a row must use the same shift, so when residual_out is x or the
        // residual (h written over an input) the block reads it before any thread stores h.
        // Called by every thread of the block.
        auto row_shift = [&]() {
            float s = 0.f;
            if(row_valid)
            {
                s = to_f(x[my_row * h.x_stride]);
                if(h.fused_residual)
                    s = to_f(type_convert<XDataType>(s + to_f(r[my_row * h.residual_stride])));
                if(!(s - s == 0.f)) // inf or NaN; plain arithmetic on every target
                    s = 0.f;
            }
            if(h.fused_residual && (h.residual_out == h.x || h.residual_out == h.residual))
                block_sync_lds();
            return s;
        };
        // mean and rstd from the row's sums of h - shift and of its squares.
        auto layernorm_statistics = [&](float sum, float squares, float shift) {
            block_row_sum_pair<Shape>(sum, squares, smem);
            const float d   = sum * inv_n;
            mean            = shift + d;
            const float var = squares * inv_n - d * d;
            // Clamp rounding below zero, but keep a NaN (from inf or NaN inputs) a NaN.
            rstd = 1.f / sqrtf((var < 0.f ? 0.f : var) + h.epsilon);
        };

        if(cols <= Shape::TileN)
        {
            // The row fits: one read, statistics from registers, one write. LayerNorm loads
            // weight and bias with x, so their latency (L2: x streams through L1) hides behind
            // the row's rather than coming after the reductions (RMSNorm: see
            // WeightsAfterStatistics). LayerNorm is the corrected two-pass
            // form: the plain mean m0 first, then the sums of x - m0 and of its squares in one
            // exchange, which give the mean's low bits back (an fp32 sum of a row near 1000 is
            // off by about 1e-4 of the mean) and a variance that does not cancel. Masked
            // columns read as zero: neutral for the sums of x and x^2, not for the sums about
            // m0, which fold_chunk masks only when the row is shorter than the tile.
            tile_x t;
            tile_w wt, bt;
            if(staged_row)
                make_tile_window(make_naive_tensor_view<address_space_enum::lds>(
                                     staged_row, make_tuple(1, Shape::TileN),
                                     make_tuple(Shape::TileN, 1), number<Shape::Vector>{},
                                     number<1>{}),
                                 Shape::lengths(), {0, 0}, Shape::make_distribution())
                    .load(t);
            else
                load_h(t, 0);
            if constexpr(!WeightsAfterStatistics)
                load_weights(wt, bt, 0);
            if(is_layernorm(h))
            {
                float s = 0.f;
                sweep_tile(t, [&](auto, XDataType& v) { s += to_f(v); });
                const float m0 = block_row_reduce<Shape>(s, row_sum_op{}, smem) * inv_n;
                // An inf or NaN mean is the answer already: sums about zero keep it.
                const float shift = m0 - m0 == 0.f ? m0 : 0.f;
                const float d     = Shape::fold_chunk(
                        t, 0, col0, cols, 0.f, [&](float acc, float v) { return acc + (v - shift); });
                const float q = Shape::fold_chunk(t, 0, col0, cols, 0.f, [&](float acc, float v) {
                    return square(acc, v - shift);
                });
                layernorm_statistics(d, q, shift);
            }
            else
            {
                float q = 0.f;
                sweep_tile(t, [&](auto, XDataType& v) { q = square(q, to_f(v)); });
                rstd =
                    1.f / sqrtf(block_row_reduce<Shape>(q, row_sum_op{}, smem) * inv_n + h.epsilon);
            }
            if constexpr(WeightsAfterStatistics)
                load_weights(wt, bt, 0);
            normalize_store(t, wt, bt, 0);
        }
        else
        {
            // Long rows: statistics in a first pass, then a second pass re-reads h (the
            // residual sum from memory when fused: this thread wrote exactly those elements).
            const float shift = is_layernorm(h) ? row_shift() : 0.f;
            float s = 0.f, q = 0.f;
            for(index_t c = 0; c < cols; c += Shape::TileN)
            {
                tile_x t;
                load_h(t, c);
                s = Shape::fold_chunk(t, c, col0, cols, s,
                                      [&](float acc, float v) { return acc + (v - shift); });
                q = Shape::fold_chunk(t, c, col0, cols, q,
                                      [&](float acc, float v) { return square(acc, v - shift); });
            }
            if(is_layernorm(h))
                layernorm_statistics(s, q, shift);
            else
                rstd =
                    1.f / sqrtf(block_row_reduce<Shape>(q, row_sum_op{}, smem) * inv_n + h.epsilon);

            const auto* hp              = h.fused_residual ? static_cast<const XDataType*>(ro) : x;
            const long_index_t h_stride = h.fused_residual ? h.residual_out_stride : h.x_stride;
            for(index_t c = 0; c < cols; c += Shape::TileN)
            {
                tile_x t;
                tile_w wt, bt;
                blk.window(hp, h_stride, c).load(t);
                load_weights(wt, bt, c);
                normalize_store(t, wt, bt, c);
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
