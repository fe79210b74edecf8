// SPDX-License-Identifier: MIT
// The Hopper GEMM (sm_90a): TMA copies into a ring of swizzled shared-memory stages, a
// producer warpgroup and consumer warpgroups issuing wgmma (gemm_wgmma_policy), persistent blocks
// over every output tile, and the tile GEMM's fused epilogue (alpha/beta, bias, activation)
// straight from the accumulators. Per block:
//
//   init barriers; split roles (setmaxnreg: producer 40 registers, consumers the rest)
//   producer warp:    for each tile t of this block: produce(t)       (gemm_wgmma_pipeline)
//                     (B fed by the threads: four warps, produce_threads(t))
//   consumers:        for each tile t of this block: acc = consume(t); epilogue(acc) -> D
//
// Where D's layout allows, the epilogue's D (and C or D0) move through the copy engine as well
// (gemm_wgmma_epilogue), the stores running under the next tile's main loop.
//
// Edges cost nothing in the main loop: the copy engine fills rows and columns outside A and B
// with zeros, and only the epilogue masks. The copy engine needs 16-byte aligned pointers,
// leading dimensions and batch strides, and extents below 2^31. An operand whose leading
// dimension or batch stride is not a multiple of 16 bytes is first copied into workspace with
// rows on 128-byte lines (gemm_operand_staging); its pointer may then have any alignment.
// Instances whose producer threads feed B (gemm_wgmma_b_feed::threads, gemm_wgmma_b_rows) read
// a column-major B with any leading dimension and batch stride in place, from a 16-byte aligned
// pointer (else it is staged too).
//
// An operand read once (each tile by at most two neighbouring blocks, the whole larger than L2:
// a skinny GEMM's weights) is loaded with evict-first copies (gemm_wgmma_read_once), so that
// streaming it leaves the rest of L2 in place.
//
// Pieces: gemm_tile_problem (types, layouts), gemm_wgmma_policy (tile, stages, roles),
// gemm_wgmma_operand (shared-memory stage layout, descriptors), gemm_wgmma_pipeline,
// gemm_wgmma_scheduler, gemm_wgmma_epilogue. Host arguments are gemm_simt_host_args, like every
// GEMM kernel.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/nvidia/cluster.hpp"
#include "ck_tile/core/arch/nvidia/handoff.hpp"
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/sm90_features.hpp"
#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/arch/nvidia/prefetch.hpp"
#include "ck_tile/core/arch/nvidia/tma.hpp"
#include "ck_tile/core/arch/nvidia/wgmma.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/cluster_occupancy.hpp"
#include "ck_tile/host/hip_runtime.hpp"
#include "ck_tile/host/kernel_entry.hpp"
#include "ck_tile/host/tma_descriptor.hpp"
#include "ck_tile/ops/gemm/gemm_operand_staging.hpp"
#include "ck_tile/ops/gemm/gemm_simt_kernel.hpp"
#include "ck_tile/ops/gemm/gemm_split_k.hpp"
#include "ck_tile/ops/gemm/gemm_tile_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_tile_problem.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_pipeline.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_policy.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#if !defined(CK_TILE_PLATFORM_NVIDIA)
#error "ck_tile/ops/gemm/gemm_wgmma_kernel.hpp is the sm_90a GEMM: compile it with nvcc"
#endif

namespace ck_tile {

/// The entry points: kernel arguments stay in parameter space (the tensor maps are read there
/// by address), one block per SM; with clusters, the cluster shape is part of the kernel.
template <typename Kernel>
__global__ void __launch_bounds__(Kernel::BlockSize, 1)
    gemm_wgmma_entry(const CK_TILE_GRID_CONSTANT typename Kernel::kargs ka)
{
    Kernel{}(ka);
}

template <typename Kernel>
__global__ void __launch_bounds__(Kernel::BlockSize, 1) __cluster_dims__(Kernel::ClusterM, 1, 1)
    gemm_wgmma_cluster_entry(const CK_TILE_GRID_CONSTANT typename Kernel::kargs ka)
{
    Kernel{}(ka);
}

/// `FusedEpilogue_`: the bias, activation and multi-D operations are compiled in.
/// `AlphaOnly_`: only D = alpha * A * B (with the per-tensor scales), stored through the copy
/// engine from the registers, is compiled in: no C, no split-K, no staged or thread-stored
/// epilogue. (The last wave's split stays: its sums are added up in the registers before the
/// epilogue.) The kernel's code then shrinks by three quarters (the 192x192 pair from 181 KB
/// to 42 KB on sm_90a), and each tile's epilogue no longer waits for
/// instructions to arrive: on the H100, ncu SM cycles fell 2.0% at fp16 4096^3 (128x256),
/// 3.5% at 3000^3 (192x192 pairs) and 7.8% at 2048^3 (128x256), and the 192x192 pair's 72
/// bytes of spills went.
/// `BiasOnly_` (with the fused epilogue): the same restrictions, and D = alpha * A * B plus a
/// bias per row or per column (or none), without an activation or multi-D. The full fused
/// kernel holds ten copies of its per-element code for no input and ten for each input it
/// reads (five activations, two kinds of bias); this one holds two, about the alpha-only
/// kernel's size.
/// `BiasActivation_` (with BiasOnly_): D = act(alpha * A * B + bias) with that one activation,
/// which every problem it runs must ask for: two copies of that activation's code.
/// `ReadsC_` (with BiasOnly_): beta * C is compiled in as well, for beta != 0 only, C
/// row-major, loaded by the copy engine box by box into the slots D leaves from and read in
/// the registers (a C its map refuses goes to the fused kernels, whose staged epilogue loads
/// any C): D = alpha * A * B + beta * C + bias, the residual or accumulating product without
/// the fused kernel's multi-D and activation switch. Only for 16-bit D on plans with box slots
/// and tiles of at most 144 accumulators per thread (input_in_registers: the 192x192 pair's 144
/// hold C's box beside them in this kernel, not in the fused one).
template <typename Problem_, typename Policy_, bool FusedEpilogue_, bool AlphaOnly_ = false,
          bool BiasOnly_ = false, gemm_activation BiasActivation_ = gemm_activation::none,
          bool ReadsC_ = false>
struct gemm_wgmma_kernel
{
    static_assert(!(FusedEpilogue_ && AlphaOnly_),
                  "an alpha-only epilogue has no fused operations");
    static_assert(!BiasOnly_ || FusedEpilogue_, "a bias-only epilogue is a fused epilogue's part");
    static_assert(BiasOnly_ || BiasActivation_ == gemm_activation::none,
                  "only a bias-only epilogue is compiled for one activation");
    static_assert(BiasOnly_ || !ReadsC_, "only a bias-only epilogue is compiled with C alone");
    using Problem = Problem_;
    using Policy  = Policy_;
    using A       = typename Problem::ADataType;
    using B       = typename Problem::BDataType;
    using D       = typename Problem::DDataType;
    using Acc     = typename Problem::AccDataType;
    using E       = typename Problem::EpilogueType;
    using Plan =
        typename Policy::template of<A, B, Problem::a_k_contiguous, Problem::b_k_contiguous, D>;
    using pipeline = gemm_wgmma_pipeline<Problem, Policy, Plan>;
    /// The epilogue runs per 64-row slab of a consumer's share (64 x ConsumerN).
    using epilogue =
        gemm_wgmma_epilogue<Problem, Policy::ConsumerN, FusedEpilogue_, Plan::d_buffers,
                            Plan::wide_boxes, AlphaOnly_ || BiasOnly_>;
    static_assert(!epilogue::wide_boxes ||
                      Plan::d_offset + Policy::Consumers * epilogue::plain_bytes_per_warpgroup <=
                          Plan::barrier_offset,
                  "the plain epilogue's wide boxes stay clear of the barriers");
    static_assert(!(AlphaOnly_ || BiasOnly_) || epilogue::tma_store_possible,
                  "alpha-only and bias-only epilogues store D through the copy engine");
    static_assert(!BiasOnly_ || epilogue::float_epilogue,
                  "a bias-only epilogue adds the bias from the registers, in float");
    static_assert(!ReadsC_ || epilogue::template input_in_registers<pipeline::slabs>,
                  "a compact epilogue reads C only in the registers: at most 144 accumulators "
                  "per thread");
    static_assert(!ReadsC_ || epilogue::input_boxes_possible,
                  "a compact epilogue reads C only from the copy engine's boxes: 16-bit D and "
                  "the plain epilogue's wide boxes");
    using scheduler = gemm_wgmma_scheduler<Policy::GroupM>;
    /// Whether this kernel reads an input (C, or D0) in its register epilogue, and whether it
    /// has a register epilogue beyond scale_only at all (without the fused operations and
    /// without C, or in double, every register epilogue is scale_only): what is not compiled in
    /// costs the kernels that cannot take it no registers.
    static constexpr bool input_from_registers =
        !AlphaOnly_ && (!BiasOnly_ || ReadsC_) && epilogue::float_epilogue &&
        epilogue::template input_in_registers<pipeline::slabs>;
    static constexpr bool activates_from_registers =
        !AlphaOnly_ && epilogue::float_epilogue && (FusedEpilogue_ || input_from_registers);
    /// Whether the register epilogue takes a tile's biases from registers loaded all at once
    /// (prefetch_biases) instead of loading them box by box, each box waiting for its own (from
    /// DRAM after a flushed L2). The bias-only kernels load them before the tile's main loop;
    /// the fused ones, whose epilogues hold more registers, at the epilogue's start, after
    /// prefetch_biases_l2 before the main loop (fp16 2048^3, a bias per column and gelu_tanh,
    /// fused 128x256: 76,300 SM cycles after ncu's cache flush and 54,100 without box by box,
    /// 66,700 and 49,300 so; with beta = 1 as well, 81,400 and 59,400 against 72,100 and
    /// 50,800; H200). Only launches whose tiles activate load them. The fused kernels do so
    /// where their shares are whole wide boxes: ptxas fits the biases beside the 128x256 and
    /// 64x128 ping-pong epilogues without new stack; the 192-column pairs (narrow boxes) took
    /// 8-16 bytes more.
    static constexpr bool prefetches_biases =
        FusedEpilogue_ && activates_from_registers && epilogue::biases_prefetchable &&
        (BiasOnly_ || (epilogue::wide_boxes && epilogue::narrow_chunks == 0));
    /// Whether the register epilogue reads its input from the copy engine's boxes only
    /// (activate_and_store_tma compiles one way of reading it): a launch whose input has no
    /// box map (pointer, leading dimension or batch stride off 16 bytes, batches packed closer
    /// than M rows) ends its tiles in the staged epilogue, or is refused by a compact one.
    static constexpr bool input_from_boxes_only =
        input_from_registers && epilogue::input_boxes_possible;
    /// The epilogue of `out` runs from the registers (scale_and_store_tma or
    /// activate_and_store_tma) where D's tensor map exists.
    CK_TILE_HOST_DEVICE static bool register_epilogue(const gemm_tile_output<D, E>& out, bool pairs)
    {
        return epilogue::scale_only(out, pairs) ||
               (epilogue::from_registers(out, pairs) &&
                (!epilogue::reads_input(out) || input_from_registers));
    }

