// SPDX-License-Identifier: MIT
// The activation functions shared by the GEMM epilogue, the elementwise kernels and their CPU
// references. Templates over the arithmetic type: the kernels instantiate them in float, the
// references in double, so a kernel and its reference evaluate the same formula.
#pragma once

#include "ck_tile/core/arch/fast_exp.hpp"
#include "ck_tile/core/arch/fast_rcp.hpp"
#include "ck_tile/core/config.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include <math.h>
#else
#include <cmath>
#endif

namespace ck_tile {

namespace activation_detail {
// The kernels (float) take the special-function unit's exponential and reciprocal
// (arch/fast_exp.hpp, arch/fast_rcp.hpp: a few ulp of fp32, far below the rounding of fp16 and
// bf16 outputs); the math library's accurate expf and IEEE division cost a GEMM epilogue more
// than its main loop's slack. The references (double) take the math library's.
CK_TILE_HOST_DEVICE float erf_(float x) { return ::erff(x); }
CK_TILE_HOST_DEVICE double erf_(double x) { return ::erf(x); }
CK_TILE_HOST_DEVICE float exp_(float x) { return arch::fast_exp(x); }
CK_TILE_HOST_DEVICE double exp_(double x) { return ::exp(x); }
CK_TILE_HOST_DEVICE float exp2_(float x) { return arch::fast_exp2(x); }
CK_TILE_HOST_DEVICE double exp2_(double x) { return ::exp2(x); }
/// a / b.
CK_TILE_HOST_DEVICE float div_(float a, float b) { return a * arch::fast_rcp(b); }
CK_TILE_HOST_DEVICE double div_(double a, double b) { return a / b; }
} // namespace activation_detail

/// max(x, 0). A NaN gives 0 (the comparison is false): the GEMM epilogue has always done so.
template <typename E>
CK_TILE_HOST_DEVICE E activation_relu(E x)
{
    return x > E(0) ? x : E(0);
}
/// 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), evaluated as x / (1 + exp(-2u)):
/// the same function (1 + tanh(u) = 2 / (1 + exp(-2u))), without the cancellation of
/// 1 + tanh(u) where tanh(u) is near -1 (x below about -2), and one exponential and one
/// division where tanhf's float code costs a GEMM epilogue several times the registers.
/// -2u log2(e) = x (a + b x^2) with the constants folded: a multiply, a fused multiply-add and
/// a multiply before the base-2 exponential, where the plain form took six instructions.
template <typename E>
CK_TILE_HOST_DEVICE E activation_gelu_tanh(E x)
{
    using activation_detail::div_;
    using activation_detail::exp2_;
    // a = -2 log2(e) sqrt(2/pi), b = 0.044715 a.
    constexpr E a = E(-2.302208198144325), b = E(-0.1029432395800235);
    return div_(x, E(1) + exp2_(x * (a + b * (x * x))));
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
    using activation_detail::div_;
    using activation_detail::exp_;
    return div_(x, E(1) + exp_(-x));
}
/// 1 / (1 + exp(-x)).
template <typename E>
CK_TILE_HOST_DEVICE E activation_sigmoid(E x)
{
    using activation_detail::div_;
    using activation_detail::exp_;
    return div_(E(1), E(1) + exp_(-x));
}

} // namespace ck_tile
