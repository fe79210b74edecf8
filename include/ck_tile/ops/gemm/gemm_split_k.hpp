// SPDX-License-Identifier: MIT
// How many blocks share one output tile's K range (split-K), for any GEMM kernel: a wished-for
// count, limited so that each split keeps enough K tiles to be worth a block and no split is
// left empty. Persistent kernels may split only the tiles of their last, partial wave.
#pragma once

#include <cstdint>

namespace ck_tile {

/// @post 1 <= result <= max(1, min(wish, max_splits, k_tiles / min_k_tiles_per_split)); every
///       split of ceil(k_tiles / result) K tiles (the last possibly fewer) has at least one.
inline std::int64_t clamp_k_splits(std::int64_t wish, std::int64_t k_tiles,
                                   std::int64_t min_k_tiles_per_split, std::int64_t max_splits)
{
    std::int64_t s = wish;
    s              = s < k_tiles / min_k_tiles_per_split ? s : k_tiles / min_k_tiles_per_split;
    s              = s < max_splits ? s : max_splits;
    if(s <= 1)
        return 1;
    const std::int64_t per = (k_tiles + s - 1) / s;
    return (k_tiles + per - 1) / per;
}

/// A persistent grid of `slots` blocks (or clusters) runs `tiles` output tiles in waves of
/// `slots`. When the last wave is partial, its tiles may each be split over K between
/// `result` blocks, so that wave takes about 1 / result of a tile's time instead of a whole
/// one; the earlier waves run whole tiles.
/// @post result == 1 (no split), or result >= 2, tiles > slots and
///       (tiles % slots) * result <= slots: every split of the last wave has its own slot, and
///       every split has at least one K tile (clamp_k_splits).
inline std::int64_t tail_k_splits(std::int64_t tiles, std::int64_t slots, std::int64_t k_tiles,
                                  std::int64_t min_k_tiles_per_split, std::int64_t max_splits)
{
    if(slots <= 0 || tiles <= slots || tiles % slots == 0)
        return 1;
    return clamp_k_splits(slots / (tiles % slots), k_tiles, min_k_tiles_per_split, max_splits);
}

/// The most splits worth giving a last-wave tile of `k_tiles` K tiles. The block that adds the
/// splits up reads every split's partial sums back, each about two K tiles' time (on the H100 a
/// 128x256 tile's 128 KiB of fp32 sums took 1.3 us against 0.7 us per K tile; sums and math
/// both scale with the tile's area, so the ratio holds for every tile shape). S splits then take
/// about k_tiles / S + 2 S K tiles, least near S = sqrt(k_tiles / 2).
/// @post result >= 1 and 2 * result^2 >= k_tiles > 2 * (result - 1)^2.
inline std::int64_t tail_split_cap(std::int64_t k_tiles)
{
    std::int64_t s = 1;
    while(2 * s * s < k_tiles)
        ++s;
    return s;
}

/// What each split of a last-wave tile costs beyond its K tiles, in K tiles of that tile: its
/// sums written, then read back by the block that adds them up (measured on the H100).
inline constexpr double tail_split_k_tiles_per_split = 3.5;

/// Whether splitting a last-wave tile of `k_tiles` K tiles `splits` ways saves time. The split
/// saves the K tiles it takes off the tile's block; it costs tail_split_k_tiles_per_split K
/// tiles per split and a fixed `fixed_k_tiles`
/// (the counters' memset, the hand-over's fences and atomics, about 3 us on the H100, so 4.3 K
/// tiles of 128x256 and 17 of 64x128). Measured on the H100 (fp16, 128x256): 24 K tiles in 4
/// splits broke even, 16 in 3 lost 3 us, 32 in 4 gained 3.4 us.
inline bool tail_split_pays(std::int64_t k_tiles, std::int64_t splits, double fixed_k_tiles)
{
    if(splits <= 1)
        return false;
    const double saved = static_cast<double>(k_tiles - (k_tiles + splits - 1) / splits);
    return saved > fixed_k_tiles + tail_split_k_tiles_per_split * static_cast<double>(splits);
}

} // namespace ck_tile
