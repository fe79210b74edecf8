// SPDX-License-Identifier: MIT
// Host-callable launchers for the smoke kernels (defined in smoke_kernels.cpp, which is the
// only file here that the device compiler sees).
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

#include <cstddef>
#include <cstdint>

namespace cktile_smoke {

/// Launches ck_tile::vector_copy_kernel over `bytes / elem_bytes` elements of a type of
/// `elem_bytes` bytes (1, 2, 4, 8 or 16). Returns the launch status (does not synchronize).
hipError_t launch_vector_copy(const void* src, void* dst, std::size_t n_elems, int elem_bytes,
                              hipStream_t stream);

/// Fills out[i] = lane id, out[n + i] = warp id for a block of `threads` threads and writes
/// the device's warp size to out[2n]; checks the arch seam against the runtime's view.
hipError_t launch_thread_ids(int32_t* out, int threads, hipStream_t stream);

/// Warp-wide butterfly sum through warp_shuffle_xor: out[i] = sum of in[] over i's warp.
hipError_t launch_warp_sum(const float* in, float* out, int threads, hipStream_t stream);

} // namespace cktile_smoke
