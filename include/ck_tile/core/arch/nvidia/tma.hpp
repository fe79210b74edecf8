// SPDX-License-Identifier: MIT
// The tensor memory accelerator (TMA, sm_90): tile copies between global and shared memory
// described by a tensor map, one wrapper per instruction and rank.
//
// The tensor map (CUtensorMap, 128 bytes, built on the host by host/tma_descriptor.hpp) is
// passed to the kernel by value as `const __grid_constant__ CUtensorMap`: the copy engine reads
// it through the parameter's generic address, so it must stay in the kernel parameter space
// (or in global memory), never in a local copy (PTX ISA: "Tensor Maps", "Kernel Parameters").
//
// Coordinates are element indices of the box's first element, innermost dimension first (the
// tensor map's order). A load box may be negative or run past the tensor's end: elements
// outside the tensor are filled (zero or NaN as the map says). A store box must lie inside the
// tensor (see the store section for what the H100 did otherwise). Keep the
// innermost coordinate times the element size a multiple of 16 bytes, like the global address
// and the strides: on an H100, test kernels that started u16 boxes at columns 118 and 130
// faulted with "an illegal instruction was encountered", while loads from column 0 did not
// (other TMA users report the same 16-byte rule for the start of each box row).
//
// Loads complete on an mbarrier (mbarrier.hpp): the issuing thread announces the box's bytes
// with mbarrier_arrive_expect_tx, issues the copies, and every consumer waits on the phase.
// Stores read shared memory through the async proxy: each thread that wrote the tile calls
// fence_proxy_async_shared_cta(), the threads that wrote it synchronize (the block, a
// warpgroup's named barrier, or a warp), one of them issues the store, commits and waits
// (wait_group_read before reusing the buffer, wait_group before the kernel relies on the global
// writes). Bulk groups belong to the thread that committed them.
#pragma once

#include "ck_tile/core/arch/nvidia/sm90_features.hpp"
#include "ck_tile/core/config.hpp"

#include <cuda.h>

#include <cstdint>

#if !defined(CK_TILE_PLATFORM_NVIDIA)
#error "ck_tile/core/arch/nvidia/tma.hpp is NVIDIA device code: compile it with nvcc"
#endif

