// SPDX-License-Identifier: MIT
// The Hopper GEMM's epilogue: a consumer warpgroup's accumulators (64 x BlockN, in the wgmma D
// fragment layout) through gemm_tile_output's operations to D, masked at the matrix edge.
//
// Paths, chosen per launch:
//  - store_partial (split-K): the raw sums to the split's slice of the workspace; the epilogue
//    runs in gemm_tile_splitk_reduce afterwards.
//  - scale_and_store: D = alpha * acc, converted, straight from the registers. Each thread holds
//    pairs of adjacent columns, so with D row-major, an even leading dimension and an aligned
//    pointer a pair leaves in one store. A handful of instructions per pair, fully unrolled
//    (register arrays only have compile-time indices).
//  - activate_and_store_tma: with D's copy-engine stores (below), an epilogue whose values are
//    functions of the accumulator, its row and column and one input at the same element (C, or
//    D0 of a one-input multi-D operation): bias, activation and the input's pairs of columns
//    straight from the registers. Where the tile stores wide boxes, the copy engine loads
//    each box of the input (wide or narrow) into the slot its D values will leave from
//    (box_input_ring) and the threads read it there; an input without a tensor map of its own
//    (the rules of D's) then takes the staged path. Other tiles' threads load the input
//    themselves. In the kernels that compile every activation the boxes are a run-time loop
//    (rolled_boxes).
//  - stage_and_store: everything else (two extra inputs, fp32 D0, any D layout). The
//    accumulators pass through shared memory in 64 x 32 chunks, and one copy of the full
//    per-element epilogue, in a run-time loop, writes them with consecutive threads on
//    consecutive columns. Unrolling the full epilogue 128 times per thread made a kernel whose
//    instruction fetch, not its math, set the speed.
//  - the same two through the copy engine (scale_and_store_tma, stage_and_store_tma), when D's
//    tensor map exists (row-major D, 16-byte aligned pointer, leading dimension, batch stride
//    and row length). The map's box is 16 rows of a 32-column chunk. In scale_and_store_tma
//    each warp stores its own 16 rows from its own swizzled boxes (stmatrix for 16-bit D),
//    with no barrier between the warps: a warp waits only for the store that last read the
//    box it is about to write; with wide_boxes a box holds 128 bytes of each row (64 16-bit
//    columns, a second map) and 32-column boxes take the rest. In stage_and_store_tma a
//    64 x 32 chunk is written by the warpgroup and leaves in four boxes. Either way a buffer
//    is waited for only before it is written again (two in turn, or DBuffers), so the last
//    boxes' stores run under the next tile's main loop. The copy engine clips rows and columns
//    outside D. The staged one can also have the copy engine load C (beta != 0), or else D0 (a
//    one-input multi-D operation, D0 of D's type), into the chunk's buffer first, when that tensor
//    meets the same rules: each thread then reads the value at an element from shared memory and
//    writes D's value in its place, instead of loading one element from global memory.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/memory_word.hpp"
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/mma_sync.hpp"
#include "ck_tile/core/arch/nvidia/prefetch.hpp"
#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/arch/nvidia/stmatrix.hpp"
#include "ck_tile/core/arch/nvidia/tma.hpp"
#include "ck_tile/core/arch/nvidia/wgmma_traits.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_tile_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_policy.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// Which epilogue input the copy engine loads into the output buffers (gemm_wgmma_epilogue).
enum class gemm_wgmma_chunk_input : std::int32_t
{
    none = 0,
    c    = 1,
    d0   = 2
};

template <typename Problem, index_t BlockN, bool Fused, index_t DBuffers = 0,
          bool WideBoxes = false, bool Compact = false>
struct gemm_wgmma_epilogue
{
    using D                               = typename Problem::DDataType;
    using E                               = typename Problem::EpilogueType;
    using Acc                             = typename Problem::AccDataType;
    static constexpr index_t accumulators = BlockN / 2;

    /// Columns per shared-memory chunk (gemm_wgmma_chunk_cols: 16 on 80, 112, 144 and 176
    /// columns), and the padded row pitch (in accumulators) that keeps the fragment writes of a
    /// warp on distinct banks.
    static constexpr index_t chunk_cols  = gemm_wgmma_chunk_cols(BlockN);
    static constexpr index_t chunk_pitch = chunk_cols + 1;
    /// Shared memory one consumer warpgroup needs for stage_and_store.
    static constexpr index_t staging_bytes = 64 * chunk_pitch * static_cast<index_t>(sizeof(Acc));
    static_assert(BlockN % chunk_cols == 0, "BlockN is a whole number of chunks");

    /// The copy engine's output chunks: 64 rows of chunk_cols D values, rows of d_span bytes
    /// swizzled at that span (32, 64 or 128 bytes: a warp's row-wise or fragment-wise writes
    /// then fall on distinct banks). DBuffers of them per warpgroup, used in turn by the staged
    /// path; the plain path's slots are described at wide_boxes below. `turn` counts the
    /// chunks (staged path) or boxes (plain path) its thread's warpgroup or warp has stored,
    /// so the store that last read a buffer is always the group DBuffers (or plain_slots)
    /// back, even where chunks outside D were skipped.
    static constexpr bool tma_store_possible = DBuffers > 0;
    static constexpr uint32_t d_span         = chunk_cols * static_cast<uint32_t>(sizeof(D));
    static constexpr smem_swizzle d_swizzle  = smem_swizzle_for_span(d_span);
    static constexpr uint32_t d_chunk_bytes  = 64 * d_span;
    static_assert(!tma_store_possible || (d_span == 32 || d_span == 64 || d_span == 128),
                  "a row of an output chunk is one swizzle span");
    static_assert(DBuffers <= 2, "one or two output buffers");
    /// The rows of one TMA store (D's tensor map box): a warp's share of a chunk. A box of
    /// them is a whole number of swizzle repeats, so a chunk's four boxes and a warp's own
    /// boxes both start where the pattern starts.
    static constexpr uint32_t d_box_rows  = 16;
    static constexpr uint32_t d_box_bytes = d_box_rows * d_span;
    static_assert(d_box_rows % 8 == 0, "a swizzle repeat is 8 rows of d_span bytes");

    /// The plain path's boxes (scale_and_store_tma). Each store costs its warp about 330 SM
    /// cycles besides writing the values (H100, clock64 per phase: the wait for the box, two
    /// warp barriers, the proxy fence and the store's issue), so with WideBoxes a warp stores
    /// as many columns at once as one swizzled box row holds: 128 bytes (64 16-bit columns),
    /// then chunk_cols at a time for what is left of the consumer's columns. Each warp then
    /// owns two slots of 16 rows x 128 bytes, in the output chunks and the staging memory
    /// (which the plain path leaves unused); 128x256 tiles store 4 boxes per warp and tile
    /// instead of 8, 192x192 tiles 6 instead of 9. Without, a warp's slots are DBuffers boxes
    /// of d_box_bytes in the output chunks, one chunk_cols chunk each.
    static constexpr bool wide_boxes = WideBoxes;
    static_assert(!WideBoxes || (DBuffers == 2 && sizeof(D) <= 2),
                  "wide boxes hold more columns than chunk_cols, in two slots per warp");
    static constexpr index_t wide_cols =
        WideBoxes ? 128 / static_cast<index_t>(sizeof(D)) : chunk_cols;
    static constexpr index_t wide_chunks       = BlockN / wide_cols;
    static constexpr index_t narrow_chunks     = (BlockN - wide_chunks * wide_cols) / chunk_cols;
    static constexpr index_t plain_slots       = WideBoxes ? 2 : DBuffers;
    static constexpr uint32_t plain_slot_bytes = WideBoxes ? d_box_rows * 128 : d_box_bytes;
    /// The plain path's shared memory per consumer warpgroup (four warps' slots).
    static constexpr uint32_t plain_bytes_per_warpgroup = 4 * plain_slots * plain_slot_bytes;
    /// A warp's boxes per slab, in the order it stores them: the wide ones, then the narrow.
    static constexpr index_t slab_boxes = wide_chunks + narrow_chunks;
    /// Box b's first column within the consumer's share.
    CK_TILE_HOST_DEVICE static constexpr index_t box_first_col(index_t b)
    {
        return b < wide_chunks ? b * wide_cols
                               : wide_chunks * wide_cols + (b - wide_chunks) * chunk_cols;
    }

