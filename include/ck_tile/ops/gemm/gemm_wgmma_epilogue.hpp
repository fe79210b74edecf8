// SPDX-License-Identifier: MIT
// The Hopper GEMM's epilogue: a consumer warpgroup's accumulators (64 x BlockN, in the wgmma D
// fragment layout) through gemm_tile_output's operations to D, masked at the matrix edge.
//
// Three paths, chosen per launch:
//  - store_partial (split-K): the raw sums to the split's slice of the workspace; the epilogue
//    runs in gemm_tile_splitk_reduce afterwards.
//  - scale_and_store: D = alpha * acc, converted, straight from the registers. Each thread holds
//    pairs of adjacent columns, so with D row-major, an even leading dimension and an aligned
//    pointer a pair leaves in one store. A handful of instructions per pair, fully unrolled
//    (register arrays only have compile-time indices).
//  - stage_and_store: everything else (beta * C, bias, activations, any D layout). The
//    accumulators pass through shared memory in 64 x 32 chunks, and one copy of the full
//    per-element epilogue, in a run-time loop, writes them with consecutive threads on
//    consecutive columns. Unrolling the full epilogue 128 times per thread made a kernel whose
//    instruction fetch, not its math, set the speed.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/memory_word.hpp"
#include "ck_tile/core/arch/nvidia/wgmma_traits.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_tile_epilogue.hpp"

#include <cstdint>

namespace ck_tile {

template <typename Problem, index_t BlockN, bool Fused>
struct gemm_wgmma_epilogue
{
    using D                               = typename Problem::DDataType;
    using E                               = typename Problem::EpilogueType;
    using Acc                             = typename Problem::AccDataType;
    static constexpr index_t accumulators = BlockN / 2;

    /// Columns per shared-memory chunk, and the padded row pitch (in accumulators) that keeps
    /// the fragment writes of a warp on distinct banks.
    static constexpr index_t chunk_cols  = 32;
    static constexpr index_t chunk_pitch = chunk_cols + 1;
    /// Shared memory one consumer warpgroup needs for stage_and_store.
    static constexpr index_t staging_bytes = 64 * chunk_pitch * static_cast<index_t>(sizeof(Acc));
    static_assert(BlockN % chunk_cols == 0, "BlockN is a whole number of chunks");

    /// True when scale_and_store computes what gemm_tile_output::write would (alpha and the
    /// per-tensor scales only).
    CK_TILE_HOST_DEVICE static bool scale_only(const gemm_tile_output<D, E>& out, bool pairs)
    {
        return pairs && !out.read_c && out.bias_kind == gemm_bias::none &&
               out.activation == gemm_activation::none && !out.multi_d.active();
    }

    /// @pre scale_only(out, pairs) and out.load_scales(). `row0`, `col0`: the slab's first
    /// element; `t`: the thread within the warpgroup.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    scale_and_store(const Acc (&acc)[accumulators], const gemm_tile_output<D, E>& out,
                    std::int64_t row0, std::int64_t col0, index_t t)
    {
        const E alpha = out.alpha, d_scale = out.d_scale;
        store_fragment(acc, out.d, out.d_stride_m, out.m, out.n, row0, col0, t, true,
                       [alpha, d_scale](Acc v) {
                           return convert_output<D>(d_scale * (alpha * static_cast<E>(v)));
                       });
    }

