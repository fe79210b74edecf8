// SPDX-License-Identifier: MIT
// The warp-specialized pipeline of the Hopper GEMM: a ring of Stages shared-memory stages, each
// with a "full" barrier (the copy engine's bytes have landed) and an "empty" barrier (every
// consumer warp has finished the MMAs that read it).
//
//   producer (one warp):    wait empty[s] -> announce the stage's bytes on full[s] -> TMA A, B
//   (B fed by the threads: the copy engine brings B's rows as residue boxes into a raw ring up
//   to Plan::raw_stages - 1 K tiles ahead; per stage the four producer warps wait for the raw
//   slot and empty[s] -> TMA A -> shift the raw rows into the stage -> fence the writes for
//   the async proxy -> each warp arrives on full[s] and frees the raw slot)
//   consumers (warpgroups): wait full[s]  -> wgmma over the stage's K -> commit; once the MMAs of
//                           the previous stage have retired (wait_group 1), release it
//
// In a cluster of ClusterM CTAs (same N tile, neighbouring M tiles) each producer loads its own
// A and its part of B, multicast to every CTA of the cluster; a stage may be refilled only when
// the consumers of every CTA have released it, so each consumer warp arrives on the empty
// barrier of every CTA of the cluster.
//
// Both sides walk the ring in the same order through the same tiles, so a stage index and the
// parity of its barrier phase are all each side keeps (gemm_wgmma_ring). The producer's first
// pass waits for parity 1 of the empty barriers, which a fresh barrier reports as complete (the
// phase "before" phase 0), so it fills every stage before it blocks.
#pragma once

#include "ck_tile/core/arch/nvidia/cluster.hpp"
#include "ck_tile/core/arch/nvidia/elect.hpp"
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/thread.hpp"
#include "ck_tile/core/arch/nvidia/tma.hpp"
#include "ck_tile/core/arch/nvidia/wgmma.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_b_rows.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// A position in the ring of stages: the stage and the parity of its barriers' current phase.
template <index_t Stages>
struct gemm_wgmma_ring
{
    index_t stage   = 0;
    uint32_t parity = 0;

    CK_TILE_DEVICE void advance()
    {
        if(++stage == Stages)
        {
            stage = 0;
            parity ^= 1u;
        }
    }

    /// `n` positions further on (the stages another consumer reads).
    CK_TILE_DEVICE void skip(int32_t n)
    {
        const int32_t to = stage + n;
        stage            = to % Stages;
        parity ^= static_cast<uint32_t>(to / Stages) & 1u;
    }
};

template <typename Problem, typename Policy, typename Plan>
struct gemm_wgmma_pipeline
{
    using A      = typename Problem::ADataType;
    using B      = typename Problem::BDataType;
    using Acc    = typename Problem::AccDataType;
    using a_tile = typename Plan::a_tile;
    using b_tile = typename Plan::b_tile;
    using ring   = gemm_wgmma_ring<Policy::Stages>;

    /// The types wgmma reads: fp32 operands are multiplied as TF32.
    using MmaA = std::conditional_t<std::is_same_v<A, float>, tf32_t, A>;
    using MmaB = std::conditional_t<std::is_same_v<B, float>, tf32_t, B>;
    using mma  = arch::wgmma_ss<MmaA, MmaB, Acc, Policy::ConsumerN>;
    /// A consumer's accumulators: per 64-row slab, ConsumerN / 2 per thread.
    static constexpr index_t slabs        = Policy::Slabs;
    static constexpr index_t accumulators = Policy::ConsumerN / 2;

    /// Shared memory of the pipeline: the stages, then full[Stages], then empty[Stages].
    struct shared
    {
        unsigned char* stages; // 1024-byte aligned
        uint64_t* full;
        uint64_t* empty;

        CK_TILE_DEVICE unsigned char* a(index_t s) const { return stages + s * Plan::stage_bytes; }
        CK_TILE_DEVICE unsigned char* b(index_t s) const { return a(s) + a_tile::bytes; }
    };

    /// One thread, before the roles split; a block barrier must follow.
    CK_TILE_DEVICE static void init_barriers(const shared& sh)
    {
        for(index_t s = 0; s < Policy::Stages; ++s)
        {
            arch::mbarrier_init(&sh.full[s], Plan::full_arrivals);
            // One arrival per consumer warp of the cluster.
            arch::mbarrier_init(&sh.empty[s], 4 * Policy::ConsumersPerStage * Policy::ClusterM);
        }
        arch::fence_mbarrier_init();
    }

