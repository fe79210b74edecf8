// SPDX-License-Identifier: MIT
// The word-wise transposed copy of 1-byte operands run on the host: every block of its grid,
// each block's threads through the first phase, then (as the barrier orders them) through the
// second, with the kernel's own phase functions. Random sources, a poisoned destination, edge
// extents (1, primes, one past a tile, 4097), loose leading dimensions and batch strides, and
// grids too low for the tiles (the grid-stride walk over rows and batches). Exactness against
// the source, zeros from a run's end to its last word's end and untouched bytes after them (a
// marker past the source catches rows read beyond it), nothing written past the staged
// matrices. The device runs the same copy in
// GemmOperandStagingGpu.TransposedCopyIsExact.
#include "ck_tile/ops/gemm/gemm_operand_transpose_bytes.hpp"
#include "ck_tile/ops/gemm/gemm_operand_view.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using copy = ck_tile::gemm_operand_transpose_bytes;
using ck_tile::gemm_operand_layout;
using ck_tile::gemm_operand_view;

constexpr std::uint8_t poison = 0xa5;

/// The copy of `k` by a grid `grid_y` x `grid_z` high (at most grid(k)'s), block by block.
void run_on_host(const copy::kargs& k, unsigned grid_y, unsigned grid_z)
{
    const dim3 g = copy::grid(k);
    struct shared
    {
        copy::tile_words words;
    };
    auto tile = std::make_unique<shared>();
    for(unsigned z = 0; z < std::min(grid_z, g.z); ++z)
        for(unsigned y = 0; y < std::min(grid_y, g.y); ++y)
            for(unsigned x = 0; x < g.x; ++x)
                copy::for_each_tile(k, x, y, z, std::min(grid_y, g.y), std::min(grid_z, g.z),
                                    [&](std::int64_t b, std::int64_t r0, std::int64_t c0) {
                                        // Stale words from the last tile, as shared memory would
                                        // hold them.
                                        for(int t = 0; t < copy::BlockSize; ++t)
                                            copy::stage_tile(k, k.src + b * k.src_batch_stride, r0,
                                                             c0, t, tile->words);
                                        for(int t = 0; t < copy::BlockSize; ++t)
                                            copy::store_tile(k, k.dst + b * k.dst_batch_stride, r0,
                                                             c0, t, tile->words);
                                    });
}

struct byte_case
{
    std::int64_t rows, run, ld, batches, batch_stride;
    unsigned grid_y = 65535, grid_z = 65535;
};

std::string check(const byte_case& c, std::mt19937& rng)
{
    const std::size_t src_bytes =
        static_cast<std::size_t>((c.batches - 1) * c.batch_stride + (c.rows - 1) * c.ld + c.run);
    // A marker past the source: a read beyond it would land in a staged row as a byte that is
    // neither zero nor the poison.
    std::vector<std::uint8_t> src(src_bytes + 4096, 0x5a);
    for(std::size_t i = 0; i < src_bytes; ++i)
        src[i] = static_cast<std::uint8_t>(rng());
    gemm_operand_view v;
    v.p = src.data(), v.rows = c.rows, v.run = c.run, v.ld = c.ld, v.batches = c.batches;
    v.batch_stride  = c.batch_stride;
    v.element_bytes = 1;
    if(!gemm_operand_layout::transposes_by_words(v))
        return "the case is not one for the word copy";
    const gemm_operand_view t = gemm_operand_layout::transposed(v);
    std::vector<std::uint8_t> dst(gemm_operand_layout::bytes(t) + 512, poison);
    const copy::kargs k{src.data(), dst.data(),     v.rows, v.run,         v.batches,
                        v.ld,       v.batch_stride, t.ld,   t.batch_stride};
    run_on_host(k, c.grid_y, c.grid_z);
    for(std::int64_t b = 0; b < c.batches; ++b)
        for(std::int64_t r = 0; r < t.rows; ++r)
        {
            const std::uint8_t* row = &dst[static_cast<std::size_t>(b * t.batch_stride + r * t.ld)];
            for(std::int64_t e = 0; e < t.run; ++e)
                if(row[e] != src[static_cast<std::size_t>(b * c.batch_stride + e * c.ld + r)])
                {
                    std::ostringstream m;
                    m << "batch " << b << ", staged run " << r << ", element " << e;
                    return m.str();
                }
            // The last word's bytes past the run are zeros; the rest is untouched.
            for(std::int64_t e = t.run; e < t.ld; ++e)
                if(row[e] != (e < (t.run + 3) / 4 * 4 ? 0 : poison))
                    return "byte " + std::to_string(e) + " after a staged run is not " +
                           (e < (t.run + 3) / 4 * 4 ? "zero" : "untouched");
        }
    for(std::size_t i = static_cast<std::size_t>(t.batches * t.batch_stride); i < dst.size(); ++i)
        if(dst[i] != poison)
            return "byte " + std::to_string(i) + " past the staged matrices was written";
    return "";
}

} // namespace

TEST(GemmOperandTransposeBytes, HostRunOfTheKernelIsExact)
{
    std::mt19937 rng(21);
    const std::int64_t shapes[][2] = {{1, 1},     {1, 200},   {200, 1},   {3, 5},
                                      {128, 128}, {129, 131}, {256, 64},  {70, 136},
                                      {4097, 33}, {33, 4097}, {300, 1000}};
    int ran                        = 0;
    for(const auto& s : shapes)
    {
        const std::int64_t rows = s[0], run = s[1], on4 = (run + 3) / 4 * 4;
        for(std::int64_t ld : {on4, on4 + 4})
            for(std::int64_t batches : {1, 3})
                for(std::int64_t extra : {0, 8})
                {
                    if(batches == 1 && extra != 0)
                        continue;
                    const byte_case c{rows, run, ld, batches, ld * rows + extra};
                    EXPECT_EQ(check(c, rng), "")
                        << batches << " x " << rows << " runs of " << run << ", ld " << ld;
                    ++ran;
                }
    }
    EXPECT_GT(ran, 50);
}

// Grids lower than the tiles: a block walks several tiles of rows and several matrices.
TEST(GemmOperandTransposeBytes, GridStrideWalksEveryTile)
{
    std::mt19937 rng(22);
    for(unsigned gy : {1u, 2u})
        for(unsigned gz : {1u, 2u})
        {
            const byte_case c{515, 260, 260, 5, 515 * 260 + 4, gy, gz};
            EXPECT_EQ(check(c, rng), "") << "grid height " << gy << ", depth " << gz;
        }
}

// The walk itself: every (matrix, row tile, run tile) exactly once over the grid, also where the
// grid is capped below the tiles.
TEST(GemmOperandTransposeBytes, ForEachTileCoversEveryTileOnce)
{
    copy::kargs k{};
    k.rows = 1000, k.run = 300, k.batches = 7;
    for(unsigned gy : {1u, 3u, 8u})
        for(unsigned gz : {1u, 4u, 7u})
        {
            const dim3 g = copy::grid(k);
            std::vector<int> seen(7 * 8 * 3, 0);
            for(unsigned z = 0; z < gz; ++z)
                for(unsigned y = 0; y < gy; ++y)
                    for(unsigned x = 0; x < g.x; ++x)
                        copy::for_each_tile(
                            k, x, y, z, gy, gz,
                            [&](std::int64_t b, std::int64_t r0, std::int64_t c0) {
                                ++seen[(b * 8 + r0 / copy::Tile) * 3 + c0 / copy::Tile];
                            });
            EXPECT_EQ(g.x, 3u);
            EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 7 * 8 * 3)
                << "grid " << gy << " x " << gz;
        }
}
