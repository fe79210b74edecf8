// SPDX-License-Identifier: MIT
// One GEMM operand's stage in shared memory for the Hopper GEMM: how the copy engine (TMA)
// writes it and how the warpgroup MMA (wgmma) reads it back. Both sides use the 128-byte
// swizzle, so the tile is bank-conflict free for wgmma and needs no address arithmetic in the
// kernel beyond the descriptor's start address.
//
// An operand tile holds `Rows` indices of M (for A) or N (for B) by BlockK indices of K, where
// one K extent is 128 bytes (one swizzle span) of elements:
//
//   K-major (A row-major, B column-major: K contiguous in memory): TMA boxes of BlockK x
//     Rows / Parts, each M/N index one 128-byte row, the boxes one after the other. An M/N slab
//     of 64 starts 64 rows further on; the K steps of the MMA (32 bytes each) advance the start
//     address inside the swizzle row.
//   MN-major (A column-major, B row-major; 16-bit types only, the only ones wgmma can read
//     transposed): Rows / 64 boxes of 64 (M or N) x BlockK (K), each K index one 128-byte row.
//     Boxes follow each other (LBO = one box); eight K rows make one 1024-byte swizzle atom
//     (SBO); a K step of the MMA is 32/sizeof(T) K rows further on.
//
// A K-major tile may hold fewer than 64 rows (8 to 56, by 8s) where the problem has no more:
// the MMA still reads 64 rows from the tile's start, and the rows past it are whatever the
// stage holds next (B's tile), so their results are garbage that the epilogue never stores.
// M <= 16 then stages 2 KiB of A per K step instead of 8, and the stages saved hold more of B.
//
// Parts: how many CTAs of a cluster load the tile together, each its share of the boxes,
// multicast to all of them (the same bytes land at the same offsets in every CTA).
//
#pragma once

#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/arch/nvidia/wgmma_traits.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>

namespace ck_tile {

template <typename T, index_t Rows, bool KMajor, index_t Parts = 1>
struct gemm_wgmma_operand_tile
{
    static constexpr index_t span_bytes = 128;
    static constexpr index_t block_k    = span_bytes / static_cast<index_t>(sizeof(T));
    static constexpr index_t step_bytes = 32; // K bytes of one wgmma, every type
    static constexpr index_t k_steps    = span_bytes / step_bytes;
    static constexpr index_t rows       = Rows;
    static constexpr index_t parts      = Parts;

    /// Short tiles (fewer than the 64 rows one MMA reads) are K-major and unsplit: the MMA
    /// reads on past them into what follows in the stage, rows whose results are never stored.
    static constexpr bool short_tile = Rows < 64;
    static_assert((Rows % 64 == 0 && Rows <= 256) ||
                      (short_tile && KMajor && Parts == 1 && Rows % 8 == 0 && Rows > 0),
                  "an operand tile is 64 to 256 rows by 64s, or a K-major tile of whole "
                  "8-row swizzle atoms under 64");
    static_assert(KMajor || sizeof(T) == 2, "wgmma reads only 16-bit operands MN-major");

    /// TMA boxes per stage, the rows (M or N) each covers, and each box's extent, innermost
    /// first (TMA's order).
    static constexpr index_t boxes      = KMajor ? Parts : Rows / 64;
    static constexpr index_t box_rows   = Rows / boxes;
    static constexpr uint32_t box_inner = KMajor ? block_k : 64;
    static constexpr uint32_t box_outer = KMajor ? box_rows : block_k;
    static constexpr index_t box_bytes  = static_cast<index_t>(box_inner * box_outer * sizeof(T));
    static constexpr index_t bytes      = boxes * box_bytes;
    static constexpr index_t boxes_per_part = boxes / Parts;
    static_assert(bytes == Rows * span_bytes, "a stage is Rows x 128 bytes either way");
    static_assert(boxes % Parts == 0 && box_rows % 8 == 0,
                  "the tile splits into whole boxes of whole 8-row swizzle atoms per part");

    static constexpr wgmma_major major = KMajor ? wgmma_major::k : wgmma_major::mn;

    /// The descriptor of the slab (64 rows for A, the MMA's N for B) starting at row `row0` for
    /// K step `step` (0 .. k_steps-1) of a stage whose shared address is `base` (1024-byte
    /// aligned). `row0` is a multiple of 8 (one swizzle atom) for K-major tiles, of 64 for
    /// MN-major ones.
    CK_TILE_HOST_DEVICE static constexpr uint64_t descriptor(uint32_t base, index_t row0,
                                                             index_t step)
    {
        if constexpr(KMajor)
            return wgmma_smem_descriptor::make_k_major(
                base + static_cast<uint32_t>(row0 * span_bytes + step * step_bytes),
                smem_swizzle::b128, span_bytes);
        else
        {
            constexpr index_t k_rows_per_step = step_bytes / static_cast<index_t>(sizeof(T));
            return wgmma_smem_descriptor::make(
                base + static_cast<uint32_t>(row0 / 64 * box_bytes +
                                             step * k_rows_per_step * span_bytes),
                static_cast<uint32_t>(box_bytes), 8u * span_bytes, smem_swizzle::b128);
        }
    }
};

} // namespace ck_tile
