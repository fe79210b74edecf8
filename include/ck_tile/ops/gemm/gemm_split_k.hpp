// SPDX-License-Identifier: MIT
// How many blocks share one output tile's K range (split-K), for any GEMM kernel: a wished-for
// count, limited so that each split keeps enough K tiles to be worth a block and no split is
// left empty.
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

} // namespace ck_tile
