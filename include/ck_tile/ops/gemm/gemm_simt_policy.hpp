// SPDX-License-Identifier: MIT
// The policy half of the SIMT GEMM: how a block's tile is split into per-thread micro tiles
// and how operands are staged in shared memory.
#pragma once

#include "ck_tile/core/numeric/integer.hpp"

#include <cstddef>

namespace ck_tile {

/// A block computes BlockM x BlockN of D, stepping through K in slices of BlockK staged in
/// shared memory. Each thread owns ThreadM x ThreadN outputs, strided across the block tile
/// (row i of a thread is tm + i * (BlockM / ThreadM)) so that a warp's shared-memory reads
/// are broadcasts or consecutive words, and its global stores are consecutive along N.
/// VectorK > 1: operands stored K-contiguous (A row-major, B column-major) are read VectorK
/// elements at a time; the support check then requires that alignment.
template <index_t BlockM_, index_t BlockN_, index_t BlockK_, index_t ThreadM_, index_t ThreadN_,
          index_t VectorK_>
struct gemm_simt_policy
{
    static constexpr index_t BlockM  = BlockM_;
    static constexpr index_t BlockN  = BlockN_;
    static constexpr index_t BlockK  = BlockK_;
    static constexpr index_t ThreadM = ThreadM_;
    static constexpr index_t ThreadN = ThreadN_;
    static constexpr index_t VectorK = VectorK_;

    static constexpr index_t ThreadsM  = BlockM / ThreadM;
    static constexpr index_t ThreadsN  = BlockN / ThreadN;
    static constexpr index_t BlockSize = ThreadsM * ThreadsN;

    static_assert(BlockM % ThreadM == 0 && BlockN % ThreadN == 0,
                  "micro tiles divide the block tile");
    static_assert(BlockSize >= 32 && BlockSize <= 1024, "a block has 32..1024 threads");
    static_assert(VectorK >= 1 && BlockK % VectorK == 0, "vectors divide the K slice");

    // One padding element per shared row keeps the transposing stores of K-contiguous
    // operands off a single bank.
    static constexpr index_t LdsA = BlockM + 1;
    static constexpr index_t LdsB = BlockN + 1;

    template <typename AccDataType>
    static constexpr std::size_t shared_memory_bytes()
    {
        return sizeof(AccDataType) * static_cast<std::size_t>(BlockK) * (LdsA + LdsB);
    }
};

} // namespace ck_tile
