// SPDX-License-Identifier: MIT
// Which output tile a block computes. Blocks are numbered along N within groups of GroupM tile
// rows, so blocks that run at the same time share A rows and B columns in L2 instead of
// sweeping all of N before moving down.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>

namespace ck_tile {

template <index_t GroupM>
struct gemm_tile_partitioner
{
    std::int64_t tiles_m, tiles_n;

    struct tile
    {
        std::int64_t m, n; // tile coordinates (multiply by the block tile for elements)
    };

    /// @pre 0 <= block < tiles_m * tiles_n. @post a bijection onto the tiles.
    CK_TILE_HOST_DEVICE tile operator()(std::int64_t block) const
    {
        const std::int64_t per_group = GroupM * tiles_n;
        const std::int64_t group     = block / per_group;
        const std::int64_t first_m   = group * GroupM;
        const std::int64_t rows =
            tiles_m - first_m < GroupM ? tiles_m - first_m : std::int64_t(GroupM);
        const std::int64_t in_group = block % per_group;
        return {first_m + in_group % rows, in_group / rows};
    }
};

} // namespace ck_tile
