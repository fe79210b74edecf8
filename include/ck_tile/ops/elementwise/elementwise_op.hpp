// SPDX-License-Identifier: MIT
// The elementwise operations: y = f(alpha * a) for unary f, y = f(alpha * a, beta * b) for
// binary f, evaluated in the compute type (float in the kernels, double in the references).
// One functor per operation, so a kernel instantiates its inner loop once per operation (the
// operation is chosen once per launch, not per element).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/ops/common/activation.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include <math.h>
#else
#include <cmath>
#endif

namespace ck_tile {

/// Values equal cktile_elementwise_op_t of include/cktile.h. Binary operations start at 100.
enum class elementwise_op : int
{
    identity  = 1, ///< also the type conversion (cast) when the types differ
    relu      = 2,
    gelu_tanh = 3,
    gelu_erf  = 4,
    silu      = 5,
    sigmoid   = 6,
    exp       = 7,
    log       = 8,
    neg       = 9,
    abs       = 10,
    sqrt      = 11,
    rsqrt     = 12,
    tanh      = 13,
    add       = 101,
    sub       = 102,
    mul       = 103,
    div       = 104,
    max       = 105, ///< NaN if either operand is NaN (like torch.maximum)
    min       = 106  ///< NaN if either operand is NaN (like torch.minimum)
};

CK_TILE_HOST_DEVICE constexpr bool is_binary(elementwise_op op)
{
    return static_cast<int>(op) > 100;
}

namespace elementwise_detail {
CK_TILE_HOST_DEVICE float exp_(float x) { return ::expf(x); }
CK_TILE_HOST_DEVICE double exp_(double x) { return ::exp(x); }
CK_TILE_HOST_DEVICE float log_(float x) { return ::logf(x); }
CK_TILE_HOST_DEVICE double log_(double x) { return ::log(x); }
CK_TILE_HOST_DEVICE float sqrt_(float x) { return ::sqrtf(x); }
CK_TILE_HOST_DEVICE double sqrt_(double x) { return ::sqrt(x); }
CK_TILE_HOST_DEVICE float tanh_(float x) { return ::tanhf(x); }
CK_TILE_HOST_DEVICE double tanh_(double x) { return ::tanh(x); }
CK_TILE_HOST_DEVICE float abs_(float x) { return ::fabsf(x); }
CK_TILE_HOST_DEVICE double abs_(double x) { return ::fabs(x); }
} // namespace elementwise_detail

// Each functor takes (a, b) already scaled; unary ones ignore b.
#define CKTILE_ELEMENTWISE_FUNCTOR(NAME, EXPR)                                                     \
    struct elementwise_##NAME##_fn                                                                 \
    {                                                                                              \
        template <typename E>                                                                      \
        CK_TILE_HOST_DEVICE E operator()(E a, [[maybe_unused]] E b) const                          \
        {                                                                                          \
            using namespace elementwise_detail;                                                    \
            return EXPR;                                                                           \
        }                                                                                          \
    };
CKTILE_ELEMENTWISE_FUNCTOR(identity, a)
CKTILE_ELEMENTWISE_FUNCTOR(relu, activation_relu(a))
CKTILE_ELEMENTWISE_FUNCTOR(gelu_tanh, activation_gelu_tanh(a))
CKTILE_ELEMENTWISE_FUNCTOR(gelu_erf, activation_gelu_erf(a))
CKTILE_ELEMENTWISE_FUNCTOR(silu, activation_silu(a))
CKTILE_ELEMENTWISE_FUNCTOR(sigmoid, activation_sigmoid(a))
CKTILE_ELEMENTWISE_FUNCTOR(exp, exp_(a))
CKTILE_ELEMENTWISE_FUNCTOR(log, log_(a))
CKTILE_ELEMENTWISE_FUNCTOR(neg, -a)
CKTILE_ELEMENTWISE_FUNCTOR(abs, abs_(a))
CKTILE_ELEMENTWISE_FUNCTOR(sqrt, sqrt_(a))
CKTILE_ELEMENTWISE_FUNCTOR(rsqrt, E(1) / sqrt_(a))
CKTILE_ELEMENTWISE_FUNCTOR(tanh, tanh_(a))
CKTILE_ELEMENTWISE_FUNCTOR(add, a + b)
CKTILE_ELEMENTWISE_FUNCTOR(sub, a - b)
CKTILE_ELEMENTWISE_FUNCTOR(mul, a* b)
CKTILE_ELEMENTWISE_FUNCTOR(div, a / b)
CKTILE_ELEMENTWISE_FUNCTOR(max, (a != a || b != b) ? a + b : (a > b ? a : b))
CKTILE_ELEMENTWISE_FUNCTOR(min, (a != a || b != b) ? a + b : (a < b ? a : b))
#undef CKTILE_ELEMENTWISE_FUNCTOR

/// Calls f(functor) with the functor of `op`; returns false (without calling f) for a value
/// that is not an elementwise_op.
template <typename F>
CK_TILE_HOST_DEVICE bool dispatch_elementwise_op(elementwise_op op, F&& f)
{
    switch(op)
    {
    case elementwise_op::identity:
        f(elementwise_identity_fn{});
        return true;
    case elementwise_op::relu:
        f(elementwise_relu_fn{});
        return true;
    case elementwise_op::gelu_tanh:
        f(elementwise_gelu_tanh_fn{});
        return true;
    case elementwise_op::gelu_erf:
        f(elementwise_gelu_erf_fn{});
        return true;
    case elementwise_op::silu:
        f(elementwise_silu_fn{});
        return true;
    case elementwise_op::sigmoid:
        f(elementwise_sigmoid_fn{});
        return true;
    case elementwise_op::exp:
        f(elementwise_exp_fn{});
        return true;
    case elementwise_op::log:
        f(elementwise_log_fn{});
        return true;
    case elementwise_op::neg:
        f(elementwise_neg_fn{});
        return true;
    case elementwise_op::abs:
        f(elementwise_abs_fn{});
        return true;
    case elementwise_op::sqrt:
        f(elementwise_sqrt_fn{});
        return true;
    case elementwise_op::rsqrt:
        f(elementwise_rsqrt_fn{});
        return true;
    case elementwise_op::tanh:
        f(elementwise_tanh_fn{});
        return true;
    case elementwise_op::add:
        f(elementwise_add_fn{});
        return true;
    case elementwise_op::sub:
        f(elementwise_sub_fn{});
        return true;
    case elementwise_op::mul:
        f(elementwise_mul_fn{});
        return true;
    case elementwise_op::div:
        f(elementwise_div_fn{});
        return true;
    case elementwise_op::max:
        f(elementwise_max_fn{});
        return true;
    case elementwise_op::min:
        f(elementwise_min_fn{});
        return true;
    }
    return false;
}

} // namespace ck_tile
