// SPDX-License-Identifier: MIT
// Register fragments of warp-level matrix instructions, as tile distribution encodings.
//
// Every tensor-core/matrix-core instruction we use (NVIDIA mma.sync, AMD MFMA) spreads its
// operands over the lanes of one warp in the same pattern, up to the factor sizes:
//
//   A (rows M) or B (rows N), stored as rows x K:
//     rows = RowRep x RowLane             RowRep in registers, RowLane across lanes
//     K    = KRep x KLane x KVec          KVec contiguous K values in one lane's registers,
//                                         KLane across lanes, KRep in registers
//     lane = RowLane and KLane merged, row-major (NVIDIA: rows outer; AMD: K outer)
//     registers, slowest first: KRep, RowRep, KVec
//   C (M x N):
//     M    = M0 x MLane x M1              N = NLane x NVec
//     lane = MLane * NLane + NLane index; registers, slowest first: M0, M1, NVec
//
// (a factor of 1 stands for "absent": an AMD operand has no RowRep or KRep.) The encodings have
// a single P dimension, the lane; B is described as N x K like A is M x K (both K-contiguous),
// which lets a warp GEMM treat them alike and computes C = A * B^T of the stored tiles.
//
// A K loop of KIter instructions lays its fragments out in one of two orders. Since A and B
// use the same K map, any order gives the same product; they differ in what loads well:
//   atom_major       K = KIter x (atom K): iteration i's fragment is registers
//                    [i * frag, (i + 1) * frag), the atom's own layout repeated (what
//                    ldmatrix produces)
//   lane_contiguous  the KVec factor grows to KVec * KIter: each lane holds KIter times more
//                    contiguous K values (wider vector loads from shared memory); iteration i
//                    takes KVec of them from each run
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"
#include "ck_tile/core/utility/functional.hpp"

namespace ck_tile {

/// How a warp GEMM of several instructions along K lays out its fragments (file comment).
enum class warp_gemm_k_order
{
    atom_major,
    lane_contiguous
};

/// One A or B operand fragment (see the file comment for the factors).
/// @post per_lane * lanes == rows * k: every element is held by exactly one (lane, register).
template <index_t RowRep, index_t RowLane, index_t KRep, index_t KLane, index_t KVec,
          bool LaneRowMajor>
struct mma_operand_layout
{
    static constexpr index_t row_rep = RowRep, row_lane = RowLane;
    static constexpr index_t k_rep = KRep, k_lane = KLane, k_vec = KVec;
    static constexpr index_t rows     = RowRep * RowLane;
    static constexpr index_t k        = KRep * KLane * KVec;
    static constexpr index_t lanes    = RowLane * KLane;
    static constexpr index_t per_lane = KRep * RowRep * KVec;

    /// The encoding of KIter instructions along K (rows x (k * KIter)); KIter 1 is the
    /// instruction's own fragment.
    template <index_t KIter = 1, warp_gemm_k_order Order = warp_gemm_k_order::atom_major>
    using encoding = tile_distribution_encoding<
        sequence<>,
        tuple<sequence<RowRep, RowLane>,
              sequence<(Order == warp_gemm_k_order::atom_major ? KIter : 1), KRep, KLane,
                       (Order == warp_gemm_k_order::atom_major ? KVec : KVec * KIter)>>,
        std::conditional_t<LaneRowMajor, tuple<sequence<1, 2>>, tuple<sequence<2, 1>>>,
        std::conditional_t<LaneRowMajor, tuple<sequence<1, 2>>, tuple<sequence<2, 1>>>,
        sequence<2, 2, 1, 2>, sequence<0, 1, 0, 3>>;

    /// Register of a KIter fragment that holds element e of iteration i's instruction
    /// fragment. @pre 0 <= e < per_lane, 0 <= i < KIter.
    CK_TILE_HOST_DEVICE static constexpr index_t
    k_iter_register(index_t e, index_t i, index_t KIter, warp_gemm_k_order order)
    {
        return order == warp_gemm_k_order::atom_major
                   ? i * per_lane + e
                   : (e / KVec) * (KVec * KIter) + i * KVec + e % KVec;
    }
};

/// One C fragment (see the file comment for the factors).
/// @post per_lane * lanes == rows * cols.
template <index_t M0, index_t MLane, index_t M1, index_t NLane, index_t NVec>
struct mma_accumulator_layout
{
    static constexpr index_t rows     = M0 * MLane * M1;
    static constexpr index_t cols     = NLane * NVec;
    static constexpr index_t lanes    = MLane * NLane;
    static constexpr index_t per_lane = M0 * M1 * NVec;

    using encoding = tile_distribution_encoding<
        sequence<>, tuple<sequence<M0, MLane, M1>, sequence<NLane, NVec>>, tuple<sequence<1, 2>>,
        tuple<sequence<1, 0>>, sequence<1, 1, 2>, sequence<0, 2, 1>>;
};

/// (row, column) of the tile element that register `reg` of lane `lane` holds in a fragment
/// with encoding `Encoding` (one P dimension, two X dimensions). The registers are the Y
/// indices in row-major order (the distribution's Y -> D map).
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr multi_index<2> mma_fragment_coordinate(index_t lane, index_t reg)
{
    static_assert(Encoding::NDimP == 1 && Encoding::NDimX == 2,
                  "mma_fragment_coordinate: a warp fragment has one P (lane) and two Xs");
    using ys_lengths         = typename Encoding::detail::ys_lengths;
    constexpr index_t ndim_y = Encoding::NDimY;
    constexpr auto dstr      = make_static_tile_distribution(Encoding{});
    multi_index<ndim_y> ys{};
    index_t rest = reg;
    // Compile-time positions: a register array indexed at run time lives in stack memory.
    static_for<ndim_y - 1, -1, -1>{}([&](auto y) CK_TILE_FORCE_INLINE {
        ys(y) = rest % ys_lengths::at(y);
        rest /= ys_lengths::at(y);
    });
    return dstr.calculate_index(multi_index<1>{lane}, ys);
}

/// The coordinate of register 0 of `lane`: the run-time half of mma_fragment_coordinate,
/// computed once per lane. @post mma_fragment_coordinate(lane, r) ==
/// mma_fragment_lane_origin(lane) + mma_fragment_register_offset<Encoding, r>.
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr multi_index<2> mma_fragment_lane_origin(index_t lane)
{
    return mma_fragment_coordinate<Encoding>(lane, 0);
}

/// The offset of register `Reg` from its lane's origin, a compile-time constant: every X
/// digit of a warp fragment belongs either to the lane or to the register, so the two parts
/// add (test_mma_layouts checks it for every atom, lane and register; a static_assert here
/// would exceed hipcc's constexpr step limit on the 64-lane MFMA fragments).
template <typename Encoding, index_t Reg>
inline constexpr multi_index<2>
    mma_fragment_register_offset = mma_fragment_coordinate<Encoding>(0, Reg);

} // namespace ck_tile