    /// The boxes of `Tile` that CTA `part` of the cluster loads, for rows from mn0 and K from
    /// k0 of `batch`, into `dst` (multicast to the whole cluster when the tile has parts), with
    /// the L2 cache policy `policy` (arch::l2_policy; 0: none).
    template <typename Tile>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    load_operand(unsigned char* dst, const CUtensorMap* map, uint64_t* bar, int32_t mn0, int32_t k0,
                 int32_t batch, index_t part, uint64_t policy)
    {
#pragma unroll
        for(index_t j = 0; j < Tile::boxes_per_part; ++j)
        {
            const int32_t mn  = mn0 + Tile::box_mn(part, j);
            const int32_t k   = k0 + Tile::box_k(part, j);
            unsigned char* to = dst + Tile::box_offset(part, j);
            const int32_t c0  = Tile::major == wgmma_major::k ? k : mn;
            const int32_t c1  = Tile::major == wgmma_major::k ? mn : k;
            if constexpr(Tile::parts > 1)
            {
                if(policy != 0)
                    arch::tma_load_3d_multicast_hinted(to, map, bar, (1u << Tile::parts) - 1u, c0,
                                                       c1, batch, policy);
                else
                    arch::tma_load_3d_multicast(to, map, bar, (1u << Tile::parts) - 1u, c0, c1,
                                                batch);
            }
            else if(policy != 0)
                arch::tma_load_3d_hinted(to, map, bar, c0, c1, batch, policy);
            else
                arch::tma_load_3d(to, map, bar, c0, c1, batch);
        }
    }

    /// The producer warp: K tiles k_first .. k_first + k_tiles - 1 of one output tile (all of
    /// them, or one split's) into the ring. Each stage's full barrier expects the whole stage,
    /// including the parts of B that peers multicast. `before()` runs once, before the loads of
    /// the unit's K tile `at` (0 .. k_tiles - 1; never for others), once its stage is free:
    /// work for the issuing lane at a point of the stream, such as a prefetch timed against the
    /// consumers' progress (they run at most Stages K tiles behind).
    template <typename Before>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    produce(const shared& sh, ring& r, const CUtensorMap* map_a, const CUtensorMap* map_b,
            int32_t m0, int32_t n0, int32_t batch, int32_t k_first, int32_t k_tiles,
            index_t cta_rank, uint64_t policy_a, uint64_t policy_b, int32_t at, Before before)
    {
        for(int32_t kt = k_first; kt < k_first + k_tiles; ++kt)
        {
            // Every lane walks the ring and waits; one issues (arch::elect_one: the copies'
            // operands stay in uniform registers).
            arch::mbarrier_wait_parity(&sh.empty[r.stage], r.parity ^ 1u);
            uint64_t* full   = &sh.full[r.stage];
            const int32_t k0 = kt * Plan::block_k;
            if(arch::elect_one())
            {
                if(kt - k_first == at)
                    before();
                arch::mbarrier_arrive_expect_tx(full, Plan::stage_bytes);
                load_operand<a_tile>(sh.a(r.stage), map_a, full, m0, k0, batch, 0, policy_a);
                load_operand<b_tile>(sh.b(r.stage), map_b, full, n0, k0, batch, cta_rank, policy_b);
            }
            r.advance();
        }
    }

    /// A position in the raw ring of a B fed by the threads: the slot and the parity of its
    /// barriers' phase.
    using raw_ring = gemm_wgmma_ring<(Plan::raw_stages > 0 ? Plan::raw_stages : 1)>;

