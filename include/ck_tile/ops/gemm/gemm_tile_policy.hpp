// SPDX-License-Identifier: MIT
// The policy half of the tile GEMM: the block tile and its warp grid, the matrix instruction
// (a warp_gemm over the platform's atom), the XOR-swizzled shared-memory layout of each
// operand, how global memory is read (vector width, asynchronous copies) and the schedule.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_tile_problem.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// How warps share a K loop (seed 004, "intrawave and interwave scheduling").
/// intrawave: each warp runs through the whole K slice of a stage on its own; the hardware
/// interleaves the warps' independent instructions (compute-bound shapes).
/// interwave: the K slice is cut into chunks and all warps finish one chunk before any starts
/// the next, so their shared-memory and global accesses move together (memory-bound shapes).
enum class gemm_schedule
{
    intrawave,
    interwave
};

/// The matrix instruction for (A, B, Acc, math) on a platform with `WarpSize` lanes: mma.sync
/// m16n8 on NVIDIA (32), MFMA 32x32 on AMD (64).
template <typename A, typename B, typename Acc, gemm_math Math, index_t WarpSize>
struct gemm_tile_atom;
template <typename A, typename B, typename Acc, gemm_math Math>
struct gemm_tile_atom<A, B, Acc, Math, 32>
{
    using type = mma_sync_atom<Acc, A, B>; // float x float is the tf32 instruction
};
template <typename A, typename B, typename Acc, gemm_math Math>
struct gemm_tile_atom<A, B, Acc, Math, 64>
{
    static constexpr index_t k = std::is_same_v<A, float> ? 2 : sizeof(A) == 1 ? 16 : 8;
    using type                 = mfma_atom<Acc, A, B, 32, (std::is_same_v<A, std::int8_t> ? 8 : k)>;
};

/// An Outer x Inner shared-memory tile of T, Inner contiguous, stored as 16-byte vectors whose
/// column is XORed with the row (lds_xor_swizzle.hpp's lds_index_swapping, MLdsLayer logical
/// rows per 128-byte physical row): a warp reading one vector column of consecutive rows, or
/// one 32-bit word from each of 8 rows x 4 columns (an mma fragment), touches every bank once.
/// @post offset() is a bijection of [0, Outer) x [0, Inner) onto [0, Outer * Inner) and keeps
///       each aligned 16-byte vector contiguous.
template <typename T, index_t Outer, index_t Inner>
struct gemm_lds_tile
{
    static constexpr index_t pack      = static_cast<index_t>(16 / sizeof(T));
    static constexpr index_t row_bytes = Inner * static_cast<index_t>(sizeof(T));
    static constexpr index_t layer     = row_bytes >= 128 ? 1 : 128 / row_bytes; // MLdsLayer
    static constexpr index_t vectors   = Inner / pack;
    static constexpr index_t line      = vectors * layer; // vectors per physical row
    static constexpr index_t elements  = Outer * Inner;
    static constexpr std::size_t bytes = sizeof(T) * static_cast<std::size_t>(elements);
    static_assert(Inner % pack == 0 && Outer % layer == 0, "gemm_lds_tile: whole vectors, rows");
    static_assert((line & (line - 1)) == 0, "gemm_lds_tile: a power-of-two row of vectors");

    CK_TILE_HOST_DEVICE static constexpr index_t offset(index_t outer, index_t inner)
    {
        const index_t row = outer / layer;
        const index_t col = (outer % layer) * vectors + inner / pack;
        return row * (Inner * layer) + ((col ^ (row % line)) * pack) + inner % pack;
    }
};

/// BlockM x BlockN x BlockK per block, WarpsM x WarpsN warps each computing a
/// (BlockM / WarpsM) x (BlockN / WarpsN) warp tile, Stages shared-memory buffers in flight,
/// global reads of VectorBytes (16: asynchronous copies on NVIDIA; smaller for leading
/// dimensions that are not multiples of 16 bytes, through registers).
template <index_t BlockM_, index_t BlockN_, index_t BlockK_, index_t WarpsM_, index_t WarpsN_,
          index_t Stages_, gemm_schedule Schedule_, index_t VectorBytes_ = 16>
