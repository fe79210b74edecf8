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
CK_TILE_HOST_DEVICE float exp_(float x) { return arch::fast_exp(x); }
CK_TILE_HOST_DEVICE double exp_(double x) { return ::exp(x); }
CK_TILE_HOST_DEVICE float exp2_(float x) { return arch::fast_exp2(x); }
CK_TILE_HOST_DEVICE double exp2_(double x) { return ::exp2(x); }
/// a / b.
CK_TILE_HOST_DEVICE float div_(float a, float b) { return a * arch::fast_rcp(b); }
CK_TILE_HOST_DEVICE double div_(double a, double b) { return a / b; }

/// x Phi(x) (Phi: the standard normal distribution) as x / (1 + 2^(x R(x^2))), the form of
/// gelu_tanh below, where R(x^2) = log2(Phi(-x) / Phi(x)) / x is even and smooth in x, so a
/// polynomial in x^2 follows it. Its coefficients are a weighted least-squares fit over
/// 0 <= x <= 5.5 (scripts/fit-gelu-erf.py) that bounds the error by 1.8e-7 |result| + 9e-8
/// (float, exact exponential and division; the special-function unit's add a few ulp). Beyond
/// 5.5, x^2 is held at 30.25: there Phi(x) rounds to 1 and x Phi(-x) lies below 1e-7. Six
/// fused multiply-adds, one exponential and one reciprocal, where the math library's erff took
/// about 40 instructions, which an epilogue of 144 accumulators a thread pays in full.
CK_TILE_HOST_DEVICE float gelu_erf_(float x)
{
    constexpr float c0 = -2.302207063183556f, c1 = -0.10483912673647727f,
                    c2 = 9.599974729944917e-05f, c3 = 1.592751375190013e-04f,
                    c4 = -1.1438107077136039e-05f, c5 = 3.842426527179126e-07f,
                    c6 = -5.193700006860541e-09f;
    const float s      = x * x < 30.25f ? x * x : 30.25f; // a NaN takes 30.25; x keeps it
    const float r      = c0 + s * (c1 + s * (c2 + s * (c3 + s * (c4 + s * (c5 + s * c6)))));
    return div_(x, 1.0f + exp2_(x * r));
}
/// 0.5 x erfc(-x / sqrt(2)): the textbook 0.5 x (1 + erf(x / sqrt(2))) without its
/// cancellation where erf is near -1.
CK_TILE_HOST_DEVICE double gelu_erf_(double x) { return 0.5 * x * ::erfc(-x * 0.7071067811865476); }
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
/// 0.5 x (1 + erf(x / sqrt(2))) = x Phi(x): in float the fit above, in double the math
/// library's erfc.
template <typename E>
CK_TILE_HOST_DEVICE E activation_gelu_erf(E x)
{
    return activation_detail::gelu_erf_(x);
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