    /// Tiles end in activate_and_store_tma: a register epilogue beyond scale_only, with D's
    /// stores through the copy engine. (Otherwise, without split-K: scale_and_store(_tma), or
    /// the staged stage_and_store(_tma).)
    CK_TILE_HOST_DEVICE static bool activates(const gemm_tile_output<D, E>& out, bool pairs,
                                              bool tma_store)
    {
        return activates_from_registers && tma_store && register_epilogue(out, pairs) &&
               !epilogue::scale_only(out, pairs);
    }

    /// activates, for a launch whose input has the box map or not (`input_boxes`).
    CK_TILE_HOST_DEVICE static bool activates(const gemm_tile_output<D, E>& out, bool pairs,
                                              bool tma_store, bool input_boxes)
    {
        return activates(out, pairs, tma_store) &&
               (!input_from_boxes_only || !epilogue::reads_input(out) || input_boxes);
    }

    static constexpr bool FusedEpilogue             = FusedEpilogue_;
    static constexpr bool AlphaOnly                 = AlphaOnly_;
    static constexpr bool BiasOnly                  = BiasOnly_;
    static constexpr gemm_activation BiasActivation = BiasActivation_;
    static constexpr bool ReadsC                    = ReadsC_;
    /// Only the register epilogue that stores through the copy engine is compiled: no C (but
    /// with ReadsC), no split-K, no staged or thread-stored path.
    static constexpr bool CompactEpilogue = AlphaOnly_ || BiasOnly_;
    static constexpr index_t BlockSize    = Policy::BlockSize;
    static constexpr index_t ClusterM     = Policy::ClusterM;
    static constexpr index_t BlockM = Policy::BlockM, BlockN = Policy::BlockN,
                             BlockK                  = Plan::block_k;
    static constexpr std::size_t shared_memory_bytes = Plan::shared_memory_bytes;
    /// Rows of D a tile produces: BlockM, or the rows of a short A tile (the MMA's other rows
    /// are never stored, and the instance runs M <= RowsA only).
    static constexpr index_t OutputRows = Policy::ShortA ? Policy::RowsA : BlockM;
    /// Elements per 16 bytes of A: the alignment of pointers, leading dimensions and batch
    /// strides in elements.
    static constexpr index_t Alignment = 16 / static_cast<index_t>(sizeof(A));
    /// The warpgroup MMA reads 8-bit and TF32 operands K-major only: instances of those types
    /// run an operand stored the other way (A column-major, B row-major) by copying it
    /// transposed into the workspace first, which costs reading and writing it once.
    static constexpr bool StagesOtherLayouts = sizeof(A) != 2;

    struct kargs
    {
        tma_descriptor map_a, map_b;
        tma_descriptor map_d;      // valid when tma_store
        tma_descriptor map_d_wide; // plain path: boxes of epilogue::wide_cols (else map_d)
        tma_descriptor map_x; // C's or D0's map: chunk_input is not none, or prefetch_input_tiles
        tma_descriptor map_x_boxes;  // the same input in the plain path's wide boxes: input_boxes
        tma_descriptor map_x_narrow; // and in its narrow ones (epilogue::narrow_chunks > 0)
        gemm_tile_output<D, E> out;
        std::int64_t batch_stride_c, batch_stride_d, batch_stride_bias;
        scheduler tiles; // in units of clusters: ClusterM M tiles by one N tile
        bool pairs;      // D row-major, even leading dimension and batch stride, aligned pointer
        bool tma_store;  // D's chunks leave through the copy engine (chunk_map_spec)
        gemm_wgmma_chunk_input chunk_input; // the input the copy engine loads (tma_store only)
        // The register epilogue reads an input (C, or D0), and the producer has the copy engine
        // bring each tile's values of it (map_x, one box of OutputRows x BlockN) into L2
        // input_prefetch_lead K tiles before the tile's last.
        bool prefetch_input_tiles;
        // The register epilogue's input comes through the copy engine into the warps' box slots
        // (map_x_boxes; gemm_wgmma_epilogue::box_input_ring); without it the threads load it,
        // or where input_from_boxes_only the tiles end in the staged epilogue.
        bool input_boxes;
        // What blocks walk: tiles, or splits of them over K (gemm_work_units). With split-K
        // (work.splits > 1) split s writes raw sums to workspace slice s
        // (gemm_tile_splitk_reduce's layout: splits x batches x M x N, split-major). With the
        // last wave's split (work.tail_splits > 1) each consumer share of a tail unit writes
        // its partial sums to tail_partials and counts itself in on its tile's counter; the
        // last one in adds them all up, in split order, and runs the epilogue (tail_fixup).
        gemm_work_units work;
        Acc* workspace;
        Acc* tail_partials;
        std::uint32_t* tail_counters; // zeroed by launch()
        // What L2 should do with A's and B's lines once the copies have read them
        // (gemm_wgmma_read_once).
        arch::l2_eviction evict_a, evict_b;
        // B where the producer's threads feed it (Policy::BFromThreads; map_b is then unused):
        // where it lies, and the copy engine's maps of its rows by residue modulo 8 (the first
        // min(8, N) of them).
        gemm_wgmma_b_source b_rows;
        tma_descriptor maps_b_rows[8];
    };

    /// B reaches the stages through the producer's threads (gemm_wgmma_b_feed::threads).
    static constexpr bool BFromThreads = Policy::BFromThreads;

    /// Consumer shares per CTA tile: each cooperative consumer holds its own part of the
    /// accumulators, one ping-pong consumer holds them all.
    static constexpr index_t shares = Policy::Pingpong ? 1 : Policy::Consumers;
    static constexpr std::int64_t share_elements =
        std::int64_t(pipeline::slabs) * pipeline::accumulators * 128;

    // ---- host side ----------------------------------------------------------------------------

    static constexpr std::int64_t max_extent = 2147483647;

    /// Split-K aims at one block per SM of an H100 SXM (fewer SMs only lengthen the last
    /// wave), gives each split at least MinKTilesPerSplit K tiles and uses at most MaxSplits.
    /// A split costs a pass of the partial sums through the workspace and a second launch: at
    /// 1024^3 (16 K tiles) two splits were slower than one, so only long K is cut.
    static constexpr std::int64_t TargetBlocks = 132, MinKTilesPerSplit = 16, MaxSplits = 16;
    /// The last wave's split pays its partial sums' trip through L2 once per split and their
    /// sum once per tile: a few K tiles per split cover it.
    static constexpr std::int64_t MinTailKTilesPerSplit = 4;
    /// The split's fixed cost in this tile's K tiles: about 3 us on the H100, where a 128x256
    /// K tile (any type: 128 bytes of K) takes about 0.7 us.
    static constexpr double TailFixedKTiles = 4.3 * (128.0 * 256.0) / (BlockM * BlockN);

    /// `Attribute` of the current device, asked once per device; `fallback` when no device
    /// answers (offline selection).
    template <hipDeviceAttribute_t Attribute>
    static int device_attribute_or(int fallback)
    {
        static std::atomic<int> values[64] = {};
        int device                         = 0;
        if(hipGetDevice(&device) != hipSuccess || device < 0 || device >= 64)
            return fallback;
        int n = values[device].load();
        if(n <= 0)
        {
            if(hipDeviceGetAttribute(&n, Attribute, device) != hipSuccess || n <= 0)
                return fallback;
            values[device].store(n);
        }
        return n;
    }

