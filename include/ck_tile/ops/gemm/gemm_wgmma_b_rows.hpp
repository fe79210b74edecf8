// SPDX-License-Identifier: MIT
// A K-major B tile brought into the Hopper GEMM's stage by the producer warps instead of the copy
// engine, so that B may have any leading dimension and batch stride (gemm_wgmma_b_feed::threads).
//
// A stage holds, for each of the tile's rows (N indices), 128 bytes of K in the 128-byte swizzle
// (gemm_wgmma_operand_tile, K-major). Where B's leading dimension is off 16 bytes, the copy
// engine cannot load such a box: its rows start off 16 bytes, and so would the box. But rows 8
// apart are 8 leading dimensions apart, a multiple of 16 bytes for elements of 2 bytes or more,
// and the 16-byte line where a row's K window starts, at any whole K tile, is a legal start. So
// each row goes in two steps:
//
//   copy:  per residue p of the row index modulo 8, one copy-engine box of 144 bytes (any
//          128-byte window lies in the nine 16-byte lines from its line start) by Rows / 8
//          rows, through a tensor map whose rows are 8 leading dimensions apart and whose start
//          is residue p's first row rounded down to 16 bytes, into a raw slot (residue by
//          residue: raw row p Rows / 8 + q holds tile row 8 q + p). The map ends each row at
//          its last element of K and the rows at N, so the copy engine reads nothing outside
//          B and writes zeros there;
//   shift: once a slot has landed, each lane takes two of its row's raw lines, shifts them by
//          the row's own offset (0 .. 15 bytes) into one 16-byte chunk of the row, zeroes the
//          bytes past K (another row's, before the map's end), and stores the chunk at its
//          swizzled place in the stage.
//
// The four producer warps shift a quarter of the tile's rows each, a 16-byte chunk per lane at a
// time. The lane that issues the boxes takes no chunks: it never writes the stage, so it needs no
// proxy fence, which may wait for its boxes still in flight. (Copies of one row each, by the
// load units' 16-byte cp.async or by the copy engine's 1-D bulk copies, measured 1.5 and 2.8
// times slower than the staging copy at M = 16, N = K = 8192: small copies keep too few bytes
// in flight, and the copy engine takes its time per copy.)
#pragma once

#include "ck_tile/core/arch/memory_word.hpp"
#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>

namespace ck_tile {

/// Where a B fed by the threads lives, in bytes: element (n, k) of batch b at
/// p + b * batch_stride + n * ld + k * element_bytes (p and batch_stride on 16 bytes).
struct gemm_wgmma_b_source
{
    const unsigned char* p;
    std::int64_t ld, batch_stride, k_bytes;
    std::int32_t rows; // N
};

/// Four 4-byte words of the 32 bytes (lo, hi) from byte `shift` (0 .. 15) on, little-endian:
/// the 16 bytes a row's chunk holds when its raw lines are lo and hi.
/// @post result word i = bytes [shift + 4i, shift + 4i + 4) of lo ++ hi
struct gemm_wgmma_chunk
{
    uint32_t w[4];
};

CK_TILE_HOST_DEVICE constexpr gemm_wgmma_chunk
gemm_wgmma_shift_lines(const uint32_t (&lo)[4], const uint32_t (&hi)[4], uint32_t shift)
{
    // Whole words first, by selects on fixed indices (a run-time index into the words would put
    // them in local memory), then the 0 .. 3 bytes left as a funnel shift of word pairs.
    uint32_t v[8] = {lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]};
    if(shift & 8u)
        for(int i = 0; i < 6; ++i)
            v[i] = v[i + 2];
    if(shift & 4u)
        for(int i = 0; i < 5; ++i)
            v[i] = v[i + 1];
    const uint32_t bits = 8u * (shift & 3u);
    gemm_wgmma_chunk c{};
    for(int i = 0; i < 4; ++i)
        c.w[i] = static_cast<uint32_t>(
            ((static_cast<uint64_t>(v[i + 1]) << 32) | static_cast<uint64_t>(v[i])) >> bits);
    return c;
}

/// Keeps the first `keep` bytes of the chunk (none for keep <= 0, all for keep >= 16) and
/// zeroes the rest.
CK_TILE_HOST_DEVICE constexpr gemm_wgmma_chunk gemm_wgmma_keep_bytes(gemm_wgmma_chunk c,
                                                                     std::int64_t keep)
{
    for(int i = 0; i < 4; ++i)
    {
        const std::int64_t left = keep - 4 * i;
        if(left <= 0)
            c.w[i] = 0;
        else if(left < 4)
            c.w[i] &= (1u << (8 * left)) - 1u;
    }
    return c;
}

