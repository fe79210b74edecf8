// SPDX-License-Identifier: MIT
// Thread-block clusters (sm_90): the CTA's rank in its cluster, the cluster-wide barrier, and
// reaching a peer CTA's shared memory (its mbarriers) by address.
//
// A cluster's CTAs run at the same time on one GPC and may read, write and signal each other's
// shared memory through shared::cluster addresses. The address of the same variable in CTA r
// is obtained with mapa (PTX ISA: "Distributed Shared Memory", mapa; "Parallel Synchronization
// and Communication Instructions": barrier.cluster, mbarrier.arrive with .shared::cluster).
#pragma once

#include "ck_tile/core/arch/nvidia/sm90_features.hpp"
#include "ck_tile/core/config.hpp"

#include <cstdint>

#if !defined(CK_TILE_PLATFORM_NVIDIA)
#error "ck_tile/core/arch/nvidia/cluster.hpp is NVIDIA device code: compile it with nvcc"
#endif

namespace ck_tile {
namespace arch {

/// This CTA's rank in its cluster (0 .. cluster size - 1).
CK_TILE_DEVICE uint32_t cluster_cta_rank()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
#else
    ck_tile_error_needs_sm_90_or_later();
    return 0;
#endif
}

/// Every thread of every CTA of the cluster arrives and waits: shared-memory writes and
/// mbarrier initializations before it (release) are visible to all the cluster's threads after
/// it (acquire). All threads of each CTA must execute it (.aligned).
CK_TILE_DEVICE void cluster_sync()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                 "barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// The shared::cluster address of the variable at this CTA's shared address `local` in the
/// cluster's CTA `rank`.
CK_TILE_DEVICE uint32_t map_shared_to_cta(uint32_t local, uint32_t rank)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(rank));
    return r;
#else
    (void)local;
    (void)rank;
    ck_tile_error_needs_sm_90_or_later();
    return 0;
#endif
}

/// One arrival on the mbarrier at shared::cluster address `remote` (another CTA's, from
/// map_shared_to_cta, or this one's), with the instruction's default semantics (release at CTA
/// scope): enough to say "this stage's buffers are no longer read" once the reads (by wgmma)
/// have completed.
CK_TILE_DEVICE void mbarrier_arrive_cluster(uint32_t remote)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
#else
    (void)remote;
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// The first half of a cluster barrier without memory ordering, all threads of each CTA
/// together (.aligned). With fence_mbarrier_init() before it in the initializing thread, the
/// mbarrier initializations are visible cluster-wide after cluster_wait(). Arriving early and
/// waiting only where a peer's state is first needed hides the barrier's latency: on the
/// H100 an arrive.release + wait.acquire pair took about 1,500 cycles where nothing ran
/// between them, a relaxed arrive + wait about 310, and a wait 2,000 cycles after the arrive
/// about 20.
CK_TILE_DEVICE void cluster_arrive_relaxed()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// The second half: waits until every non-exited thread of the cluster has arrived (acquire).
/// Not .aligned, so each thread may wait at its own point (one thread of a warp first, the
/// others elsewhere), once per arrive.
CK_TILE_DEVICE void cluster_wait()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

} // namespace arch
} // namespace ck_tile