    /// Clusters that run at once: one block per SM of the current device (TargetBlocks SMs
    /// when no device answers, for offline selection).
    static std::int64_t slots()
    {
        const int n = device_attribute_or<hipDeviceAttributeMultiprocessorCount>(TargetBlocks);
        return n / ClusterM > 0 ? n / ClusterM : 1;
    }

    /// The L2's bytes on the current device (an H100's 50 MiB when no device answers).
    static double l2_bytes()
    {
        return device_attribute_or<hipDeviceAttributeL2CacheSize>(50 << 20);
    }

    static std::int64_t k_tiles_of(const gemm_simt_host_args& h)
    {
        return (h.k + BlockK - 1) / BlockK;
    }

    static std::int64_t output_tiles(const gemm_simt_host_args& h)
    {
        const std::int64_t tiles_m = (h.m + BlockM - 1) / BlockM;
        return (tiles_m + ClusterM - 1) / ClusterM * ClusterM * ((h.n + BlockN - 1) / BlockN) *
               h.batch_count;
    }

    /// How many blocks share one output tile's K range (1: no split, no workspace): enough to
    /// fill the machine when the output alone cannot.
    /// @post 1 <= k_splits(h) <= MaxSplits, and every split has at least one K tile.
    static std::int64_t k_splits(const gemm_simt_host_args& h)
    {
        if constexpr(CompactEpilogue)
            return 1; // the partial sums need the epilogue of the reduction kernel
        // Persistent blocks: round the wish down, so the units fill whole waves.
        const std::int64_t blocks = output_tiles(h);
        const std::int64_t wish   = blocks >= TargetBlocks / 2 ? 1 : TargetBlocks / blocks;
        return clamp_k_splits(wish, k_tiles_of(h), MinKTilesPerSplit, MaxSplits);
    }

    /// The last wave's split of a run: how many blocks share each of its tiles (1: none) and
    /// how many tiles (of clusters) it holds.
    struct tail_plan
    {
        std::int64_t splits = 1, tiles = 0;

        /// Its partial sums (one per element of its tiles per split) and its counters (one per
        /// consumer share of a tile), each rounded up to 256 bytes.
        std::size_t partial_bytes() const
        {
            const std::int64_t n = tiles * splits * ClusterM * shares * share_elements;
            return (static_cast<std::size_t>(n) * sizeof(Acc) + 255) / 256 * 256;
        }
        std::size_t counter_bytes() const
        {
            const std::int64_t n = tiles * ClusterM * shares;
            return (static_cast<std::size_t>(n) * sizeof(std::uint32_t) + 255) / 256 * 256;
        }
    };

    /// The last wave's split where the workspace allows (never with split-K): enough splits
    /// to fill the wave, no more than pay for their sums (tail_split_cap), and only where
    /// splitting saves time at all (tail_split_pays).
    /// @post 1 <= splits <= MaxSplits (tail_k_splits); tiles == 0 exactly when splits == 1.
    static tail_plan plan_tail(const gemm_simt_host_args& h)
    {
        if(k_splits(h) > 1)
            return {};
        const std::int64_t k     = k_tiles_of(h);
        const std::int64_t tiles = output_tiles(h) / ClusterM, slots_now = slots();
        const std::int64_t s = tail_k_splits(tiles, slots_now, k, MinTailKTilesPerSplit,
                                             std::min(MaxSplits, tail_split_cap(k)));
        if(!tail_split_pays(k, s, TailFixedKTiles))
            return {};
        return {s, tiles % slots_now};
    }

    /// The last wave's split of a run with `workspace_size` bytes of workspace: plan_tail(h)
    /// where it fits, else none (the split only saves time; it is never needed).
    static tail_plan plan_tail(const gemm_simt_host_args& h, std::size_t workspace_size)
    {
        const tail_plan tail = plan_tail(h);
        return workspace_size >= workspace_bytes(h, tail) ? tail : tail_plan{};
    }

    /// How many blocks share each tile of the last, partial wave (1: none).
    static std::int64_t tail_splits(const gemm_simt_host_args& h) { return plan_tail(h).splits; }

    /// Workspace bytes for the fastest run: with the last wave's split where it applies.
    static std::size_t workspace_bytes(const gemm_simt_host_args& h)
    {
        return workspace_bytes(h, plan_tail(h));
    }

    /// The least workspace a run needs: without the last wave's split.
    static std::size_t minimum_workspace_bytes(const gemm_simt_host_args& h)
    {
        return workspace_bytes(h, tail_plan{});
    }

    /// Workspace bytes with the last wave split as `tail` says: one accumulator per element of
    /// D per split-K split, the last wave's partial sums, then the staged copies of operands
    /// whose strides the copy engine cannot follow or that are stored the other way.
    static std::size_t workspace_bytes(const gemm_simt_host_args& h, const tail_plan& tail)
    {
        std::size_t staged = 0;
        if(stages_a(h))
            staged += gemm_operand_staging::bytes(
                a_stored_mn_major(h) ? gemm_operand_staging::transposed(view_a(h)) : view_a(h));
        if(stages_b(h))
            staged += gemm_operand_staging::bytes(
                b_stored_mn_major(h) ? gemm_operand_staging::transposed(view_b(h)) : view_b(h));
        // Room to start the copies on a 256-byte boundary whatever the workspace's alignment.
        return sums_bytes(h, tail) + (staged > 0 ? staged + 256 : 0);
    }

    /// The partial sums of split-K or of the last wave's split, and its counters: the
    /// workspace before the staged operands.
    static std::size_t sums_bytes(const gemm_simt_host_args& h, const tail_plan& tail)
    {
        const std::size_t t = tail.partial_bytes() + tail.counter_bytes();
        // Room to start the tail's sums on a 256-byte boundary (16-byte vector stores).
        return split_k_bytes(h) + (t > 0 ? t + 256 : 0);
    }

    /// The split-K partial sums' bytes, rounded up to 256 so the staged operands after them
    /// stay aligned.
    static std::size_t split_k_bytes(const gemm_simt_host_args& h)
    {
        const std::int64_t s = k_splits(h);
        const std::size_t b =
            s > 1 ? static_cast<std::size_t>(s * h.batch_count * h.m * h.n) * sizeof(Acc) : 0;
        return (b + 255) / 256 * 256;
    }

    /// Whether an operand of a K-major-only instance is stored along M or N (StagesOtherLayouts).
    static bool a_stored_mn_major(const gemm_simt_host_args& h)
    {
        return StagesOtherLayouts && h.a_stride_k != 1;
    }
    static bool b_stored_mn_major(const gemm_simt_host_args& h)
    {
        return StagesOtherLayouts && h.b_stride_k != 1;
    }

    /// An operand of `mn` x `k` elements as stored: runs along its contiguous side (K where
    /// `k_major`), the leading dimension the stride along the other.
    static gemm_operand_view stored_view(const void* p, std::int64_t mn, std::int64_t k,
                                         bool k_major, std::int64_t stride_mn,
                                         std::int64_t stride_k, std::int64_t batches,
                                         std::int64_t batch_stride, std::size_t bytes)
    {
        return {p,
                k_major ? mn : k,
                k_major ? k : mn,
                k_major ? stride_mn : stride_k,
                batches,
                batch_stride,
                bytes};
    }
    static gemm_operand_view view_a(const gemm_simt_host_args& h)
    {
        return stored_view(h.a, h.m, h.k, Problem::a_k_contiguous && !a_stored_mn_major(h),
                           h.a_stride_m, h.a_stride_k, h.batch_count, h.batch_stride_a, sizeof(A));
    }
    static gemm_operand_view view_b(const gemm_simt_host_args& h)
    {
        return stored_view(h.b, h.n, h.k, Problem::b_k_contiguous && !b_stored_mn_major(h),
                           h.b_stride_n, h.b_stride_k, h.batch_count, h.batch_stride_b, sizeof(B));
    }

    /// Whether an operand goes through staging: stored the other way (transposed), or with a
    /// leading dimension or batch stride that is not a multiple of 16 bytes (padded).
    static bool stages_a(const gemm_simt_host_args& h)
    {
        return a_stored_mn_major(h) || lda(h) % Alignment != 0 ||
               (h.batch_count > 1 && h.batch_stride_a % Alignment != 0);
    }
    static bool stages_b(const gemm_simt_host_args& h)
    {
        // The threads read a K-major B with any leading dimension from a 16-byte aligned start,
        // with batches 16 bytes apart (rows 8 apart are then 16 bytes apart in every batch).
        const bool off = BFromThreads ? reinterpret_cast<std::uintptr_t>(h.b) % 16 != 0
                                      : ldb(h) % Alignment != 0;
        return b_stored_mn_major(h) || off ||
               (h.batch_count > 1 && h.batch_stride_b % Alignment != 0);
    }

