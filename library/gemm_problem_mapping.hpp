// SPDX-License-Identifier: MIT
// How a C API GEMM problem maps onto the kernels' host description: per-dimension element
// strides derived from layouts and leading dimensions. Host-only and header-only, so the
// kernel libraries (device compiler) and libcktile.so (host compiler) agree by construction.
#pragma once

#include "cktile.h"
#include "ck_tile/ops/gemm/gemm_simt_kernel.hpp"

namespace cktile::library {

static_assert(int(ck_tile::gemm_multi_d_op::add) == CKTILE_MULTI_D_ADD &&
                  int(ck_tile::gemm_multi_d_op::multiply) == CKTILE_MULTI_D_MUL &&
                  int(ck_tile::gemm_multi_d_op::add_multiply) == CKTILE_MULTI_D_ADD_MUL &&
                  int(ck_tile::gemm_multi_d_op::multiply_add) == CKTILE_MULTI_D_MUL_ADD,
              "gemm_multi_d_op mirrors cktile_multi_d_op_t");

/// @pre the problem passed cktile_gemm_validate. `args` may be null (shape-only queries).
inline ck_tile::gemm_simt_host_args to_host_args(const cktile_gemm_problem_t& p,
                                                 const cktile_gemm_args_t* args)
{
    const bool a_row = p.a_layout == CKTILE_LAYOUT_ROW_MAJOR;
    const bool b_row = p.b_layout == CKTILE_LAYOUT_ROW_MAJOR;
    const bool c_row = p.c_layout == CKTILE_LAYOUT_ROW_MAJOR;
    const bool d_row = p.d_layout == CKTILE_LAYOUT_ROW_MAJOR;
    ck_tile::gemm_simt_host_args h;
    if(args)
    {
        h.a    = args->a;
        h.b    = args->b;
        h.c    = args->c;
        h.bias = args->bias;
        h.d    = args->d;
        // libcktile passes its complete struct (validate_gemm_args), scales included.
        h.scale_a = args->scale_a;
        h.scale_b = args->scale_b;
        h.scale_d = args->scale_d;
    }
    h.m = p.m, h.n = p.n, h.k = p.k;
    h.a_stride_m = a_row ? p.lda : 1, h.a_stride_k = a_row ? 1 : p.lda;
    h.b_stride_k = b_row ? p.ldb : 1, h.b_stride_n = b_row ? 1 : p.ldb;
    h.c_stride_m = c_row ? p.ldc : 1, h.c_stride_n = c_row ? 1 : p.ldc;
    h.d_stride_m = d_row ? p.ldd : 1, h.d_stride_n = d_row ? 1 : p.ldd;
    h.batch_count       = p.batch_count;
    h.batch_stride_a    = p.batch_count > 1 ? p.stride_a : 0;
    h.batch_stride_b    = p.batch_count > 1 ? p.stride_b : 0;
    h.batch_stride_c    = p.batch_count > 1 ? p.stride_c : 0;
    h.batch_stride_d    = p.batch_count > 1 ? p.stride_d : 0;
    h.batch_stride_bias = p.batch_count > 1 ? p.stride_bias : 0;
    h.alpha             = p.alpha;
    h.beta              = p.beta;
    h.bias_kind         = static_cast<ck_tile::gemm_bias>(p.bias);
    h.activation        = static_cast<ck_tile::gemm_activation>(p.activation);
    // Extra inputs: only the ones the operation reads are described (the others stay null).
    h.multi_d.op                = static_cast<ck_tile::gemm_multi_d_op>(p.multi_d_op);
    h.multi_d.before_activation = p.multi_d_point == CKTILE_MULTI_D_BEFORE_ACTIVATION;
    const int extras            = ck_tile::multi_d_inputs(h.multi_d.op);
    auto extra = [&](ck_tile::gemm_multi_d_tensor& x, const void* ptr, cktile_datatype_t type,
                     cktile_layout_t layout, std::int64_t ld, std::int64_t stride) {
        const bool row = layout == CKTILE_LAYOUT_ROW_MAJOR;
        x.p            = ptr;
        x.stride_m = row ? ld : 1, x.stride_n = row ? 1 : ld;
        x.batch_stride = p.batch_count > 1 ? stride : 0;
        x.fp32         = type == CKTILE_DATATYPE_FP32;
    };
    if(extras >= 1)
        extra(h.multi_d.d0, args ? args->d0 : nullptr, p.d0_type, p.d0_layout, p.ldd0, p.stride_d0);
    if(extras >= 2)
        extra(h.multi_d.d1, args ? args->d1 : nullptr, p.d1_type, p.d1_layout, p.ldd1, p.stride_d1);
    return h;
}

} // namespace cktile::library
