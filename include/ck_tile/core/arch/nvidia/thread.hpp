// SPDX-License-Identifier: MIT
// NVIDIA (CUDA) spellings of the thread-identity, barrier and shuffle basics.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ck_tile {
namespace arch {
inline constexpr index_t warp_size = 32;
// Shuffles name the participating lanes; all of our uses are full-warp collectives.
inline constexpr unsigned full_warp_mask = 0xffffffffu;
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
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return static_cast<index_t>(lane);
}

// Warp index within the block, uniform across the warp (readfirstlane on AMD); on NVIDIA the
// division by a constant 32 is a shift and the compiler treats the result as uniform.
CK_TILE_DEVICE index_t get_warp_id() { return get_thread_id() / arch::warp_size; }

namespace arch {
/// `v` as lane 0 holds it, for a value every lane of the warp already holds alike: the
/// compiler then knows it is uniform and keeps it, and what is computed from it alone, in
/// uniform registers (wgmma reads its shared-memory descriptors from there; built in vector
/// registers they take an R2UR move per word before every MMA). One SHFL.
CK_TILE_DEVICE index_t warp_uniform(index_t v) { return __shfl_sync(full_warp_mask, v, 0); }
} // namespace arch

/// The block's dynamic shared memory (as many bytes as the launch gave), 16-byte aligned.
/// One declaration for every kernel: extern shared arrays of different types clash.
CK_TILE_DEVICE unsigned char* get_dynamic_shared_memory()
{
    extern __shared__ __attribute__((aligned(16))) unsigned char cktile_dynamic_shared_memory[];
    return cktile_dynamic_shared_memory;
}

/// Barrier for all threads of the block; orders shared-memory accesses before and after it.
CK_TILE_DEVICE void block_sync_lds() { __syncthreads(); }
/// Barrier for all threads of the block (no memory-ordering guarantee beyond block_sync_lds).
CK_TILE_DEVICE void block_sync() { __syncthreads(); }
/// Orders the warp's own shared-memory accesses (NVIDIA warps may diverge since Volta).
CK_TILE_DEVICE void warp_sync() { __syncwarp(); }

/// Barrier `id` (1..15; 0 is __syncthreads') for the `threads` threads (a multiple of 32) that
/// name it: a warpgroup synchronizes its own shared-memory accesses without stopping the rest
/// of the block (PTX ISA: bar.sync with a thread count).
CK_TILE_DEVICE void named_barrier_sync(uint32_t id, uint32_t threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/// Arrives on barrier `id` without waiting: with named_barrier_sync on the same id and count,
/// one group of threads signals another (the count covers both groups).
CK_TILE_DEVICE void named_barrier_arrive(uint32_t id, uint32_t threads)
{
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/// Hides the values from the optimiser (no instruction is emitted): what is computed from
/// them after this point is computed there, not hoisted above it and kept in registers. nvcc
/// hoists every loop-invariant address and bound of a GEMM epilogue out of the batch and K
/// loops, which costs more registers than the main loop has to spare (spills).
template <typename... T>
CK_TILE_HOST_DEVICE void opaque([[maybe_unused]] T&... values)
{
#if defined(__CUDA_ARCH__)
    (
        [](auto& v) {
            using V = std::remove_reference_t<decltype(v)>;
            static_assert(sizeof(V) == 4 || sizeof(V) == 8, "opaque: 32- or 64-bit values");
            if constexpr(sizeof(V) == 8)
            {
                unsigned long long u;
                std::memcpy(&u, &v, 8);
                asm volatile("" : "+l"(u));
                std::memcpy(&v, &u, 8);
            }
            else
            {
                unsigned u;
                std::memcpy(&u, &v, 4);
                asm volatile("" : "+r"(u));
                std::memcpy(&v, &u, 4);
            }
        }(values),
        ...);
#endif
}

/// Stops the kernel with an error the host sees at the next synchronisation: the device-side
/// answer to a violated precondition, where exceptions do not exist.
[[noreturn]] CK_TILE_DEVICE void trap() { __trap(); }

namespace arch {
template <typename T>
CK_TILE_DEVICE uint32_t to_word(const T& v)
{
    static_assert(sizeof(T) <= 4, "warp shuffles move at most 4 bytes per call");
    uint32_t w = 0;
    std::memcpy(&w, &v, sizeof(T));
    return w;
}
template <typename T>
CK_TILE_DEVICE T from_word(uint32_t w)
{
    T v;
    std::memcpy(&v, &w, sizeof(T));
    return v;
}
} // namespace arch

/// Value of `v` held by lane `src_lane` of this warp. Values wider than a word (a pair of
/// fp32 outputs) move one 32-bit word per shuffle.
template <typename T>
CK_TILE_DEVICE T warp_shuffle(const T& v, index_t src_lane)
{
    if constexpr(sizeof(T) <= 4)
        return arch::from_word<T>(__shfl_sync(arch::full_warp_mask, arch::to_word(v), src_lane));
    else
    {
        static_assert(sizeof(T) % 4 == 0, "warp shuffles move whole 32-bit words");
        uint32_t w[sizeof(T) / 4];
        std::memcpy(w, &v, sizeof(T));
#pragma unroll
        for(auto& x : w)
            x = __shfl_sync(arch::full_warp_mask, x, src_lane);
        T r;
        std::memcpy(&r, w, sizeof(T));
        return r;
    }
}
/// Value of `v` held by lane (lane_id ^ lane_mask).
template <typename T>
CK_TILE_DEVICE T warp_shuffle_xor(const T& v, index_t lane_mask)
{
    return arch::from_word<T>(__shfl_xor_sync(arch::full_warp_mask, arch::to_word(v), lane_mask));
}
/// Value of `v` held by lane (lane_id + delta); lanes past the end keep their own value.
template <typename T>
CK_TILE_DEVICE T warp_shuffle_down(const T& v, index_t delta)
{
    return arch::from_word<T>(__shfl_down_sync(arch::full_warp_mask, arch::to_word(v), delta));
}
/// Value of `v` held by lane (lane_id - delta); lanes before the start keep their own value.
template <typename T>
CK_TILE_DEVICE T warp_shuffle_up(const T& v, index_t delta)
{
    return arch::from_word<T>(__shfl_up_sync(arch::full_warp_mask, arch::to_word(v), delta));
}

} // namespace ck_tile