    /// Copies the operands that need it into `workspace` (after the partial sums of a run
    /// whose last wave is split as `tail` says) on `stream` and returns `h` reading them there.
    /// @pre workspace holds workspace_bytes(h, tail).
    static gemm_simt_host_args stage_operands(const gemm_simt_host_args& h, void* workspace,
                                              const tail_plan& tail, hipStream_t stream)
    {
        gemm_simt_host_args s = h;
        const std::uintptr_t after_sums =
            reinterpret_cast<std::uintptr_t>(workspace) + sums_bytes(h, tail);
        char* at = reinterpret_cast<char*>((after_sums + 255) / 256 * 256);
        if(stages_a(h))
        {
            const gemm_operand_view v =
                a_stored_mn_major(h) ? gemm_operand_staging::stage_transposed(view_a(h), at, stream)
                                     : gemm_operand_staging::stage(view_a(h), at, stream);
            at += gemm_operand_staging::bytes(v);
            s.a              = v.p;
            s.a_stride_m     = Problem::a_k_contiguous ? v.ld : 1;
            s.a_stride_k     = Problem::a_k_contiguous ? 1 : v.ld;
            s.batch_stride_a = v.batch_stride;
        }
        if(stages_b(h))
        {
            const gemm_operand_view v =
                b_stored_mn_major(h) ? gemm_operand_staging::stage_transposed(view_b(h), at, stream)
                                     : gemm_operand_staging::stage(view_b(h), at, stream);
            s.b              = v.p;
            s.b_stride_n     = Problem::b_k_contiguous ? v.ld : 1;
            s.b_stride_k     = Problem::b_k_contiguous ? 1 : v.ld;
            s.batch_stride_b = v.batch_stride;
        }
        return s;
    }

    /// Bit 0: A is copied into the workspace first; bit 1: B is; bit 2: B is read in place by
    /// the producer's threads.
    static int copied_operands(const gemm_simt_host_args& h)
    {
        return (stages_a(h) ? 1 : 0) | (stages_b(h) ? 2 : 0) |
               (BFromThreads && !stages_b(h) ? 4 : 0);
    }

    /// B as the producer's threads read it (K-major).
    static gemm_wgmma_b_source b_source(const gemm_simt_host_args& h)
    {
        const std::int64_t es = sizeof(B);
        return {static_cast<const unsigned char*>(h.b), ldb(h) * es,
                h.batch_count > 1 ? h.batch_stride_b * es : 0, h.k * es,
                static_cast<std::int32_t>(h.n)};
    }

    /// The copy engine's map of B's rows p, p + 8, ... (p < min(8, N)): from row p's start
    /// rounded down to 16 bytes, rows 8 leading dimensions apart, each K plus that rounding
    /// long (the map ends every row at its last element of K), in boxes of 144 bytes of K
    /// (gemm_wgmma_b_rows) by the tile's rows / 8, unswizzled.
    static tma_descriptor residue_map(const gemm_simt_host_args& h, std::int32_t p)
    {
        using rows             = gemm_wgmma_b_rows<BlockN>;
        const std::int64_t es  = sizeof(B);
        const std::int64_t at  = p * ldb(h) * es; // bytes from B to row p
        const std::int64_t pre = at % 16;
        tma_tile_spec s;
        s.element        = tma_element_of<B>();
        s.rank           = 3;
        s.global_address = static_cast<const unsigned char*>(h.b) + (at - pre);
        s.dims[0]        = static_cast<std::uint64_t>(h.k + pre / es);
        s.dims[1] = static_cast<std::uint64_t>((h.n - p + rows::residues - 1) / rows::residues);
        s.dims[2] = static_cast<std::uint64_t>(h.batch_count);
        s.strides_bytes[1] = static_cast<std::uint64_t>(rows::residues * ldb(h) * es);
        s.strides_bytes[2] = h.batch_count > 1 ? static_cast<std::uint64_t>(h.batch_stride_b * es)
                                               : s.strides_bytes[1] * s.dims[1];
        s.box[0]           = static_cast<uint32_t>(rows::raw_row_bytes / es);
        s.box[1]           = static_cast<uint32_t>(rows::rows_per_residue);
        s.box[2]           = 1;
        s.swizzle          = smem_swizzle::none;
        s.l2               = tma_l2_promotion_for_rows(s.strides_bytes[1]);
        return make_tma_descriptor_cached(s);
    }

    /// The leading dimension of an operand along its contiguous side.
    static std::int64_t lda(const gemm_simt_host_args& h)
    {
        return Problem::a_k_contiguous ? h.a_stride_m : h.a_stride_k;
    }
    static std::int64_t ldb(const gemm_simt_host_args& h)
    {
        return Problem::b_k_contiguous ? h.b_stride_n : h.b_stride_k;
    }

    /// The refusal of an instance that loads only RowsA rows of A (skinny problems only).
    static constexpr const char* short_a_refusal = [] {
        if constexpr(Policy::RowsA == 8)
            return "this instance loads 8 rows of A per tile: M must be at most 8";
        else if constexpr(Policy::RowsA == 16)
            return "this instance loads 16 rows of A per tile: M must be at most 16";
        else if constexpr(Policy::RowsA == 32)
            return "this instance loads 32 rows of A per tile: M must be at most 32";
        else
            return "this instance loads fewer than 64 rows of A per tile: M is too large";
    }();

    /// `h` with a stand-in at a 4 KiB boundary for D and C where a shape-only query leaves their
    /// pointers out.
    static gemm_simt_host_args with_aligned_stand_ins(const gemm_simt_host_args& h)
    {
        gemm_simt_host_args a = h;
        void* const aligned   = reinterpret_cast<void*>(std::uintptr_t(4096));
        if(a.d == nullptr)
            a.d = aligned;
        if(a.c == nullptr)
            a.c = aligned;
        return a;
    }

    /// Why an alpha-only or bias-only kernel cannot run `h` (nullptr when it can): it reads no
    /// C (but with ReadsC a row-major one), a bias-only one applies no activation but its own
    /// and reads no multi-D input, and both store D only through the copy engine. A pointer not
    /// given (a shape-only query) counts as aligned.
    static const char* compact_refuses(const gemm_simt_host_args& h)
    {
        constexpr bool one_activation = BiasActivation != gemm_activation::none;
        if(!ReadsC && h.beta != 0.0)
            return !BiasOnly ? "this instance's epilogue is D = alpha * A * B only: beta must be "
                               "0 (the _none and _fused instances read C)"
                   : one_activation
                       ? "this instance's epilogue is D = act(alpha * A * B + bias) only: beta "
                         "must be 0 (the _fused instances read C, and its _c twin where there "
                         "is one)"
                       : "this instance's epilogue is D = alpha * A * B + bias only: beta must "
                         "be 0 (the _bias_c and _fused instances read C)";
        if(ReadsC && h.beta == 0.0)
            return "this instance's epilogue is D = alpha * A * B + beta * C + bias with beta "
                   "!= 0 only (the _bias and _alpha instances run beta = 0)";
        if(ReadsC && h.c_stride_n != 1)
            return "this instance reads C in the registers, by rows: C must be row-major (the "
                   "_fused instances read any C)";
        if(BiasOnly && h.activation != BiasActivation)
            return one_activation && ReadsC
                       ? "this instance's epilogue is D = act(alpha * A * B + beta * C + bias) "
                         "with its one activation (the one its name gives before _c) only: "
                         "the problem's activation must be that one (the _fused instances "
                         "apply the others)"
                   : one_activation
                       ? "this instance's epilogue is D = act(alpha * A * B + bias) with its "
                         "one activation (the one its name ends in) only: the problem's "
                         "activation must be that one (the _fused instances apply the others)"
                   : ReadsC ? "this instance's epilogue is D = alpha * A * B + beta * C + bias "
                              "only: no activation (the _fused instances apply them)"
                            : "this instance's epilogue is D = alpha * A * B + bias only: no "
                              "activation (the _fused instances apply them)";
        if(BiasOnly && h.multi_d.active())
            return "this instance's epilogue is a bias, C or one activation only: no multi-D "
                   "inputs (the _fused instances read them)";
        if(h.d_stride_n != 1)
            return "this instance stores D through the copy engine: D must be row-major (a "
                   "column-major D only where the instance runs the transposed problem)";
        if(h.batch_count > 1 && h.batch_stride_d < h.m * h.d_stride_m)
            return "this instance stores D through the copy engine, whose map of D holds whole "
                   "batches: D's batch stride must be at least M times its leading dimension "
                   "(the _fused and _none instances take batches packed closer)";
        // The map's rules imply pairs_of, and its wide boxes take any D its narrow ones do.
        const gemm_simt_host_args a = with_aligned_stand_ins(h);
        tma_tile_spec spec;
        if(!chunk_map_spec(a, a.d, a.d_stride_m, a.d_stride_n, a.batch_stride_d,
                           epilogue::d_box_rows, spec))
            return "this instance stores D through the copy engine: D's pointer, leading "
                   "dimension and batch stride must be 16-byte multiples, and so must N times "
                   "D's element size";
        if(ReadsC && !input_map_spec(a, epilogue::d_box_rows, epilogue::wide_cols, spec))
            return "this instance loads C through the copy engine: C's pointer, leading "
                   "dimension and batch stride must be 16-byte multiples, its leading dimension "
                   "at least N and its batch stride at least M times its leading dimension (the "
                   "_fused instances read any row-major C)";
        // What the checks above leave, the one compiled path (scale_and_store_tma, or
        // activate_and_store_tma) runs.
        const auto out   = gemm_tile_output<D, E>::from(a);
        const bool pairs = pairs_of(a);
        if(!epilogue::scale_only(out, pairs) && !activates(out, pairs, true))
            return "this instance's compact epilogue cannot run this problem's operations from "
                   "the registers (the _fused instances can)";
        return nullptr;
    }