    /// The producer warpgroup with a B fed by the threads (Policy::BFromThreads), on every lane
    /// of its four warps (`warp` 0..3): the same K tiles into the ring as produce(). Lane 0 of
    /// warp 0 issues A's box and B's residue boxes (`maps_b`, residues_of(b) of them, each
    /// `residue_bytes` of the raw slot; gemm_wgmma_b_rows), the latter up to Plan::raw_stages - 1
    /// K tiles ahead into the raw ring `raw`, whose slots' barriers are `raw_full` (the boxes have
    /// landed) and `raw_empty` (all four warps have shifted the slot). Each warp shifts its rows
    /// of a landed slot into the stage once the stage is free, fences its writes for the async
    /// proxy that wgmma reads through and arrives on the stage's full barrier. `q` persists from
    /// unit to unit; every box issued in a call is read in it.
    template <typename Before>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    produce_threads(const shared& sh, ring& r, raw_ring& q, unsigned char* raw, uint64_t* raw_full,
                    uint64_t* raw_empty, const CUtensorMap* map_a, const CUtensorMap* maps_b,
                    const gemm_wgmma_b_source& b, int32_t m0, int32_t n0, int32_t batch,
                    int32_t k_first, int32_t k_tiles, uint64_t policy_a, uint64_t policy_b,
                    int32_t at, index_t warp, index_t lane, Before before)
    {
        using rows                = gemm_wgmma_b_rows<b_tile::rows>;
        constexpr index_t R       = Plan::raw_stages;
        constexpr int64_t k_bytes = b_tile::span_bytes;
        const bool issuer         = warp == 0 && lane == 0;
        const index_t residues    = rows::residues_of(b);
        raw_ring fill             = q;
        const auto issue          = [&](int32_t t) {
            if(issuer)
            {
                arch::mbarrier_wait_parity(&raw_empty[fill.stage], fill.parity ^ 1u);
                uint64_t* bar = &raw_full[fill.stage];
                arch::mbarrier_arrive_expect_tx(
                             bar, static_cast<uint32_t>(residues * rows::residue_bytes));
                unsigned char* slot = raw + fill.stage * rows::slot_bytes;
                const int32_t k0    = (k_first + t) * Plan::block_k;
                for(index_t p = 0; p < residues; ++p)
                {
                    if(policy_b != 0)
                        arch::tma_load_3d_hinted(slot + p * rows::residue_bytes, &maps_b[p], bar,
                                                          k0, n0 / rows::residues, batch, policy_b);
                    else
                        arch::tma_load_3d(slot + p * rows::residue_bytes, &maps_b[p], bar, k0,
                                                   n0 / rows::residues, batch);
                }
            }
            fill.advance();
        };
        for(int32_t t = 0; t < R - 1 && t < k_tiles; ++t)
            issue(t);
        for(int32_t t = 0; t < k_tiles; ++t)
        {
            if(t + R - 1 < k_tiles)
                issue(t + R - 1);
            const int64_t k_byte0 = int64_t(k_first + t) * k_bytes;
            arch::mbarrier_wait_parity(&raw_full[q.stage], q.parity);
            arch::mbarrier_wait_parity(&sh.empty[r.stage], r.parity ^ 1u);
            uint64_t* full   = &sh.full[r.stage];
            const int32_t k0 = (k_first + t) * Plan::block_k;
            if(issuer)
            {
                if(t == at)
                    before();
                arch::mbarrier_arrive_expect_tx(full, a_tile::bytes);
                load_operand<a_tile>(sh.a(r.stage), map_a, full, m0, k0, batch, 0, policy_a);
            }
            // The issuing lane takes no chunks and never fences: with the issuing lanes fencing
            // too, each K tile took about a memory round trip, likely the fence waiting for the
            // lane's copies in flight.
            if(!issuer)
                rows::shift(sh.b(r.stage), raw + q.stage * rows::slot_bytes, b, n0, batch, k_byte0,
                            warp, warp == 0 ? lane - 1 : lane,
                            warp == 0 ? arch::warp_size - 1 : arch::warp_size);
            // Every writing lane's stores are fenced for the async proxy (wgmma reads them, and
            // the copy engine writes the raw slot again after this warp's reads).
            if(!issuer)
                arch::fence_proxy_async_shared_cta();
            warp_sync();
            if(lane == 0)
            {
                arch::mbarrier_arrive(full);
                arch::mbarrier_arrive(&raw_empty[q.stage]);
            }
            q.advance();
            r.advance();
        }
    }