    /// write_box's step before each group, where there is none.
    struct no_group_step
    {
        CK_TILE_FORCE_INLINE CK_TILE_DEVICE void operator()(index_t, const unsigned char*) const {}
    };

    /// Byte offset of (row, col) in a buffer of Cols D values per row, swizzled at that span.
    template <index_t Cols>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static uint32_t box_offset(index_t row, index_t col)
    {
        constexpr uint32_t span = Cols * static_cast<uint32_t>(sizeof(D));
        return smem_swizzle_offset(smem_swizzle_for_span(span),
                                   static_cast<uint32_t>(row) * span +
                                       static_cast<uint32_t>(col) * sizeof(D));
    }

    /// Byte offset of (row, col) in an output chunk.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static uint32_t d_chunk_offset(index_t row, index_t col)
    {
        return box_offset<chunk_cols>(row, col);
    }

    /// After every thread has written its values to `buffer`: the chunk at (col, row0) of
    /// `batch` leaves in its boxes of d_box_rows rows (those that start inside D, `m` rows),
    /// committed as one group.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    release_d_buffer(const CUtensorMap* map_d, const unsigned char* buffer, std::int64_t row0,
                     std::int64_t col, std::int64_t batch, std::int64_t m, index_t t,
                     uint32_t barrier_id)
    {
        arch::fence_proxy_async_shared_cta();
        named_barrier_sync(barrier_id, 128);
        if(t == 0)
        {
#pragma unroll
            for(uint32_t box = 0; box < 64 / d_box_rows; ++box)
                if(row0 + box * d_box_rows < m)
                    arch::tma_store_3d(map_d, buffer + box * d_box_bytes, static_cast<int32_t>(col),
                                       static_cast<int32_t>(row0 + box * d_box_rows),
                                       static_cast<int32_t>(batch));
            arch::tma_store_commit_group();
        }
    }

    /// Before the block exits: its stores have finished reading shared memory (each warp's
    /// first lane issued some of them). Their writes to global memory need no wait here: they
    /// complete before the kernel does, and nothing in the kernel reads D back. Waiting for
    /// the writes as well kept the last blocks of every launch for a write's round trip.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void drain_stores(index_t t)
    {
        if(t % 32 == 0)
            arch::tma_store_wait_group_read<0>();
    }

    /// True when scale_and_store computes what gemm_tile_output::write would (alpha and the
    /// per-tensor scales only).
    CK_TILE_HOST_DEVICE static bool scale_only(const gemm_tile_output<D, E>& out, bool pairs)
    {
        return pairs && !out.read_c && out.bias_kind == gemm_bias::none &&
               out.activation == gemm_activation::none && !out.multi_d.active();
    }

    /// True when every D value is a function of its accumulator, row and column and of at most
    /// one input at the same element: alpha, beta with a row-major C, the scales, and with the
    /// fused epilogue the bias, the activation, and without C a one-input multi-D operation
    /// (add or multiply) whose D0 is row-major in D's type. Such an epilogue runs from the
    /// registers (scale_and_store_tma, activate_and_store_tma) with no value passing through
    /// the staging memory; each thread reads the input at its own fragment's elements.
    CK_TILE_HOST_DEVICE static bool from_registers(const gemm_tile_output<D, E>& out, bool pairs)
    {
        const bool fused_ops =
            out.bias_kind != gemm_bias::none || out.activation != gemm_activation::none;
        if(!float_epilogue)
            return scale_only(out, pairs);
        const gemm_multi_d& md = out.multi_d;
        const bool d0_in_registers =
            Fused && !out.read_c &&
            (md.op == gemm_multi_d_op::add || md.op == gemm_multi_d_op::multiply) && !md.d0.fp32 &&
            md.d0.stride_n == 1;
        return pairs && (!md.active() || d0_in_registers) && (!out.read_c || out.c_stride_n == 1) &&
               (Fused || !fused_ops);
    }

    /// Whether the register epilogue of `out` reads an input tensor (C, or D0).
    CK_TILE_HOST_DEVICE static bool reads_input(const gemm_tile_output<D, E>& out)
    {
        return out.read_c || out.multi_d.active();
    }

    /// The register paths beyond scale_only compute in float. (An int32 D's epilogue computes
    /// in double: its activations from the registers spilled 1.9 KB of the int8 128x256
    /// kernel, against none through the staging memory.)
    static constexpr bool float_epilogue = std::is_same_v<E, float>;

    /// Whether the register epilogue with an input stores wide boxes (else chunk_cols wide
    /// ones): half the stores, for 16 input registers per box instead of 8. ptxas keeps the
    /// fused 128-column tiles (128x128, 64x128 ping-pong) free of stack only with the narrow
    /// ones (8 bytes of stack and 8-16 of spill stores with wide boxes); the unfused and
    /// compact kernels (`Compact`: alpha-only, bias-only, bias-and-C) and the wider tiles hold
    /// either without new spills.
    static constexpr bool input_on_wide_boxes = !Fused || Compact || BlockN > 128;

    /// Whether the register epilogue's input can come through the copy engine into the warp's
    /// box slots (box_input_ring): 16-bit D, whose values ldmatrix reads back in the layout
    /// stmatrix writes them in, on wide boxes (a share that ends inside a wide box, 96 or 160
    /// columns, takes its last columns in narrow ones, each from a map of its own width).
    static constexpr bool input_boxes_possible =
        wide_boxes && input_on_wide_boxes && sizeof(D) == 2;

    /// Whether a consumer of Slabs slabs reads an input in registers (from_registers with
    /// reads_input): not past 128 accumulators per thread, where ptxas spilled 908 bytes of the
    /// 192x192 tile's 144 accumulators and C values (68 without), within the consumers' 232
    /// registers after setmaxnreg; up to 144 in the compact kernels that read it from the box
    /// slots (a box's values at a time: the bias-and-C 192x192 pair has no stack).
    template <index_t Slabs>
    static constexpr bool input_in_registers = Slabs* accumulators <= 128 ||
                                               (Compact && input_boxes_possible &&
                                                Slabs * accumulators <= 144);

    /// The register epilogue's input (C, or D0) loaded by the copy engine, box by box, into
    /// the slot from which the box's D values will leave. Each thread reads its pairs back
    /// with ldmatrix (four per 64-column box, where loads from global memory took sixteen, each
    /// touching eight 128-byte lines per warp) and writes D in their place. A warp's loads run
    /// one box ahead of its stores, and the first two boxes of a tile load before the tile's
    /// main loop, under it. `map`: the input's tensor map of wide boxes; `map_narrow`: of
    /// chunk_cols columns, for the narrow boxes (where narrow_chunks > 0); `on`: the maps exist
    /// (where input_boxes_possible, an epilogue that reads an input runs only then). Every
    /// store turn t of the warp then has one load,
    /// on the warp's barrier t % 2, in that barrier's phase t / 2: prefetch_input_boxes loads a
    /// tile's first two boxes before its main loop, each box the next one's, and a tile whose
    /// epilogue another split runs waits for its two (drop_input_boxes) and skips their turns.
    struct box_input_ring
    {
        const CUtensorMap* map;
        const CUtensorMap* map_narrow;
        uint64_t* bars;
        bool on;
    };

    /// The one factor of the plain paths, d_scale * alpha (alpha with the operands' scales):
    /// one multiply per element where d_scale * (alpha * acc) took two. The epilogue's time
    /// is its instructions (ncu on 128x256: 738 per warp and tile, the stall samples spread
    /// over all of them), and the multiplies were a third of those.
    /// @pre out.load_scales()
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static E output_scale(const gemm_tile_output<D, E>& out)
    {
        return out.d_scale * out.alpha;
    }

    /// @pre scale_only(out, pairs) and out.load_scales(). `row0`, `col0`: the slab's first
    /// element; `t`: the thread within the warpgroup.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    scale_and_store(const Acc (&acc)[accumulators], const gemm_tile_output<D, E>& out,
                    std::int64_t row0, std::int64_t col0, index_t t)
    {
        const E scale = output_scale(out);
        store_fragment(acc, out.d, out.d_stride_m, out.m, out.n, row0, col0, t, true,
                       [scale](Acc v) { return convert_output<D>(scale * static_cast<E>(v)); });
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

    /// Two adjacent elements as one memory word, v0 at the lower address (in the low half).
    template <typename T>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static arch::memory_word_t<2 * sizeof(T)> pair_word(T v0,
                                                                                            T v1)
    {
        using word = arch::memory_word_t<2 * sizeof(T)>;
        struct alignas(word) pair
        {
            T v[2];
        };
        const pair two{{v0, v1}};
        word w;
        __builtin_memcpy(&w, &two, sizeof(w));
        return w;
    }

    /// Two adjacent elements in one store. @pre p is 2 * sizeof(T) aligned.
    template <typename T>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void store_pair(T* p, T v0, T v1)
    {
        *reinterpret_cast<arch::memory_word_t<2 * sizeof(T)>*>(p) = pair_word(v0, v1);
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
        // Consecutive threads take consecutive addresses of D: along a row, or down a column
        // where D is column-major and the slab's 64 rows all lie in D. Walking rows there
        // stored one element per column: fp16 4096^3 on 128x256 tiles with a column-major D
        // ran 0.458 ms that way and 0.243 down the columns on the H100 (2048^3: 0.103 and
        // 0.044). Where few rows lie in D (a 16-row A tile's transposed few-column problem)
        // the walk down the columns leaves most threads idle: 8192 x 16 x 8192 took 64.5 us
        // that way against 60.0 walking rows (two commands). The staging pitch (chunk_cols + 1)
        // keeps either walk free of bank conflicts.
        const bool down_columns = out.d_stride_m == 1 && out.d_stride_n != 1 && row0 + 64 <= out.m;
        Acc* const s_lo         = staging + (warp * 16 + lane / 4) * chunk_pitch + (lane % 4) * 2;
        Acc* const s_hi         = s_lo + 8 * chunk_pitch;
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
                const index_t rr     = down_columns ? e % 64 : e / chunk_cols;
                const index_t cc     = down_columns ? e / 64 : e % chunk_cols;
                const std::int64_t r = row0 + rr, c = c0 + cc;
                if(r < out.m && c < out.n)
                    out.template write<Fused>(r, c, staging[rr * chunk_pitch + cc]);
            }
            named_barrier_sync(barrier_id, 128);
        }
    }

    /// scale_and_store through the copy engine. `slots`: this warpgroup's plain_bytes_per_warpgroup
    /// of box slots, plain_slots per warp; `map_wide`: D's map with boxes of wide_cols columns
    /// (map_d itself without WideBoxes); `batch`: D's batch coordinate in the maps; `turn`: the
    /// count of boxes this warp has stored. Boxes wholly outside D, and warps whose rows are,
    /// are skipped (the copy engine is not asked to clip whole boxes).
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    scale_and_store_tma(const Acc (&acc)[accumulators], const gemm_tile_output<D, E>& out,
                        const CUtensorMap* map_d, const CUtensorMap* map_wide, unsigned char* slots,
                        std::int64_t row0, std::int64_t col0, std::int64_t batch, index_t t,
                        uint32_t& turn)
    {
        if constexpr(tma_store_possible)
        {
            const index_t warp           = t / 32;
            const std::int64_t warp_row0 = row0 + warp * d_box_rows;
            if(warp_row0 >= out.m)
                return;
            unsigned char* const boxes = slots + warp * plain_slots * plain_slot_bytes;
            // One copy of the stores, multiplying even by a unit scale (exact): a second copy
            // without the multiply for alpha = 1 made the kernels 9-18% longer, and these
            // stores' instructions are fetched anew each tile (H200: 0.3-0.8% fewer SM cycles
            // with one copy at 2048^3, 3000^3 and 4096 x 4096 x 1024).
            const E scale = output_scale(out);
            store_warp_boxes(
                acc, map_d, map_wide, boxes, warp_row0, col0, batch, out.n, t % 32, turn,
                [scale](Acc v, index_t) { return convert_output<D>(scale * static_cast<E>(v)); });
        }
        else
        {
            (void)acc, (void)out, (void)map_d, (void)map_wide, (void)slots, (void)row0;
            (void)col0, (void)batch, (void)t, (void)turn;
        }
    }

    /// One warp's 16 rows of the slab: wide_chunks boxes of wide_cols columns, then
    /// narrow_chunks of chunk_cols, each through the next of its slots and one TMA store
    /// issued by lane 0.
    template <typename F>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    store_warp_boxes(const Acc (&acc)[accumulators], const CUtensorMap* map_d,
                     const CUtensorMap* map_wide, unsigned char* boxes, std::int64_t row0,
                     std::int64_t col0, std::int64_t batch, std::int64_t n, index_t lane,
                     uint32_t& turn, F f)
    {
#pragma unroll
        for(index_t chunk = 0; chunk < wide_chunks; ++chunk)
            if(!store_box<wide_cols>(acc, chunk * wide_cols, map_wide, boxes, row0, col0, batch, n,
                                     lane, turn, f))
                return;
#pragma unroll
        for(index_t chunk = 0; chunk < narrow_chunks; ++chunk)
            if(!store_box<chunk_cols>(acc, wide_chunks * wide_cols + chunk * chunk_cols, map_d,
                                      boxes, row0, col0, batch, n, lane, turn, f))
                return;
    }

    /// Columns first .. first + Cols - 1 of the warp's rows (of `acc`, the fragment of columns
    /// col0 ..) through its next slot; f(value, index in acc) gives D's value, and
    /// g(h, address) runs before write_box's group h (16-bit D).
    /// @return false when they start outside D (nothing stored).
    template <index_t Cols, typename F, typename G = no_group_step>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static bool
    store_box(const Acc (&acc)[accumulators], index_t first, const CUtensorMap* map,
              unsigned char* boxes, std::int64_t row0, std::int64_t col0, std::int64_t batch,
              std::int64_t n, index_t lane, uint32_t& turn, F f, G g = {})
    {
        const std::int64_t col = col0 + first;
        if(col >= n)
            return false;
        unsigned char* const box = boxes + (turn++ % plain_slots) * plain_slot_bytes;
        if(lane == 0)
            arch::tma_store_wait_group_read<plain_slots - 1>();
        warp_sync(); // the box is free for every lane
        write_box<Cols>(acc, first, box, lane, f, g);
        arch::fence_proxy_async_shared_cta();
        warp_sync(); // every lane's values are visible to the copy engine
        if(lane == 0)
        {
            arch::tma_store_3d(map, box, static_cast<int32_t>(col), static_cast<int32_t>(row0),
                               static_cast<int32_t>(batch));
            arch::tma_store_commit_group();
        }
        return true;
    }

    /// The warp's values of columns first .. first + Cols - 1 into a box of 16 rows x Cols,
    /// swizzled at its row span, eight accumulators (16 columns) at a time: f(value, k) gives
    /// D's value of the box's accumulator k (acc[first / 2 + k]). 16-bit D goes by stmatrix,
    /// four 8x8 matrices (two 8-column groups) per instruction: matrix q holds rows
    /// 8 (q % 2) .. +7 of group 2h + q / 2, whose fragment pair is accumulators 4g + 2 (q % 2)
    /// and the next; lane l addresses row l % 8 of matrix l / 8. g(h, address) runs first for
    /// each instruction h, with its address. `first` may be known only at run time (a rolled
    /// loop over boxes): the accumulators are then taken by accumulator_group.
    template <index_t Cols, typename F, typename G = no_group_step>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void write_box(const Acc (&acc)[accumulators],
                                                              index_t first, unsigned char* box,
                                                              index_t lane, F f, G g = {})
    {
#pragma unroll
        for(index_t h = 0; h < Cols / 16; ++h)
        {
            Acc v[8];
            accumulator_group(acc, first / 16 + h, v);
            const auto d = [&](index_t j) CK_TILE_FORCE_INLINE { return f(v[j], 8 * h + j); };
            if constexpr(sizeof(D) == 2)
            {
                const index_t q = lane / 8, row = lane % 8 + 8 * (q % 2);
                unsigned char* const row_address = box + box_offset<Cols>(row, 8 * (2 * h + q / 2));
                g(h, row_address);
                arch::stmatrix_x4(arch::shared_address(row_address), pair_word(d(0), d(1)),
                                  pair_word(d(2), d(3)), pair_word(d(4), d(5)),
                                  pair_word(d(6), d(7)));
            }
            else
            {
                const index_t r_lo = lane / 4, c_first = (lane % 4) * 2;
#pragma unroll
                for(index_t j = 0; j < 2; ++j)
                {
                    const index_t c = c_first + 8 * (2 * h + j);
                    store_pair(reinterpret_cast<D*>(box + box_offset<Cols>(r_lo, c)), d(4 * j),
                               d(4 * j + 1));
                    store_pair(reinterpret_cast<D*>(box + box_offset<Cols>(r_lo + 8, c)),
                               d(4 * j + 2), d(4 * j + 3));
                }
            }
        }
    }

    /// Accumulators 8 group .. 8 group + 7 into v. Register arrays take only compile-time
    /// indices, so a group known only at run time is chosen by a switch. ptxas makes it a
    /// short chain of compares, each case's eight moves ahead of the next test (8-24 moves for
    /// the 128x256 tiles' four boxes), where the unrolled epilogue had a copy of the
    /// per-element code for every group. A group known at compile time folds to no moves.
    /// @pre 0 <= group < accumulators / 8
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    accumulator_group(const Acc (&acc)[accumulators], index_t group, Acc (&v)[8])
    {
        static_assert(accumulators % 8 == 0 && accumulators <= 16 * 8,
                      "whole groups of eight, at most sixteen of them");
        const auto take = [&](auto g) CK_TILE_FORCE_INLINE {
            constexpr index_t G = decltype(g)::value;
            if constexpr(8 * G < accumulators)
            {
#pragma unroll
                for(index_t j = 0; j < 8; ++j)
                    v[j] = acc[8 * G + j];
            }
        };
        // clang-format off
        switch(group)
        {
        case 0: take(std::integral_constant<index_t, 0>{}); break;
        case 1: take(std::integral_constant<index_t, 1>{}); break;
        case 2: take(std::integral_constant<index_t, 2>{}); break;
        case 3: take(std::integral_constant<index_t, 3>{}); break;
        case 4: take(std::integral_constant<index_t, 4>{}); break;
        case 5: take(std::integral_constant<index_t, 5>{}); break;
        case 6: take(std::integral_constant<index_t, 6>{}); break;
        case 7: take(std::integral_constant<index_t, 7>{}); break;
        case 8: take(std::integral_constant<index_t, 8>{}); break;
        case 9: take(std::integral_constant<index_t, 9>{}); break;
        case 10: take(std::integral_constant<index_t, 10>{}); break;
        case 11: take(std::integral_constant<index_t, 11>{}); break;
        case 12: take(std::integral_constant<index_t, 12>{}); break;
        case 13: take(std::integral_constant<index_t, 13>{}); break;
        case 14: take(std::integral_constant<index_t, 14>{}); break;
        default: take(std::integral_constant<index_t, 15>{}); break;
        }
        // clang-format on
    }

    /// Two adjacent D values (columns c and c + 1) in one register: a 16-bit D in registers
    /// of its own took each of C's values to a register, and ran fp16 4096^3 with beta = 1 in
    /// 0.244 ms against 0.216 with the pairs (H100).
    using d_pair = arch::memory_word_t<2 * sizeof(D)>;

    /// A consumer share's biases in its warps' registers, loaded before the tile's main loop
    /// so that the epilogue does not wait on them: fp16 4096^3 with a bias per column took
    /// 291,000 SM cycles on 128x256 tiles so and 302,000 with the biases loaded box by box,
    /// against 283,000 without a bias (ncu, H200). Column pair j of the share (columns 2j, 2j + 1,
    /// one d_pair) lies in lane j % 32, register j / 32 of every warp; the bias of row w + i of a
    /// slab (w: the warp's first row there) in lane i and i + 16. The epilogue takes them by
    /// shuffles whose registers are known at compile time (column_box, activate_slabs).
    static constexpr index_t bias_column_registers = (accumulators + 31) / 32;
    template <index_t Slabs>
    struct tile_biases
    {
        d_pair column[bias_column_registers];
        D row[Slabs];
    };
    /// A shuffle moves 4 bytes: a pair of wider D values would take two.
    static constexpr bool biases_prefetchable = sizeof(D) <= 2;

    /// The lines of the biases of the consumer share at (row0, col0) of out's batch into L2,
    /// one per thread of the warpgroup (`t`), before the main loop: prefetch_biases at the
    /// epilogue's start then finds them there.
    template <index_t Slabs>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    prefetch_biases_l2(const gemm_tile_output<D, E>& out, std::int64_t row0, std::int64_t col0,
                       index_t t)
    {
        std::int64_t first = 0, count = 0;
        if(out.bias_kind == gemm_bias::per_column)
            first = col0, count = out.n - col0 < 2 * accumulators ? out.n - col0 : 2 * accumulators;
        else if(out.bias_kind == gemm_bias::per_row)
            first = row0, count = out.m - row0 < 64 * Slabs ? out.m - row0 : 64 * Slabs;
        if(count <= 0)
            return;
        const auto begin = reinterpret_cast<std::uintptr_t>(out.bias + first);
        const auto last  = begin + (count - 1) * sizeof(D);
        const auto line  = (begin & ~std::uintptr_t(127)) + 128 * std::uintptr_t(t);
        if(line <= last)
            arch::prefetch_l2(reinterpret_cast<const void*>(line));
    }

    /// The biases of `t`'s warp for the consumer share at (row0, col0) of out's batch: loads
    /// only, issued before the main loop that hides them (the bias-only kernels) or at the
    /// epilogue's start (the fused ones, after prefetch_biases_l2).
    /// @post every value outside D is 0; the kind not asked for is left unloaded
    template <index_t Slabs>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static tile_biases<Slabs>
    prefetch_biases(const gemm_tile_output<D, E>& out, std::int64_t row0, std::int64_t col0,
                    index_t t)
    {
        tile_biases<Slabs> b{};
        const index_t warp = t / 32, lane = t % 32;
        if(out.bias_kind == gemm_bias::per_column)
        {
            const bool pairs = reinterpret_cast<std::uintptr_t>(out.bias) % (2 * sizeof(D)) == 0;
#pragma unroll
            for(index_t r = 0; r < bias_column_registers; ++r)
            {
                const index_t j      = 32 * r + lane;
                const std::int64_t c = col0 + 2 * j;
                if(j < accumulators)
                    b.column[r] = load_d_pair(out.bias + c, c < out.n, c + 1 < out.n, pairs);
            }
        }
        else if(out.bias_kind == gemm_bias::per_row)
        {
#pragma unroll
            for(index_t slab = 0; slab < Slabs; ++slab)
            {
                const std::int64_t r = row0 + 64 * slab + warp * d_box_rows + lane % 16;
                b.row[slab]          = r < out.m ? out.bias[r] : D(0);
            }
        }
        return b;
    }

    /// The epilogue of a problem that from_registers accepts and scale_only does not (a bias,
    /// an activation, and C or one extra input) from the registers through the copy engine, in
    /// scale_and_store_tma's slots, for all of a consumer's slabs (`row0`: the share's first
    /// row). Through the staging memory this epilogue ran fp16 4096^3 with a per-column bias and
    /// gelu at half of cuBLASLt's speed: its per-element loop waits on each element's loads.
    /// The activation is chosen once per tile, so a tile runs one copy of the per-element
    /// code, unrolled over its boxes or, where rolled_boxes, in a run-time loop. With an input, a
    /// box's input values (pairs of columns) and its columns' biases take 24 registers beside the
    /// accumulators on wide boxes, which the 128x256 and 64x256 tiles hold without new spills.
    /// Boxes of chunk_cols for the input (12 registers) had cost twice the stores: fp16 4096^3 with
    /// beta = 1 on 128x256 tiles took 328,000 SM cycles that way against 321,000 (ncu, H100;
    /// 291,000 without C). `BiasOnly`: only alpha, a bias (of any kind) and the one activation
    /// `OnlyActivation` are compiled, no input: two copies of the per-element code (a bias per
    /// column; a bias per row or none) where the full set has ten per input (five activations).
    /// `Prefetched`: the biases come from `biases` (prefetch_biases, before the main loop; only
    /// where biases_prefetchable), not from loads box by box. `ReadsC` (with BiasOnly): C as well,
    /// and only it, one copy per kind of bias. The input (C, or D0) has one way per kernel: the
    /// copy engine's boxes where input_boxes_possible, else the threads' own loads.
    /// @pre out.load_scales(); from_registers(out, pairs); with BiasOnly, out's activation is
    /// OnlyActivation, out has no multi-D and no C unless ReadsC; with Prefetched,
    /// biases_prefetchable and biases = prefetch_biases(out, row0, col0, t); with ReadsC, out
    /// reads C (beta != 0); where input_boxes_possible and out reads an input, ring.on
    template <bool BiasOnly = false, gemm_activation OnlyActivation = gemm_activation::none,
              bool ReadsC = false, bool Prefetched = false, index_t Slabs>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    activate_and_store_tma(const Acc (&acc)[Slabs][accumulators], const gemm_tile_output<D, E>& out,
                           const CUtensorMap* map_d, const CUtensorMap* map_wide,
                           unsigned char* slots, std::int64_t row0, std::int64_t col0,
                           std::int64_t batch, index_t t, uint32_t& turn,
                           const box_input_ring& ring, const tile_biases<Slabs>& biases = {})
    {
        if constexpr(tma_store_possible)
        {
            // The input read in registers (C, else D0 of a one-input multi-D operation): its
            // rows take loads of two columns where its pointer and leading dimension allow.
            const register_input_view in =
                out.read_c ? register_input_view::of(out.c, out.c_stride_m)
                           : register_input_view::of(static_cast<const D*>(out.multi_d.d0.p),
                                                     out.multi_d.d0.stride_m);
            // One copy of the per-element code per activation and kind of bias: a bias tested
            // per element cost the plain fused product 4 instructions an element, and a kind
            // chosen at run time added a zero bias of the other kind to every element. (No
            // bias runs as a bias per row of zeros: the same multiply-add per element.)
            const auto slabs = [&](auto act, auto bias) CK_TILE_FORCE_INLINE {
                constexpr gemm_activation Act = decltype(act)::value;
                constexpr gemm_bias Bias      = decltype(bias)::value;
                // The input's one way per kernel: from the copy engine's boxes where the tile
                // has them (the host sends an input without a box map to the staged epilogue),
                // else by the threads' own loads. Each further way had been a copy of its own
                // (one that chose per box cost the 128x256 tiles 8 bytes of stack): the fused
                // 128x256 kernel had 217,000 SASS instructions with three ways and three kinds
                // of bias. Fewer copies made the bias-and-C kernels' launches after ncu's cache
                // flush faster (2048^3 with beta = 1: 57,200 SM cycles with nine, 50,600 with
                // three); the fused kernels' were not (docs/performance.md).
                const auto with = [&](auto input) CK_TILE_FORCE_INLINE {
                    constexpr register_input In = decltype(input)::value;
                    constexpr bool boxes = In != register_input::none && input_boxes_possible;
                    activate_slabs<Slabs, In, boxes, Act, Bias, Prefetched>(
                        acc, out, in, map_d, map_wide, slots, row0, col0, batch, t, turn, ring,
                        biases);
                };
                if constexpr(BiasOnly && ReadsC)
                {
                    static_assert(input_boxes_possible, "C from the boxes alone");
                    return with(input_tag<register_input::c>{});
                }
                if constexpr(!BiasOnly && input_in_registers<Slabs>)
                {
                    if(out.read_c)
                        return with(input_tag<register_input::c>{});
                    if constexpr(Fused)
                        if(out.multi_d.active())
                            return with(input_tag<register_input::d0>{});
                }
                with(input_tag<register_input::none>{});
            };
            const auto biased = [&](auto act) CK_TILE_FORCE_INLINE {
                if(out.bias_kind == gemm_bias::per_column)
                    return slabs(act, bias_tag<gemm_bias::per_column>{});
                slabs(act, bias_tag<gemm_bias::per_row>{});
            };
            if constexpr(!Fused)
                slabs(activation_tag<gemm_activation::none>{}, bias_tag<gemm_bias::none>{});
            else if constexpr(BiasOnly)
                biased(activation_tag<OnlyActivation>{});
            else
                switch(out.activation)
                {
                case gemm_activation::relu:
                    biased(activation_tag<gemm_activation::relu>{});
                    break;
                case gemm_activation::gelu_tanh:
                    biased(activation_tag<gemm_activation::gelu_tanh>{});
                    break;
                case gemm_activation::gelu_erf:
                    biased(activation_tag<gemm_activation::gelu_erf>{});
                    break;
                case gemm_activation::silu:
                    biased(activation_tag<gemm_activation::silu>{});
                    break;
                case gemm_activation::none:
                default:
                    biased(activation_tag<gemm_activation::none>{});
                    break;
                }
        }
        else
        {
            (void)acc, (void)out, (void)map_d, (void)map_wide, (void)slots, (void)row0;
            (void)col0, (void)batch, (void)t, (void)turn, (void)ring, (void)biases;
        }
    }

    /// The M x N input of D's type, row-major, that the register epilogue reads beside the
    /// accumulators: C (beta * C before the bias), or D0 of a one-input multi-D operation
    /// (combined at the activation).
    enum class register_input
    {
        none,
        c,
        d0
    };
    template <register_input In>
    using input_tag = std::integral_constant<register_input, In>;
    template <gemm_activation A>
    using activation_tag = std::integral_constant<gemm_activation, A>;
    template <gemm_bias B>
    using bias_tag = std::integral_constant<gemm_bias, B>;
    struct register_input_view
    {
        const D* p;
        std::int64_t stride_m;
        bool pairs; // every pair of columns c, c + 1 (c even) is 2 * sizeof(D) aligned

        CK_TILE_FORCE_INLINE CK_TILE_DEVICE static register_input_view of(const D* p,
                                                                          std::int64_t stride_m)
        {
            return {p, stride_m,
                    reinterpret_cast<std::uintptr_t>(p) % (2 * sizeof(D)) == 0 &&
                        stride_m % 2 == 0};
        }
    };

    /// activate_and_store_tma for one activation (Act) and kind of bias (Bias; per_row in a
    /// fused epilogue also runs a problem without a bias, with zeros for the rows' biases): per
    /// slab, the warp's rows' biases, then its boxes as scale_and_store_tma's (wide boxes with
    /// an input too), each with its columns' biases and input values.
    template <index_t Slabs, register_input In, bool InputBoxes, gemm_activation Act,
              gemm_bias Bias, bool Prefetched>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    activate_slabs(const Acc (&acc)[Slabs][accumulators], const gemm_tile_output<D, E>& out,
                   const register_input_view& in, const CUtensorMap* map_d,
                   const CUtensorMap* map_wide, unsigned char* slots, std::int64_t row0,
                   std::int64_t col0, std::int64_t batch, index_t t, uint32_t& turn,
                   const box_input_ring& ring, const tile_biases<Slabs>& biases)
    {
        static_assert(Fused || (Bias == gemm_bias::none && Act == gemm_activation::none),
                      "the unfused kernels compile neither a bias nor an activation");
        const index_t warp = t / 32, lane = t % 32;
        unsigned char* const boxes     = slots + warp * plain_slots * plain_slot_bytes;
        constexpr bool bias_per_row    = Bias == gemm_bias::per_row;
        constexpr bool bias_per_column = Bias == gemm_bias::per_column;
        const D* const col_bias        = bias_per_column ? out.bias : nullptr;
        // Where only sums follow the products (no activation, no D0), d_scale is folded into
        // alpha, beta and the bias (a row's bias scaled once per slab): one multiply less per
        // element.
        constexpr bool fold_scale = Act == gemm_activation::none && In != register_input::d0;
        const E alpha             = fold_scale ? output_scale(out) : out.alpha;
        const E beta              = fold_scale ? out.d_scale * out.beta : out.beta;
        const E bias_scale        = fold_scale ? out.d_scale : E(1);
        constexpr bool with_input = In != register_input::none;
        // D0 enters as v * m + a: (1, D0) to add it, (D0, 0) to multiply by it.
        const bool d0_multiplies = out.multi_d.op == gemm_multi_d_op::multiply;
        const bool d0_before     = out.multi_d.before_activation;
#pragma unroll
        for(index_t slab = 0; slab < Slabs; ++slab)
        {
            const std::int64_t warp_row0 = row0 + 64 * slab + warp * d_box_rows;
            if(warp_row0 >= out.m)
                return; // so are the later slabs' rows
            const std::int64_t r_lo = warp_row0 + lane / 4, r_hi = r_lo + 8;
            const input_rows rows =
                with_input ? input_rows::of(in, out.m, r_lo, col0 + 2 * (lane % 4)) : input_rows{};
            E bias_lo = E(0), bias_hi = E(0);
            if constexpr(bias_per_row && Prefetched)
            {
                bias_lo =
                    bias_scale * load_output_type<E>(warp_shuffle(biases.row[slab], lane / 4));
                bias_hi =
                    bias_scale * load_output_type<E>(warp_shuffle(biases.row[slab], lane / 4 + 8));
            }
            else if constexpr(bias_per_row)
            {
                if(out.bias_kind == gemm_bias::per_row && r_lo < out.m)
                    bias_lo = bias_scale * load_output_type<E>(out.bias[r_lo]);
                if(out.bias_kind == gemm_bias::per_row && r_hi < out.m)
                    bias_hi = bias_scale * load_output_type<E>(out.bias[r_hi]);
            }
            // Accumulator a lies on row lo or hi ((a % 4) / 2); its column's pair of biases
            // (value e of it is its own) and its input value are given. The order of the
            // operations is gemm_tile_output::value's, the bias added first (one multiply-add
            // with the product) and d_scale moved ahead where fold_scale.
            const auto value = [&](Acc v, index_t a, d_pair column_bias, index_t e,
                                   E x_in) CK_TILE_FORCE_INLINE {
                E x;
                if constexpr(bias_per_row)
                    x = alpha * static_cast<E>(v) + ((a % 4) / 2 == 0 ? bias_lo : bias_hi);
                else if constexpr(bias_per_column)
                    x = alpha * static_cast<E>(v) + bias_scale * pair_value(column_bias, e);
                else
                    x = alpha * static_cast<E>(v);
                if constexpr(In == register_input::c)
                    x += beta * x_in;
                if constexpr(In == register_input::d0)
                {
                    const E m = d0_multiplies ? x_in : E(1), add = d0_multiplies ? E(0) : x_in;
                    if(d0_before)
                        x = x * m + add;
                    x = apply_activation<Act>(x);
                    if(!d0_before)
                        x = x * m + add;
                }
                else
                    x = apply_activation<Act>(x);
                return convert_output<D>(fold_scale ? x : out.d_scale * x);
            };
            d_pair cv[wide_cols / 4]; // with_input: the box's input values (load_input_box)
            constexpr index_t wide         = with_input && !input_on_wide_boxes ? 0 : wide_chunks;
            constexpr index_t first_narrow = wide * wide_cols;
            bool inside                    = true;
            // A box of Cols columns from `first` through `map`: its input values, then its
            // accumulators.
            const auto box = [&](auto cols, index_t first,
                                 const CUtensorMap* map) CK_TILE_FORCE_INLINE {
                constexpr index_t Cols = decltype(cols)::value;
                if constexpr(InputBoxes)
                {
                    if(inside && col0 + first < out.n)
                    {
                        // The input of the next box the warp stores: the slab's next one if
                        // it starts inside D, else the next slab's first (so the slab's last
                        // box inside D starts it). prefetch_input_boxes started the first
                        // slab's first two, where they are inside.
                        const index_t b = Cols == wide_cols // of the slab
                                              ? first / wide_cols
                                              : wide_chunks + (first - first_narrow) / chunk_cols;
                        const bool in_slab =
                            b + 1 < slab_boxes && col0 + box_first_col(b + 1) < out.n;
                        const bool next_started     = slab == 0 && b == 0 && in_slab;
                        const index_t next_b        = in_slab ? b + 1 : 0;
                        const std::int64_t next_row = in_slab ? warp_row0 : warp_row0 + 64;
                        const std::int64_t next_col = col0 + box_first_col(next_b);
                        const bool next_in = in_slab || (slab + 1 < Slabs && next_row < out.m);
                        if(!next_started && next_in)
                            start_input_box(ring, next_b, boxes, turn + 1, next_row, next_col,
                                            batch, lane);
                        wait_input_box(ring.bars, turn);
                    }
                }
                else if constexpr(with_input)
                    load_input_box<Cols>(in, rows, out.m, out.n, warp_row0, col0, first, lane, cv);
                inside = inside &&
                         column_box<Cols, with_input, InputBoxes>(
                             acc[slab], first, map, boxes, warp_row0, col0, batch, lane, turn, out,
                             col_bias, Prefetched && bias_per_column ? biases.column : nullptr,
                             value, cv);
            };
            for_each_box<wide>([&](index_t chunk) CK_TILE_FORCE_INLINE {
                box(std::integral_constant<index_t, wide_cols>{}, chunk * wide_cols, map_wide);
            });
            for_each_box<(accumulators * 2 - first_narrow) / chunk_cols>(
                [&](index_t chunk) CK_TILE_FORCE_INLINE {
                    box(std::integral_constant<index_t, chunk_cols>{},
                        first_narrow + chunk * chunk_cols, map_d);
                });
        }
    }

    /// Whether the register epilogue's boxes are a run-time loop: in the kernels that compile
    /// every activation and kind of bias (Fused, not Compact). Unrolled, a box's per-element
    /// code is fetched anew for each box, and a block's first tile waits for that fetch: the
    /// fused 128x256 kernel with a bias, gelu and C lost 10,500 of its 35,000 ncu samples at
    /// 2048^3 waiting for instructions after the cache flush, cuBLASLt 600 (H200). Rolled, each
    /// group of accumulators costs a choice (accumulator_group): 1.5-2.5% more cycles where
    /// the code is warm, 2-3% on the compact kernels, whose unrolled code is one straight run
    /// and gained nothing from the loop (docs/performance.md).
    static constexpr bool rolled_boxes = Fused && !Compact;

    /// f(box) for box in [0, Count): a run-time loop where rolled_boxes, else unrolled (box
    /// is then known at compile time after inlining).
    template <index_t Count, typename F>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void for_each_box(F f)
    {
        if constexpr(rolled_boxes)
        {
#pragma unroll 1
            for(index_t box = 0; box < Count; ++box)
                f(box);
        }
        else
        {
#pragma unroll
            for(index_t box = 0; box < Count; ++box)
                f(box);
        }
    }

    /// p[0] and p[1] where each is inside (else 0), in one load where both are and p is
    /// 2 * sizeof(D) aligned (`aligned`).
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static d_pair load_d_pair(const D* p, bool first_in,
                                                                  bool second_in, bool aligned)
    {
        if(first_in && second_in && aligned)
            return *reinterpret_cast<const d_pair*>(p);
        const D two[2] = {first_in ? p[0] : D(0), second_in ? p[1] : D(0)};
        d_pair w;
        __builtin_memcpy(&w, two, sizeof(two));
        return w;
    }

    /// Value e (0: column c, 1: column c + 1) of a pair, in E.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static E pair_value(d_pair w, index_t e)
    {
        D two[2];
        __builtin_memcpy(two, &w, sizeof(w));
        return load_output_type<E>(two[e]);
    }

    /// A thread's two rows of the input (lo, and lo + 8) at its first column pair of a slab:
    /// where a row lies below D, the last row of D instead. Its values there are never stored
    /// (the copy engine clips D's rows), so the loads of a box inside D's columns take no
    /// predicates and no address arithmetic beyond a constant offset. Per pair, the bounds
    /// checks and 64-bit addresses had made C's loads 5 M of the 9 M instructions that
    /// beta = 1 added to fp16 4096^3 on 128x256 tiles (ncu, H100).
    struct input_rows
    {
        const D* lo;
        const D* hi;

        CK_TILE_FORCE_INLINE CK_TILE_DEVICE static input_rows
        of(const register_input_view& in, std::int64_t m, std::int64_t r_lo, std::int64_t lane_col)
        {
            const std::int64_t last = m - 1;
            const D* const p        = in.p + lane_col;
            return {p + (r_lo < m ? r_lo : last) * in.stride_m,
                    p + (r_lo + 8 < m ? r_lo + 8 : last) * in.stride_m};
        }
    };

    /// Lane 0 starts loading the input of the slab's box b, at (row, col), into the slot of
    /// store turn `turn`, once its stores have left shared memory (the one that last read that
    /// slot among them). A narrow box fills the first d_box_bytes of its slot, swizzled at its
    /// own span, as its D values are written there.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    start_input_box(const box_input_ring& ring, index_t b, unsigned char* boxes, uint32_t turn,
                    std::int64_t row, std::int64_t col, std::int64_t batch, index_t lane)
    {
        if(lane == 0)
        {
            const bool wide     = b < wide_chunks;
            uint64_t* const bar = ring.bars + turn % 2;
            arch::tma_store_wait_group_read<0>();
            arch::mbarrier_arrive_expect_tx(bar, wide ? plain_slot_bytes : d_box_bytes);
            arch::tma_load_3d(boxes + (turn % plain_slots) * plain_slot_bytes,
                              wide ? ring.map : ring.map_narrow, bar, static_cast<int32_t>(col),
                              static_cast<int32_t>(row), static_cast<int32_t>(batch));
        }
    }

    /// Waits for the input box of store turn `turn` to land in its slot.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void wait_input_box(uint64_t* bars, uint32_t turn)
    {
        arch::mbarrier_wait_parity(bars + turn % 2, (turn / 2) % 2);
    }

    /// write_box's step that reads a landed input box: group h's pairs (load_input_box's
    /// cv[4h + j]) by ldmatrix from the rows stmatrix then writes D to, the inverse of that
    /// stmatrix. Read group by group, the box's input holds four registers at a time, not
    /// sixteen (which had cost 128x256 tiles 8 bytes of stack).
    struct read_input_group
    {
        d_pair (&cv)[wide_cols / 4];

        CK_TILE_FORCE_INLINE CK_TILE_DEVICE void operator()(index_t h,
                                                            const unsigned char* row_address) const
        {
            const auto v = arch::nvidia::ldmatrix_x4(row_address);
#pragma unroll
            for(index_t j = 0; j < 4; ++j)
                cv[4 * h + j] = v[j];
        }
    };

    /// How many of the warp's first two boxes of a consumer share (`row0`, `col0`) lie inside
    /// D: the boxes prefetch_input_boxes loads and drop_input_boxes waits for.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static index_t
    first_boxes(std::int64_t m, std::int64_t n, std::int64_t row0, std::int64_t col0, index_t t)
    {
        if(row0 + (t / 32) * d_box_rows >= m)
            return 0;
        index_t boxes = 0;
#pragma unroll
        for(index_t b = 0; b < 2 && b < slab_boxes; ++b)
            boxes += col0 + box_first_col(b) < n ? 1 : 0;
        return boxes;
    }

    /// Before a tile's main loop: the input of the warp's first two boxes starts loading into
    /// their slots. (`turn`: the warp's stores so far; `row0`, `col0`: the consumer's share.)
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    prefetch_input_boxes(const box_input_ring& ring, unsigned char* slots, std::int64_t m,
                         std::int64_t n, std::int64_t row0, std::int64_t col0, std::int64_t batch,
                         index_t t, uint32_t turn)
    {
        if constexpr(input_boxes_possible)
        {
            const index_t warp         = t / 32;
            unsigned char* const boxes = slots + warp * plain_slots * plain_slot_bytes;
            const index_t count        = first_boxes(m, n, row0, col0, t);
#pragma unroll
            for(index_t b = 0; b < 2; ++b)
                if(b < count)
                    start_input_box(ring, b, boxes, turn + b, row0 + warp * d_box_rows,
                                    col0 + box_first_col(b), batch, t % 32);
        }
        else
            (void)ring, (void)slots, (void)m, (void)n, (void)row0, (void)col0, (void)batch, (void)t,
                (void)turn;
    }

    /// The boxes of prefetch_input_boxes, waited for and their turns skipped, where the tile's
    /// epilogue runs elsewhere.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    drop_input_boxes(uint64_t* bars, std::int64_t m, std::int64_t n, std::int64_t row0,
                     std::int64_t col0, index_t t, uint32_t& turn)
    {
        if constexpr(input_boxes_possible)
        {
            const index_t count = first_boxes(m, n, row0, col0, t);
            for(index_t b = 0; b < count; ++b)
                wait_input_box(bars, turn++);
        }
        else
            (void)bars, (void)m, (void)n, (void)row0, (void)col0, (void)t, (void)turn;
    }

    /// The input (of m x n) at the warp's 16 rows (row0 ..) and Cols columns (col + first ..)
    /// of the accumulator fragment: cv[2g + h] holds the pair of accumulators 4g + 2h and
    /// 4g + 2h + 1 (row r_lo + 8h, columns col + first + 8g + 2 (lane % 4) + {0, 1}); zeros
    /// outside D's columns, and for rows outside D zeros or values that are not stored.
    /// `rows`: input_rows at column col.
    template <index_t Cols>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    load_input_box(const register_input_view& in, const input_rows& rows, std::int64_t m,
                   std::int64_t n, std::int64_t row0, std::int64_t col, index_t first, index_t lane,
                   d_pair (&cv)[wide_cols / 4])
    {
        if(in.pairs && col + first + Cols <= n)
        {
#pragma unroll
            for(index_t g = 0; g < Cols / 8; ++g)
            {
                cv[2 * g]     = *reinterpret_cast<const d_pair*>(rows.lo + first + 8 * g);
                cv[2 * g + 1] = *reinterpret_cast<const d_pair*>(rows.hi + first + 8 * g);
            }
            return;
        }
        const std::int64_t lane_col = col + first + 2 * (lane % 4), r_lo = row0 + lane / 4;
#pragma unroll
        for(index_t g = 0; g < Cols / 8; ++g)
#pragma unroll
            for(index_t h = 0; h < 2; ++h)
            {
                const std::int64_t r = r_lo + 8 * h, c = lane_col + 8 * g;
                const bool row_in = r < m;
                cv[2 * g + h]     = load_d_pair(in.p + r * in.stride_m + c, row_in && c < n,
                                                row_in && c + 1 < n, in.pairs);
            }
    }

    /// store_box with the box's columns' biases (a bias per column, else zeros) and, WithInput,
    /// its input values (load_input_box): accumulators 4g + {0, 1} (and 4g + {2, 3}, the row 8
    /// below) lie on columns 8g + 2 (lane % 4) + {0, 1} of the slab. The biases come from
    /// `prefetched` (tile_biases::column) where it is given, else from col_bias where that is.
    template <index_t Cols, bool WithInput, bool InputBoxes, typename V>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static bool
    column_box(const Acc (&acc)[accumulators], index_t first, const CUtensorMap* map,
               unsigned char* boxes, std::int64_t row0, std::int64_t col0, std::int64_t batch,
               index_t lane, uint32_t& turn, const gemm_tile_output<D, E>& out, const D* col_bias,
               const d_pair* prefetched, V value, d_pair (&cv)[wide_cols / 4])
    {
        const std::int64_t n = out.n, lane_col = col0 + first + 2 * (lane % 4);
        // The biases of the thread's column pairs (8q + 2 (lane % 4) + {0, 1}): bias[q]. The
        // share's pair 4Q + lane % 4 (Q = first / 8 + q) lies in lane 4 (Q % 8) + lane % 4,
        // register Q / 8.
        const bool bias_pairs = reinterpret_cast<std::uintptr_t>(col_bias) % (2 * sizeof(D)) == 0;
        d_pair bias[Cols / 8];
#pragma unroll
        for(index_t q = 0; q < Cols / 8; ++q)
        {
            const std::int64_t c = lane_col + 8 * q;
            const index_t Q      = first / 8 + q;
            if(prefetched != nullptr)
                bias[q] = warp_shuffle(bias_register(prefetched, Q / 8), 4 * (Q % 8) + lane % 4);
            else if(col_bias != nullptr)
                bias[q] = load_d_pair(col_bias + c, c < n, c + 1 < n, bias_pairs);
            else
                bias[q] = d_pair{};
        }
        const auto f = [&](Acc v, index_t k) CK_TILE_FORCE_INLINE { // k = 4g + 2h + e
            E c = E(0);
            if constexpr(WithInput)
                c = pair_value(cv[k / 2], k % 2);
            return value(v, k, bias[k / 4], k % 2, c);
        };
        if constexpr(InputBoxes)
            return store_box<Cols>(acc, first, map, boxes, row0, col0, batch, n, lane, turn, f,
                                   read_input_group{cv});
        else
            return store_box<Cols>(acc, first, map, boxes, row0, col0, batch, n, lane, turn, f);
    }

    /// Register r of tile_biases::column, r known only at run time where the boxes are a
    /// rolled loop: a select per register (there are at most four).
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static d_pair bias_register(const d_pair* column, index_t r)
    {
        d_pair w = column[0];
#pragma unroll
        for(index_t i = 1; i < bias_column_registers; ++i)
            w = r == i ? column[i] : w;
        return w;
    }

    /// The copy engine's loads of one epilogue input into the output buffers: its tensor map,
    /// which input, and the barrier the loads land on (this warpgroup's). Every chunk of a
    /// launch loads when `input` is not none, so the phase parity is the chunk count's.
    struct chunk_input
    {
        const CUtensorMap* map;
        gemm_wgmma_chunk_input input;
        uint64_t* bar;
    };

    /// stage_and_store with the D values written to the output chunks and stored by the copy
    /// engine; elements outside D are neither read nor stored. With `in.input` not none,
    /// that input's chunk comes into the buffer by the copy engine first.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    stage_and_store_tma(const Acc (&acc)[accumulators], const gemm_tile_output<D, E>& out,
                        const CUtensorMap* map_d, unsigned char* d_buffers, std::int64_t row0,
                        std::int64_t col0, std::int64_t batch, index_t t, Acc* staging,
                        uint32_t barrier_id, uint32_t& turn, const chunk_input& in)
    {
        if constexpr(tma_store_possible)
        {
            if(row0 >= out.m)
                return;
            // What the threads still read from global memory: everything but the loaded input.
            gemm_tile_output<D, E> loads = out;
            if(in.input == gemm_wgmma_chunk_input::c)
                loads.read_c = false;
            else if(in.input == gemm_wgmma_chunk_input::d0)
                loads.multi_d.op = gemm_multi_d_op::none;
            constexpr index_t chunks = BlockN / chunk_cols;
            const index_t warp = t / 32, lane = t % 32;
            Acc* const s_lo = staging + (warp * 16 + lane / 4) * chunk_pitch + (lane % 4) * 2;
            Acc* const s_hi = s_lo + 8 * chunk_pitch;
#pragma unroll 1
            for(index_t chunk = 0; chunk < chunks; ++chunk)
            {
                const std::int64_t c0 = col0 + chunk * chunk_cols;
                if(c0 >= out.n)
                    break;
                const uint32_t this_turn    = turn++;
                unsigned char* const buffer = d_buffers + (this_turn % DBuffers) * d_chunk_bytes;
                const bool load             = in.input != gemm_wgmma_chunk_input::none;
                // The input's load starts first, its latency under the parking below.
                if(t == 0)
                {
                    arch::tma_store_wait_group_read<DBuffers - 1>();
                    if(load)
                    {
                        arch::mbarrier_arrive_expect_tx(in.bar, d_chunk_bytes);
                        arch::tma_load_3d(buffer, in.map, in.bar, static_cast<int32_t>(c0),
                                          static_cast<int32_t>(row0), static_cast<int32_t>(batch));
                    }
                }
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
                // Publishes the staged accumulators as well as the free buffer.
                named_barrier_sync(barrier_id, 128);
                if(load)
                    arch::mbarrier_wait_parity(in.bar, this_turn & 1u);
#pragma unroll 4
                for(index_t e = t; e < 64 * chunk_cols; e += 128)
                {
                    const index_t rr = e / chunk_cols, cc = e % chunk_cols;
                    const std::int64_t r = row0 + rr, c = c0 + cc;
                    if(r < out.m && c < out.n)
                    {
                        D* const slot = reinterpret_cast<D*>(buffer + d_chunk_offset(rr, cc));
                        auto inputs   = loads.template gather<Fused>(r, c);
                        if(in.input == gemm_wgmma_chunk_input::c)
                            inputs.c = load_output_type<E>(*slot);
                        else if(in.input == gemm_wgmma_chunk_input::d0)
                            inputs.x0 = load_output_type<E>(*slot);
                        *slot = out.template value<Fused>(staging[rr * chunk_pitch + cc], inputs);
                    }
                }
                // Also orders this chunk's reads of the staging area before the next chunk's
                // writes.
                release_d_buffer(map_d, buffer, row0, c0, batch, out.m, t, barrier_id);
            }
        }
        else
        {
            (void)acc, (void)out, (void)map_d, (void)d_buffers, (void)row0, (void)col0;
            (void)batch, (void)t, (void)staging, (void)barrier_id, (void)turn, (void)in;
        }
    }
};

} // namespace ck_tile
