// SPDX-License-Identifier: MIT
// AMD (HIP, gfx9 wave64) spellings of the thread-identity, barrier and shuffle basics.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstring>

namespace ck_tile {
namespace arch {
inline constexpr index_t warp_size = 64;
} // namespace arch

CK_TILE_DEVICE index_t get_thread_id() { return static_cast<index_t>(threadIdx.x); }
CK_TILE_DEVICE index_t get_block_id() { return static_cast<index_t>(blockIdx.x); }
CK_TILE_DEVICE index_t get_block_size() { return static_cast<index_t>(blockDim.x); }
CK_TILE_DEVICE index_t get_grid_size() { return static_cast<index_t>(gridDim.x); }
CK_TILE_DEVICE index_t get_grid_size_y() { return static_cast<index_t>(gridDim.y); }
CK_TILE_DEVICE index_t get_grid_size_z() { return static_cast<index_t>(gridDim.z); }
CK_TILE_DEVICE index_t get_block_id_y() { return static_cast<index_t>(blockIdx.y); }
CK_TILE_DEVICE index_t get_block_id_z() { return static_cast<index_t>(blockIdx.z); }

CK_TILE_DEVICE index_t get_lane_id()
{
    return static_cast<index_t>(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)));
}

// readfirstlane tells the compiler the value is wave-uniform, so it lives in a scalar register.
CK_TILE_DEVICE index_t get_warp_id()
{
    return __builtin_amdgcn_readfirstlane(get_thread_id() / arch::warp_size);
}

/// Barrier for all threads of the block; waits for outstanding LDS operations first.
/// Hides the values from the optimiser on NVIDIA (arch/nvidia/thread.hpp); nothing to do
/// here: the AMD compiler does not keep hoisted epilogue addresses alive at this cost.
template <typename... T>
CK_TILE_HOST_DEVICE void opaque(T&...)
{}

/// The block's dynamic shared memory (as many bytes as the launch gave), 16-byte aligned.
/// One declaration for every kernel: extern shared arrays of different types clash.
CK_TILE_DEVICE unsigned char* get_dynamic_shared_memory()
{
    extern __shared__ __attribute__((aligned(16))) unsigned char cktile_dynamic_shared_memory[];
    return cktile_dynamic_shared_memory;
}

CK_TILE_DEVICE void block_sync_lds()
{
    asm volatile("s_waitcnt lgkmcnt(0) \n s_barrier" ::: "memory");
}
/// Barrier for all threads of the block.
CK_TILE_DEVICE void block_sync() { __syncthreads(); }
/// A wavefront executes in lockstep on gfx9; only LDS ordering has to be enforced.
CK_TILE_DEVICE void warp_sync() { asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory"); }

/// Stops the kernel with an error the host sees at the next synchronisation: the device-side
/// answer to a violated precondition, where exceptions do not exist.
[[noreturn]] CK_TILE_DEVICE void trap() { __builtin_trap(); }

namespace arch {
template <typename T>
CK_TILE_DEVICE int to_word(const T& v)
{
    static_assert(sizeof(T) <= 4, "warp shuffles move at most 4 bytes per call");
    int w = 0;
    std::memcpy(&w, &v, sizeof(T));
    return w;
}
template <typename T>
CK_TILE_DEVICE T from_word(int w)
{
    T v;
    std::memcpy(&v, &w, sizeof(T));
    return v;
}
} // namespace arch

/// Value of `v` held by lane `src_lane` of this wavefront. Values wider than a word move one
/// 32-bit word per permute.
template <typename T>
CK_TILE_DEVICE T warp_shuffle(const T& v, index_t src_lane)
{
    // ds_bpermute addresses lanes in bytes.
    if constexpr(sizeof(T) <= 4)
        return arch::from_word<T>(__builtin_amdgcn_ds_bpermute(src_lane << 2, arch::to_word(v)));
    else
    {
        static_assert(sizeof(T) % 4 == 0, "warp shuffles move whole 32-bit words");
        int w[sizeof(T) / 4];
        std::memcpy(w, &v, sizeof(T));
#pragma unroll
        for(auto& x : w)
            x = __builtin_amdgcn_ds_bpermute(src_lane << 2, x);
        T r;
        std::memcpy(&r, w, sizeof(T));
        return r;
    }
}
/// Value of `v` held by lane (lane_id ^ lane_mask).
template <typename T>
CK_TILE_DEVICE T warp_shuffle_xor(const T& v, index_t lane_mask)
{
    return warp_shuffle(v, get_lane_id() ^ lane_mask);
}
/// Value of `v` held by lane (lane_id + delta); lanes past the end keep their own value.
template <typename T>
CK_TILE_DEVICE T warp_shuffle_down(const T& v, index_t delta)
{
    const index_t lane = get_lane_id();
    const index_t src  = lane + delta < arch::warp_size ? lane + delta : lane;
    return warp_shuffle(v, src);
}
/// Value of `v` held by lane (lane_id - delta); lanes before the start keep their own value.
template <typename T>
CK_TILE_DEVICE T warp_shuffle_up(const T& v, index_t delta)
{
    const index_t lane = get_lane_id();
    const index_t src  = lane >= delta ? lane - delta : lane;
    return warp_shuffle(v, src);
}

} // namespace ck_tile
