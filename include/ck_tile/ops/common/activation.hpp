// SPDX-License-Identifier: MIT
// The activation functions shared by the GEMM epilogue, the elementwise kernels and their CPU
// references. Templates over the arithmetic type: the kernels instantiate them in float, the
// references in double, so a kernel and its reference evaluate the same formula.
#pragma once

#include "ck_tile/core/config.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include <math.h>
#else
#include <cmath>
#endif

namespace ck_tile {

namespace activation_detail {
CK_TILE_HOST_DEVICE float tanh_(float x) { return ::tanhf(x); }
CK_TILE_HOST_DEVICE double tanh_(double x) { return ::tanh(x); }
CK_TILE_HOST_DEVICE float erf_(float x) { return ::erff(x); }
CK_TILE_HOST_DEVICE double erf_(double x) { return ::erf(x); }
CK_TILE_HOST_DEVICE float exp_(float x) { return ::expf(x); }
CK_TILE_HOST_DEVICE double exp_(double x) { return ::exp(x); }
} // namespace activation_detail

/// max(x, 0). A NaN gives 0 (the comparison is false): the GEMM epilogue has always done so.
template <typename E>
CK_TILE_HOST_DEVICE E activation_relu(E x)
{
    return x > E(0) ? x : E(0);
}
/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
template <typename E>
CK_TILE_HOST_DEVICE E activation_gelu_tanh(E x)
{
    using activation_detail::tanh_;
    return E(0.5) * x * (E(1) + tanh_(E(0.7978845608028654) * (x + E(0.044715) * x * x * x)));
}
/// 0.5 x (1 + erf(x / sqrt(2))).
template <typename E>
CK_TILE_HOST_DEVICE E activation_gelu_erf(E x)
{
    using activation_detail::erf_;
    return E(0.5) * x * (E(1) + erf_(x * E(0.7071067811865476)));
}
/// x / (1 + exp(-x)).
template <typename E>
CK_TILE_HOST_DEVICE E activation_silu(E x)
{
    using activation_detail::exp_;
    return x / (E(1) + exp_(-x));
}
/// 1 / (1 + exp(-x)).
template <typename E>
CK_TILE_HOST_DEVICE E activation_sigmoid(E x)
{
    using activation_detail::exp_;
    return E(1) / (E(1) + exp_(-x));
}

} // namespace ck_tile