/// Where one row's K window lies: its offset in the 16-byte line it starts in, and the bytes from
/// the line's start to the window's last byte of K (0 past N).
struct gemm_wgmma_b_row_window
{
    uint32_t shift;
    std::int32_t reach;
};

/// The rows of one Rows x 128-byte K-major B tile that the copy engine brings as residues and the
/// producer warps shift.
template <index_t Rows>
struct gemm_wgmma_b_rows
{
    static constexpr index_t warps            = 4;
    static constexpr index_t residues         = 8;
    static constexpr index_t rows_per_residue = Rows / residues;
    static constexpr index_t rows_per_warp    = Rows / warps;
    static constexpr index_t rows_per_pass    = 4; // eight lanes per row
    static constexpr index_t passes           = rows_per_warp / rows_per_pass;
    static constexpr index_t span_bytes       = 128;
    static constexpr index_t raw_row_bytes    = span_bytes + 16;
    static constexpr index_t residue_bytes    = rows_per_residue * raw_row_bytes;
    static constexpr index_t slot_bytes       = Rows * raw_row_bytes;
    static_assert(Rows % (warps * residues) == 0, "whole residues, a quarter of the rows per warp");
    static_assert(residue_bytes % 128 == 0, "each residue's box starts on 128 bytes");

    /// Where a tile row lies in the raw slot.
    CK_TILE_HOST_DEVICE static constexpr index_t raw_row_of(index_t row)
    {
        return (row % residues) * rows_per_residue + row / residues;
    }

    /// The residues whose maps and boxes exist: min(8, N).
    CK_TILE_HOST_DEVICE static constexpr index_t residues_of(const gemm_wgmma_b_source& b)
    {
        return b.rows < residues ? index_t(b.rows) : residues;
    }

    /// The bytes of K left in the window from k_byte0: 0 .. 128.
    CK_TILE_HOST_DEVICE static constexpr std::int64_t valid_bytes(const gemm_wgmma_b_source& b,
                                                                  std::int64_t k_byte0)
    {
        const std::int64_t v = b.k_bytes - k_byte0;
        return v < 0 ? 0 : v > span_bytes ? span_bytes : v;
    }

    /// The window of tile row `row` (from n0) of `batch` from k_byte0. @pre b.p on 16 bytes.
    CK_TILE_HOST_DEVICE static gemm_wgmma_b_row_window window(const gemm_wgmma_b_source& b,
                                                              std::int32_t n0, index_t row,
                                                              std::int32_t batch,
                                                              std::int64_t k_byte0)
    {
        const std::int64_t n = std::int64_t(n0) + row;
        if(n >= b.rows)
            return {0u, 0};
        const std::int64_t at = std::int64_t(batch) * b.batch_stride + n * b.ld + k_byte0;
        const auto shift      = static_cast<uint32_t>(at % 16);
        return {shift, static_cast<std::int32_t>(shift + valid_bytes(b, k_byte0))};
    }

    /// Shifts `warp`'s rows of `slot` (landed) into `stage`, the tile's 128-byte swizzled
    /// K-major layout (Rows x 128 bytes, 1024-byte aligned): its rows_per_warp x 8 chunks of 16
    /// bytes, taken in turn by `workers` lanes, this one `worker` of them (0 .. workers - 1).
    /// @post stage row r holds row n0 + r's bytes [k_byte0, k_byte0 + 128) of K, zeros past K
    ///       and past N
    CK_TILE_DEVICE static void shift(unsigned char* stage, const unsigned char* slot,
                                     const gemm_wgmma_b_source& b, std::int32_t n0,
                                     std::int32_t batch, std::int64_t k_byte0, index_t warp,
                                     index_t worker, index_t workers)
    {
        for(index_t task = worker; task < rows_per_warp * 8; task += workers)
        {
            const index_t row               = warp * rows_per_warp + task / 8;
            const index_t c                 = task % 8;
            const gemm_wgmma_b_row_window w = window(b, n0, row, batch, k_byte0);
            const unsigned char* raw        = slot + raw_row_of(row) * raw_row_bytes + 16 * c;
            uint32_t lo[4], hi[4];
            arch::load_shared_words_16(raw, lo);
            arch::load_shared_words_16(raw + 16, hi);
            // Bytes from the window's reach on are the next row's (or zeros): kept out.
            const gemm_wgmma_chunk chunk =
                gemm_wgmma_keep_bytes(gemm_wgmma_shift_lines(lo, hi, w.shift),
                                      std::int64_t(w.reach) - std::int64_t(w.shift) - 16 * c);
            arch::store_shared_words_16(
                stage + smem_swizzle_offset(smem_swizzle::b128,
                                            static_cast<uint32_t>(row * span_bytes + 16 * c)),
                chunk.w);
        }
    }
};

} // namespace ck_tile
