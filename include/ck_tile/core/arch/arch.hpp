// SPDX-License-Identifier: MIT
// Device-side basics every kernel needs, with one spelling for both vendors:
// warp size, thread/lane/warp/block ids, barriers and warp shuffles.
//
// This folder is the only place where vendor intrinsics appear. Code above it calls these
// functions and never threadIdx, __syncthreads, __shfl_* or builtins directly.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/thread.hpp"
#elif defined(CK_TILE_PLATFORM_AMD)
#include "ck_tile/core/arch/amd/thread.hpp"
#elif defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/host/thread.hpp"
#else
#error "ck_tile: unknown GPU platform; expected nvcc (CUDA), hipcc (HIP) or a plain host compiler"
#endif

namespace ck_tile {

/// Threads per warp (NVIDIA) or wavefront (AMD) of the platform this translation unit targets.
/// @post a power of two; 32 on NVIDIA, 64 on AMD gfx9 (the only AMD family we target).
/// In a host-only translation unit it is the warp size of the configured GPU platform
/// (CK_TILE_HOST_WARP_SIZE, set by the build), so host-side distribution math matches the device.
CK_TILE_HOST_DEVICE constexpr index_t get_warp_size() { return arch::warp_size; }

/// True when a distribution that assumes `WarpSize` threads per warp is valid here; use it in
/// a static_assert so a policy written for one vendor fails to compile on the other.
template <index_t WarpSize>
inline constexpr bool is_warp_size_v = (WarpSize == arch::warp_size);

} // namespace ck_tile
