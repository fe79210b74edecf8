// SPDX-License-Identifier: MIT
// Atomic compare-and-swap on host memory, for the host side of arch/atomic.hpp (host reference
// code and tests use the same buffer_view updates as kernels).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile::arch {

/// Atomically: if *p == expected, *p = desired. @post returns the value *p held before.
CK_TILE_HOST uint32_t host_atomic_cas(uint32_t* p, uint32_t expected, uint32_t desired)
{
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected; // on failure the builtin stored the current value here
}
CK_TILE_HOST uint64_t host_atomic_cas(uint64_t* p, uint64_t expected, uint64_t desired)
{
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
}

} // namespace ck_tile::arch
