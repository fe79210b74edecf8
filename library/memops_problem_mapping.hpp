// SPDX-License-Identifier: MIT
// From the C API's elementwise and permute problems to the kernels' coalesced iteration
// space (ck_tile::strided_space). Used by the instance adapters and by libcktile.so's
// selection model, so both see the same shape.
#pragma once

#include "cktile.h"

#include "ck_tile/ops/elementwise/strided_space.hpp"

namespace cktile::library {

/// Tensor 0 = y, 1 = a, 2 = b (strides 0 for unary operations); inputs broadcast to y's axes
/// (NumPy: right-aligned, length-1 axes repeat). Coalesced.
/// @pre the problem passed cktile_elementwise_validate.
inline ck_tile::strided_space<3> elementwise_space(const cktile_elementwise_problem_t& p)
{
    ck_tile::strided_space<3> s;
    s.rank                             = p.y.rank;
    const cktile_tensor_desc_t* ins[2] = {&p.a, static_cast<int>(p.op) > 100 ? &p.b : nullptr};
    for(int d = 0; d < p.y.rank; ++d)
    {
        s.lengths[d]    = p.y.dims[d];
        s.strides[0][d] = p.y.strides[d];
        for(int t = 0; t < 2; ++t)
        {
            const cktile_tensor_desc_t* in = ins[t];
            const int id                   = in ? d - (p.y.rank - in->rank) : -1;
            s.strides[t + 1][d]            = (id >= 0 && in->dims[id] != 1) ? in->strides[id] : 0;
        }
    }
    s.coalesce();
    return s;
}

/// Tensor 0 = y, 1 = x seen in y's axis order (x's strides permuted). Coalesced.
/// @pre the problem passed cktile_permute_validate.
inline ck_tile::strided_space<2> permute_space(const cktile_permute_problem_t& p)
{
    ck_tile::strided_space<2> s;
    s.rank = p.y.rank;
    for(int d = 0; d < p.y.rank; ++d)
    {
        s.lengths[d]    = p.y.dims[d];
        s.strides[0][d] = p.y.strides[d];
        s.strides[1][d] = p.x.strides[p.perm[d]];
    }
    s.coalesce();
    return s;
}

} // namespace cktile::library