    /// Split-K: the raw sums into one split's row-major m x n slice of partial sums.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void store_partial(const Acc (&acc)[accumulators],
                                                                  Acc* partial, std::int64_t m,
                                                                  std::int64_t n, std::int64_t row0,
                                                                  std::int64_t col0, index_t t)
    {
        store_fragment(acc, partial, n, m, n, row0, col0, t, n % 2 == 0, [](Acc v) { return v; });
    }

    /// f(acc) to the row-major (leading dimension ld) m x n matrix at p, masked.
    /// wgmma_accumulator_coord, unfolded: a thread's accumulators lie on two rows (lo, and
    /// lo + 8), and 4j .. 4j + 3 are columns 8j + 2 (t % 4) + {0, 1} of those rows.
    /// `pairs`: every row start p + r * ld is aligned to two elements (one store per pair).
    template <typename T, typename F>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    store_fragment(const Acc (&acc)[accumulators], T* p, std::int64_t ld, std::int64_t m,
                   std::int64_t n, std::int64_t row0, std::int64_t col0, index_t t, bool pairs, F f)
    {
        const index_t warp = t / 32, lane = t % 32;
        const std::int64_t r_lo = row0 + warp * 16 + lane / 4, r_hi = r_lo + 8;
        const std::int64_t c_first = col0 + (lane % 4) * 2;
        const bool lo_in = r_lo < m, hi_in = r_hi < m;
        T* const p_lo = p + r_lo * ld;
        T* const p_hi = p + r_hi * ld;
#pragma unroll
        for(index_t j = 0; j < BlockN / 8; ++j)
        {
            const std::int64_t c = c_first + 8 * j;
            if(pairs && c + 1 < n)
            {
                if(lo_in)
                    store_pair(p_lo + c, f(acc[4 * j]), f(acc[4 * j + 1]));
                if(hi_in)
                    store_pair(p_hi + c, f(acc[4 * j + 2]), f(acc[4 * j + 3]));
            }
            else
            {
                if(lo_in && c < n)
                    p_lo[c] = f(acc[4 * j]);
                if(hi_in && c < n)
                    p_hi[c] = f(acc[4 * j + 2]);
                if(lo_in && c + 1 < n)
                    p_lo[c + 1] = f(acc[4 * j + 1]);
                if(hi_in && c + 1 < n)
                    p_hi[c + 1] = f(acc[4 * j + 3]);
            }
        }
    }

    /// Two adjacent elements in one store. @pre p is 2 * sizeof(T) aligned.
    template <typename T>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void store_pair(T* p, T v0, T v1)
    {
        using word = arch::memory_word_t<2 * sizeof(T)>;
        struct alignas(word) pair
        {
            T v[2];
        };
        const pair two{{v0, v1}};
        word w;
        __builtin_memcpy(&w, &two, sizeof(w));
        *reinterpret_cast<word*>(p) = w;
    }

    /// The full epilogue through `staging` (staging_bytes of shared memory owned by this
    /// warpgroup). `barrier_id`: a named barrier only this warpgroup's 128 threads use.
    /// The chunk loop is a run-time loop, so the per-element epilogue exists once in the code;
    /// each pass parks its chunk's accumulators with stores predicated on the chunk index
    /// (register arrays only take compile-time indices).
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    stage_and_store(const Acc (&acc)[accumulators], const gemm_tile_output<D, E>& out,
                    std::int64_t row0, std::int64_t col0, index_t t, Acc* staging,
                    uint32_t barrier_id)
    {
        constexpr index_t chunks = BlockN / chunk_cols;
        const index_t warp = t / 32, lane = t % 32;
        Acc* const s_lo = staging + (warp * 16 + lane / 4) * chunk_pitch + (lane % 4) * 2;
        Acc* const s_hi = s_lo + 8 * chunk_pitch;
#pragma unroll 1
        for(index_t chunk = 0; chunk < chunks; ++chunk)
        {
#pragma unroll
            for(index_t c = 0; c < chunks; ++c)
            {
                if(c != chunk)
                    continue;
#pragma unroll
                for(index_t j = 0; j < chunk_cols / 8; ++j)
                {
                    const index_t i = 4 * (c * chunk_cols / 8 + j);
                    s_lo[8 * j]     = acc[i];
                    s_lo[8 * j + 1] = acc[i + 1];
                    s_hi[8 * j]     = acc[i + 2];
                    s_hi[8 * j + 1] = acc[i + 3];
                }
            }
            named_barrier_sync(barrier_id, 128);
            const std::int64_t c0 = col0 + chunk * chunk_cols;
            // Four elements in flight per thread: one at a time, the loop waited on each
            // element's loads in turn. (Issuing the four elements' loads before their stores,
            // which D aliasing C or D0 otherwise forbids, measured slower on the H100.)
#pragma unroll 4
            for(index_t e = t; e < 64 * chunk_cols; e += 128)
            {
                const index_t rr = e / chunk_cols, cc = e % chunk_cols;
                const std::int64_t r = row0 + rr, c = c0 + cc;
                if(r < out.m && c < out.n)
                    out.template write<Fused>(r, c, staging[rr * chunk_pitch + cc]);
            }
            named_barrier_sync(barrier_id, 128);
        }
    }
};

} // namespace ck_tile
