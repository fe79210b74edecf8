// SPDX-License-Identifier: MIT
// The problem half of the SIMT GEMM: element types, operand layouts and index width, all
// compile-time. Shapes, strides and the epilogue's values are run-time kernel arguments.
#pragma once

#include "ck_tile/core/numeric/type_convert.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// Operand layouts. `any` reads the layout from the strides at run time: one instance then
/// serves both layouts, at the price of run-time index arithmetic.
namespace gemm_layout {
struct row
{};
struct col
{};
struct any
{};
} // namespace gemm_layout

/// D = act(alpha * A * B + beta * C + bias) with A: M x K, B: K x N, C/D: M x N.
/// Element types are ck_tile's numeric types: half_t, bf16_t, fp8_t (OCP E4M3FN), bf8_t (OCP
/// E5M2), float, int8_t (A/B) and int32_t (D).
/// AccDataType: float for floating-point inputs, int32_t for int8 inputs (exact sums).
/// IndexType: int32_t when every element offset fits in 31 bits (the support check proves
/// it), int64_t otherwise.
template <typename ADataType_, typename BDataType_, typename DDataType_, typename AccDataType_,
          typename ALayout_, typename BLayout_, typename IndexType_>
struct gemm_simt_problem
{
    using ADataType   = ADataType_;
    using BDataType   = BDataType_;
    using DDataType   = DDataType_; // also C's and the bias's type
    using AccDataType = AccDataType_;
    using ALayout     = ALayout_;
    using BLayout     = BLayout_;
    using IndexType   = IndexType_;

    /// The type the epilogue computes in: double for integer outputs, so alpha/beta scaling
    /// of 32-bit sums stays exact before rounding; float otherwise.
    using EpilogueType = std::conditional_t<std::is_same_v<DDataType, std::int32_t>, double, float>;

    static_assert(std::is_same_v<IndexType, std::int32_t> ||
                      std::is_same_v<IndexType, std::int64_t>,
                  "IndexType is int32_t or int64_t");
    static_assert(std::is_same_v<AccDataType, float> || std::is_same_v<AccDataType, std::int32_t>,
                  "AccDataType is float or int32_t");
    static_assert(std::is_integral_v<AccDataType> == std::is_same_v<ADataType, std::int8_t>,
                  "int8 inputs accumulate in int32, floating-point inputs in float");
};

} // namespace ck_tile
