// SPDX-License-Identifier: MIT
// The GEMM epilogue: v = alpha * acc + beta * C + bias, then the activation, then the
// conversion to D's type. One definition for the kernels and (through the same functions) the
// documentation of what the C API's bias/activation values mean.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

#include <cstdint>
#include <type_traits>

#if !defined(CK_TILE_PLATFORM_HOST)
#include <math.h>
#else
#include <cmath>
#endif

namespace ck_tile {

/// Values equal cktile_bias_t and cktile_activation_t of include/cktile.h.
enum class gemm_bias : int
{
    none       = 0,
    per_row    = 1,
    per_column = 2
};
enum class gemm_activation : int
{
    none      = 0,
    relu      = 1,
    gelu_tanh = 2,
    gelu_erf  = 3,
    silu      = 4
};

namespace gemm_epilogue_detail {
CK_TILE_HOST_DEVICE float tanh_(float x) { return ::tanhf(x); }
CK_TILE_HOST_DEVICE double tanh_(double x) { return ::tanh(x); }
CK_TILE_HOST_DEVICE float erf_(float x) { return ::erff(x); }
CK_TILE_HOST_DEVICE double erf_(double x) { return ::erf(x); }
CK_TILE_HOST_DEVICE float exp_(float x) { return ::expf(x); }
CK_TILE_HOST_DEVICE double exp_(double x) { return ::exp(x); }
} // namespace gemm_epilogue_detail

/// gelu_tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)));
/// gelu_erf: 0.5 x (1 + erf(x / sqrt(2))); silu: x / (1 + exp(-x)).
template <typename E>
CK_TILE_HOST_DEVICE E apply_activation(gemm_activation act, E x)
{
    using namespace gemm_epilogue_detail;
    switch(act)
    {
    case gemm_activation::relu:
        return x > E(0) ? x : E(0);
    case gemm_activation::gelu_tanh:
        return E(0.5) * x * (E(1) + tanh_(E(0.7978845608028654) * (x + E(0.044715) * x * x * x)));
    case gemm_activation::gelu_erf:
        return E(0.5) * x * (E(1) + erf_(x * E(0.7071067811865476)));
    case gemm_activation::silu:
        return x / (E(1) + exp_(-x));
    case gemm_activation::none:
    default:
        return x;
    }
}

/// Conversion of an epilogue value to D's type. fp16/bf16: round to nearest even, overflow to
/// infinity (IEEE, not saturating: an output out of range must be visible as such), NaN stays
/// NaN. Integers: NaN gives 0, values saturate to the int32 (int8) range, and halves round away
/// from zero.
template <typename D, typename E>
CK_TILE_HOST_DEVICE D convert_output(E v)
{
    if constexpr(std::is_same_v<D, float>)
        return static_cast<float>(v);
    else if constexpr(std::is_same_v<D, half_t> || std::is_same_v<D, bf16_t>)
        return type_convert<D, overflow_mode::non_saturate>(static_cast<float>(v));
    else if constexpr(std::is_same_v<D, std::int8_t>)
    {
        const float f = static_cast<float>(v);
        if(!(f == f))
            return 0;
        if(f >= 127.f)
            return 127;
        if(f <= -128.f)
            return -128;
        return static_cast<std::int8_t>(::roundf(f)); // halves away from zero
    }
    else
    {
        static_assert(std::is_same_v<D, std::int32_t>, "D is fp16, bf16, float, int8 or int32");
        const double d = static_cast<double>(v);
        if(!(d == d))
            return 0;
        if(d >= 2147483647.0)
            return 2147483647;
        if(d <= -2147483648.0)
            return -2147483647 - 1;
        return d >= 0 ? static_cast<std::int32_t>(d + 0.5) : -static_cast<std::int32_t>(-d + 0.5);
    }
}

/// The value C and the bias contribute, in the epilogue's type.
template <typename E, typename D>
CK_TILE_HOST_DEVICE E load_output_type(const D& v)
{
    if constexpr(std::is_integral_v<D>)
        return static_cast<E>(v);
    else
        return type_convert<E>(v);
}

} // namespace ck_tile