    /// Why the kernel cannot run `h` (nullptr when it can).
    static const char* why_unsupported(const gemm_simt_host_args& h)
    {
        if constexpr(!FusedEpilogue)
        {
            if(const char* why = unfused_epilogue_refuses(h))
                return why;
        }
        if constexpr(CompactEpilogue)
        {
            if(const char* why = compact_refuses(h))
                return why;
        }
        if constexpr(Policy::ShortA)
        {
            if(h.m > Policy::RowsA)
                return short_a_refusal;
        }
        if(h.m > max_extent || h.n > max_extent || h.k > max_extent || h.batch_count > max_extent)
            return "M, N, K and the batch count must be below 2^31 for the copy engine";
        // In floating point: the product of three tile counts may not fit 64 bits.
        if(double((h.m + BlockM - 1) / BlockM) * double((h.n + BlockN - 1) / BlockN) *
               double(h.batch_count) >
           double(gemm_wgmma_max_units / MaxSplits))
            return "2^27 output tiles or more (the tile scheduler's indices are 32-bit)";
        // Staged operands are read from the workspace: their own pointers may be anything.
        if(!stages_a(h) && reinterpret_cast<std::uintptr_t>(h.a) % 16 != 0)
            return "A's pointer is not 16-byte aligned (the copy engine needs it; only operands "
                   "with unaligned strides, or stored the other way, are staged)";
        if(!stages_b(h) && reinterpret_cast<std::uintptr_t>(h.b) % 16 != 0)
            return "B's pointer is not 16-byte aligned (the copy engine needs it; only operands "
                   "with unaligned strides, or stored the other way, are staged)";
        if(!stages_a(h) && h.batch_count > 1 && h.batch_stride_a == 0)
            return "stride_a is 0 (the copy engine cannot broadcast one matrix to every batch)";
        if(!BFromThreads && !stages_b(h) && h.batch_count > 1 && h.batch_stride_b == 0)
            return "stride_b is 0 (the copy engine cannot broadcast one matrix to every batch)";
        return nullptr;
    }

    /// The 3-D tensor map (contiguous side, other side, batch) of an operand of `rows` M or N
    /// indices. Tiles of K-major operands run along K first, MN-major ones along M or N.
    template <typename T, typename Tile>
    static tma_descriptor operand_map(const void* p, std::int64_t rows, std::int64_t k,
                                      std::int64_t ld, std::int64_t batches,
                                      std::int64_t batch_stride)
    {
        constexpr bool k_major = Tile::major == wgmma_major::k;
        tma_tile_spec s;
        s.element          = tma_element_of<T>();
        s.rank             = 3;
        s.global_address   = p;
        s.dims[0]          = static_cast<std::uint64_t>(k_major ? k : rows);
        s.dims[1]          = static_cast<std::uint64_t>(k_major ? rows : k);
        s.dims[2]          = static_cast<std::uint64_t>(batches);
        s.strides_bytes[1] = static_cast<std::uint64_t>(ld) * sizeof(T);
        // One batch: any legal stride will do (never stepped along).
        s.strides_bytes[2] = batches > 1 ? static_cast<std::uint64_t>(batch_stride) * sizeof(T)
                                         : s.strides_bytes[1] * s.dims[1];
        s.box[0]           = Tile::box_inner;
        s.box[1]           = Tile::box_outer;
        s.box[2]           = 1;
        s.swizzle          = Tile::swizzle;
        s.l2               = tma_l2_promotion_for_rows(s.strides_bytes[1]);
        return make_tma_descriptor_cached(s);
    }

    /// The 3-D tensor map (columns, rows, batch) of a row-major m x n matrix of D's type at p
    /// in boxes of box_rows rows of the epilogue's output chunks (D's stores: the epilogue's
    /// d_box_rows; an input loaded into a whole chunk: 64), or false when it cannot go
    /// through the copy engine.
    /// Beyond the map's own rules (16-byte aligned pointer, leading dimension and batch
    /// stride), the row length must be whole 16-byte units: the copy engine clips a chunk at
    /// the last column, and on the H100 a store box crossing a row end that is not on a
    /// 16-byte boundary wrote the rest of that 16-byte unit (tma.hpp).
    static bool chunk_map_spec(const gemm_simt_host_args& h, const void* p, std::int64_t stride_m,
                               std::int64_t stride_n, std::int64_t batch_stride,
                               std::uint32_t box_rows, tma_tile_spec& s,
                               std::uint32_t box_cols = epilogue::chunk_cols)
    {
        if constexpr(!epilogue::tma_store_possible)
            return false;
        if(p == nullptr || stride_n != 1 || h.m > max_extent || h.n > max_extent ||
           (h.n * static_cast<std::int64_t>(sizeof(D))) % 16 != 0 || stride_m < h.n ||
           (h.batch_count > 1 && batch_stride < h.m * stride_m))
            return false;
        s                  = tma_tile_spec{};
        s.element          = tma_element_of<D>();
        s.rank             = 3;
        s.global_address   = p;
        s.dims[0]          = static_cast<std::uint64_t>(h.n);
        s.dims[1]          = static_cast<std::uint64_t>(h.m);
        s.dims[2]          = static_cast<std::uint64_t>(h.batch_count);
        s.strides_bytes[1] = static_cast<std::uint64_t>(stride_m) * sizeof(D);
        s.strides_bytes[2] = h.batch_count > 1
                                 ? static_cast<std::uint64_t>(batch_stride) * sizeof(D)
                                 : s.strides_bytes[1] * s.dims[1];
        s.box[0]           = box_cols;
        s.box[1]           = box_rows;
        s.box[2]           = 1;
        s.swizzle          = smem_swizzle_for_span(box_cols * sizeof(D));
        return tma_tile_spec_error(s).empty();
    }

    /// The map of the register epilogue's input in boxes of rows x cols: C where beta != 0,
    /// else D0 (chunk_map_spec).
    static bool input_map_spec(const gemm_simt_host_args& h, std::uint32_t rows, std::uint32_t cols,
                               tma_tile_spec& spec)
    {
        const gemm_multi_d& md = h.multi_d;
        return h.beta != 0.0 ? chunk_map_spec(h, h.c, h.c_stride_m, h.c_stride_n, h.batch_stride_c,
                                              rows, spec, cols)
                             : chunk_map_spec(h, md.d0.p, md.d0.stride_m, md.d0.stride_n,
                                              md.d0.batch_stride, rows, spec, cols);
    }

    /// Sets the copy-engine paths of `k`: D's stores, then for the staged epilogue the one
    /// input loaded into the output chunks (C when beta != 0, else D0 of a one-input multi-D
    /// operation in D's type).
    static void set_chunk_maps(const gemm_simt_host_args& h, kargs& k)
    {
        tma_tile_spec spec;
        k.chunk_input          = gemm_wgmma_chunk_input::none;
        k.prefetch_input_tiles = false;
        k.input_boxes          = false;
        k.tma_store =
            k.work.splits == 1 && chunk_map_spec(h, h.d, h.d_stride_m, h.d_stride_n,
                                                 h.batch_stride_d, epilogue::d_box_rows, spec);
        if(!k.tma_store)
            return;
        k.map_d              = make_tma_descriptor_cached(spec);
        k.map_d_wide         = k.map_d;
        const bool registers = register_epilogue(k.out, k.pairs);
        if(epilogue::wide_boxes && registers)
        {
            // The register paths store wide boxes (never refused where the narrow map was taken).
            if(!chunk_map_spec(h, h.d, h.d_stride_m, h.d_stride_n, h.batch_stride_d,
                               epilogue::d_box_rows, spec, epilogue::wide_cols))
            {
                k.tma_store = false; // the direct stores
                return;
            }
            k.map_d_wide = make_tma_descriptor_cached(spec);
        }
        if(registers && input_from_registers && activates(k.out, k.pairs, true) &&
           epilogue::reads_input(k.out))
        {
            if constexpr(epilogue::input_boxes_possible)
            {
                // The narrow map follows from the wide one's rules (a box width apart).
                k.input_boxes = input_map_spec(h, epilogue::d_box_rows, epilogue::wide_cols, spec);
                if(k.input_boxes)
                    k.map_x_boxes = make_tma_descriptor_cached(spec);
                if(k.input_boxes && epilogue::narrow_chunks > 0)
                {
                    k.input_boxes =
                        input_map_spec(h, epilogue::d_box_rows, epilogue::chunk_cols, spec);
                    if(k.input_boxes)
                        k.map_x_narrow = make_tma_descriptor_cached(spec);
                }
            }
            // The register paths read their input (C, or D0) themselves; a tensor map of its
            // tiles lets the producer prefetch them. (Without the box map a kernel that reads
            // it from the boxes only ends its tiles in the staged epilogue, whose input follows.)
            if(!input_from_boxes_only || k.input_boxes)
            {
                k.prefetch_input_tiles = input_map_spec(h, OutputRows, BlockN, spec);
                if(k.prefetch_input_tiles)
                    k.map_x = make_tma_descriptor_cached(spec);
                return;
            }
        }
        else if(registers)
            return;
        const gemm_multi_d& md = h.multi_d;
        if(h.beta != 0.0)
        {
            if(chunk_map_spec(h, h.c, h.c_stride_m, h.c_stride_n, h.batch_stride_c, 64, spec))
                k.chunk_input = gemm_wgmma_chunk_input::c;
        }
        else if(FusedEpilogue && multi_d_inputs(md.op) == 1 && !md.d0.fp32 &&
                chunk_map_spec(h, md.d0.p, md.d0.stride_m, md.d0.stride_n, md.d0.batch_stride, 64,
                               spec))
            k.chunk_input = gemm_wgmma_chunk_input::d0;
        if(k.chunk_input != gemm_wgmma_chunk_input::none)
            k.map_x = make_tma_descriptor_cached(spec);
    }

