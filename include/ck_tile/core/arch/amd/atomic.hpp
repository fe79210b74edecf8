// SPDX-License-Identifier: MIT
// AMD atomics on global memory and LDS (generic addresses), device scope, relaxed order.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <hip/hip_runtime.h>

namespace ck_tile::arch {

/// Atomically: if *p == expected, *p = desired. @post returns the value *p held before.
CK_TILE_DEVICE uint32_t device_atomic_cas(uint32_t* p, uint32_t expected, uint32_t desired)
{
    return atomicCAS(reinterpret_cast<unsigned int*>(p), expected, desired);
}
CK_TILE_DEVICE uint64_t device_atomic_cas(uint64_t* p, uint64_t expected, uint64_t desired)
{
    return atomicCAS(reinterpret_cast<unsigned long long*>(p), expected, desired);
}

// Native read-modify-write instructions (gfx90a has float add on global memory and LDS);
// other types go through compare-and-swap.
CK_TILE_DEVICE void device_atomic_add(float* p, float v) { atomicAdd(p, v); }
CK_TILE_DEVICE void device_atomic_add(double* p, double v) { atomicAdd(p, v); }
CK_TILE_DEVICE void device_atomic_add(int32_t* p, int32_t v) { atomicAdd(p, v); }
CK_TILE_DEVICE void device_atomic_add(uint32_t* p, uint32_t v) { atomicAdd(p, v); }
CK_TILE_DEVICE void device_atomic_max(int32_t* p, int32_t v) { atomicMax(p, v); }
CK_TILE_DEVICE void device_atomic_max(uint32_t* p, uint32_t v) { atomicMax(p, v); }

} // namespace ck_tile::arch
