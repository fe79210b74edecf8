// SPDX-License-Identifier: MIT
// The second kernel of split-K: D = epilogue(sum over splits s = 0, 1, ... of partial[s]), the
// splits added in index order (so results do not depend on timing).
// Workspace: splits x batches x M x N accumulators, split-major.
//
// Rows of D (over all batches) are spread over groups of `lanes_per_row` threads, each thread
// taking `vector` consecutive columns: with N a multiple of 4 a thread reads each split's four
// sums in one 16-byte load, and it issues every load of its columns (all splits, C, bias,
// extra inputs) before it stores any of them. Row, batch and column come from one division
// per row instead of three 64-bit divisions per element.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_tile_epilogue.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/arch.hpp"
#endif

#include <cstdint>

namespace ck_tile {

template <typename Acc, typename D, typename E, bool Fused>
struct gemm_tile_splitk_reduce
{
    static constexpr index_t BlockSize = 256;
    static constexpr index_t vector    = 4;
    static_assert(sizeof(Acc) * vector == 16, "a vector of sums is one 16-byte load");
    /// Blocks along the rows: the launch's y dimension, walked in a loop beyond it.
    static constexpr std::int64_t max_row_blocks = 65535;

    struct kargs
    {
        const Acc* partial;
        gemm_tile_output<D, E> out;
        std::int64_t splits, batches;
        std::int64_t batch_stride_c, batch_stride_d, batch_stride_bias;
        index_t lanes_per_row; // a power of two from 32 to BlockSize
    };

    /// @post lanes_per_row covers a row's vectors with the fewest whole warps (at most a block).
    CK_TILE_HOST static kargs make_kargs(const Acc* partial, const gemm_tile_output<D, E>& out,
                                         std::int64_t splits, std::int64_t batches,
                                         std::int64_t batch_stride_c, std::int64_t batch_stride_d,
                                         std::int64_t batch_stride_bias)
    {
        const std::int64_t vectors = (out.n + vector - 1) / vector;
        index_t lanes              = 32;
        while(lanes < BlockSize && lanes < vectors)
            lanes *= 2;
        return {partial,           out,  splits, batches, batch_stride_c, batch_stride_d,
                batch_stride_bias, lanes};
    }

    /// Blocks: x column groups, y row groups.
    CK_TILE_HOST static void grid(const kargs& k, std::int64_t& x, std::int64_t& y)
    {
        const std::int64_t rows_per_block = BlockSize / k.lanes_per_row;
        const std::int64_t cols_per_block = std::int64_t(k.lanes_per_row) * vector;
        const std::int64_t rows           = k.out.m * k.batches;
        x                                 = (k.out.n + cols_per_block - 1) / cols_per_block;
        y                                 = (rows + rows_per_block - 1) / rows_per_block;
        if(y > max_row_blocks)
            y = max_row_blocks;
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs ka) const
    {
        const index_t t = get_thread_id();
        const std::int64_t col =
            (std::int64_t(get_block_id()) * ka.lanes_per_row + t % ka.lanes_per_row) * vector;
        const std::int64_t m = ka.out.m, n = ka.out.n;
        const std::int64_t rows  = m * ka.batches;
        const std::int64_t total = rows * n;
        const std::int64_t row_step =
            std::int64_t(get_grid_size_y()) * (BlockSize / ka.lanes_per_row);
        const bool whole_vectors      = n % vector == 0;
        gemm_tile_output<D, E> scaled = ka.out;
        scaled.load_scales();
        if(col >= n)
            return;
        for(std::int64_t row = std::int64_t(get_block_id_y()) * (BlockSize / ka.lanes_per_row) +
                               t / ka.lanes_per_row;
            row < rows; row += row_step)
        {
            const std::int64_t batch = row / m, r = row - batch * m;
            const Acc* p    = ka.partial + row * n + col;
            Acc sum[vector] = {};
            if(whole_vectors) // 16-byte aligned: n, col and the split size are multiples of 4
            {
                struct alignas(16) sums
                {
                    Acc v[vector];
                };
                sums acc = *reinterpret_cast<const sums*>(p);
                for(std::int64_t s = 1; s < ka.splits; ++s)
                {
                    const sums more = *reinterpret_cast<const sums*>(p + s * total);
#pragma unroll
                    for(index_t k = 0; k < vector; ++k)
                        acc.v[k] += more.v[k];
                }
#pragma unroll
                for(index_t k = 0; k < vector; ++k)
                    sum[k] = acc.v[k];
            }
            else
            {
#pragma unroll
                for(index_t k = 0; k < vector; ++k)
                    if(col + k < n)
                    {
                        sum[k] = p[k];
                        for(std::int64_t s = 1; s < ka.splits; ++s)
                            sum[k] += p[s * total + k];
                    }
            }
            gemm_tile_output<D, E> out = scaled;
            out.template select_batch<Fused>(batch, ka.batch_stride_c, ka.batch_stride_d,
                                             ka.batch_stride_bias);
            typename gemm_tile_output<D, E>::element_inputs in[vector] = {};
#pragma unroll
            for(index_t k = 0; k < vector; ++k)
                if(col + k < n)
                    in[k] = out.template gather<Fused>(r, col + k);
#pragma unroll
            for(index_t k = 0; k < vector; ++k)
                if(col + k < n)
                    out.template write<Fused>(r, col + k, sum[k], in[k]);
        }
    }
#endif
};

} // namespace ck_tile
