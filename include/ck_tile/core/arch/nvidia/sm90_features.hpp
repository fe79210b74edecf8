// SPDX-License-Identifier: MIT
// Which Hopper features the current device pass may use, and the link-time errors a wrapper
// raises when it is used on a target without its instruction.
//
//   CK_TILE_ARCH_HAS_SM90_ASYNC  sm_90 or later: the tensor memory accelerator (cp.async.bulk
//                                .tensor), mbarrier transaction counts and try_wait, the async
//                                proxy fence (PTX ISA: "Target ISA notes" of each instruction).
//   CK_TILE_ARCH_HAS_WGMMA       sm_90a only: wgmma.* and setmaxnreg are arch-specific features
//                                ("a" targets), absent from plain sm_90 and from sm_100.
//
// Both are 0 in the host pass and in a device pass for an older target. The wrappers then call
// a device function that is declared and never defined: a kernel that really uses one of them
// on such a target fails to build with ptxas naming the requirement ("Unresolved extern
// function 'ck_tile_error_needs_sm_90a'"), while code that merely includes these headers (a
// library built for sm_80 as well) compiles.
#pragma once

#include "ck_tile/core/config.hpp"

#include <cstdint>

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
#define CK_TILE_ARCH_HAS_SM90_ASYNC 1
#else
#define CK_TILE_ARCH_HAS_SM90_ASYNC 0
#endif

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CK_TILE_ARCH_HAS_WGMMA 1
#else
#define CK_TILE_ARCH_HAS_WGMMA 0
#endif

#if defined(CK_TILE_PLATFORM_NVIDIA)
extern "C" {
/// Never defined: see the header comment.
__device__ void ck_tile_error_needs_sm_90_or_later();
/// Never defined: see the header comment.
__device__ void ck_tile_error_needs_sm_90a();
}

namespace ck_tile {
namespace arch {

/// The 32-bit shared-window address of a pointer into shared memory: the form that the
/// .shared state space operands of mbarrier, cp.async.bulk and the wgmma descriptors take
/// (PTX ISA: "Generic Addressing", cvta).
CK_TILE_DEVICE uint32_t shared_address(const void* p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

} // namespace arch
} // namespace ck_tile
#endif
