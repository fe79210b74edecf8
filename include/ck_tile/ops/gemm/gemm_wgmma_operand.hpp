// SPDX-License-Identifier: MIT
// One GEMM operand's stage in shared memory for the Hopper GEMM: how the copy engine (TMA)
// writes it and how the warpgroup MMA (wgmma) reads it back. Both sides use the same swizzle
// (128-byte, or 64-byte for the narrow MN-major groups below), so the tile is bank-conflict
// free for wgmma and needs no address arithmetic in the kernel beyond the descriptor's start
// address.
//
// An operand tile holds `Rows` indices of M (for A) or N (for B) by BlockK indices of K, where
// one K extent is 128 bytes of elements:
//
//   K-major (A row-major, B column-major: K contiguous in memory): TMA boxes of BlockK x
//     Rows / Parts, each M/N index one 128-byte row, the boxes one after the other. An M/N slab
//     of 64 starts 64 rows further on; the K steps of the MMA (32 bytes each) advance the start
//     address inside the swizzle row.
//   MN-major (A column-major, B row-major; 16-bit types only, the only ones wgmma can read
//     transposed): Rows / MnGroup boxes of MnGroup (M or N) x BlockK (K), each K index one
//     swizzled row of MnGroup elements. Boxes follow each other (LBO = one group); eight K rows
//     make one swizzle atom (SBO); a K step of the MMA is 32/sizeof(T) K rows further on. An MMA
//     can only start on a group, so MnGroup is 64 (128-byte rows) unless a consumer's columns
//     start elsewhere: two consumers of a 192-column B take 96 each, which start on a group of
//     32 (64-byte rows, 64-byte swizzle).
//
// A tile may also hold a number of rows off the multiples of 64 (B of the 128x112, 128x144 and
// 128x160 tiles): K-major, any whole number of 8-row swizzle atoms (144 rows of 128 bytes are
// 18, a pair's halves of 72 rows 9 each); MN-major, whole groups (160: five of 32, which a pair
// splits along K).
//
// A K-major tile may hold fewer than 64 rows (8 to 56, by 8s) where the problem has no more:
// the MMA still reads 64 rows from the tile's start, and the rows past it are whatever the
// stage holds next (B's tile), so their results are garbage that the epilogue never stores.
// M <= 16 then stages 2 KiB of A per K step instead of 8, and the stages saved hold more of B.
//
// Parts: how many CTAs of a cluster load the tile together, each its share of the boxes,
// multicast to all of them (the same bytes land at the same offsets in every CTA). An MN-major
// tile whose boxes do not divide among the parts (three of 64 columns, two CTAs) is split
// along K instead: each part loads the K rows BlockK / Parts * part onwards of every box, whole
// 8-row swizzle atoms, so the halves land in the layout one full box would have.
//
#pragma once

#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/arch/nvidia/wgmma_traits.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>

namespace ck_tile {

template <typename T, index_t Rows, bool KMajor, index_t Parts = 1, index_t MnGroup = 64>
struct gemm_wgmma_operand_tile
{
    static constexpr index_t span_bytes = 128; // K bytes per stage, every type
    static constexpr index_t block_k    = span_bytes / static_cast<index_t>(sizeof(T));
    static constexpr index_t step_bytes = 32; // K bytes of one wgmma, every type
    static constexpr index_t k_steps    = span_bytes / step_bytes;
    static constexpr index_t rows       = Rows;
    static constexpr index_t parts      = Parts;

    /// Short tiles (fewer than the 64 rows one MMA reads) are K-major and unsplit: the MMA
    /// reads on past them into what follows in the stage, rows whose results are never stored.
    static constexpr bool short_tile = Rows < 64;
    static_assert((!short_tile && Rows <= 256 && Rows % (KMajor ? 8 : MnGroup) == 0) ||
                      (short_tile && KMajor && Parts == 1 && Rows % 8 == 0 && Rows > 0),
                  "an operand tile is 64 to 256 rows: whole 8-row swizzle atoms K-major, whole "
                  "groups MN-major; under 64 rows K-major and unsplit only");
    static_assert(KMajor || sizeof(T) == 2, "wgmma reads only 16-bit operands MN-major");
    static_assert(MnGroup == 64 || (MnGroup == 32 && !KMajor),
                  "MN-major tiles swizzle 64 or 32 indices of M/N per row, K-major ones 128 bytes");

