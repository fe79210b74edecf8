// SPDX-License-Identifier: MIT
// CPU reference for the permutation of a strided tensor's axes.
#pragma once

#include "ck_tile/host/reference_elementwise.hpp"

#include <cstdint>

namespace ck_tile {

/// y[i_0, ..., i_{r-1}] = x[j] with j[perm[d]] = i_d: y's axis d is x's axis perm[d].
/// @pre perm is a permutation of 0..rank-1 and y.dims[d] == x.dims[perm[d]].
template <typename T>
void reference_permute(const T* x, const host_strided_desc& xd, const int* perm, T* y,
                       const host_strided_desc& yd)
{
    if(yd.element_count() == 0)
        return;
    std::int64_t idx[6] = {};
    do
    {
        std::int64_t xo = 0, yo = 0;
        for(int d = 0; d < yd.rank; ++d)
        {
            yo += idx[d] * yd.strides[d];
            xo += idx[d] * xd.strides[perm[d]];
        }
        y[yo] = x[xo];
    } while(reference_detail::next_index(idx, yd.dims, yd.rank));
}

} // namespace ck_tile
