// SPDX-License-Identifier: MIT
// Host-callable entry points to the GEMM operand staging copies (staging_kernels.cpp is the only
// file here that the device compiler sees).
#pragma once

#include "ck_tile/ops/gemm/gemm_operand_view.hpp"
#include "ck_tile/host/hip_runtime.hpp"

namespace cktile_staging_test {

/// gemm_operand_staging::stage: `v` copied into `to` with rows on whole 128-byte lines.
ck_tile::gemm_operand_view stage(const ck_tile::gemm_operand_view& v, void* to, hipStream_t stream);

/// gemm_operand_staging::stage_transposed: `v` copied transposed into `to`.
ck_tile::gemm_operand_view stage_transposed(const ck_tile::gemm_operand_view& v, void* to,
                                            hipStream_t stream);

} // namespace cktile_staging_test
