// SPDX-License-Identifier: MIT
// The persistent tile scheduler of the Hopper GEMM: a grid of at most one block per SM walks
// the output tiles of every batch, block b taking tiles b, b + grid, b + 2 grid, ... Inside a
// batch, tiles are visited in gemm_tile_partitioner's grouped order (GroupM tile rows at a
// time), so the blocks running together share A rows and B columns in L2.
//
// A persistent block overlaps one tile's epilogue with the next tile's first copies (the
// producer runs ahead as far as the free stages allow), and pays the launch and prologue once.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_tile_partitioner.hpp"

#include <cstdint>

namespace ck_tile {

template <index_t GroupM>
struct gemm_wgmma_scheduler
{
    std::int64_t tiles_m, tiles_n, batches;

    struct work
    {
        std::int64_t batch, m, n; // tile coordinates (multiply by the block tile for elements)
    };

    CK_TILE_HOST_DEVICE std::int64_t tiles() const { return tiles_m * tiles_n * batches; }

    /// @pre 0 <= t < tiles(). @post a bijection onto (batch, m, n).
    CK_TILE_HOST_DEVICE work operator()(std::int64_t t) const
    {
        const std::int64_t per_batch = tiles_m * tiles_n;
        const auto tile = gemm_tile_partitioner<GroupM>{tiles_m, tiles_n}(t % per_batch);
        return {t / per_batch, tile.m, tile.n};
    }

    /// Blocks to launch: one per SM, never more than there are tiles.
    static std::int64_t grid_size(std::int64_t tiles, std::int64_t sms)
    {
        return tiles < sms ? tiles : sms;
    }
};

} // namespace ck_tile
