// SPDX-License-Identifier: MIT
// The tile GEMM's main loop: operand tiles flow global -> shared memory through a ring of
// Policy::Stages buffers, Stages - 1 tiles ahead of the math. On NVIDIA with 16-byte vectors
// the copies are asynchronous (cp.async, one commit group per tile, zero-filled past the
// matrix edge); otherwise (AMD, narrow vectors) the next tile is read into registers before the
// math on the current one and written to shared memory after it.
//
// The schedule (gemm_schedule) decides how the warps go through a stage: intrawave runs every
// instruction step of the stage without a barrier; interwave cuts it into InterwaveChunks and
// puts a barrier between chunks, so all warps read the same chunk at the same time.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"
#include "ck_tile/ops/gemm/gemm_tile_block_gemm.hpp"
#include "ck_tile/ops/gemm/gemm_tile_policy.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/arch.hpp"
#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/cp_async.hpp"
#endif
#endif

#include <cstdint>

namespace ck_tile {

/// One operand in global memory: `rows` x `k` (rows are M for A, N for B), element (r, k) at
/// p[r * stride_row + k * stride_k]; one of the strides is 1 (the layout's contiguous side).
template <typename T>
struct gemm_tile_operand
{
    const T* p;
    std::int64_t rows, k, stride_row, stride_k;
};

/// Copies of one operand tile (Rows x BlockK at (row0, k0)) into its shared layout, Vector
/// elements at a time along the contiguous side.
/// @post thread t handles vectors t, t + BlockSize, ...; together they cover the tile once.
template <typename T, typename Lds, bool KContiguous, index_t Rows, index_t BlockK, index_t Vector,
          index_t BlockSize>
struct gemm_tile_copy
{
    static constexpr index_t Outer     = KContiguous ? Rows : BlockK;
    static constexpr index_t Inner     = KContiguous ? BlockK : Rows;
    static constexpr index_t Vectors   = Outer * Inner / Vector;
    static constexpr index_t PerThread = (Vectors + BlockSize - 1) / BlockSize;
    static_assert(Inner % Vector == 0, "vectors divide the contiguous side of the tile");

    /// (outer, inner) of vector v; inner is contiguous, consecutive v read consecutive memory.
    CK_TILE_HOST_DEVICE static constexpr index_t outer_of(index_t v)
    {
        return v / (Inner / Vector);
    }
    CK_TILE_HOST_DEVICE static constexpr index_t inner_of(index_t v)
    {
        return (v % (Inner / Vector)) * Vector;
    }

    /// How many of the vector's elements lie inside the matrix (0..Vector), and its address.
    CK_TILE_HOST_DEVICE static index_t valid(const gemm_tile_operand<T>& g, std::int64_t row0,
                                             std::int64_t k0, index_t v, const T*& src)
    {
        const std::int64_t r = row0 + (KContiguous ? outer_of(v) : inner_of(v));
        const std::int64_t k = k0 + (KContiguous ? inner_of(v) : outer_of(v));
        src                  = g.p;
        if(r >= g.rows || k >= g.k)
            return 0;
        src                  = g.p + r * g.stride_row + k * g.stride_k;
        const std::int64_t n = KContiguous ? g.k - k : g.rows - r;
        return n >= Vector ? Vector : static_cast<index_t>(n);
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    using vector_t = ext_vector<T, Vector>;
    struct registers
    {
        vector_t v[PerThread];
    };

#if defined(CK_TILE_PLATFORM_NVIDIA)
    CK_TILE_DEVICE static void async(T* lds, const gemm_tile_operand<T>& g, std::int64_t row0,
                                     std::int64_t k0)
    {
        static_assert(Vector * sizeof(T) == 16, "cp.async moves 16-byte vectors");
        static_for<0, PerThread, 1>{}([&](auto i) {
            const index_t v = get_thread_id() + i * BlockSize;
            if(Vectors % BlockSize == 0 || v < Vectors)
            {
                const T* src    = nullptr;
                const index_t n = valid(g, row0, k0, v, src);
                arch::nvidia::cp_async_cg_16(lds + Lds::offset(outer_of(v), inner_of(v)), src,
                                             static_cast<uint32_t>(n * sizeof(T)));
            }
        });
    }
#endif

    CK_TILE_DEVICE static void load(registers& regs, const gemm_tile_operand<T>& g,
                                    std::int64_t row0, std::int64_t k0)
    {
        static_for<0, PerThread, 1>{}([&](auto i) {
            const index_t v = get_thread_id() + i * BlockSize;
            vector_t x{};
            const T* src = nullptr;
            const index_t n =
                (Vectors % BlockSize == 0 || v < Vectors) ? valid(g, row0, k0, v, src) : 0;
            if(n == Vector)
                x = *reinterpret_cast<const vector_t*>(src);
            else // compile-time lanes of the vector: a run-time index would put it on the stack
                static_for<0, Vector, 1>{}([&](auto e) CK_TILE_FORCE_INLINE {
                    if(e < n)
                        x[e] = src[e];
                });
            regs.v[i] = x;
        });
    }

    CK_TILE_DEVICE static void store(T* lds, const registers& regs)
    {
        static_for<0, PerThread, 1>{}([&](auto i) {
            const index_t v = get_thread_id() + i * BlockSize;
            if(Vectors % BlockSize == 0 || v < Vectors)
                *reinterpret_cast<vector_t*>(lds + Lds::offset(outer_of(v), inner_of(v))) =
                    regs.v[i];
        });
    }
#endif
};

template <typename Problem, typename Policy>
struct gemm_tile_pipeline
{
    using P          = typename Policy::template of<Problem>;
    using A          = typename Problem::ADataType;
    using B          = typename Problem::BDataType;
    using block_gemm = gemm_tile_block_gemm<Problem, Policy>;
    using copy_a     = gemm_tile_copy<A, typename P::a_lds, Problem::a_k_contiguous, Policy::BlockM,
                                  Policy::BlockK, P::vector_a, Policy::BlockSize>;
    using copy_b     = gemm_tile_copy<B, typename P::b_lds, Problem::b_k_contiguous, Policy::BlockN,
                                  Policy::BlockK, P::vector_b, Policy::BlockSize>;
    static constexpr index_t Stages = Policy::Stages;
    static constexpr index_t BlockK = Policy::BlockK;

#if !defined(CK_TILE_PLATFORM_HOST)
    struct shared_tiles
    {
        A* a;
        B* b;
        CK_TILE_DEVICE A* a_stage(index_t s) const { return a + s * P::a_lds::elements; }
        CK_TILE_DEVICE B* b_stage(index_t s) const { return b + s * P::b_lds::elements; }
    };

