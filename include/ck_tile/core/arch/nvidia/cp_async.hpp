// SPDX-License-Identifier: MIT
// NVIDIA asynchronous global -> shared copies (sm_80+): one wrapper per PTX instruction.
//
//   cp_async_cg_16        cp.async.cg.shared.global [smem], [gmem], 16, src_bytes
//   cp_async_commit_group cp.async.commit_group
//   cp_async_wait_group   cp.async.wait_group N
//
// A copy bypasses registers and L1 (.cg) and completes in the background; the issuing thread
// groups its copies (commit_group) and waits until at most N groups are still in flight
// (wait_group). Other threads see the data only after a barrier that follows the wait.
// src_bytes < 16 reads only that many bytes and writes zeros to the rest of the 16: masked
// edges and K tails cost no branch and never read past the end of a matrix.
// Both addresses must be 16-byte aligned. Outside an NVIDIA device pass the bodies are empty.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>

namespace ck_tile {
namespace arch {
namespace nvidia {

/// Copies 16 bytes from `gmem` to `smem`, of which only the first `src_bytes` (0..16) are read;
/// the rest are zero-filled. src_bytes == 0 reads nothing (gmem may then point anywhere).
CK_TILE_DEVICE void cp_async_cg_16([[maybe_unused]] void* smem, [[maybe_unused]] const void* gmem,
                                   [[maybe_unused]] uint32_t src_bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const auto saddr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(saddr), "l"(gmem),
                 "r"(src_bytes)
                 : "memory");
#endif
}

/// Closes the group of copies this thread issued since the last commit.
CK_TILE_DEVICE void cp_async_commit_group()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <index_t Pending>
CK_TILE_DEVICE void cp_async_wait_group()
{
    static_assert(Pending >= 0 && Pending <= 7, "cp.async.wait_group takes 0..7");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

} // namespace nvidia
} // namespace arch
} // namespace ck_tile
