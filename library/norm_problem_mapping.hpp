// SPDX-License-Identifier: MIT
// How a C API normalization problem maps onto norm_kernel's host description. Host-only and
// header-only, so the kernel libraries and libcktile.so agree by construction.
#pragma once

#include "cktile.h"
#include "ck_tile/ops/norm/norm_kernel.hpp"

namespace cktile::library {

/// @pre the problem passed cktile_norm_validate. `args` may be null (shape-only queries).
inline ck_tile::norm_host_args to_norm_host_args(const cktile_norm_problem_t& p,
                                                 const cktile_norm_args_t* args)
{
    ck_tile::norm_host_args h;
    if(args)
    {
        h.x            = args->x;
        h.residual     = args->residual;
        h.weight       = args->weight;
        h.bias         = args->bias;
        h.y            = args->y;
        h.residual_out = args->residual_out;
        h.mean         = args->mean;
        h.rstd         = args->rstd;
    }
    h.rows                = p.rows;
    h.cols                = p.cols;
    h.x_stride            = p.x_stride;
    h.y_stride            = p.y_stride;
    h.residual_stride     = p.fused_residual ? p.residual_stride : 0;
    h.residual_out_stride = p.fused_residual ? p.residual_out_stride : 0;
    h.epsilon             = static_cast<float>(p.epsilon);
    h.layernorm           = p.kind == CKTILE_NORM_LAYERNORM;
    h.has_bias            = p.has_bias != 0;
    h.fused_residual      = p.fused_residual != 0;
    h.save_statistics     = p.save_statistics != 0;
    return h;
}

} // namespace cktile::library