namespace ck_tile {
namespace arch {

namespace detail {
CK_TILE_DEVICE uint64_t tensor_map_address(const CUtensorMap* map)
{
    return reinterpret_cast<uint64_t>(map);
}
} // namespace detail

// ---- loads: global -> shared, completing on an mbarrier -----------------------------------
// PTX ISA: cp.async.bulk.tensor, .shared::cluster.global.mbarrier::complete_tx::bytes. The
// destination and barrier are this CTA's (a shared::cta address is a valid shared::cluster
// address of the executing CTA). `dst` must be 128-byte aligned, and aligned to the swizzle
// repeat (smem_swizzle_repeat_bytes) when the map swizzles.

CK_TILE_DEVICE void tma_load_2d([[maybe_unused]] void* dst, [[maybe_unused]] const CUtensorMap* map,
                                [[maybe_unused]] uint64_t* bar, [[maybe_unused]] int32_t c0,
                                [[maybe_unused]] int32_t c1)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(shared_address(dst)),
                 "l"(detail::tensor_map_address(map)), "r"(c0), "r"(c1), "r"(shared_address(bar))
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

CK_TILE_DEVICE void tma_load_3d([[maybe_unused]] void* dst, [[maybe_unused]] const CUtensorMap* map,
                                [[maybe_unused]] uint64_t* bar, [[maybe_unused]] int32_t c0,
                                [[maybe_unused]] int32_t c1, [[maybe_unused]] int32_t c2)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(shared_address(dst)),
                 "l"(detail::tensor_map_address(map)), "r"(c0), "r"(c1), "r"(c2),
                 "r"(shared_address(bar))
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// tma_load_3d into the same shared-memory offset of every CTA of the cluster whose bit is set
/// in `cta_mask`, each completing on its own mbarrier at `bar`'s offset (PTX ISA:
/// cp.async.bulk.tensor .multicast::cluster). Each destination CTA's barrier must expect the
/// bytes; the copy engine reads global memory once for all of them.
CK_TILE_DEVICE void tma_load_3d_multicast([[maybe_unused]] void* dst,
                                          [[maybe_unused]] const CUtensorMap* map,
                                          [[maybe_unused]] uint64_t* bar,
                                          [[maybe_unused]] uint16_t cta_mask,
                                          [[maybe_unused]] int32_t c0, [[maybe_unused]] int32_t c1,
                                          [[maybe_unused]] int32_t c2)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
        ".multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(shared_address(dst)),
        "l"(detail::tensor_map_address(map)), "r"(c0), "r"(c1), "r"(c2), "r"(shared_address(bar)),
        "h"(cta_mask)
        : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// How long a copy's lines should stay in L2 against other lines (PTX ISA: createpolicy).
enum class l2_eviction : uint32_t
{
    normal = 0, // the copy carries no hint
    first  = 1, // read once: replace these lines before others
};

/// The cache policy of `e` for the .L2::cache_hint loads below (0 for normal: no hint).
CK_TILE_DEVICE uint64_t l2_policy([[maybe_unused]] l2_eviction e)
{
    uint64_t policy = 0;
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    if(e == l2_eviction::first)
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
#endif
    return policy;
}

/// tma_load_3d with an L2 cache policy from l2_policy (PTX ISA: .L2::cache_hint).
CK_TILE_DEVICE void tma_load_3d_hinted([[maybe_unused]] void* dst,
                                       [[maybe_unused]] const CUtensorMap* map,
                                       [[maybe_unused]] uint64_t* bar, [[maybe_unused]] int32_t c0,
                                       [[maybe_unused]] int32_t c1, [[maybe_unused]] int32_t c2,
                                       [[maybe_unused]] uint64_t policy)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".L2::cache_hint [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(shared_address(dst)),
                 "l"(detail::tensor_map_address(map)), "r"(c0), "r"(c1), "r"(c2),
                 "r"(shared_address(bar)), "l"(policy)
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// tma_load_3d_multicast with an L2 cache policy from l2_policy.
CK_TILE_DEVICE void
tma_load_3d_multicast_hinted([[maybe_unused]] void* dst, [[maybe_unused]] const CUtensorMap* map,
                             [[maybe_unused]] uint64_t* bar, [[maybe_unused]] uint16_t cta_mask,
                             [[maybe_unused]] int32_t c0, [[maybe_unused]] int32_t c1,
                             [[maybe_unused]] int32_t c2, [[maybe_unused]] uint64_t policy)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster.L2::cache_hint [%0], [%1, {%2, %3, %4}], [%5], %6, %7;" ::"r"(
                     shared_address(dst)),
                 "l"(detail::tensor_map_address(map)), "r"(c0), "r"(c1), "r"(c2),
                 "r"(shared_address(bar)), "h"(cta_mask), "l"(policy)
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

CK_TILE_DEVICE void tma_load_4d([[maybe_unused]] void* dst, [[maybe_unused]] const CUtensorMap* map,
                                [[maybe_unused]] uint64_t* bar, [[maybe_unused]] int32_t c0,
                                [[maybe_unused]] int32_t c1, [[maybe_unused]] int32_t c2,
                                [[maybe_unused]] int32_t c3)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(shared_address(dst)),
                 "l"(detail::tensor_map_address(map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3),
                 "r"(shared_address(bar))
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

CK_TILE_DEVICE void tma_load_5d([[maybe_unused]] void* dst, [[maybe_unused]] const CUtensorMap* map,
                                [[maybe_unused]] uint64_t* bar, [[maybe_unused]] int32_t c0,
                                [[maybe_unused]] int32_t c1, [[maybe_unused]] int32_t c2,
                                [[maybe_unused]] int32_t c3, [[maybe_unused]] int32_t c4)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(shared_address(dst)),
                 "l"(detail::tensor_map_address(map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4),
                 "r"(shared_address(bar))
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

// ---- stores: shared -> global, tracked by bulk async-groups ----------------------------------
// PTX ISA: cp.async.bulk.tensor, .global.shared::cta.bulk_group.
// Precondition: the box lies inside the tensor. The ISA says out-of-range elements are not
// written, but on the H100 a box crossing the inner edge of a tensor whose row is not a
// multiple of 16 bytes wrote the remainder of the last 16-byte chunk, and a box starting at a
// negative coordinate stopped the kernel with an illegal-instruction error. Edge tiles are
// stored by other means (masked tile_window stores) until this is understood. What was seen to
// be clipped correctly on the H100 (the Hopper GEMM's epilogue and its edge tests): boxes
// starting inside the tensor and crossing its last row, or its last column where the row ends
// on a 16-byte boundary.

CK_TILE_DEVICE void tma_store_2d([[maybe_unused]] const CUtensorMap* map,
                                 [[maybe_unused]] const void* src, [[maybe_unused]] int32_t c0,
                                 [[maybe_unused]] int32_t c1)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
            detail::tensor_map_address(map)),
        "r"(shared_address(src)), "r"(c0), "r"(c1)
        : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

CK_TILE_DEVICE void tma_store_3d([[maybe_unused]] const CUtensorMap* map,
                                 [[maybe_unused]] const void* src, [[maybe_unused]] int32_t c0,
                                 [[maybe_unused]] int32_t c1, [[maybe_unused]] int32_t c2)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile(
        "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(
            detail::tensor_map_address(map)),
        "r"(shared_address(src)), "r"(c0), "r"(c1), "r"(c2)
        : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

CK_TILE_DEVICE void tma_store_4d([[maybe_unused]] const CUtensorMap* map,
                                 [[maybe_unused]] const void* src, [[maybe_unused]] int32_t c0,
                                 [[maybe_unused]] int32_t c1, [[maybe_unused]] int32_t c2,
                                 [[maybe_unused]] int32_t c3)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile(
        "cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];" ::"l"(
            detail::tensor_map_address(map)),
        "r"(shared_address(src)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
        : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

CK_TILE_DEVICE void tma_store_5d([[maybe_unused]] const CUtensorMap* map,
                                 [[maybe_unused]] const void* src, [[maybe_unused]] int32_t c0,
                                 [[maybe_unused]] int32_t c1, [[maybe_unused]] int32_t c2,
                                 [[maybe_unused]] int32_t c3, [[maybe_unused]] int32_t c4)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group"
                 " [%0, {%2, %3, %4, %5, %6}], [%1];" ::"l"(detail::tensor_map_address(map)),
                 "r"(shared_address(src)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Closes the bulk async-group of this thread's stores issued since the last commit.
CK_TILE_DEVICE void tma_store_commit_group()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Waits until at most `Pending` of this thread's committed store groups have not finished
/// reading their shared-memory source: the buffers of the others may be overwritten.
template <int Pending>
CK_TILE_DEVICE void tma_store_wait_group_read()
{
    static_assert(Pending >= 0, "cp.async.bulk.wait_group: N >= 0");
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(Pending) : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Waits until at most `Pending` of this thread's committed store groups are incomplete: the
/// global writes of the others are done (visible to this thread).
template <int Pending>
CK_TILE_DEVICE void tma_store_wait_group()
{
    static_assert(Pending >= 0, "cp.async.bulk.wait_group: N >= 0");
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.wait_group %0;" ::"n"(Pending) : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Brings the box at (c0, c1, c2) of `map`'s tensor into L2 (PTX ISA:
/// cp.async.bulk.prefetch.tensor, .L2.global.tile): one instruction for a whole tile, nothing
/// written to shared memory, nothing to wait for. Parts of the box outside the tensor are not
/// read.
CK_TILE_DEVICE void tma_prefetch_l2_3d([[maybe_unused]] const CUtensorMap* map,
                                       [[maybe_unused]] int32_t c0, [[maybe_unused]] int32_t c1,
                                       [[maybe_unused]] int32_t c2)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%0, {%1, %2, %3}];" ::"l"(
                     detail::tensor_map_address(map)),
                 "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

/// Fetches the tensor map into the copy engine's descriptor cache ahead of the first copy
/// (PTX ISA: prefetch.tensormap), hiding that latency behind the kernel's prologue.
CK_TILE_DEVICE void tma_prefetch_descriptor([[maybe_unused]] const CUtensorMap* map)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile("prefetch.tensormap [%0];" ::"l"(detail::tensor_map_address(map)) : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

} // namespace arch
} // namespace ck_tile