    /// The producer warp after its last stage, in a cluster: waits until the consumers of
    /// every CTA have released each stage's last fill (the waits the next Stages loads would
    /// make). After it no peer arrives on this CTA's barriers any more, and every multicast
    /// into its stages has landed (its own consumers waited for them), so the CTA may exit
    /// without a cluster barrier.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void wait_for_last_releases(const shared& sh,
                                                                           ring& r)
    {
        for(index_t s = 0; s < Policy::Stages; ++s)
        {
            arch::mbarrier_wait_parity(&sh.empty[r.stage], r.parity ^ 1u);
            r.advance();
        }
    }

    /// One consumer warpgroup: acc = its share of the tile (Policy::consumer_row / _col:
    /// slabs of 64 rows of A times ConsumerN columns of B) over every K tile of the output
    /// tile. `consumer` is the warpgroup's index among the consumers.
    /// @post acc holds the sums and every stage this call read has been released.
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void consume(Acc (&acc)[slabs][accumulators],
                                                            const shared& sh, ring& r,
                                                            index_t consumer, int32_t k_tiles,
                                                            bool warp_leader)
    {
        // The warpgroup's stage and consumer index are the same on every lane; read through
        // arch::warp_uniform, they let the compiler build the descriptors in uniform registers
        // (H100: 192x192 tiles' main loop went from 171 to 130 instructions per stage and warp,
        // 48 R2UR moves to 3).
        consumer           = arch::warp_uniform(consumer);
        const index_t row0 = Policy::consumer_row(consumer);
        const index_t col0 = Policy::consumer_col(consumer);
        // Stage 0's descriptors, built once: every other one is a constant number of 16-byte
        // units further on, one add each (descriptor_offset).
        const uint64_t a_first = a_tile::descriptor(arch::shared_address(sh.a(0)), row0, 0);
        const uint64_t b_first = b_tile::descriptor(arch::shared_address(sh.b(0)), col0, 0);
        index_t previous       = 0;
        for(int32_t kt = 0; kt < k_tiles; ++kt)
        {
            const index_t stage = arch::warp_uniform(r.stage);
            const uint32_t at   = static_cast<uint32_t>(stage * Plan::stage_bytes);
            const uint64_t a0   = wgmma_smem_descriptor::advance(a_first, at);
            const uint64_t b0   = wgmma_smem_descriptor::advance(b_first, at);
            arch::mbarrier_wait_parity(&sh.full[stage], r.parity);
            fence_accumulators(acc);
            arch::wgmma_fence();
            // Unrolled in place: an outlined lambda would take acc's address (local memory).
#pragma unroll
            for(index_t step = 0; step < a_tile::k_steps; ++step)
            {
                const uint64_t db =
                    wgmma_smem_descriptor::advance(b0, b_tile::descriptor_offset(0, step));
                const wgmma_scale_d scale =
                    (kt == 0 && step == 0) ? wgmma_scale_d::zero : wgmma_scale_d::one;
#pragma unroll
                for(index_t slab = 0; slab < slabs; ++slab)
                {
                    const uint64_t da = wgmma_smem_descriptor::advance(
                        a0, a_tile::descriptor_offset(64 * slab, step));
                    if constexpr(mma::mn_major_supported)
                        mma::template fma<a_tile::major, b_tile::major>(da, db, acc[slab], scale);
                    else
                        mma::fma(da, db, acc[slab], scale);
                }
            }
            arch::wgmma_commit_group();
            fence_accumulators(acc);
            // The MMAs of the previous stage have retired: its buffers may be refilled.
            arch::wgmma_wait_group<1>();
            if(kt > 0 && warp_leader)
                release(sh, previous);
            previous = r.stage;
            r.advance();
        }
        arch::wgmma_wait_group<0>();
        fence_accumulators(acc);
        if(k_tiles > 0 && warp_leader)
            release(sh, previous);
    }

    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void
    fence_accumulators(Acc (&acc)[slabs][accumulators])
    {
#pragma unroll
        for(index_t slab = 0; slab < slabs; ++slab)
            arch::wgmma_fence_operand(acc[slab]);
    }

    /// One consumer warp is done with `stage`: arrive on its empty barrier in every CTA of the
    /// cluster (each one's producer multicasts into all of them).
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void release(const shared& sh, index_t stage)
    {
        if constexpr(Policy::ClusterM == 1)
            arch::mbarrier_arrive(&sh.empty[stage]);
        else
        {
            const uint32_t local = arch::shared_address(&sh.empty[stage]);
#pragma unroll
            for(uint32_t cta = 0; cta < Policy::ClusterM; ++cta)
                arch::mbarrier_arrive_cluster(arch::map_shared_to_cta(local, cta));
        }
    }
};

} // namespace ck_tile
