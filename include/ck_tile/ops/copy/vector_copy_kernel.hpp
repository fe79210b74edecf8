// SPDX-License-Identifier: MIT
// The smallest real kernel: copy n elements of T, 16 bytes per thread per step where the
// pointers allow it. It exercises the platform seam end to end (arch ids, launch, runtime)
// and is the device smoke test of the build.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>

namespace ck_tile {

/// Copies `n` elements from `src` to `dst` (non-overlapping). A grid-stride loop moves
/// 16-byte vectors when both pointers share their alignment modulo 16; a scalar prologue
/// reaches that alignment and a scalar epilogue finishes the tail. Any n >= 0 and any element
/// alignment are valid; nothing outside [dst, dst + n) is written.
template <typename T>
struct vector_copy_kernel
{
    static constexpr index_t kVectorBytes = 16;
    static_assert(kVectorBytes % sizeof(T) == 0, "element size must divide 16 bytes");
    static constexpr index_t kElemsPerVector = kVectorBytes / static_cast<index_t>(sizeof(T));
    struct alignas(16) vector_t
    {
        uint32_t words[4];
    };

    CK_TILE_DEVICE void operator()(const T* src, T* dst, long_index_t n) const
    {
        const long_index_t tid =
            static_cast<long_index_t>(get_block_id()) * get_block_size() + get_thread_id();
        const long_index_t stride = static_cast<long_index_t>(get_grid_size()) * get_block_size();

        const auto src_addr = reinterpret_cast<std::uintptr_t>(src);
        const auto dst_addr = reinterpret_cast<std::uintptr_t>(dst);
        long_index_t head   = 0;
        const auto misalign = static_cast<long_index_t>(src_addr % kVectorBytes);
        // Vectors are possible only if both pointers reach 16-byte alignment after the same
        // whole number of elements.
        if((src_addr % kVectorBytes) == (dst_addr % kVectorBytes) && misalign % sizeof(T) == 0)
        {
            head = misalign == 0 ? 0
                                 : (kVectorBytes - misalign) / static_cast<long_index_t>(sizeof(T));
            head = head < n ? head : n;
        }
        else
        {
            // The two pointers can never be 16-byte aligned together: copy element by element.
            head = n;
        }
        const long_index_t n_vectors = (n - head) / kElemsPerVector;
        const long_index_t tail      = head + n_vectors * kElemsPerVector;

        for(long_index_t i = tid; i < head; i += stride)
            dst[i] = src[i];
        const auto* vsrc = reinterpret_cast<const vector_t*>(src + head);
        auto* vdst       = reinterpret_cast<vector_t*>(dst + head);
        for(long_index_t v = tid; v < n_vectors; v += stride)
            vdst[v] = vsrc[v];
        for(long_index_t i = tail + tid; i < n; i += stride)
            dst[i] = src[i];
    }
};

} // namespace ck_tile
