// SPDX-License-Identifier: MIT
// The problem half of the tile GEMM (matrix-instruction kernel): element types, operand
// layouts and the type the matrix instructions read, all compile-time. Shapes, strides and the
// epilogue's values are run-time kernel arguments (gemm_tile_kernel.hpp).
#pragma once

#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/ops/gemm/gemm_simt_problem.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// The matrix-instruction math of an operand pair. `native`: the instruction reads the stored
/// types as they are (fp16, bf16, fp8, int8). `tf32`: fp32 operands are multiplied as TF32 (10
/// mantissa bits): only when a caller asks for it; exact fp32 stays the SIMT kernel's.
enum class gemm_math
{
    native,
    tf32
};

/// D = act(alpha * A * B + beta * C + bias) with A: M x K, B: K x N, C/D: M x N.
/// ALayout/BLayout: gemm_layout::row or ::col (a tile kernel's layouts are compile-time).
template <typename ADataType_, typename BDataType_, typename DDataType_, typename AccDataType_,
          typename ALayout_, typename BLayout_, gemm_math Math_ = gemm_math::native>
struct gemm_tile_problem
{
    using ADataType                 = ADataType_;
    using BDataType                 = BDataType_;
    using DDataType                 = DDataType_; // also C's and the bias's type
    using AccDataType               = AccDataType_;
    using ALayout                   = ALayout_;
    using BLayout                   = BLayout_;
    static constexpr gemm_math Math = Math_;

    /// float for floating-point and int8 outputs (int8: alpha/beta in fp32, then rounded and
    /// saturated); double for int32 outputs so that alpha/beta scaling of 32-bit sums stays
    /// exact before rounding (the SIMT kernel's rule).
    using EpilogueType = std::conditional_t<std::is_same_v<DDataType, std::int32_t>, double, float>;

    /// A's (B's) elements are contiguous along K: the fragment loads from shared memory are then
    /// 32-bit words.
    static constexpr bool a_k_contiguous = std::is_same_v<ALayout, gemm_layout::row>;
    static constexpr bool b_k_contiguous = std::is_same_v<BLayout, gemm_layout::col>;

    static_assert(!std::is_same_v<ALayout, gemm_layout::any> &&
                      !std::is_same_v<BLayout, gemm_layout::any>,
                  "tile GEMM layouts are compile-time: row or col");
    static_assert(std::is_same_v<AccDataType, float> || std::is_same_v<AccDataType, std::int32_t>,
                  "AccDataType is float or int32_t");
    static_assert(std::is_integral_v<AccDataType> == std::is_same_v<ADataType, std::int8_t>,
                  "int8 inputs accumulate in int32, floating-point inputs in float");
    static_assert(!std::is_same_v<ADataType, float> || Math == gemm_math::tf32,
                  "fp32 operands on matrix instructions are TF32; ask for gemm_math::tf32");
    static_assert(Math == gemm_math::native || std::is_same_v<ADataType, float>,
                  "gemm_math::tf32 applies to fp32 operands only");
};

} // namespace ck_tile
