// SPDX-License-Identifier: MIT
// The persistent tile scheduler of the Hopper GEMM: a grid of at most one block per SM walks
// the output tiles of every batch, block b taking tiles b, b + grid, b + 2 grid, ... Inside a
// batch, tiles are visited in gemm_tile_partitioner's grouped order (GroupM tile rows at a
// time), so the blocks running together share A rows and B columns in L2.
//
// A persistent block overlaps one tile's epilogue with the next tile's first copies (the
// producer runs ahead as far as the free stages allow), and pays the launch and prologue once.
//
// Blocks walk units of work rather than tiles (gemm_work_units): a tile whole, or one split of
// its K range, for every tile (split-K) or only for the tiles of the last, partial wave.
//
// Both decode a unit between two tiles, while the tensor cores wait, so they divide by
// magic_divisor: 32-bit indices (a launch holds fewer than 2^31 units: gemm_wgmma_max_units) and
// divisors fixed by the host.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/magic_divisor.hpp"

#include <cassert>
#include <cstdint>

namespace ck_tile {

/// The units a launch may hold: every index the decode divides stays below 2^31.
inline constexpr std::int64_t gemm_wgmma_max_units = magic_divisor::max_value;

/// Tiles in gemm_tile_partitioner's order (GroupM tile rows at a time, M fastest inside a
/// group), batch after batch.
template <index_t GroupM>
struct gemm_wgmma_scheduler
{
    std::int64_t tiles_m = 0, tiles_n = 0, batches = 0;
    magic_divisor per_batch, per_group, last_group_rows;

    /// @pre tiles_m, tiles_n, batches >= 1 and their product <= gemm_wgmma_max_units.
    static gemm_wgmma_scheduler make(std::int64_t tiles_m, std::int64_t tiles_n,
                                     std::int64_t batches)
    {
        assert(tiles_m >= 1 && tiles_n >= 1 && batches >= 1 &&
               tiles_m * tiles_n <= gemm_wgmma_max_units / batches);
        gemm_wgmma_scheduler s;
        s.tiles_m               = tiles_m;
        s.tiles_n               = tiles_n;
        s.batches               = batches;
        const std::int64_t rows = tiles_m < GroupM ? tiles_m : GroupM;
        s.per_batch             = magic_divisor::of(static_cast<std::uint32_t>(tiles_m * tiles_n));
        s.per_group             = magic_divisor::of(static_cast<std::uint32_t>(rows * tiles_n));
        const std::int64_t last = tiles_m % GroupM;
        s.last_group_rows = magic_divisor::of(static_cast<std::uint32_t>(last > 0 ? last : 1));
        return s;
    }

    struct work
    {
        std::int64_t batch, m, n; // tile coordinates (multiply by the block tile for elements)
    };

    CK_TILE_HOST_DEVICE std::int64_t tiles() const { return tiles_m * tiles_n * batches; }

    /// @pre 0 <= t < tiles(). @post a bijection onto (batch, m, n), the same as
    /// gemm_tile_partitioner<GroupM> on t % (tiles_m * tiles_n).
    CK_TILE_HOST_DEVICE work operator()(std::int64_t t) const
    {
        const auto [batch, in_batch] = per_batch.divmod(static_cast<std::uint32_t>(t));
        const auto [group, in_group] = per_group.divmod(in_batch);
        const std::uint32_t first_m  = group * GroupM;
        // Whole groups divide by the constant; only the last one may hold fewer rows.
        const bool whole = first_m + GroupM <= tiles_m;
        const auto [n, m] =
            whole ? magic_divisor::quotient_remainder{in_group / GroupM, in_group % GroupM}
                  : last_group_rows.divmod(in_group);
        return {batch, first_m + m, n};
    }

    /// Blocks (clusters) that read each tile of B: one per tile row. A cluster's CTAs share
    /// B's tile through multicast, and the scheduler's rows are cluster rows.
    CK_TILE_HOST_DEVICE std::int64_t readers_of_b() const { return tiles_m; }
    /// Blocks that read each tile of A: one per tile column.
    CK_TILE_HOST_DEVICE std::int64_t readers_of_a() const { return tiles_n; }

