// SPDX-License-Identifier: MIT
// Host-callable launchers for the Hopper atom tests (hopper_kernels.cpp is the only file here
// that the device compiler sees). Every launcher runs one block and returns the launch status.
#pragma once

#include "ck_tile/core/arch/nvidia/wgmma_traits.hpp"
#include "ck_tile/host/hip_runtime.hpp"
#include "ck_tile/host/tma_descriptor.hpp"

#include <cstdint>

namespace cktile_hopper_test {

/// Optional steps of run_tma_roundtrip, OR-ed together.
inline constexpr uint32_t tma_step_prefetch = 1; ///< prefetch both tensor maps first
inline constexpr uint32_t tma_step_store    = 2; ///< store the tile back through `dst`
inline constexpr uint32_t tma_step_inval    = 4; ///< invalidate the mbarrier at the end

/// One TMA round trip through shared memory: loads the box at element coordinates (c0, r0) of
/// `src` (a 2-D map) into a shared buffer aligned to 1024 bytes and copies that buffer's bytes
/// as they lie (swizzled) to `raw_out` (`box_bytes` bytes); with tma_step_store, then stores the
/// buffer with TMA into `dst` (a map of the same box and swizzle) at the same coordinates.
hipError_t run_tma_roundtrip(const ck_tile::tma_descriptor& src, const ck_tile::tma_descriptor& dst,
                             int c0, int r0, uint32_t box_bytes, void* raw_out, uint32_t steps,
                             hipStream_t stream);

/// One warpgroup computes D(64 x N) = A(64 x K) * B(N x K)^T with four K steps of the wgmma atom
/// (K = 4 * atom K, i.e. 128 bytes per row): A (64 rows) and B (N rows) are row-major with K
/// contiguous, loaded by TMA with the 128-byte swizzle; A is read from shared memory, or, with
/// ARegs, from registers loaded straight from `a`. D is written row-major (64 x N) through the
/// accumulator layout of wgmma_accumulator_coord. Explicitly instantiated for the combinations
/// the tests use; ck_tile::tf32_t operands are floats in memory.
template <typename A, typename B, typename C, int N, bool ARegs>
hipError_t run_wgmma_tile(const void* a, const void* b, C* d, hipStream_t stream);

} // namespace cktile_hopper_test
