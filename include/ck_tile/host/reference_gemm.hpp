// SPDX-License-Identifier: MIT
// A CPU reference GEMM in double precision, multi-threaded over rows: the answer GPU GEMMs are
// checked against. Operands are given as doubles with explicit element strides, so one
// function covers every layout, leading dimension and batch stride.
#pragma once

#include "ck_tile/ops/gemm/gemm_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_multi_d.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace ck_tile {

/// D[b](i, j) = act(alpha * sum_k A[b](i, k) B[b](k, j) + beta * C[b](i, j) + bias), with
/// X[b](i, j) = x[b * batch_stride + i * stride_row + j * stride_col]. C is not read when
/// beta == 0 (BLAS convention), the bias only when bias_kind != none. With a multi_d_op, the
/// extra inputs D0 and D1 combine after (or, with multi_d_before_activation, before) the
/// activation, through the same functors as the kernels (gemm_multi_d.hpp).
struct reference_gemm_desc
{
    std::int64_t m = 1, n = 1, k = 1, batch = 1;
    std::int64_t a_row = 0, a_col = 0, a_batch = 0; // A is m x k
    std::int64_t b_row = 0, b_col = 0, b_batch = 0; // B is k x n
    std::int64_t c_row = 0, c_col = 0, c_batch = 0;
    std::int64_t d_row = 0, d_col = 0, d_batch = 0;
    std::int64_t bias_batch = 0;
    double alpha = 1.0, beta = 0.0;
    gemm_bias bias_kind            = gemm_bias::none;
    gemm_activation activation     = gemm_activation::none;
    gemm_multi_d_op multi_d_op     = gemm_multi_d_op::none;
    bool multi_d_before_activation = false;
    const double* d0               = nullptr; // read only as far as multi_d_op needs
    const double* d1               = nullptr;
    std::int64_t d0_row = 0, d0_col = 0, d0_batch = 0;
    std::int64_t d1_row = 0, d1_col = 0, d1_batch = 0;
};

/// Writes every D element of every batch exactly once. `threads` 0 means all hardware threads.
inline void reference_gemm(const reference_gemm_desc& g, const double* a, const double* b,
                           const double* c, const double* bias, double* d, unsigned threads = 0)
{
    if(threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    const std::int64_t rows = g.batch * g.m;
    threads                 = static_cast<unsigned>(std::min<std::int64_t>(threads, rows));
    auto work               = [&](std::int64_t first, std::int64_t last) {
        for(std::int64_t r = first; r < last; ++r)
        {
            const std::int64_t bi = r / g.m, i = r % g.m;
            for(std::int64_t j = 0; j < g.n; ++j)
            {
                double acc = 0;
                for(std::int64_t kk = 0; kk < g.k; ++kk)
                    acc += a[bi * g.a_batch + i * g.a_row + kk * g.a_col] *
                           b[bi * g.b_batch + kk * g.b_row + j * g.b_col];
                double v = g.alpha * acc;
                if(g.beta != 0.0)
                    v += g.beta * c[bi * g.c_batch + i * g.c_row + j * g.c_col];
                if(g.bias_kind == gemm_bias::per_row)
                    v += bias[bi * g.bias_batch + i];
                else if(g.bias_kind == gemm_bias::per_column)
                    v += bias[bi * g.bias_batch + j];
                const auto combine = [&](double x) {
                    return combine_multi_d(
                                      g.multi_d_op, x,
                                      [&] { return g.d0[bi * g.d0_batch + i * g.d0_row + j * g.d0_col]; },
                                      [&] { return g.d1[bi * g.d1_batch + i * g.d1_row + j * g.d1_col]; });
                };
                if(g.multi_d_before_activation)
                    v = combine(v);
                v = apply_activation(g.activation, v);
                if(!g.multi_d_before_activation)
                    v = combine(v);
                d[bi * g.d_batch + i * g.d_row + j * g.d_col] = v;
            }
        }
    };
    std::vector<std::thread> pool;
    const std::int64_t chunk = (rows + threads - 1) / threads;
    for(unsigned t = 0; t < threads; ++t)
    {
        const std::int64_t first = t * chunk, last = std::min(rows, first + chunk);
        if(first < last)
            pool.emplace_back(work, first, last);
    }
    for(auto& th : pool)
        th.join();
}

} // namespace ck_tile
