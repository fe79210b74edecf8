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

/// The widest native word (at most 16 bytes) that divides `Bytes`.
template <int Bytes>
using memory_word_t = typename memory_word<(Bytes % 16 == 0)  ? 16
                                           : (Bytes % 8 == 0) ? 8
                                           : (Bytes % 4 == 0) ? 4
                                           : (Bytes % 2 == 0) ? 2
                                                              : 1>::type;

} // namespace ck_tile::arch
