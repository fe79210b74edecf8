// SPDX-License-Identifier: MIT
// Handing data from one block to another inside one kernel launch (sm_70 and later): the
// writer stores, fences and counts itself in with an acquire-release atomic; the reader that
// sees the final count fences and reads past its own L1, which does not see other SMs' stores.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>
#include <cstring>

namespace ck_tile::arch {

/// Orders this thread's memory accesses before the fence against those after it, for every
/// thread of the device (PTX fence.acq_rel.gpu).
CK_TILE_DEVICE void fence_acq_rel_gpu() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

/// *p += v with acquire-release order at device scope. @post returns the value *p held before.
CK_TILE_DEVICE uint32_t atomic_add_acq_rel_gpu(uint32_t* p, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.add.acq_rel.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

/// Stores four 4-byte values to 16-byte aligned global memory.
template <typename T>
CK_TILE_DEVICE void store_global_x4(T* p, T v0, T v1, T v2, T v3)
{
    static_assert(sizeof(T) == 4, "four 4-byte values make one 16-byte store");
    uint32_t w[4];
    std::memcpy(&w[0], &v0, 4);
    std::memcpy(&w[1], &v1, 4);
    std::memcpy(&w[2], &v2, 4);
    std::memcpy(&w[3], &v3, 4);
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(w[0]), "r"(w[1]),
                 "r"(w[2]), "r"(w[3])
                 : "memory");
}

/// Loads four 4-byte values from 16-byte aligned global memory through L2 only (ld.global.cg),
/// so values other SMs stored during this kernel are seen, never a stale L1 line.
template <typename T>
CK_TILE_DEVICE void load_global_l2_x4(const T* p, T (&v)[4])
{
    static_assert(sizeof(T) == 4, "four 4-byte values make one 16-byte load");
    uint32_t w[4];
    asm volatile("ld.global.cg.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                 : "l"(p)
                 : "memory");
    for(int i = 0; i < 4; ++i)
        std::memcpy(&v[i], &w[i], 4);
}

/// Barrier `id` for `threads` threads (as named_barrier_sync) that also ORs `pred` over them.
/// @post every participating thread gets true iff some participant passed true.
CK_TILE_DEVICE bool named_barrier_sync_or(uint32_t id, uint32_t threads, bool pred)
{
    uint32_t any;
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.ne.u32 p, %1, 0;\n\t"
                 "bar.red.or.pred q, %2, %3, p;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(any)
                 : "r"(static_cast<uint32_t>(pred)), "r"(id), "r"(threads)
                 : "memory");
    return any != 0;
}

} // namespace ck_tile::arch