    /// The math on one stage, in the policy's schedule.
    CK_TILE_DEVICE static void compute(typename block_gemm::accumulators& acc, const A* a,
                                       const B* b, index_t warp_m, index_t warp_n, index_t lane)
    {
        if constexpr(Policy::Schedule == gemm_schedule::intrawave)
            block_gemm::template run<0, P::KSteps>(acc, a, b, warp_m, warp_n, lane);
        else
        {
            constexpr index_t chunk = P::KSteps / Policy::InterwaveChunks;
            static_for<0, Policy::InterwaveChunks, 1>{}([&](auto c) {
                constexpr index_t s0 = decltype(c)::value * chunk;
                block_gemm::template run<s0, s0 + chunk>(acc, a, b, warp_m, warp_n, lane);
                block_sync_lds();
            });
        }
    }

    /// acc += A[:, k_begin:k_end) * B[k_begin:k_end, :) for the block tile at (m0, n0).
    /// @pre k_begin is a multiple of BlockK; every thread of the block calls it.
    CK_TILE_DEVICE static void run(typename block_gemm::accumulators& acc, const shared_tiles& lds,
                                   const gemm_tile_operand<A>& ga, const gemm_tile_operand<B>& gb,
                                   std::int64_t m0, std::int64_t n0, std::int64_t k_begin,
                                   std::int64_t k_end)
    {
        const index_t lane   = get_lane_id();
        const index_t warp   = get_warp_id();
        const index_t warp_m = warp / Policy::WarpsN, warp_n = warp % Policy::WarpsN;
        const index_t tiles = static_cast<index_t>((k_end - k_begin + BlockK - 1) / BlockK);
        // The operand views end at k_end, so the last tile's tail is zero-filled.
        gemm_tile_operand<A> a = ga;
        gemm_tile_operand<B> b = gb;
        a.k = b.k = k_end;
        auto k_of = [&](index_t t) { return k_begin + std::int64_t(t) * BlockK; };

        if constexpr(P::async_copy)
        {
#if defined(CK_TILE_PLATFORM_NVIDIA)
            // Prologue: Stages - 1 tiles in flight, one commit group each (empty past the end,
            // so the group count, and with it wait_group's meaning, stays fixed).
            static_for<0, Stages - 1, 1>{}([&](auto s) {
                if(s < tiles)
                {
                    copy_a::async(lds.a_stage(s), a, m0, k_of(s));
                    copy_b::async(lds.b_stage(s), b, n0, k_of(s));
                }
                arch::nvidia::cp_async_commit_group();
            });
            for(index_t t = 0; t < tiles; ++t)
            {
                arch::nvidia::cp_async_wait_group<Stages - 2>();
                // Tile t is visible to all; every warp is done with tile t - 1's stage, which
                // the copies below refill.
                block_sync_lds();
                const index_t next = t + Stages - 1;
                if(next < tiles)
                {
                    copy_a::async(lds.a_stage(next % Stages), a, m0, k_of(next));
                    copy_b::async(lds.b_stage(next % Stages), b, n0, k_of(next));
                }
                arch::nvidia::cp_async_commit_group();
                compute(acc, lds.a_stage(t % Stages), lds.b_stage(t % Stages), warp_m, warp_n,
                        lane);
            }
            arch::nvidia::cp_async_wait_group<0>();
#endif
        }
        else
        {
            typename copy_a::registers ra;
            typename copy_b::registers rb;
            static_for<0, Stages - 1, 1>{}([&](auto s) {
                if(s < tiles)
                {
                    copy_a::load(ra, a, m0, k_of(s));
                    copy_b::load(rb, b, n0, k_of(s));
                    copy_a::store(lds.a_stage(s), ra);
                    copy_b::store(lds.b_stage(s), rb);
                }
            });
            for(index_t t = 0; t < tiles; ++t)
            {
                block_sync_lds();
                const index_t next = t + Stages - 1;
                // Global reads of a later tile are in flight while the math runs.
                if(next < tiles)
                {
                    copy_a::load(ra, a, m0, k_of(next));
                    copy_b::load(rb, b, n0, k_of(next));
                }
                compute(acc, lds.a_stage(t % Stages), lds.b_stage(t % Stages), warp_m, warp_n,
                        lane);
                if(next < tiles)
                {
                    copy_a::store(lds.a_stage(next % Stages), ra);
                    copy_b::store(lds.b_stage(next % Stages), rb);
                }
            }
        }
        // The caller may reuse the shared tiles (next output tile).
        block_sync_lds();
    }
#endif
};

} // namespace ck_tile
