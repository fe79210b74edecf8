// SPDX-License-Identifier: MIT
// How a C API reduction problem maps onto the reduce kernels' canonical description. Host-only
// and header-only, so the kernel libraries and libcktile.so agree by construction.
#pragma once

#include "cktile.h"
#include "ck_tile/ops/reduce/reduce_problem.hpp"

namespace cktile::library {

/// @pre the problem passed cktile_reduce_validate. `args` may be null (shape-only queries).
inline ck_tile::reduce_host_args to_reduce_host_args(const cktile_reduce_problem_t& p,
                                                     const cktile_reduce_args_t* args)
{
    ck_tile::long_index_t dims[CKTILE_REDUCE_MAX_RANK], xs[CKTILE_REDUCE_MAX_RANK],
        ys[CKTILE_REDUCE_MAX_RANK];
    for(int a = 0; a < p.rank; ++a)
    {
        dims[a] = p.dims[a];
        xs[a]   = p.x_strides[a];
        ys[a]   = p.y_strides[a];
    }
    auto h = ck_tile::make_reduce_host_args(static_cast<ck_tile::reduce_op>(p.op), p.rank, dims, xs,
                                            ys, p.reduce_mask);
    if(args)
    {
        h.x = args->x;
        h.y = args->y;
    }
    return h;
}

} // namespace cktile::library
