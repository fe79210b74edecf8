// SPDX-License-Identifier: MIT
// CPU references for RMSNorm and LayerNorm over the last axis, in double precision: the
// answers the GPU kernels are checked against. Inputs are doubles (already decoded from
// their storage type) in row-major rows with explicit row strides.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>

namespace ck_tile {

struct reference_norm_desc
{
    std::int64_t rows = 1, cols = 1;
    std::int64_t x_stride = 1, residual_stride = 1, y_stride = 1, residual_out_stride = 1;
    double epsilon      = 1e-5;
    bool layernorm      = false;
    bool has_bias       = false;
    bool fused_residual = false;
};

/// h = fused ? round_x(x + r) : x; y = (h - mean) * rstd * w (+ b), where mean is 0 for
/// RMSNorm and rstd = 1 / sqrt(var + eps) (LayerNorm, population variance) or
/// 1 / sqrt(mean(h^2) + eps) (RMSNorm). `round_x` rounds to the storage type of x (the
/// kernels normalize the rounded sum they write). residual, residual_out, bias, mean and rstd
/// may be null when not used.
/// @post every y (and residual_out, mean, rstd) element of every row written once.
inline void reference_norm(const reference_norm_desc& d, const double* x, const double* residual,
                           const double* weight, const double* bias, double* y,
                           double* residual_out, double* mean, double* rstd,
                           const std::function<double(double)>& round_x)
{
    for(std::int64_t i = 0; i < d.rows; ++i)
    {
        auto hv = [&](std::int64_t j) {
            const double v = x[i * d.x_stride + j];
            return d.fused_residual ? round_x(v + residual[i * d.residual_stride + j]) : v;
        };
        double m = 0.0, q = 0.0;
        if(d.layernorm)
        {
            for(std::int64_t j = 0; j < d.cols; ++j)
                m += hv(j);
            m /= static_cast<double>(d.cols);
            for(std::int64_t j = 0; j < d.cols; ++j)
                q += (hv(j) - m) * (hv(j) - m);
        }
        else
            for(std::int64_t j = 0; j < d.cols; ++j)
                q += hv(j) * hv(j);
        const double r = 1.0 / std::sqrt(q / static_cast<double>(d.cols) + d.epsilon);
        for(std::int64_t j = 0; j < d.cols; ++j)
        {
            const double v = hv(j);
            if(d.fused_residual && residual_out)
                residual_out[i * d.residual_out_stride + j] = v;
            y[i * d.y_stride + j] = (v - m) * r * weight[j] + (d.has_bias ? bias[j] : 0.0);
        }
        if(mean)
            mean[i] = m;
        if(rstd)
            rstd[i] = r;
    }
}

} // namespace ck_tile
