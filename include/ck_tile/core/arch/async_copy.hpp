// SPDX-License-Identifier: MIT
// Copies of 16 bytes from global to shared memory that complete in the background, with one
// spelling for both vendors:
//
//   copy_16_bytes_async(lds, global, src_bytes)  reads src_bytes (0..16) of `global` and
//                                                zero-fills the rest of the 16 at `lds`
//   copy_async_commit()                          closes this thread's group of copies
//   copy_async_wait<Pending>()                   waits until at most Pending of this
//                                                thread's groups are still in flight
//
// Contract: after copy_async_wait the issuing thread sees its own copies; other threads see
// them only after a block barrier that follows their issuers' waits. Both addresses are
// 16-byte aligned. NVIDIA sm_80+ copies with cp.async (no registers, no L1); elsewhere (AMD,
// older NVIDIA, host) the copy is an ordinary load and store done at once, and commit and
// wait do nothing, which keeps the contract.
#pragma once

#include "ck_tile/core/arch/memory_word.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/cp_async.hpp"
#endif

#include <cstdint>

namespace ck_tile::arch {

CK_TILE_DEVICE void copy_16_bytes_async(void* lds, const void* global, uint32_t src_bytes)
{
#if defined(CK_TILE_PLATFORM_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    nvidia::cp_async_cg_16(lds, global, src_bytes);
#else
    using word    = typename memory_word<16>::type;
    auto* d       = static_cast<unsigned char*>(lds);
    const auto* s = static_cast<const unsigned char*>(global);
    if(src_bytes == 16)
    {
        *reinterpret_cast<word*>(d) = *reinterpret_cast<const word*>(s);
        return;
    }
    for(uint32_t b = 0; b < 16; ++b)
        d[b] = b < src_bytes ? s[b] : 0;
#endif
}

CK_TILE_DEVICE void copy_async_commit()
{
#if defined(CK_TILE_PLATFORM_NVIDIA)
    nvidia::cp_async_commit_group();
#endif
}

template <index_t Pending>
CK_TILE_DEVICE void copy_async_wait()
{
#if defined(CK_TILE_PLATFORM_NVIDIA)
    nvidia::cp_async_wait_group<Pending>();
#endif
}

} // namespace ck_tile::arch
