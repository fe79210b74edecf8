// SPDX-License-Identifier: MIT
// mbarrier: the shared-memory barrier object that asynchronous copies (TMA) complete on, and
// the fences that make shared memory written by one proxy visible to another.
//
// An mbarrier is a 64-bit word in shared memory holding a phase bit, a pending-arrival count and
// a pending transaction count (PTX ISA: "Parallel Synchronization and Communication
// Instructions: mbarrier"). A phase completes when both counts reach zero; the barrier then
// flips its phase bit and reloads the arrival count given at init. Waiters name the parity of
// the phase they wait for, so a pipeline stage alternates between parity 0 and 1.
//
// Scope: CTA only (shared::cta addresses). Cluster-scope arrivals on a peer CTA's barrier are
// not wrapped yet; TMA loads already signal through shared::cluster addresses, which include
// the CTA's own shared memory.
#pragma once

#include "ck_tile/core/arch/nvidia/sm90_features.hpp"
#include "ck_tile/core/config.hpp"

#include <cstdint>

#if !defined(CK_TILE_PLATFORM_NVIDIA)
#error "ck_tile/core/arch/nvidia/mbarrier.hpp is NVIDIA device code: compile it with nvcc"
#endif

namespace ck_tile {
namespace arch {

/// Initializes the barrier at `bar` (8-byte aligned shared memory) for `arrive_count` arrivals
/// per phase, current phase parity 0. One thread initializes; make it visible with
/// fence_mbarrier_init() (for the copy engine) and a block barrier (for the other threads)
/// before anyone arrives or waits.
CK_TILE_DEVICE void mbarrier_init(uint64_t* bar, uint32_t arrive_count)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)),
                 "r"(arrive_count)
                 : "memory");
#else
    (void)bar;
    (void)arrive_count;
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Invalidates the barrier so its word may be reused as ordinary shared memory (PTX ISA:
/// mbarrier.inval; any other access to a live barrier's word is undefined).
CK_TILE_DEVICE void mbarrier_inval(uint64_t* bar)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(shared_address(bar)) : "memory");
#else
    (void)bar;
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// One arrival of this thread (release semantics at CTA scope: its prior shared-memory writes
/// are visible to threads that observe the phase completing).
CK_TILE_DEVICE void mbarrier_arrive(uint64_t* bar)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
#else
    (void)bar;
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Announces `tx_bytes` more bytes of asynchronous transactions for the current phase (the
/// bytes the TMA loads issued next will deliver) and arrives once, in one instruction, so the
/// phase cannot complete between the two.
CK_TILE_DEVICE void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t tx_bytes)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)),
        "r"(tx_bytes)
        : "memory");
#else
    (void)bar;
    (void)tx_bytes;
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Adds `tx_bytes` to the pending transaction count without arriving (for a phase whose bytes
/// are announced by more than one thread).
CK_TILE_DEVICE void mbarrier_expect_tx(uint64_t* bar, uint32_t tx_bytes)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile(
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)),
        "r"(tx_bytes)
        : "memory");
#else
    (void)bar;
    (void)tx_bytes;
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Blocks until the phase with parity `parity` has completed (acquire semantics at CTA scope:
/// the data the phase's transactions wrote is visible afterwards). The wait carries a suspend-time
/// hint, so a waiting warp sleeps in the barrier until the phase completes (or the hint's 10 ms
/// pass) instead of returning after the hardware's short default and spinning (on the H100 the
/// 128x256 GEMM at 4096^3 went from 31.8 M to 27.6 M warp instructions).
CK_TILE_DEVICE void mbarrier_wait_parity(uint64_t* bar, uint32_t parity)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    constexpr uint32_t suspend_ns = 10000000;
    asm volatile("{\n\t"
                 ".reg .pred done;\n\t"
                 "wait_again:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1, %2;\n\t"
                 "@!done bra wait_again;\n\t"
                 "}"
                 :
                 : "r"(shared_address(bar)), "r"(parity), "n"(suspend_ns)
                 : "memory");
#else
    (void)bar;
    (void)parity;
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Makes this thread's prior mbarrier.init visible to the other threads of the cluster and to
/// the async proxy (the copy engine that will signal the barrier). PTX ISA: "fence.mbarrier_init";
/// release at cluster scope is the only form the ISA defines.
CK_TILE_DEVICE void fence_mbarrier_init()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Orders this thread's shared-memory accesses through the generic proxy (ordinary loads and
/// stores, stmatrix) with later accesses through the async proxy (TMA stores reading shared
/// memory, wgmma reading its operands), and vice versa. The two proxies are not coherent
/// without it (PTX ISA: "Memory Consistency Model: Proxies", fence.proxy.async). Each writing
/// thread fences, then the block synchronizes, then one thread issues the async operation.
CK_TILE_DEVICE void fence_proxy_async_shared_cta()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

} // namespace arch
} // namespace ck_tile
