// SPDX-License-Identifier: MIT
// NVIDIA mma.sync atoms: shape, operand types and register fragments of each m16n8 instruction
// (PTX ISA, "Matrix Fragments for mma.m16n8k*"), and the call of its arch wrapper.
//
// All the m16n8 forms share one pattern. With g = lane / 4 ("groupID") and t = lane % 4
// ("threadID_in_group"), and v = 32 bits / element size values per register (1 tf32, 2 f16,
// 4 8-bit):
//   A (16 x 8v): row g + 8 * mh, col 4v * kh + v * t + j; registers in order (kh, mh, j)
//   B (8v x 8), stored here as N x K: n = g, k = 4v * kh + v * t + j; registers (kh, j)
//   C (16 x 8): row g + 8 * mh, col 2 * t + j; registers (mh, j)
// so in warp_gemm_fragment.hpp terms A is RowRep 2, RowLane 8, KRep 2, KLane 4, KVec v with
// lanes row-major, B the same with RowRep 1, and C is M0 2, MLane 8, M1 1, NLane 4, NVec 2.
// The tables are host-usable facts; only `run` touches the instruction.
#pragma once

#include "ck_tile/core/arch/nvidia/mma_sync.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_fragment.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// One mma.sync.aligned.m16n8k{8,16,32}.row.col instruction: C(16x8) += A(16xK) * B(Kx8),
/// K = 8 * (4 / sizeof(AType)). Type combinations: see the aliases below.
template <typename CType, typename AType, typename BType>
struct mma_sync_atom
{
    using c_type = CType;
    using a_type = AType;
    using b_type = BType;

    static_assert(sizeof(AType) == sizeof(BType), "mma.sync: A and B have one element width");
    /// Values per 32-bit register: the fragments are counted in whole registers.
    static constexpr index_t k_vec = static_cast<index_t>(4 / sizeof(AType));

    static constexpr index_t warp_size = 32;
    static constexpr index_t m         = 16;
    static constexpr index_t n         = 8;
    static constexpr index_t k         = 8 * k_vec;

    using a_layout = mma_operand_layout<2, 8, 2, 4, k_vec, true>;
    using b_layout = mma_operand_layout<1, 8, 2, 4, k_vec, true>;
    using c_layout = mma_accumulator_layout<2, 8, 1, 4, 2>;

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
    static_assert(b_layout::rows == n && b_layout::k == k && b_layout::lanes == warp_size);
    static_assert(c_layout::rows == m && c_layout::cols == n && c_layout::lanes == warp_size);

    /// c += a * b, one instruction issued by the whole warp.
    CK_TILE_DEVICE static void run(c_vector& c, const a_vector& a, const b_vector& b)
    {
        if constexpr(k == 8)
        {
            // Round to nearest (not the instruction's truncation): half the error per product.
            a_vector ar;
            b_vector br;
            static_for<0, a_per_lane, 1>{}(
                [&](auto e) CK_TILE_FORCE_INLINE { ar[e] = arch::nvidia::cvt_rna_tf32(a[e]); });
            static_for<0, b_per_lane, 1>{}(
                [&](auto e) CK_TILE_FORCE_INLINE { br[e] = arch::nvidia::cvt_rna_tf32(b[e]); });
            arch::nvidia::mma_sync_m16n8k8(c, ar, br);
        }
        else if constexpr(k == 16)
            arch::nvidia::mma_sync_m16n8k16(c, a, b);
        else
            arch::nvidia::mma_sync_m16n8k32(c, a, b);
    }
};

using mma_sync_m16n8k16_f32_f16  = mma_sync_atom<float, half_t, half_t>;
using mma_sync_m16n8k16_f16_f16  = mma_sync_atom<half_t, half_t, half_t>;
using mma_sync_m16n8k16_f32_bf16 = mma_sync_atom<float, bf16_t, bf16_t>;
/// float operands are multiplied as tf32: run() rounds them to nearest tf32 first.
using mma_sync_m16n8k8_f32_tf32      = mma_sync_atom<float, float, float>;
using mma_sync_m16n8k32_s32_s8s8     = mma_sync_atom<int32_t, int8_t, int8_t>;
using mma_sync_m16n8k32_s32_s8u8     = mma_sync_atom<int32_t, int8_t, uint8_t>;
using mma_sync_m16n8k32_s32_u8s8     = mma_sync_atom<int32_t, uint8_t, int8_t>;
using mma_sync_m16n8k32_s32_u8u8     = mma_sync_atom<int32_t, uint8_t, uint8_t>;
using mma_sync_m16n8k32_f32_e4m3e4m3 = mma_sync_atom<float, fp8_t, fp8_t>;
using mma_sync_m16n8k32_f32_e4m3e5m2 = mma_sync_atom<float, fp8_t, bf8_t>;
using mma_sync_m16n8k32_f32_e5m2e4m3 = mma_sync_atom<float, bf8_t, fp8_t>;
using mma_sync_m16n8k32_f32_e5m2e5m2 = mma_sync_atom<float, bf8_t, bf8_t>;

} // namespace ck_tile