    /// Blocks to launch: one per SM, never more than there are tiles.
    static std::int64_t grid_size(std::int64_t tiles, std::int64_t sms)
    {
        return tiles < sms ? tiles : sms;
    }
};

/// Whether an operand is dead in L2 once the copies have read it, so that its loads should ask
/// L2 to replace its lines before others (l2_eviction::first): its tiles have at most two
/// readers, which the grouped walk makes neighbours (at most GroupM tiles apart, so the second
/// reads the lines while they are still there), and its `bytes` are at least the L2's
/// `l2_bytes`, so that no later call could find them there either.
///
/// Others' lines then stay in L2. A skinny GEMM after a kernel that wrote 256 MB otherwise evicts
/// and writes back that kernel's dirty lines while it streams its weights (H100, M = 16, N = K =
/// 8192: 24.5 MB of writes and 61.0 us; with the hint 8.4 MB and 57.4 us). Where a tile has more
/// readers over a longer span the hint cost 3% (3000^3, 8 cluster rows); where the operand fits
/// in L2, calls repeated on the same weights lost their L2 hits to it (16 x 4096 x 4096: 21.5 us
/// against 15.6).
CK_TILE_HOST_DEVICE constexpr bool gemm_wgmma_read_once(std::int64_t readers, double bytes,
                                                        double l2_bytes)
{
    return readers <= 2 && bytes >= l2_bytes;
}

/// The units of work of a persistent launch over `tiles` output tiles of `k_tiles` K tiles:
/// each tile whole; or with split-K (`splits` > 1) every tile in `splits` units; or with the
/// last wave's split (`tail_splits` > 1) the tiles from `tail_first` on in `tail_splits` units.
/// A tile's units are adjacent, split s taking K tiles [s * per, min((s + 1) * per, k_tiles)).
struct gemm_work_units
{
    std::int64_t tiles   = 0;
    std::int32_t k_tiles = 0;
    std::int32_t splits = 1, k_tiles_per_split = 0;
    std::int64_t tail_first  = 0;
    std::int32_t tail_splits = 1, tail_k_tiles_per_split = 0;
    magic_divisor split_divisor; // by tail_splits or splits, whichever is above 1

    struct unit
    {
        std::int64_t tile;
        std::int32_t split, k_first, k_tiles;
        std::int64_t tail; // the tile's index from tail_first on, -1 outside the last wave
    };

    /// @pre splits == 1 or tail_splits == 1; every split has at least one K tile; count()
    /// <= gemm_wgmma_max_units.
    static gemm_work_units make(std::int64_t tiles, std::int64_t k_tiles, std::int64_t splits,
                                std::int64_t tail_first, std::int64_t tail_splits)
    {
        gemm_work_units w;
        w.tiles             = tiles;
        w.k_tiles           = static_cast<std::int32_t>(k_tiles);
        w.splits            = static_cast<std::int32_t>(splits);
        w.k_tiles_per_split = static_cast<std::int32_t>((k_tiles + splits - 1) / splits);
        w.tail_first        = tail_splits > 1 ? tail_first : tiles;
        w.tail_splits       = static_cast<std::int32_t>(tail_splits);
        w.tail_k_tiles_per_split =
            static_cast<std::int32_t>((k_tiles + tail_splits - 1) / tail_splits);
        w.split_divisor =
            magic_divisor::of(static_cast<std::uint32_t>(tail_splits > 1 ? tail_splits : splits));
        return w;
    }

    CK_TILE_HOST_DEVICE std::int64_t count() const
    {
        return tail_splits > 1 ? tail_first + (tiles - tail_first) * tail_splits : tiles * splits;
    }

    /// @pre 0 <= u < count(). @post the units cover every K tile of every tile exactly once.
    CK_TILE_HOST_DEVICE unit operator()(std::int64_t u) const
    {
        if(tail_splits > 1)
        {
            if(u < tail_first)
                return {u, 0, 0, k_tiles, -1};
            const auto [tail, split] =
                split_divisor.divmod(static_cast<std::uint32_t>(u - tail_first));
            return split_of(tail_first + tail, static_cast<std::int32_t>(split),
                            tail_k_tiles_per_split, tail);
        }
        if(splits == 1)
            return {u, 0, 0, k_tiles, -1};
        const auto [tile, split] = split_divisor.divmod(static_cast<std::uint32_t>(u));
        return split_of(tile, static_cast<std::int32_t>(split), k_tiles_per_split, -1);
    }

    private:
    CK_TILE_HOST_DEVICE unit split_of(std::int64_t tile, std::int32_t split, std::int32_t per,
                                      std::int64_t tail) const
    {
        const std::int32_t k_first = split * per;
        const std::int32_t left    = k_tiles - k_first;
        return {tile, split, k_first, left < per ? left : per, tail};
    }
};

} // namespace ck_tile
