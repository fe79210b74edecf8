// SPDX-License-Identifier: MIT
// Host-only translation units: no device intrinsics exist. The warp size is the one of the
// GPU platform the build targets, so host-side distribution math agrees with the kernels.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#ifndef CK_TILE_HOST_WARP_SIZE
// 32 unless the build says otherwise: the NVIDIA platform is the one that runs here, and the
// AMD build sets CK_TILE_HOST_WARP_SIZE=64 for its host code.
#define CK_TILE_HOST_WARP_SIZE 32
#endif

namespace ck_tile {
namespace arch {
inline constexpr index_t warp_size = CK_TILE_HOST_WARP_SIZE;
} // namespace arch

/// Host code has no optimiser barrier to set (arch/nvidia/thread.hpp says what it is for).
template <typename... T>
inline void opaque(T&...)
{}
} // namespace ck_tile