    /// D row-major with an even leading dimension and batch stride and an aligned pointer: each
    /// thread's two adjacent columns leave in one store.
    static bool pairs_of(const gemm_simt_host_args& h)
    {
        return h.d_stride_n == 1 && h.d_stride_m % 2 == 0 &&
               (h.batch_count == 1 || h.batch_stride_d % 2 == 0) &&
               reinterpret_cast<std::uintptr_t>(h.d) % (2 * sizeof(D)) == 0;
    }

    /// Whether a launch for `h` ends its tiles in the staged epilogue (the accumulators through
    /// shared memory and element by element: stage_and_store, stage_and_store_tma) instead of
    /// from the registers, the path that costs heavy epilogues most (gemm_wgmma_epilogue.hpp).
    /// Pointers not given (shape-only queries) count as aligned. With split-K the reduction
    /// kernel runs the epilogue: not staged here.
    static bool staged_epilogue(const gemm_simt_host_args& h)
    {
        if(k_splits(h) > 1)
            return false;
        const gemm_simt_host_args a = with_aligned_stand_ins(h);
        const auto out              = gemm_tile_output<D, E>::from(a);
        const bool pairs            = pairs_of(a);
        tma_tile_spec spec;
        const bool tma_store = chunk_map_spec(a, a.d, a.d_stride_m, a.d_stride_n, a.batch_stride_d,
                                              epilogue::d_box_rows, spec);
        const bool input_boxes = input_from_boxes_only && epilogue::reads_input(out) &&
                                 input_map_spec(a, epilogue::d_box_rows, epilogue::wide_cols, spec);
        return !epilogue::scale_only(out, pairs) && !activates(out, pairs, tma_store, input_boxes);
    }

    /// The arguments of a run whose last wave is split as `tail` says (none, or plan_tail(h)).
    /// @pre why_unsupported(h) == nullptr; `workspace` holds workspace_bytes(h, tail). Throws
    /// ck_tile::hip_error when a tensor map cannot be encoded.
    static kargs make_kargs(const gemm_simt_host_args& h, void* workspace, const tail_plan& tail)
    {
        kargs k{};
        k.map_a = operand_map<A, typename Plan::a_tile>(h.a, h.m, h.k, lda(h), h.batch_count,
                                                        h.batch_stride_a);
        if constexpr(BFromThreads)
        {
            k.b_rows = b_source(h);
            for(std::int32_t p = 0; p < gemm_wgmma_b_rows<BlockN>::residues_of(k.b_rows); ++p)
                k.maps_b_rows[p] = residue_map(h, p);
        }
        else
            k.map_b = operand_map<B, typename Plan::b_tile>(h.b, h.n, h.k, ldb(h), h.batch_count,
                                                            h.batch_stride_b);
        k.out                      = gemm_tile_output<D, E>::from(h);
        k.batch_stride_c           = h.batch_stride_c;
        k.batch_stride_d           = h.batch_stride_d;
        k.batch_stride_bias        = h.batch_stride_bias;
        const std::int64_t tiles_m = (h.m + BlockM - 1) / BlockM;
        k.tiles = scheduler::make((tiles_m + ClusterM - 1) / ClusterM, (h.n + BlockN - 1) / BlockN,
                                  h.batch_count);
        k.pairs = pairs_of(h);
        k.work  = gemm_work_units::make(k.tiles.tiles(), k_tiles_of(h), k_splits(h),
                                        k.tiles.tiles() - tail.tiles, tail.splits);
        k.workspace     = static_cast<Acc*>(workspace);
        k.tail_partials = nullptr;
        k.tail_counters = nullptr;
        if(k.work.tail_splits > 1)
        {
            const std::uintptr_t at =
                (reinterpret_cast<std::uintptr_t>(workspace) + split_k_bytes(h) + 255) / 256 * 256;
            k.tail_partials = reinterpret_cast<Acc*>(at);
            k.tail_counters = reinterpret_cast<std::uint32_t*>(at + tail.partial_bytes());
        }
        set_chunk_maps(h, k);
        if(CompactEpilogue && !k.tma_store) // why_unsupported refuses such a D first
            throw std::invalid_argument("an alpha-only or bias-only instance stores D only "
                                        "through the copy engine, and D's tensor map cannot be "
                                        "made");
        if(ReadsC && !k.input_boxes) // why_unsupported refuses such a C first
            throw std::invalid_argument("a bias-and-C instance reads C only from the copy "
                                        "engine's boxes, and C's tensor map cannot be made");
        // An operand of `rows` x K elements of `bytes` each per batch.
        const auto eviction = [&, l2 = l2_bytes()](std::int64_t readers, std::int64_t rows,
                                                   std::size_t bytes) {
            const double total = double(rows) * double(h.k) * double(bytes) * h.batch_count;
            return gemm_wgmma_read_once(readers, total, l2) ? arch::l2_eviction::first
                                                            : arch::l2_eviction::normal;
        };
        k.evict_a = eviction(k.tiles.readers_of_a(), h.m, sizeof(A));
        k.evict_b = eviction(k.tiles.readers_of_b(), h.n, sizeof(B));
        return k;
    }

    /// The __global__ function of this kernel (only the one it uses is instantiated).
    static auto entry_function()
    {
        if constexpr(ClusterM > 1)
            return &gemm_wgmma_cluster_entry<gemm_wgmma_kernel>;
        else
            return &gemm_wgmma_entry<gemm_wgmma_kernel>;
    }

    /// Launches on `stream` with as many clusters as the current device holds at once (one
    /// block per SM), fewer for few tiles. Raises the kernel's dynamic shared-memory limit and
    /// asks for the resident cluster count once per device.
    static void launch(const kargs& k, hipStream_t stream)
    {
        const auto entry_fn = entry_function();
        const void* entry   = reinterpret_cast<const void*>(entry_fn);
        int device          = 0;
        HIP_CHECK_ERROR(hipGetDevice(&device));
        static std::atomic<int> resident[64] = {};
        int clusters = device >= 0 && device < 64 ? resident[device].load() : 0;
        if(clusters <= 0)
        {
            HIP_CHECK_ERROR(hipFuncSetAttribute(entry, hipFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(shared_memory_bytes)));
            if constexpr(ClusterM > 1)
                clusters = max_resident_clusters(entry, BlockSize, shared_memory_bytes, ClusterM);
            if(clusters <= 0) // one block per SM
                clusters = static_cast<int>(slots());
            if(device >= 0 && device < 64)
                resident[device].store(clusters);
        }
        if(k.work.tail_splits > 1)
        {
            const tail_plan tail{k.work.tail_splits, k.work.tiles - k.work.tail_first};
            HIP_CHECK_ERROR(hipMemsetAsync(k.tail_counters, 0, tail.counter_bytes(), stream));
        }
        const std::int64_t grid = scheduler::grid_size(k.work.count(), clusters) * ClusterM;
        static const kernel_entry launcher(entry);
        void* params[] = {const_cast<kargs*>(&k)};
        HIP_CHECK_ERROR(launcher.launch(dim3(static_cast<unsigned>(grid)), dim3(BlockSize),
                                        static_cast<unsigned>(shared_memory_bytes), stream,
                                        params));
    }

    // ---- device side --------------------------------------------------------------------------

    /// How many K tiles before a tile's last the producer prefetches the tile's input into L2
    /// (prefetch_input_tiles): with the consumers up to Stages K tiles behind it, about 12 K tiles
    /// of MMAs before the epilogue on 128x256 tiles (14,000 cycles), where all SMs' tiles of C
    /// (8.6 MB at 4096^3) take about 5,000 cycles to arrive from DRAM. Prefetched at a tile's
    /// start, lines of C had been evicted again before the epilogue read them (DRAM read 246 MB
    /// at fp16 4096^3 with beta = 1, against 180 MB without C).
    static constexpr int32_t input_prefetch_lead = 8;

    /// Where C's tiles have no tensor map (prefetch_input_tiles is false): while a consumer's main
    /// loop runs, the lines of C under its share of tile `w` go to L2,
    /// so that the register epilogue's loads of C (a few per thread and box, each waited for
    /// before the box is written) find them there instead of in DRAM.
    template <typename Tile>
    CK_TILE_DEVICE static void prefetch_c(const kargs& ka, const Tile& w, index_t rank,
                                          index_t consumer, index_t t)
    {
        constexpr index_t rows  = 64 * pipeline::slabs;
        constexpr index_t lines = Policy::ConsumerN * static_cast<index_t>(sizeof(D)) / 128 + 1;
        const D* const c        = ka.out.c + w.batch * ka.batch_stride_c;
        const std::int64_t row0 = (w.m * ClusterM + rank) * BlockM + Policy::consumer_row(consumer);
        const std::int64_t col0 = w.n * BlockN + Policy::consumer_col(consumer);
        if(col0 >= ka.out.n)
            return;
        const std::int64_t cols =
            ka.out.n - col0 < Policy::ConsumerN ? ka.out.n - col0 : Policy::ConsumerN;
        for(index_t i = t; i < rows * lines; i += 128)
        {
            const std::int64_t r = row0 + i / lines;
            if(r >= ka.out.m)
                continue;
            const auto first = reinterpret_cast<std::uintptr_t>(c + r * ka.out.c_stride_m + col0);
            const auto last  = first + (cols - 1) * sizeof(D);
            const auto line  = (first & ~std::uintptr_t(127)) + 128 * std::uintptr_t(i % lines);
            if(line <= last)
                arch::prefetch_l2(reinterpret_cast<const void*>(line));
        }
    }

