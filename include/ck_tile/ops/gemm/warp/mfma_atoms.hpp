// SPDX-License-Identifier: MIT
// AMD MFMA atoms (single-block forms, wave64): shape, operand types and register fragments of
// each instruction (AMD CDNA2/CDNA3 ISA, matrix instruction register layouts), and the call
// of its arch wrapper.
//
// For an MN x MN x K instruction, with KLane = 64 / MN lane groups and v = K / KLane values
// per lane:
//   A (MN x K): row l % MN, col v * (l / MN) + j; registers j      (B alike, stored N x K)
//   C (MN x MN), MN = 32: row 8 * (r / 4) + 4 * (l / 32) + r % 4, col l % 32; 16 registers
//   C (MN x MN), MN = 16: row 4 * (l / 16) + r, col l % 16; 4 registers
// In warp_gemm_fragment.hpp terms A and B are RowRep 1, RowLane MN, KRep 1, KLane, KVec v with
// lanes K-major (the row index is the fast part of the lane), and C is M0 x MLane x M1 =
// 4 x 2 x 4 (MN 32) or 1 x 4 x 4 (MN 16), NLane MN, NVec 1.
// Which instruction exists on which target: core/arch/amd/mfma.hpp.
#pragma once

#include "ck_tile/core/arch/amd/mfma.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_fragment.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// One v_mfma instruction: C(MN x MN) += A(MN x K) * B(K x MN). MN is 32 or 16.
template <typename CType, typename AType, typename BType, index_t MN, index_t K>
struct mfma_atom
{
    using c_type = CType;
    using a_type = AType;
    using b_type = BType;

    static_assert(MN == 32 || MN == 16, "mfma atoms are 32x32 or 16x16 single-block forms");

    static constexpr index_t warp_size = 64;
    static constexpr index_t m         = MN;
    static constexpr index_t n         = MN;
    static constexpr index_t k         = K;
    static constexpr index_t k_lane    = warp_size / MN;
    static constexpr index_t k_vec     = K / k_lane;
    static_assert(k_vec * k_lane == K, "mfma: K is a multiple of the lane groups");

    using a_layout = mma_operand_layout<1, MN, 1, k_lane, k_vec, false>;
    using b_layout = mma_operand_layout<1, MN, 1, k_lane, k_vec, false>;
    using c_layout = std::conditional_t<MN == 32, mma_accumulator_layout<4, 2, 4, 32, 1>,
                                        mma_accumulator_layout<1, 4, 4, 16, 1>>;

    using a_encoding = typename a_layout::template encoding<>;
    using b_encoding = typename b_layout::template encoding<>;
    using c_encoding = typename c_layout::encoding;

    static constexpr index_t a_per_lane = a_layout::per_lane;
    static constexpr index_t b_per_lane = b_layout::per_lane;
    static constexpr index_t c_per_lane = c_layout::per_lane;

    using a_vector = ext_vector<AType, a_per_lane>;
    using b_vector = ext_vector<BType, b_per_lane>;
    using c_vector = ext_vector<CType, c_per_lane>;

    static_assert(a_layout::rows == m && a_layout::k == k && a_layout::lanes == warp_size);
    static_assert(c_layout::rows == m && c_layout::cols == n && c_layout::lanes == warp_size);

    /// c += a * b, one instruction issued by the whole wavefront.
    CK_TILE_DEVICE static void run(c_vector& c, const a_vector& a, const b_vector& b)
    {
        if constexpr(MN == 32 && K == 8)
            arch::amd::mfma_32x32x8(c, a, b);
        else if constexpr(MN == 16 && K == 16)
            arch::amd::mfma_16x16x16(c, a, b);
        else if constexpr(MN == 32 && K == 2)
            arch::amd::mfma_32x32x2(c, a, b);
        else if constexpr(MN == 16 && K == 4)
            arch::amd::mfma_16x16x4(c, a, b);
        else if constexpr(MN == 32 && K == 16)
            arch::amd::mfma_32x32x16(c, a, b);
        else if constexpr(MN == 16 && K == 32)
            arch::amd::mfma_16x16x32(c, a, b);
        else
            static_assert(MN == 0, "mfma: no instruction of this shape");
    }
};

// gfx90a and gfx940.
using mfma_32x32x8_f32_f16   = mfma_atom<float, half_t, half_t, 32, 8>;
using mfma_16x16x16_f32_f16  = mfma_atom<float, half_t, half_t, 16, 16>;
using mfma_32x32x8_f32_bf16  = mfma_atom<float, bf16_t, bf16_t, 32, 8>;
using mfma_16x16x16_f32_bf16 = mfma_atom<float, bf16_t, bf16_t, 16, 16>;
using mfma_32x32x2_f32_f32   = mfma_atom<float, float, float, 32, 2>;
using mfma_16x16x4_f32_f32   = mfma_atom<float, float, float, 16, 4>;
// gfx90a only.
using mfma_32x32x8_i32_i8  = mfma_atom<int32_t, int8_t, int8_t, 32, 8>;
using mfma_16x16x16_i32_i8 = mfma_atom<int32_t, int8_t, int8_t, 16, 16>;
// gfx940 only. The 8-bit float operands are read as FNUZ (core/arch/amd/mfma.hpp).
using mfma_32x32x16_i32_i8     = mfma_atom<int32_t, int8_t, int8_t, 32, 16>;
using mfma_16x16x32_i32_i8     = mfma_atom<int32_t, int8_t, int8_t, 16, 32>;
using mfma_32x32x16_f32_fp8fp8 = mfma_atom<float, fp8_t, fp8_t, 32, 16>;
using mfma_32x32x16_f32_fp8bf8 = mfma_atom<float, fp8_t, bf8_t, 32, 16>;
using mfma_32x32x16_f32_bf8fp8 = mfma_atom<float, bf8_t, fp8_t, 32, 16>;
using mfma_32x32x16_f32_bf8bf8 = mfma_atom<float, bf8_t, bf8_t, 32, 16>;
using mfma_16x16x32_f32_fp8fp8 = mfma_atom<float, fp8_t, fp8_t, 16, 32>;
using mfma_16x16x32_f32_fp8bf8 = mfma_atom<float, fp8_t, bf8_t, 16, 32>;
using mfma_16x16x32_f32_bf8fp8 = mfma_atom<float, bf8_t, fp8_t, 16, 32>;
using mfma_16x16x32_f32_bf8bf8 = mfma_atom<float, bf8_t, bf8_t, 16, 32>;

} // namespace ck_tile