struct gemm_tile_policy
{
    static constexpr index_t BlockM = BlockM_, BlockN = BlockN_, BlockK = BlockK_;
    static constexpr index_t WarpsM = WarpsM_, WarpsN = WarpsN_;
    static constexpr index_t Stages         = Stages_;
    static constexpr gemm_schedule Schedule = Schedule_;
    static constexpr index_t VectorBytes    = VectorBytes_;
    static constexpr index_t WarpSize       = get_warp_size();
    static constexpr index_t BlockSize      = WarpsM * WarpsN * WarpSize;
    static constexpr index_t WarpTileM      = BlockM / WarpsM;
    static constexpr index_t WarpTileN      = BlockN / WarpsN;
    /// Interwave: warps meet at a barrier after every chunk of this many K elements.
    static constexpr index_t InterwaveChunks = 2;
    static constexpr index_t GroupM          = 8; // tile rows per L2 group (partitioner)

    static_assert(BlockM % WarpsM == 0 && BlockN % WarpsN == 0, "warps divide the block tile");
    static_assert(Stages >= 2 && Stages <= 4, "2..4 shared-memory stages");
    static_assert(VectorBytes == 16 || VectorBytes == 8 || VectorBytes == 4 || VectorBytes == 2 ||
                      VectorBytes == 1,
                  "global vectors of 1, 2, 4, 8 or 16 bytes");

    template <typename Problem>
    struct of
    {
        using A           = typename Problem::ADataType;
        using B           = typename Problem::BDataType;
        using Acc         = typename Problem::AccDataType;
        using atom        = typename gemm_tile_atom<A, B, Acc, Problem::Math, WarpSize>::type;
        using warp_gemm_t = warp_gemm<atom, 1>;

        static constexpr index_t MIter  = WarpTileM / atom::m;
        static constexpr index_t NIter  = WarpTileN / atom::n;
        static constexpr index_t KSteps = BlockK / atom::k;
        static_assert(WarpTileM % atom::m == 0 && WarpTileN % atom::n == 0 && BlockK % atom::k == 0,
                      "the warp tile and BlockK are whole matrix instructions");
        static_assert(Schedule == gemm_schedule::intrawave || KSteps % InterwaveChunks == 0,
                      "interwave: BlockK splits into whole chunks of instructions");

        /// Shared tiles: K-contiguous operands as rows x K, the others as K x rows, so that
        /// global vectors land whole in shared memory.
        using a_lds = std::conditional_t<Problem::a_k_contiguous, gemm_lds_tile<A, BlockM, BlockK>,
                                         gemm_lds_tile<A, BlockK, BlockM>>;
        using b_lds = std::conditional_t<Problem::b_k_contiguous, gemm_lds_tile<B, BlockN, BlockK>,
                                         gemm_lds_tile<B, BlockK, BlockN>>;
        static constexpr std::size_t a_stage_bytes       = a_lds::bytes;
        static constexpr std::size_t b_stage_bytes       = b_lds::bytes;
        static constexpr std::size_t shared_memory_bytes = Stages * (a_stage_bytes + b_stage_bytes);

        /// Elements per global read: the alignment pointers and leading dimensions must have.
        static constexpr index_t vector_a = VectorBytes / static_cast<index_t>(sizeof(A)) > 0
                                                ? VectorBytes / static_cast<index_t>(sizeof(A))
                                                : 1;
        static constexpr index_t vector_b = VectorBytes / static_cast<index_t>(sizeof(B)) > 0
                                                ? VectorBytes / static_cast<index_t>(sizeof(B))
                                                : 1;
        /// Asynchronous copies need whole 16-byte vectors; AMD reads through registers.
        static constexpr bool async_copy = WarpSize == 32 && VectorBytes == 16;
    };
};

} // namespace ck_tile
