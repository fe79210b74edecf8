// SPDX-License-Identifier: MIT
// CPU reference for the elementwise operations, in double precision, with NumPy broadcasting.
#pragma once

#include "ck_tile/ops/elementwise/elementwise_op.hpp"

#include <cstdint>
#include <stdexcept>

namespace ck_tile {

/// A strided tensor's shape on the host: `rank` axes (at most 6), outermost first; strides in
/// elements (0 repeats one element along an axis).
struct host_strided_desc
{
    int rank = 0;
    std::int64_t dims[6]{}, strides[6]{};

    std::int64_t element_count() const
    {
        std::int64_t n = 1;
        for(int d = 0; d < rank; ++d)
            n *= dims[d];
        return n;
    }
};

namespace reference_detail {
/// Offset in `t` of output index `idx` (of y's rank) under NumPy broadcasting: t's axes align
/// with y's last axes; an axis of length 1 reads its only element.
inline std::int64_t broadcast_offset(const host_strided_desc& t, const host_strided_desc& y,
                                     const std::int64_t* idx)
{
    std::int64_t off = 0;
    for(int d = 0; d < t.rank; ++d)
    {
        const int yd = y.rank - t.rank + d;
        off += (t.dims[d] == 1 ? 0 : idx[yd]) * t.strides[d];
    }
    return off;
}
/// Advances a row-major multi-index over `dims`; false after the last one.
inline bool next_index(std::int64_t* idx, const std::int64_t* dims, int rank)
{
    for(int d = rank - 1; d >= 0; --d)
    {
        if(++idx[d] < dims[d])
            return true;
        idx[d] = 0;
    }
    return false;
}
} // namespace reference_detail

/// y[i] = f(alpha * a[i]) (unary op; b ignored, may be null) or f(alpha * a[i], beta * b[i])
/// for every index i of y, a and b broadcast to y's shape (NumPy rules).
/// @pre a's and b's axes are each 1 or y's corresponding (right-aligned) axis.
inline void reference_elementwise(elementwise_op op, double alpha, double beta, const double* a,
                                  const host_strided_desc& ad, const double* b,
                                  const host_strided_desc& bd, double* y,
                                  const host_strided_desc& yd)
{
    std::int64_t idx[6] = {};
    if(yd.element_count() == 0)
        return;
    const bool binary = is_binary(op);
    const bool known  = dispatch_elementwise_op(op, [&](auto f) {
        do
        {
            const double va = alpha * a[reference_detail::broadcast_offset(ad, yd, idx)];
            const double vb =
                binary ? beta * b[reference_detail::broadcast_offset(bd, yd, idx)] : 0.0;
            y[reference_detail::broadcast_offset(yd, yd, idx)] = f(va, vb);
        } while(reference_detail::next_index(idx, yd.dims, yd.rank));
    });
    if(!known)
        throw std::invalid_argument("reference_elementwise: unknown operation");
}

} // namespace ck_tile
