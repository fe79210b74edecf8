// SPDX-License-Identifier: MIT
// The tile GEMM: matrix instructions (mma.sync on NVIDIA, MFMA on AMD) over shared-memory
// tiles filled Stages deep, every layout pair, masked edges for any M, N, K >= 1, batched,
// with alpha/beta, bias and activation, and optional split-K. Per block:
//
//   tile  = partitioner(block)                        (grouped order, L2 reuse)
//   acc   = 0
//   pipeline: for each K tile of the block's split    (global -> shared, Stages deep)
//               acc += block_gemm(shared A, shared B) (warp_gemm grid, intrawave/interwave)
//   epilogue(acc) -> D, or -> workspace, then gemm_tile_splitk_reduce -> D
//
// Pieces: gemm_tile_problem, gemm_tile_policy, gemm_tile_block_gemm, gemm_tile_pipeline,
// gemm_tile_partitioner, gemm_tile_epilogue. Host arguments are the SIMT kernel's
// (gemm_simt_host_args), so one mapping from the C API serves both.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_simt_kernel.hpp"
#include "ck_tile/ops/gemm/gemm_split_k.hpp"
#include "ck_tile/ops/gemm/gemm_tile_block_gemm.hpp"
#include "ck_tile/ops/gemm/gemm_splitk_reduce.hpp"
#include "ck_tile/ops/gemm/gemm_tile_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_tile_partitioner.hpp"
#include "ck_tile/ops/gemm/gemm_tile_pipeline.hpp"
#include "ck_tile/ops/gemm/gemm_tile_policy.hpp"
#include "ck_tile/ops/gemm/gemm_tile_problem.hpp"

#include <cstddef>
#include <cstdint>

namespace ck_tile {

/// SplitK: the kernel may cut K across blocks when the output has too few tiles to fill the
/// machine (k_splits()); the partial sums then need a workspace.
template <typename Problem_, typename Policy_, bool FusedEpilogue_, bool SplitK_>
struct gemm_tile_kernel
{
    using Problem    = Problem_;
    using Policy     = Policy_;
    using P          = typename Policy::template of<Problem>;
    using A          = typename Problem::ADataType;
    using B          = typename Problem::BDataType;
    using D          = typename Problem::DDataType;
    using Acc        = typename Problem::AccDataType;
    using E          = typename Problem::EpilogueType;
    using Index      = std::int64_t;
    using pipeline   = gemm_tile_pipeline<Problem, Policy>;
    using block_gemm = gemm_tile_block_gemm<Problem, Policy>;
    using epilogue   = gemm_tile_epilogue<Problem, Policy, FusedEpilogue_>;
    using reduce     = gemm_tile_splitk_reduce<Acc, D, E, FusedEpilogue_>;

    static constexpr bool FusedEpilogue = FusedEpilogue_;
    static constexpr bool SplitK        = SplitK_;
    static constexpr index_t BlockSize  = Policy::BlockSize;
    static constexpr index_t BlockM = Policy::BlockM, BlockN = Policy::BlockN,
                             BlockK  = Policy::BlockK;
    static constexpr index_t VectorA = P::vector_a, VectorB = P::vector_b;
    /// Dynamic shared memory per block: give it to the launch.
    static constexpr std::size_t shared_memory_bytes = P::shared_memory_bytes;
    static_assert(P::a_stage_bytes % 16 == 0 && P::b_stage_bytes % 16 == 0,
                  "every stage starts 16-byte aligned");

    /// Split-K aims at this many blocks (about two per compute unit of a large GPU), gives each
    /// split at least MinKTilesPerSplit K tiles and uses at most MaxSplits.
    static constexpr std::int64_t TargetBlocks = 256, MinKTilesPerSplit = 4, MaxSplits = 16;
    static constexpr std::int64_t max_grid_z = 65535;

    struct kargs
    {
        gemm_tile_operand<A> a;
        gemm_tile_operand<B> b;
        gemm_tile_output<D, E> out;
        Acc* workspace;
        std::int64_t batch_count, batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d,
            batch_stride_bias;
        std::int64_t tiles_m, tiles_n, splits, k_per_split, grid_z;
    };

    static std::int64_t tiles_m(const gemm_simt_host_args& h)
    {
        return (h.m + BlockM - 1) / BlockM;
    }
    static std::int64_t tiles_n(const gemm_simt_host_args& h)
    {
        return (h.n + BlockN - 1) / BlockN;
    }

    /// How many blocks share one output tile's K range (1: no split-K, no workspace).
    /// @post 1 <= k_splits(h) <= MaxSplits, and every split has at least one K tile.
    static std::int64_t k_splits(const gemm_simt_host_args& h)
    {
        if constexpr(!SplitK)
            return 1;
        const std::int64_t blocks = tiles_m(h) * tiles_n(h) * h.batch_count;
        const std::int64_t wish = blocks >= TargetBlocks ? 1 : (TargetBlocks + blocks - 1) / blocks;
        return clamp_k_splits(wish, (h.k + BlockK - 1) / BlockK, MinKTilesPerSplit, MaxSplits);
    }
    static std::int64_t k_per_split(const gemm_simt_host_args& h)
    {
        const std::int64_t k_tiles = (h.k + BlockK - 1) / BlockK, s = k_splits(h);
        return (k_tiles + s - 1) / s * BlockK;
    }

    /// Workspace bytes: one accumulator per element of D per split (0 without a split).
    static std::size_t workspace_bytes(const gemm_simt_host_args& h)
    {
        const std::int64_t s = k_splits(h);
        return s > 1 ? static_cast<std::size_t>(s * h.batch_count * h.m * h.n) * sizeof(Acc) : 0;
    }

