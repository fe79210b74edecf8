// SPDX-License-Identifier: MIT
// The native type for one global/shared-memory access of 1, 2, 4, 8 or 16 bytes.
//
// Copying a struct (an ext_vector of half_t, say) through an lvalue of its own type lets the
// compiler move it member by member: eight 2-byte stores instead of one 16-byte store. Moving
// the same bytes as the platform's vector-of-words type makes it one instruction
// (st.global.v4.b32 / global_store_dwordx4).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>
#include <cstring>

namespace ck_tile::arch {

template <int Bytes>
struct memory_word;

template <>
struct memory_word<1>
{
    using type = uint8_t;
};
template <>
struct memory_word<2>
{
    using type = uint16_t;
};
template <>
struct memory_word<4>
{
    using type = uint32_t;
};

#if defined(CK_TILE_PLATFORM_NVIDIA)
template <>
struct memory_word<8>
{
    using type = uint2;
};
template <>
struct memory_word<16>
{
    using type = uint4;
};
#elif defined(CK_TILE_PLATFORM_AMD)
template <>
struct memory_word<8>
{
    using type = uint32_t __attribute__((ext_vector_type(2)));
};
template <>
struct memory_word<16>
{
    using type = uint32_t __attribute__((ext_vector_type(4)));
};
#else
// Host code copies with memcpy; these only give the sizes a type.
template <>
struct memory_word<8>
{
    using type = uint64_t;
};
template <>
struct memory_word<16>
{
    struct alignas(16) type
    {
        uint64_t lo, hi;
    };
};
#endif

/// Stores one native word at p, a global-memory address aligned to the word's size.
/// NVIDIA: a 16-byte word goes through an explicit st.global.v4.b32. When the word's bytes come
/// from 2-byte elements (fp16/bf16 converted from fp32), nvcc otherwise splits the store into four
/// 4-byte stores (seen in the PTX of the row-wise kernels), which quadruples the store
/// instructions of memory-bound kernels. The "memory" clobber keeps later loads of the same
/// address after it (a kernel may re-read what it wrote).
template <typename W>
CK_TILE_DEVICE void store_global_word(W* p, const W& w)
{
    *p = w;
}
#if defined(CK_TILE_PLATFORM_NVIDIA)
template <>
CK_TILE_DEVICE void store_global_word<uint4>(uint4* p, const uint4& w)
{
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(w.x), "r"(w.y), "r"(w.z),
                 "r"(w.w)
                 : "memory");
}
#endif

/// Stores one native word at p, a shared-memory address aligned to the word's size. NVIDIA: a
/// 16-byte word goes through an explicit st.shared.v4.b32, for the reason store_global_word
/// gives.
template <typename W>
CK_TILE_DEVICE void store_shared_word(W* p, const W& w)
{
    *p = w;
}
#if defined(CK_TILE_PLATFORM_NVIDIA)
template <>
CK_TILE_DEVICE void store_shared_word<uint4>(uint4* p, const uint4& w)
{
    const auto a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(w.x), "r"(w.y), "r"(w.z),
                 "r"(w.w)
                 : "memory");
}
#endif

/// The widest native word (at most 16 bytes) that divides `Bytes`.
template <int Bytes>
using memory_word_t = typename memory_word<(Bytes % 16 == 0)  ? 16
                                           : (Bytes % 8 == 0) ? 8
                                           : (Bytes % 4 == 0) ? 4
                                           : (Bytes % 2 == 0) ? 2
                                                              : 1>::type;

/// Four 4-byte words at p, a shared-memory address on 16 bytes, in one access (host: memcpy).
CK_TILE_HOST_DEVICE void load_shared_words_16(const void* p, uint32_t (&w)[4])
{
#if defined(CK_TILE_PLATFORM_NVIDIA) && defined(__CUDA_ARCH__)
    const uint4 v = *static_cast<const uint4*>(p);
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
#else
    std::memcpy(w, p, 16);
#endif
}

/// Stores four 4-byte words at p, a shared-memory address on 16 bytes, in one access.
CK_TILE_HOST_DEVICE void store_shared_words_16(void* p, const uint32_t (&w)[4])
{
#if defined(CK_TILE_PLATFORM_NVIDIA) && defined(__CUDA_ARCH__)
    store_shared_word(static_cast<uint4*>(p), make_uint4(w[0], w[1], w[2], w[3]));
#else
    std::memcpy(p, w, 16);
#endif
}

} // namespace ck_tile::arch
