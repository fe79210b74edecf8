// SPDX-License-Identifier: MIT
// Atomic add and max on one element of any arithmetic or narrow float type, in device code
// (global memory or LDS) and in host code (host memory).
//
// Types with a native instruction use it; every other type of 1, 2, 4 or 8 bytes goes through a
// compare-and-swap loop on the naturally aligned 4- or 8-byte word that holds it, which every
// GPU supports, so half_t, bf16_t and fp8_t work the same on both vendors.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/arch/host/atomic.hpp"

#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/atomic.hpp"
#elif defined(CK_TILE_PLATFORM_AMD)
#include "ck_tile/core/arch/amd/atomic.hpp"
#endif

#include <cstring>
#include <type_traits>

namespace ck_tile {

namespace arch {
template <typename W>
CK_TILE_HOST_DEVICE W atomic_cas(W* p, W expected, W desired)
{
#if CK_TILE_DEVICE_COMPILE
    return device_atomic_cas(p, expected, desired);
#else
    return host_atomic_cas(p, expected, desired);
#endif
}

template <typename T, typename = void>
inline constexpr bool has_native_add = false;
template <typename T, typename = void>
inline constexpr bool has_native_max = false;
#if CK_TILE_DEVICE_COMPILE
template <typename T>
inline constexpr bool
    has_native_add<T, std::void_t<decltype(device_atomic_add(static_cast<T*>(nullptr), T{}))>> =
        true;
template <typename T>
inline constexpr bool
    has_native_max<T, std::void_t<decltype(device_atomic_max(static_cast<T*>(nullptr), T{}))>> =
        true;
#endif

/// Atomically replaces *p by f(*p).
/// @pre p is aligned to sizeof(T); sizeof(T) is 1, 2, 4 or 8.
template <typename T, typename F>
CK_TILE_HOST_DEVICE void atomic_apply(T* p, F f)
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "atomic operations need an element of 1, 2, 4 or 8 bytes");
    using word_t = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    // The word holding *p, and where in it *p sits (GPUs and x86 are little-endian).
    const auto addr  = reinterpret_cast<uintptr_t>(p);
    auto* word       = reinterpret_cast<word_t*>(addr & ~uintptr_t{sizeof(word_t) - 1});
    const auto shift = static_cast<unsigned>((addr & (sizeof(word_t) - 1)) * 8);
    // Two half-width shifts: a single shift by the full word width would be undefined.
    constexpr word_t mask = ((word_t{1} << (4 * sizeof(T))) << (4 * sizeof(T))) - 1;

    word_t old = *reinterpret_cast<volatile word_t*>(word);
    while(true)
    {
        T cur;
        const word_t cur_bits = (old >> shift) & mask;
        std::memcpy(&cur, &cur_bits, sizeof(T)); // little-endian: the low bytes
        const T next     = f(cur);
        word_t next_bits = 0;
        std::memcpy(&next_bits, &next, sizeof(T));
        const word_t desired = (old & ~(mask << shift)) | (next_bits << shift);
        const word_t seen    = atomic_cas(word, old, desired);
        if(seen == old)
            return;
        old = seen;
    }
}
} // namespace arch

/// Atomically *p += v (in T's arithmetic; narrow floats round to nearest even).
template <typename T>
CK_TILE_HOST_DEVICE void atomic_add(T* p, const T& v)
{
#if CK_TILE_DEVICE_COMPILE
    if constexpr(arch::has_native_add<T>)
    {
        arch::device_atomic_add(p, v);
        return;
    }
#endif
    arch::atomic_apply(p, [v](const T& cur) { return static_cast<T>(cur + v); });
}

/// Atomically *p = max(*p, v). For floating types a NaN v leaves *p unchanged.
template <typename T>
CK_TILE_HOST_DEVICE void atomic_max(T* p, const T& v)
{
#if CK_TILE_DEVICE_COMPILE
    if constexpr(arch::has_native_max<T>)
    {
        arch::device_atomic_max(p, v);
        return;
    }
#endif
    arch::atomic_apply(p, [v](const T& cur) { return v > cur ? v : cur; });
}

} // namespace ck_tile
