// SPDX-License-Identifier: MIT
// stmatrix (sm_90): a warp stores 8x8 matrices of 16-bit values to shared memory in one
// instruction, from the register layout of an MMA fragment.
#pragma once

#include "ck_tile/core/arch/nvidia/sm90_features.hpp"
#include "ck_tile/core/config.hpp"

#include <cstdint>

#if !defined(CK_TILE_PLATFORM_NVIDIA)
#error "ck_tile/core/arch/nvidia/stmatrix.hpp is NVIDIA device code: compile it with nvcc"
#endif

namespace ck_tile {
namespace arch {

/// stmatrix.sync.aligned.m8n8.x4.shared.b16: four 8x8 matrices of 16-bit values. Lane l gives
/// the shared address of row l % 8 of matrix l / 8 (16 bytes, 16-byte aligned); register i of
/// lane l holds the pair (row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1) of matrix i, low
/// half first. That is the layout of a wgmma or mma.sync accumulator fragment's 8-column
/// groups once each pair is packed into 32 bits. All 32 lanes must execute it.
CK_TILE_DEVICE void stmatrix_x4([[maybe_unused]] uint32_t row_address, [[maybe_unused]] uint32_t r0,
                                [[maybe_unused]] uint32_t r1, [[maybe_unused]] uint32_t r2,
                                [[maybe_unused]] uint32_t r3)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    asm volatile(
        "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(row_address),
        "r"(r0), "r"(r1), "r"(r2), "r"(r3)
        : "memory");
#else
    ck_tile_error_needs_sm_90_or_later();
#endif
}

} // namespace arch
} // namespace ck_tile