    /// Named barriers: 1 + consumer for the staged epilogue, these two for ping-pong turns.
    static constexpr uint32_t pingpong_barrier = 3;

    /// A tail unit's consumer share: hands its partial sums over, and for the last share of
    /// its tile to arrive, replaces `acc` by the sum of every split's, in split order (the
    /// same bits whichever block comes last). `barrier_id` is the share's named barrier.
    /// @return whether this share runs the tile's epilogue.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static bool
    tail_fixup(Acc (&acc)[pipeline::slabs][pipeline::accumulators], const kargs& ka,
               const gemm_work_units::unit& wu, index_t rank, index_t share, index_t t_in_group,
               uint32_t barrier_id)
    {
        constexpr index_t groups = pipeline::accumulators / 4;
        static_assert(pipeline::accumulators % 4 == 0, "accumulators go out 16 bytes at a time");
        // Slot (tail tile, split, CTA of the cluster, share); inside it group g of slab l of
        // thread t at ((l * groups + g) * 128 + t) * 4: each store and load is one warp's
        // contiguous 512 bytes.
        const std::int64_t per_split = std::int64_t(ClusterM) * shares * share_elements;
        const std::int64_t in_tile =
            (std::int64_t(rank) * shares + share) * share_elements + std::int64_t(t_in_group) * 4;
        const std::int32_t splits = ka.work.tail_splits;
        Acc* tile_sums            = ka.tail_partials + wu.tail * splits * per_split + in_tile;
        Acc* mine                 = tile_sums + wu.split * per_split;
#pragma unroll
        for(index_t l = 0; l < pipeline::slabs; ++l)
#pragma unroll
            for(index_t g = 0; g < groups; ++g)
                arch::store_global_x4(mine + (l * groups + g) * 512, acc[l][4 * g],
                                      acc[l][4 * g + 1], acc[l][4 * g + 2], acc[l][4 * g + 3]);
        arch::fence_acq_rel_gpu();
        named_barrier_sync(barrier_id, 128); // every thread's sums are out
        bool last = false;
        if(t_in_group == 0)
            last = arch::atomic_add_acq_rel_gpu(
                       &ka.tail_counters[(wu.tail * ClusterM + rank) * shares + share], 1u) ==
                   static_cast<std::uint32_t>(splits - 1);
        if(!arch::named_barrier_sync_or(barrier_id, 128, last))
            return false;
        arch::fence_acq_rel_gpu();
        // Batches of `batch` groups: as many loads in flight as the registers beside the
        // accumulators hold (16 groups beside 128 accumulators spilled); the largest divisor
        // of the groups up to 8 otherwise (144 columns: 18 groups, batches of 6).
        constexpr index_t batch = [] {
            if(pipeline::accumulators <= 64 && groups % 16 == 0)
                return index_t(16);
            index_t b = 8;
            while(groups % b != 0)
                --b;
            return b;
        }();
        static_assert(groups % batch == 0, "whole batches of 16-byte groups");
#pragma unroll
        for(index_t l = 0; l < pipeline::slabs; ++l)
#pragma unroll
            for(index_t g0 = 0; g0 < groups; g0 += batch)
                for(std::int32_t split = 0; split < splits; ++split)
                {
                    const Acc* from = tile_sums + split * per_split + (l * groups + g0) * 512;
                    Acc v[batch][4];
#pragma unroll
                    for(index_t g = 0; g < batch; ++g)
                        arch::load_global_l2_x4(from + g * 512, v[g]);
#pragma unroll
                    for(index_t g = 0; g < batch; ++g)
#pragma unroll
                        for(index_t i = 0; i < 4; ++i)
                            acc[l][4 * (g0 + g) + i] =
                                split == 0 ? v[g][i] : acc[l][4 * (g0 + g) + i] + v[g][i];
                }
        return true;
    }

