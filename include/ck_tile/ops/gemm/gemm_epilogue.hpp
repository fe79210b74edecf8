// SPDX-License-Identifier: MIT
// The GEMM epilogue: v = alpha * acc + beta * C + bias, then the activation, then the
// conversion to D's type. One definition for the kernels and (through the same functions) the
// documentation of what the C API's bias/activation values mean.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/ops/common/activation.hpp"

#include <cstdint>
#include <type_traits>

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

/// The activations are those of ops/common/activation.hpp (shared with the elementwise ops).
/// Activation A of x, chosen at compile time (kernels that compile one copy per activation).
template <gemm_activation A, typename E>
CK_TILE_HOST_DEVICE E apply_activation(E x)
{
    if constexpr(A == gemm_activation::relu)
        return activation_relu(x);
    else if constexpr(A == gemm_activation::gelu_tanh)
        return activation_gelu_tanh(x);
    else if constexpr(A == gemm_activation::gelu_erf)
        return activation_gelu_erf(x);
    else if constexpr(A == gemm_activation::silu)
        return activation_silu(x);
    else
        return x;
}

/// The same, chosen at run time.
template <typename E>
CK_TILE_HOST_DEVICE E apply_activation(gemm_activation act, E x)
{
    switch(act)
    {
    case gemm_activation::relu:
        return apply_activation<gemm_activation::relu>(x);
    case gemm_activation::gelu_tanh:
        return apply_activation<gemm_activation::gelu_tanh>(x);
    case gemm_activation::gelu_erf:
        return apply_activation<gemm_activation::gelu_erf>(x);
    case gemm_activation::silu:
        return apply_activation<gemm_activation::silu>(x);
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
