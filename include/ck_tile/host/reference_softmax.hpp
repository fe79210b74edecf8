// SPDX-License-Identifier: MIT
// CPU reference for softmax over the last axis, in double precision.
#pragma once

#include <cmath>
#include <cstdint>

namespace ck_tile {

/// y[i, j] = exp(x[i, j] - max_i) / sum_j exp(x[i, j] - max_i).
/// Non-finite inputs follow the formula (as PyTorch does): a NaN anywhere in a row, a row of
/// all -inf, or a +inf in a row makes every element of that row NaN (except that with a +inf
/// the other finite elements would be 0 / NaN = NaN too).
inline void reference_softmax(std::int64_t rows, std::int64_t cols, const double* x,
                              std::int64_t x_stride, double* y, std::int64_t y_stride)
{
    for(std::int64_t i = 0; i < rows; ++i)
    {
        const double* xr = x + i * x_stride;
        double m         = xr[0];
        for(std::int64_t j = 1; j < cols; ++j)
            m = (std::isnan(m) || std::isnan(xr[j])) ? m + xr[j] : std::fmax(m, xr[j]);
        double s = 0.0;
        for(std::int64_t j = 0; j < cols; ++j)
            s += std::exp(xr[j] - m);
        for(std::int64_t j = 0; j < cols; ++j)
            y[i * y_stride + j] = std::exp(xr[j] - m) / s;
    }
}

} // namespace ck_tile
