// SPDX-License-Identifier: MIT
#include "staging_kernels.hpp"

#include "ck_tile/ops/gemm/gemm_operand_staging.hpp"

namespace cktile_staging_test {

ck_tile::gemm_operand_view stage(const ck_tile::gemm_operand_view& v, void* to, hipStream_t stream)
{
    return ck_tile::gemm_operand_staging::stage(v, to, stream);
}

ck_tile::gemm_operand_view stage_transposed(const ck_tile::gemm_operand_view& v, void* to,
                                            hipStream_t stream)
{
    return ck_tile::gemm_operand_staging::stage_transposed(v, to, stream);
}

} // namespace cktile_staging_test
