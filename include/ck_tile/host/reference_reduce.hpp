// SPDX-License-Identifier: MIT
// CPU reference for reductions of a strided tensor over any set of its axes, in double
// precision. Independent of the kernels' canonical form: it walks the tensor as given.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ck_tile {

enum class reference_reduce_op
{
    sum,
    max,
    min,
    mean,
    sum_squares
};

/// y[kept index] = op over the reduced axes of x. `dims`, `x_strides` and `y_strides` have
/// `rank` (1..6) entries; bit i of `reduce_mask` reduces axis i; y_strides of reduced axes are
/// ignored (their index is 0 in y). max/min propagate NaN (a NaN in the group gives NaN).
/// @throws std::invalid_argument for an empty reduction (a dimension of 0, no axis reduced).
inline void reference_reduce(reference_reduce_op op, int rank, const std::int64_t* dims,
                             const double* x, const std::int64_t* x_strides, unsigned reduce_mask,
                             double* y, const std::int64_t* y_strides)
{
    if(rank < 1 || rank > 6)
        throw std::invalid_argument("reference_reduce: rank must be 1..6");
    if((reduce_mask & ((1u << rank) - 1)) == 0 || (reduce_mask >> rank) != 0)
        throw std::invalid_argument("reference_reduce: reduce no axis, or an axis >= rank");
    std::int64_t kept = 1, reduced = 1;
    for(int a = 0; a < rank; ++a)
    {
        if(dims[a] < 1)
            throw std::invalid_argument("reference_reduce: empty dimension");
        ((reduce_mask >> a) & 1u ? reduced : kept) *= dims[a];
    }
    // Walk every kept index; for each, every reduced index (last axis fastest in both).
    auto decode = [&](std::int64_t n, bool want_reduced, std::int64_t& xo, std::int64_t& yo) {
        xo = yo = 0;
        for(int a = rank - 1; a >= 0; --a)
        {
            if((((reduce_mask >> a) & 1u) != 0) != want_reduced)
                continue;
            const std::int64_t i = n % dims[a];
            n /= dims[a];
            xo += i * x_strides[a];
            if(!want_reduced)
                yo += i * y_strides[a];
        }
    };
    for(std::int64_t k = 0; k < kept; ++k)
    {
        std::int64_t xk = 0, yk = 0;
        decode(k, false, xk, yk);
        double acc = op == reference_reduce_op::max   ? -std::numeric_limits<double>::infinity()
                     : op == reference_reduce_op::min ? std::numeric_limits<double>::infinity()
                                                      : 0.0;
        for(std::int64_t r = 0; r < reduced; ++r)
        {
            std::int64_t xr = 0, unused = 0;
            decode(r, true, xr, unused);
            const double v = x[xk + xr];
            switch(op)
            {
            case reference_reduce_op::max:
                acc = (std::isnan(acc) || std::isnan(v)) ? acc + v : std::fmax(acc, v);
                break;
            case reference_reduce_op::min:
                acc = (std::isnan(acc) || std::isnan(v)) ? acc + v : std::fmin(acc, v);
                break;
            case reference_reduce_op::sum_squares:
                acc += v * v;
                break;
            default:
                acc += v;
                break;
            }
        }
        y[yk] = op == reference_reduce_op::mean ? acc / static_cast<double>(reduced) : acc;
    }
}

} // namespace ck_tile
