// SPDX-License-Identifier: MIT
// The shared-memory swizzle modes that the Hopper copy engine (TMA) writes and the warpgroup
// MMA (wgmma) reads, and where a logical byte of a swizzled buffer really lives.
//
// A mode of span S (32, 64 or 128 bytes) XORs the 16-byte chunk index, address bits
// [4, 4 + b) with b = log2(S / 16), with address bits [7, 7 + b): for the 128-byte mode, the
// chunk index within a 128-byte row is XORed with the row index modulo 8. The pattern is a
// function of the shared-memory address, so a swizzled buffer must start on a multiple of the
// repeat (8 * S bytes: 256, 512, 1024) for the logical offsets below to hold (PTX ISA: "Tensor
// Access Modes: Tiled mode swizzling" and "Shared Memory Matrix Layout").
#pragma once

#include "ck_tile/core/config.hpp"

#include <cstdint>

namespace ck_tile {

/// Swizzle modes shared by TMA tensor maps and wgmma shared-memory descriptors.
enum class smem_swizzle : uint8_t
{
    none = 0, ///< rows stored as written
    b32  = 1, ///< 16-byte chunks permuted within 32-byte rows
    b64  = 2, ///< ... within 64-byte rows
    b128 = 3, ///< ... within 128-byte rows (the mode of full-width K-major GEMM tiles)
};

/// Row width of the mode: 32, 64 or 128 bytes; 16 (one chunk) for none.
/// @post a power of two; the inner box dimension of a swizzled TMA copy may not exceed it.
CK_TILE_HOST_DEVICE constexpr uint32_t smem_swizzle_span_bytes(smem_swizzle s)
{
    return s == smem_swizzle::b128  ? 128u
           : s == smem_swizzle::b64 ? 64u
           : s == smem_swizzle::b32 ? 32u
                                    : 16u;
}

/// The mode whose rows are `span` bytes: b32, b64 or b128 for 32, 64 or 128; none otherwise.
/// @post smem_swizzle_span_bytes(result) == span for the three swizzled spans.
CK_TILE_HOST_DEVICE constexpr smem_swizzle smem_swizzle_for_span(uint32_t span)
{
    return span == 128  ? smem_swizzle::b128
           : span == 64 ? smem_swizzle::b64
           : span == 32 ? smem_swizzle::b32
                        : smem_swizzle::none;
}

/// The period of the pattern, 8 rows: the alignment a swizzled buffer needs (1 for none).
CK_TILE_HOST_DEVICE constexpr uint32_t smem_swizzle_repeat_bytes(smem_swizzle s)
{
    return s == smem_swizzle::none ? 1u : 8u * smem_swizzle_span_bytes(s);
}

/// Physical byte offset of logical byte `offset` in a buffer aligned to the repeat.
/// @post offset itself for none; otherwise an involution (applying it twice gives `offset`)
///       that keeps bits [0, 4) and every bit outside [4, 4 + log2(span/16)).
CK_TILE_HOST_DEVICE constexpr uint32_t smem_swizzle_offset(smem_swizzle s, uint32_t offset)
{
    const uint32_t bits = s == smem_swizzle::b128  ? 3u
                          : s == smem_swizzle::b64 ? 2u
                          : s == smem_swizzle::b32 ? 1u
                                                   : 0u;
    const uint32_t mask = (1u << bits) - 1u;
    return offset ^ (((offset >> 7) & mask) << 4);
}

} // namespace ck_tile