    /// The swizzle of the tile and the bytes of one of its swizzled rows: 128 (a K span of a
    /// K-major tile, 64 M/N indices of an MN-major one) or 64 (32 M/N indices).
    static constexpr index_t row_bytes =
        KMajor ? span_bytes : MnGroup * static_cast<index_t>(sizeof(T));
    static constexpr smem_swizzle swizzle = smem_swizzle_for_span(row_bytes);
    /// MN-major tiles: the bytes of one group of MnGroup columns over the whole stage's K.
    static constexpr index_t group_bytes = row_bytes * block_k;
    /// Each part loads a K slice of every box rather than whole boxes (see Parts above).
    static constexpr bool k_split = !KMajor && (Rows / MnGroup) % Parts != 0;
    static_assert(!k_split || (block_k / Parts) % 8 == 0,
                  "a K slice of a box is whole 8-row swizzle atoms");

    /// Boxes per stage (with k_split, each is copied in Parts K slices), the rows (M or N)
    /// each covers, one copy's extent, innermost first (TMA's order), and the copies each part
    /// issues per stage.
    static constexpr index_t boxes      = KMajor ? Parts : Rows / MnGroup;
    static constexpr index_t box_rows   = Rows / boxes;
    static constexpr uint32_t box_inner = KMajor ? block_k : MnGroup;
    static constexpr uint32_t box_outer = KMajor ? box_rows : block_k / (k_split ? Parts : 1);
    static constexpr index_t box_bytes  = static_cast<index_t>(box_inner * box_outer * sizeof(T));
    static constexpr index_t bytes      = Rows * span_bytes;
    static constexpr index_t boxes_per_part = k_split ? boxes : boxes / Parts;
    static_assert(k_split || (boxes % Parts == 0 && box_rows % 8 == 0),
                  "the tile splits into whole boxes of whole 8-row swizzle atoms per part");
    static_assert(boxes_per_part * Parts * box_bytes == bytes, "the parts' boxes fill the tile");

    /// Box j (0 .. boxes_per_part-1) of `part`: its first M/N index and K index relative to the
    /// tile's, and its byte offset in the stage.
    CK_TILE_HOST_DEVICE static constexpr index_t box_mn(index_t part, index_t j)
    {
        return k_split ? MnGroup * j : (part * boxes_per_part + j) * box_rows;
    }
    CK_TILE_HOST_DEVICE static constexpr index_t box_k(index_t part, index_t)
    {
        return k_split ? part * static_cast<index_t>(box_outer) : 0;
    }
    CK_TILE_HOST_DEVICE static constexpr index_t box_offset(index_t part, index_t j)
    {
        return k_split ? j * group_bytes + part * box_bytes
                       : (part * boxes_per_part + j) * box_bytes;
    }

    static constexpr wgmma_major major = KMajor ? wgmma_major::k : wgmma_major::mn;

    /// Where the slab `rows` on starts at K step `step`, in bytes from the tile's start; the
    /// offset is linear, so descriptor(base, row0 + rows, step) is also
    /// wgmma_smem_descriptor::advance(descriptor(base, row0, 0), descriptor_offset(rows, step))
    /// (rows a multiple of 8, or of MnGroup for MN-major tiles, as for descriptor()).
    CK_TILE_HOST_DEVICE static constexpr uint32_t descriptor_offset(index_t rows, index_t step)
    {
        if constexpr(KMajor)
            return static_cast<uint32_t>(rows * span_bytes + step * step_bytes);
        else
            return static_cast<uint32_t>(rows / MnGroup * group_bytes +
                                         step * (step_bytes / static_cast<index_t>(sizeof(T))) *
                                             row_bytes);
    }

    /// The descriptor of the slab (64 rows for A, the MMA's N for B) starting at row `row0` for
    /// K step `step` (0 .. k_steps-1) of a stage whose shared address is `base` (1024-byte
    /// aligned). `row0` is a multiple of 8 (one swizzle atom) for K-major tiles, of MnGroup
    /// for MN-major ones.
    CK_TILE_HOST_DEVICE static constexpr uint64_t descriptor(uint32_t base, index_t row0,
                                                             index_t step)
    {
        const uint32_t start = base + descriptor_offset(row0, step);
        if constexpr(KMajor)
            return wgmma_smem_descriptor::make_k_major(start, swizzle, span_bytes);
        else
            return wgmma_smem_descriptor::make(start, static_cast<uint32_t>(group_bytes),
                                               8u * row_bytes, swizzle);
    }
};

} // namespace ck_tile