    CK_TILE_FORCE_INLINE CK_TILE_DEVICE void operator()(const kargs& ka) const
    {
#if CK_TILE_ARCH_HAS_WGMMA
        extern __shared__ unsigned char dynamic_smem[];
        // The swizzle pattern follows shared addresses: stages start on a 1024-byte boundary.
        const uint32_t raw            = arch::shared_address(dynamic_smem);
        unsigned char* base           = dynamic_smem + ((1024u - raw % 1024u) % 1024u);
        auto* barriers                = reinterpret_cast<uint64_t*>(base + Plan::barrier_offset);
        unsigned char* d_buffers_base = base + Plan::d_offset;
        auto* input_barriers = reinterpret_cast<uint64_t*>(base + Plan::input_barrier_offset);
        auto* raw_bars       = reinterpret_cast<uint64_t*>(base + Plan::raw_barrier_offset);
        const typename pipeline::shared sh{base, barriers, barriers + Policy::Stages};
        const index_t thread = get_thread_id();
        const index_t role   = thread / 128; // 0: producer, 1..: consumers

        if(thread == 0)
        {
            for(index_t c = 0; c < Plan::input_barriers; ++c)
                arch::mbarrier_init(&input_barriers[c], 1);
            // (B fed by the threads: each raw slot's boxes land on one barrier, and its four
            // producer warps free it on another.)
            for(index_t c = 0; c < Plan::raw_stages; ++c)
            {
                arch::mbarrier_init(&raw_bars[c], 1);
                arch::mbarrier_init(&raw_bars[Plan::raw_stages + c], 4);
            }
            pipeline::init_barriers(sh); // fences the initializations for the copy engine
        }
        // Peers signal this CTA's barriers: they must see them initialized. In a cluster every
        // thread arrives now and waits where it first touches a barrier (cluster_wait below),
        // so the cluster barrier's latency passes under the setup.
        if constexpr(ClusterM > 1)
            arch::cluster_arrive_relaxed();
        else
            block_sync_lds();
        const index_t rank = ClusterM > 1 ? static_cast<index_t>(arch::cluster_cta_rank()) : 0;
        const std::int64_t cluster  = get_block_id() / ClusterM;
        const std::int64_t clusters = get_grid_size() / ClusterM;

        typename pipeline::ring ring{};
        typename pipeline::raw_ring raw_ring{}; // (B fed by the threads)
        // Work units: (output tile of the cluster, K split), the splits of a tile adjacent.
        const std::int64_t total = ka.work.count();
        if(role == 0)
        {
            if constexpr(Policy::Consumers > 1)
                arch::setmaxnreg_dec<Policy::ProducerRegisters>();
            // One warp issues the copy engine's loads; with a B fed by the threads all four
            // copy and shift B's rows, and warp 0 issues A's loads.
            if(BFromThreads || thread < arch::warp_size)
            {
                const bool prefetch_input = input_from_registers && ka.prefetch_input_tiles;
                if(thread < arch::warp_size && arch::elect_one())
                {
                    arch::tma_prefetch_descriptor(&ka.map_a);
                    if constexpr(!BFromThreads)
                        arch::tma_prefetch_descriptor(&ka.map_b);
                    if(prefetch_input)
                        arch::tma_prefetch_descriptor(&ka.map_x);
                }
                const uint64_t policy_a = arch::l2_policy(ka.evict_a);
                const uint64_t policy_b = arch::l2_policy(ka.evict_b);
                if constexpr(ClusterM > 1)
                    arch::cluster_wait();
                for(std::int64_t u = cluster; u < total; u += clusters)
                {
                    const auto wu    = ka.work(u);
                    const auto w     = ka.tiles(wu.tile);
                    const int32_t m0 = static_cast<int32_t>((w.m * ClusterM + rank) * BlockM);
                    const int32_t n0 = static_cast<int32_t>(w.n * BlockN);
                    const int32_t b  = static_cast<int32_t>(w.batch);
                    // (Every split of a tail tile prefetches: which one runs the epilogue is
                    // known only at its end.)
                    const int32_t at    = prefetch_input ? (wu.k_tiles > input_prefetch_lead
                                                                ? wu.k_tiles - input_prefetch_lead
                                                                : 0)
                                                         : -1;
                    const auto prefetch = [&] { arch::tma_prefetch_l2_3d(&ka.map_x, n0, m0, b); };
                    if constexpr(BFromThreads)
                        pipeline::produce_threads(sh, ring, raw_ring, base + Plan::raw_offset,
                                                  raw_bars, raw_bars + Plan::raw_stages, &ka.map_a,
                                                  ka.maps_b_rows, ka.b_rows, m0, n0, b, wu.k_first,
                                                  wu.k_tiles, policy_a, policy_b, at,
                                                  arch::warp_uniform(thread / arch::warp_size),
                                                  thread % arch::warp_size, prefetch);
                    else
                        pipeline::produce(sh, ring, &ka.map_a, &ka.map_b, m0, n0, b, wu.k_first,
                                          wu.k_tiles, rank, policy_a, policy_b, at, prefetch);
                }
                if constexpr(ClusterM > 1)
                    pipeline::wait_for_last_releases(sh, ring);
            }
            else if constexpr(ClusterM > 1)
                arch::cluster_wait(); // once per arrive, though these threads have no more work
        }
        else
        {
            if constexpr(Policy::Consumers > 1)
                arch::setmaxnreg_inc<Policy::ConsumerRegisters>();
            const index_t consumer   = role - 1;
            const index_t t_in_group = thread % 128;
            const bool warp_leader   = thread % 32 == 0;
            const bool scale_only    = epilogue::scale_only(ka.out, ka.pairs);
            const bool tma_store =
                CompactEpilogue || (epilogue::tma_store_possible && ka.tma_store);
            // (tma_store implies a single split.)
            const bool activate       = activates(ka.out, ka.pairs, tma_store, ka.input_boxes);
            const bool c_in_registers = input_from_registers && activate && ka.out.read_c;
            // The register epilogue's input in the warps' boxes (the warp's two barriers follow
            // the consumers' own). Kernels that never read an input compile none of it.
            const bool input_boxes = input_from_registers && activate && ka.input_boxes;
            const auto box_bars    = [&] {
                return &input_barriers[Policy::Consumers + (consumer * 4 + t_in_group / 32) * 2];
            };
            const auto box_ring = [&] {
                return typename epilogue::box_input_ring{&ka.map_x_boxes, &ka.map_x_narrow,
                                                         box_bars(), input_boxes};
            };
            // The first row and column of this consumer's share of a tile.
            const auto share_row0_of = [&](const auto& w) {
                return (w.m * ClusterM + rank) * BlockM + Policy::consumer_row(consumer);
            };
            const auto share_col0_of = [&](const auto& w) {
                return w.n * BlockN + Policy::consumer_col(consumer);
            };
            if(tma_store && t_in_group == 0)
            {
                arch::tma_prefetch_descriptor(&ka.map_d);
                if constexpr(epilogue::wide_boxes)
                    arch::tma_prefetch_descriptor(&ka.map_d_wide);
                if(input_boxes)
                    arch::tma_prefetch_descriptor(&ka.map_x_boxes);
                if(input_boxes && epilogue::narrow_chunks > 0)
                    arch::tma_prefetch_descriptor(&ka.map_x_narrow);
            }
            const typename epilogue::chunk_input chunk_input{
                &ka.map_x, tma_store ? ka.chunk_input : gemm_wgmma_chunk_input::none,
                &input_barriers[consumer]};
            unsigned char* d_buffers =
                d_buffers_base + consumer * Plan::d_buffers * Plan::d_chunk_bytes;
            Acc* staging = reinterpret_cast<Acc*>(base + Plan::staging_offset +
                                                  consumer * Plan::staging_bytes_per_consumer);
            // The plain path's box slots: the output chunks, and with wide boxes the staging
            // memory after them as well.
            unsigned char* plain_boxes =
                d_buffers_base + consumer * epilogue::plain_bytes_per_warpgroup;
            Acc acc[pipeline::slabs][pipeline::accumulators];
            for(index_t slab = 0; slab < pipeline::slabs; ++slab)
                for(index_t i = 0; i < pipeline::accumulators; ++i)
                    acc[slab][i] = Acc{};
            // Before the first wait on a barrier.
            if constexpr(ClusterM > 1)
                arch::cluster_wait();
            std::int64_t turn = 0; // ping-pong: units alternate between the two consumers
            uint32_t d_turn   = 0; // chunks or boxes stored through the copy engine
            for(std::int64_t u = cluster; u < total; u += clusters, ++turn)
            {
                const auto wu       = ka.work(u);
                const auto w        = ka.tiles(wu.tile);
                const int32_t split = wu.split;
                if constexpr(Policy::Pingpong)
                {
                    if(turn % 2 != consumer)
                    {
                        ring.skip(wu.k_tiles); // the other consumer's stages
                        continue;
                    }
                    // Main loops take turns: this one starts when the other's has consumed
                    // every earlier stage. Then each of this unit's full barriers has
                    // completed all earlier phases, so waiting on a phase parity cannot be
                    // satisfied by a phase two rounds old.
                    if(turn > 0)
                        named_barrier_sync(pingpong_barrier + consumer, 256);
                }
                if(c_in_registers && !ka.prefetch_input_tiles)
                    prefetch_c(ka, w, rank, consumer, t_in_group);
                if(input_boxes)
                    epilogue::prefetch_input_boxes(box_ring(), plain_boxes, ka.out.m, ka.out.n,
                                                   share_row0_of(w), share_col0_of(w), w.batch,
                                                   t_in_group, d_turn);
                // The register epilogue's biases load while the main loop runs.
                typename epilogue::template tile_biases<pipeline::slabs> biases{};
                if constexpr(prefetches_biases)
                {
                    if(activate)
                    {
                        gemm_tile_output<D, E> batch_out = ka.out;
                        batch_out.template select_batch<FusedEpilogue>(
                            w.batch, ka.batch_stride_c, ka.batch_stride_d, ka.batch_stride_bias);
                        if constexpr(BiasOnly)
                            biases = epilogue::template prefetch_biases<pipeline::slabs>(
                                batch_out, share_row0_of(w), share_col0_of(w), t_in_group);
                        else
                            epilogue::template prefetch_biases_l2<pipeline::slabs>(
                                batch_out, share_row0_of(w), share_col0_of(w), t_in_group);
                    }
                }
                pipeline::consume(acc, sh, ring, consumer, wu.k_tiles, warp_leader);
                if constexpr(Policy::Pingpong)
                    if(u + clusters < total) // the other consumer takes the next unit
                        named_barrier_arrive(pingpong_barrier + (1 - consumer), 256);
                const uint32_t barrier_id = static_cast<uint32_t>(1 + consumer);
                if(wu.tail >= 0 && !tail_fixup(acc, ka, wu, rank, Policy::Pingpong ? 0 : consumer,
                                               t_in_group, barrier_id))
                {
                    // Another split of the tile runs its epilogue: this one's input boxes go
                    // unread.
                    if(input_boxes)
                        epilogue::drop_input_boxes(box_bars(), ka.out.m, ka.out.n, share_row0_of(w),
                                                   share_col0_of(w), t_in_group, d_turn);
                    continue;
                }
                const std::int64_t share_row0 = share_row0_of(w);
                const std::int64_t col0       = share_col0_of(w);
                gemm_tile_output<D, E> out    = ka.out;
                out.template select_batch<FusedEpilogue>(w.batch, ka.batch_stride_c,
                                                         ka.batch_stride_d, ka.batch_stride_bias);
                out.load_scales();
                if constexpr(activates_from_registers)
                {
                    if(activate)
                    {
                        if constexpr(prefetches_biases && !BiasOnly)
                            biases = epilogue::template prefetch_biases<pipeline::slabs>(
                                out, share_row0, col0, t_in_group);
                        epilogue::template activate_and_store_tma<BiasOnly, BiasActivation, ReadsC,
                                                                  prefetches_biases>(
                            acc, out, &ka.map_d, &ka.map_d_wide, plain_boxes, share_row0, col0,
                            w.batch, t_in_group, d_turn, box_ring(), biases);
                        continue;
                    }
                }
#pragma unroll
                for(index_t slab = 0; slab < pipeline::slabs; ++slab)
                {
                    const std::int64_t row0 = share_row0 + 64 * slab;
                    // (compact_refuses leaves this one path: no other is compiled.)
                    if constexpr(CompactEpilogue)
                        epilogue::scale_and_store_tma(acc[slab], out, &ka.map_d, &ka.map_d_wide,
                                                      plain_boxes, row0, col0, w.batch, t_in_group,
                                                      d_turn);
                    else if(ka.work.splits > 1)
                    {
                        const std::int64_t mn = ka.out.m * ka.out.n;
                        epilogue::store_partial(
                            acc[slab], ka.workspace + (split * ka.tiles.batches + w.batch) * mn,
                            ka.out.m, ka.out.n, row0, col0, t_in_group);
                    }
                    else if(tma_store && scale_only)
                        epilogue::scale_and_store_tma(acc[slab], out, &ka.map_d, &ka.map_d_wide,
                                                      plain_boxes, row0, col0, w.batch, t_in_group,
                                                      d_turn);
                    else if(tma_store)
                        epilogue::stage_and_store_tma(acc[slab], out, &ka.map_d, d_buffers, row0,
                                                      col0, w.batch, t_in_group, staging,
                                                      barrier_id, d_turn, chunk_input);
                    else if(scale_only)
                        epilogue::scale_and_store(acc[slab], out, row0, col0, t_in_group);
                    else
                        epilogue::stage_and_store(acc[slab], out, row0, col0, t_in_group, staging,
                                                  barrier_id);
                }
            }
            if(tma_store)
                epilogue::drain_stores(t_in_group);
        }
        // No CTA may leave while a peer can still arrive on its barriers: its producer warp
        // has waited for the last releases (wait_for_last_releases).
#else
        (void)ka;
        trap();
#endif
    }
};

} // namespace ck_tile
