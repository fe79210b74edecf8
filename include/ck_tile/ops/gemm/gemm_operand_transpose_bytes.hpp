// SPDX-License-Identifier: MIT
// The transposing copy of 1-byte GEMM operands a 4-byte word at a time (gemm_operand_staging
// launches it). Its two phases per tile are host-device functions of the thread's index, so a
// host test can run a block's threads one phase after the other, as the barrier orders them.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/byte_transpose.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"

#include "ck_tile/host/hip_runtime.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/arch.hpp"
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ck_tile {

/// What a staging copy reads and writes: `batches` matrices of `rows` runs of `run` elements
/// of E at `src` (runs `src_ld` apart, matrices `src_batch_stride` apart), to `dst` likewise.
template <typename E>
struct gemm_operand_copy_args
{
    const E* src;
    E* dst;
    std::int64_t rows, run, batches;
    std::int64_t src_ld, src_batch_stride, dst_ld, dst_batch_stride;
};

/// The transposing copy of 1-byte elements four at a time, for sources whose start, leading
/// dimension and batch stride are on 4 bytes (gemm_operand_layout::transposes_by_words; the
/// element copy gemm_operand_transpose moves one byte per access, at a third of this copy's
/// speed). A block moves a 128 x 128 byte tile: each thread loads four 4 x 4 blocks as 16 words
/// (a warp reads one row's 128 bytes per load), transposes them in registers and writes the
/// words into shared memory, where the word column is XOR-ed with the row's block index so that
/// neither the writes (a warp's 32 blocks of one block row) nor the reads (a row's 32 words)
/// meet on a bank; then the warps store whole 128-byte rows of the transposed tile. Words cut by
/// the source's end of row are read a byte at a time; the stored rows may gain zero bytes past
/// `rows`, inside the destination's leading dimension, which must hold them (whole 128-byte
/// lines, gemm_operand_layout::staged_ld). Two blocks per multiprocessor (at most 128
/// registers, which the 16 words in flight and the byte path take without spilling) keep 32 KiB
/// of loads in flight on each, as the 4-byte copy does.
struct gemm_operand_transpose_bytes
{
    static constexpr index_t Tile = 128, Words = Tile / 4, BlockSize = 256, MinBlocks = 2,
                             RowsPerPass = BlockSize / Words, // block rows, and output rows
        BlocksPerThread = Words / RowsPerPass, RowsPerThread = Tile / RowsPerPass;
    static constexpr std::int64_t max_grid_yz = 65535;

    using kargs = gemm_operand_copy_args<std::uint8_t>;
    /// tile[c][q ^ (c / 4)]: word q of the tile's transposed row c (source rows 4q..4q+3).
    using tile_words = std::uint32_t[Tile][Words];

    /// Blocks along the runs, tiles along the rows (a grid-stride loop past 65535), batches.
    static dim3 grid(const kargs& k)
    {
        return dim3(static_cast<unsigned>((k.run + Tile - 1) / Tile),
                    static_cast<unsigned>(std::min((k.rows + Tile - 1) / Tile, max_grid_yz)),
                    static_cast<unsigned>(std::min(k.batches, max_grid_yz)));
    }

    /// The word at `at` (4-byte aligned). (memcpy on the host, where the bytes are not words.)
    CK_TILE_HOST_DEVICE static std::uint32_t load_word(const std::uint8_t* at)
    {
#if CK_TILE_DEVICE_COMPILE
        return *reinterpret_cast<const std::uint32_t*>(at);
#else
        std::uint32_t w;
        std::memcpy(&w, at, 4);
        return w;
#endif
    }
    CK_TILE_HOST_DEVICE static void store_word(std::uint8_t* at, std::uint32_t w)
    {
#if CK_TILE_DEVICE_COMPILE
        *reinterpret_cast<std::uint32_t*>(at) = w;
#else
        std::memcpy(at, &w, 4);
#endif
    }

    /// Calls f(b, r0, c0) for each tile that block (x, y, z) of a grid `grid_y` x `grid_z` high
    /// moves: the tile of rows r0.. and runs c0.. of matrix b, in that order.
    /// @post over the blocks of grid(k), every tile of every matrix is moved exactly once.
    template <typename F>
    CK_TILE_HOST_DEVICE static void for_each_tile(const kargs& k, index_t x, index_t y, index_t z,
                                                  index_t grid_y, index_t grid_z, F&& f)
    {
        const std::int64_t c0 = std::int64_t(x) * Tile;
        for(std::int64_t b = z; b < k.batches; b += grid_z)
            for(std::int64_t r0 = std::int64_t(y) * Tile; r0 < k.rows;
                r0 += std::int64_t(grid_y) * Tile)
                f(b, r0, c0);
    }

    /// The first `bytes` bytes at `at` (fewer than 4: a word cut by the end of a run) as a
    /// word, zeros above them.
    CK_TILE_HOST_DEVICE static std::uint32_t load_cut_word(const std::uint8_t* at,
                                                           std::int64_t bytes)
    {
        std::uint32_t w = 0;
        static_for<0, 4>{}([&](auto b) {
            if(b < bytes)
                w |= std::uint32_t(at[b]) << 8 * b;
        });
        return w;
    }

    /// First phase of the tile at (r0, c0) of the matrix at `from`, thread `t`: its four 4 x 4
    /// blocks (rows r0 + 4 (t / Words + n RowsPerPass) + i, bytes c0 + 4 (t % Words) + 0..3;
    /// zeros past the source's rows and runs) loaded, all 16 words before any is used,
    /// transposed, and written to `tile`.
    /// @post with every thread of the block done, tile[c][q ^ (c / 4)] holds bytes c0 + c of
    ///       source rows r0 + 4q .. r0 + 4q + 3, for all c < Tile, q < Words.
    CK_TILE_HOST_DEVICE static void stage_tile(const kargs& k, const std::uint8_t* from,
                                               std::int64_t r0, std::int64_t c0, index_t t,
                                               tile_words& tile)
    {
        const index_t w = t % Words, q0 = t / Words;
        const std::int64_t c = c0 + 4 * w;
        // Rows the thread may read from its first on (4 q0 + 4 n RowsPerPass + i below this),
        // walked a leading dimension at a time so that one address is live per load.
        const std::int64_t rows_left  = k.rows - (r0 + 4 * q0);
        const std::uint8_t* p         = from + (r0 + 4 * q0) * k.src_ld + c;
        const std::int64_t block_step = (4 * RowsPerPass - 4) * k.src_ld;
        std::uint32_t in[BlocksPerThread][4];
        // The same walk twice, so that the loads of whole words are one straight stretch.
        const auto load_all = [&](auto load) {
            static_for<0, BlocksPerThread>{}([&](auto n) {
                static_for<0, 4>{}([&](auto i) {
                    constexpr index_t r = 4 * RowsPerPass * n + i;
                    in[n][i]            = r < rows_left ? load(p) : 0u;
                    p += k.src_ld;
                });
                p += block_step;
            });
        };
        if(c + 4 <= k.run)
            load_all([](const std::uint8_t* at) { return load_word(at); });
        else
            load_all([&](const std::uint8_t* at) { return load_cut_word(at, k.run - c); });
        static_for<0, BlocksPerThread>{}([&](auto n) {
            std::uint32_t tr[4];
            transpose_4x4_bytes(in[n], tr);
            const index_t q = q0 + n * RowsPerPass;
            static_for<0, 4>{}([&](auto j) { tile[4 * w + j][q ^ w] = tr[j]; });
        });
    }

    /// Second phase, thread `t`: word t % Words of the tile's transposed rows t / Words + n
    /// RowsPerPass stored to the matrix at `to`, where the row is one of the runs and the word
    /// starts before `rows`.
    CK_TILE_HOST_DEVICE static void store_tile(const kargs& k, std::uint8_t* to, std::int64_t r0,
                                               std::int64_t c0, index_t t, const tile_words& tile)
    {
        const index_t w = t % Words, q0 = t / Words;
        if(r0 + 4 * w >= k.rows)
            return;
        const std::int64_t runs_left = k.run - (c0 + q0);
        std::uint8_t* p              = to + (c0 + q0) * k.dst_ld + r0 + 4 * w;
        const std::int64_t step      = RowsPerPass * k.dst_ld;
        static_for<0, RowsPerThread>{}([&](auto n) {
            constexpr index_t dc = n * RowsPerPass;
            const index_t c      = q0 + dc;
            if(dc < runs_left)
                store_word(p, tile[c][w ^ (c / 4)]);
            p += step;
        });
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        __shared__ tile_words tile;
        for_each_tile(
            k, get_block_id(), get_block_id_y(), get_block_id_z(), get_grid_size_y(),
            get_grid_size_z(), [&](std::int64_t b, std::int64_t r0, std::int64_t c0) {
                stage_tile(k, k.src + b * k.src_batch_stride, r0, c0, get_thread_id(), tile);
                block_sync_lds();
                store_tile(k, k.dst + b * k.dst_batch_stride, r0, c0, get_thread_id(), tile);
                block_sync_lds();
            });
    }
#endif
};

} // namespace ck_tile