    /// Why the kernel cannot run `h` (nullptr when it can): what the tile kernel adds to a
    /// well-formed problem of its types and layouts.
    static const char* why_unsupported(const gemm_simt_host_args& h)
    {
        if constexpr(!FusedEpilogue)
        {
            if(const char* why = unfused_epilogue_refuses(h))
                return why;
        }
        // Vectors run along each operand's contiguous side: the other stride (the leading
        // dimension), the batch stride and the pointer must keep every vector aligned.
        const std::int64_t lda = Problem::a_k_contiguous ? h.a_stride_m : h.a_stride_k;
        const std::int64_t ldb = Problem::b_k_contiguous ? h.b_stride_n : h.b_stride_k;
        if(lda % VectorA != 0)
            return "lda is not a multiple of the instance's vector width (alignment_elements)";
        if(ldb % VectorB != 0)
            return "ldb is not a multiple of the instance's vector width (alignment_elements)";
        if(h.batch_stride_a % VectorA != 0)
            return "stride_a is not a multiple of the instance's vector width";
        if(h.batch_stride_b % VectorB != 0)
            return "stride_b is not a multiple of the instance's vector width";
        if(reinterpret_cast<std::uintptr_t>(h.a) % (VectorA * sizeof(A)) != 0)
            return "A's pointer is not aligned to the instance's vector width";
        if(reinterpret_cast<std::uintptr_t>(h.b) % (VectorB * sizeof(B)) != 0)
            return "B's pointer is not aligned to the instance's vector width";
        if(tiles_m(h) * tiles_n(h) > 2147483647)
            return "more output tiles than a grid holds";
        return nullptr;
    }

    /// @pre why_unsupported(h) == nullptr; workspace holds workspace_bytes(h).
    static kargs make_kargs(const gemm_simt_host_args& h, void* workspace)
    {
        kargs k{};
        k.a                 = {static_cast<const A*>(h.a), h.m, h.k, h.a_stride_m, h.a_stride_k};
        k.b                 = {static_cast<const B*>(h.b), h.n, h.k, h.b_stride_n, h.b_stride_k};
        k.out               = gemm_tile_output<D, E>::from(h);
        k.workspace         = static_cast<Acc*>(workspace);
        k.batch_count       = h.batch_count;
        k.batch_stride_a    = h.batch_stride_a;
        k.batch_stride_b    = h.batch_stride_b;
        k.batch_stride_c    = h.batch_stride_c;
        k.batch_stride_d    = h.batch_stride_d;
        k.batch_stride_bias = h.batch_stride_bias;
        k.tiles_m           = tiles_m(h);
        k.tiles_n           = tiles_n(h);
        k.splits            = k_splits(h);
        k.k_per_split       = k_per_split(h);
        k.grid_z            = h.batch_count < max_grid_z ? h.batch_count : max_grid_z;
        return k;
    }

    /// Blocks: x output tiles, y K splits, z batches (walked in a loop past 65535).
    static void grid(const kargs& k, std::int64_t& x, std::int64_t& y, std::int64_t& z)
    {
        x = k.tiles_m * k.tiles_n, y = k.splits, z = k.grid_z;
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE void operator()(const kargs& ka) const
    {
        // Dynamic shared memory (the launch gives shared_memory_bytes, opted in above 48 KiB),
        // 16-byte aligned: every stage starts 16-byte aligned, as asynchronous copies need.
        unsigned char* smem = get_dynamic_shared_memory();
        const typename pipeline::shared_tiles lds{
            reinterpret_cast<A*>(smem),
            reinterpret_cast<B*>(smem + Policy::Stages * P::a_stage_bytes)};
        const auto tile =
            gemm_tile_partitioner<Policy::GroupM>{ka.tiles_m, ka.tiles_n}(get_block_id());
        const std::int64_t m0 = tile.m * BlockM, n0 = tile.n * BlockN;
        const std::int64_t split   = get_block_id_y();
        const std::int64_t k_begin = split * ka.k_per_split;
        const std::int64_t k_end =
            ka.a.k < k_begin + ka.k_per_split ? ka.a.k : k_begin + ka.k_per_split;
        const index_t lane = get_lane_id(), warp = get_warp_id();
        const std::int64_t wm = m0 + (warp / Policy::WarpsN) * Policy::WarpTileM;
        const std::int64_t wn = n0 + (warp % Policy::WarpsN) * Policy::WarpTileN;

        for(std::int64_t batch = get_block_id_z(); batch < ka.batch_count; batch += ka.grid_z)
        {
            gemm_tile_operand<A> a = ka.a;
            gemm_tile_operand<B> b = ka.b;
            a.p += batch * ka.batch_stride_a;
            b.p += batch * ka.batch_stride_b;
            typename block_gemm::accumulators acc;
            block_gemm::clear(acc);
            pipeline::run(acc, lds, a, b, m0, n0, k_begin, k_end);
            if(ka.splits == 1)
            {
                gemm_tile_output<D, E> out = ka.out;
                out.template select_batch<FusedEpilogue>(batch, ka.batch_stride_c,
                                                         ka.batch_stride_d, ka.batch_stride_bias);
                out.load_scales();
                epilogue::store(acc, out, wm, wn, lane);
            }
            else
                epilogue::store_partial(
                    acc, ka.workspace + (split * ka.batch_count + batch) * ka.out.m * ka.out.n,
                    ka.out.m, ka.out.n, wm, wn, lane);
        }
    }
#endif
};

} // namespace ck_tile
