// SPDX-License-Identifier: MIT
// 2^x from the GPU's special-function unit: one instruction where the accurate exp2f/expf of
// the math library takes a range reduction and a polynomial. Memory-bound kernels that take an
// exponential per element (softmax) are limited by instruction issue with the accurate one.
//
// Contract of arch::fast_exp2(x): a relative error of at most a few ulp of fp32 (NVIDIA
// ex2.approx: 2 ulp; AMD v_exp_f32: 1 ulp), results below the smallest normal float may be
// flushed to zero, exp2(-inf) = 0, exp2(+inf) = +inf, exp2(NaN) = NaN. Host code (and device
// compilers without the instruction) use std::exp2.
#pragma once

#include "ck_tile/core/config.hpp"

#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/fast_exp.hpp"
#elif defined(CK_TILE_PLATFORM_AMD)
#include "ck_tile/core/arch/amd/fast_exp.hpp"
#else
#include <cmath>

namespace ck_tile::arch {
CK_TILE_HOST_DEVICE float fast_exp2(float x) { return std::exp2(x); }
} // namespace ck_tile::arch
#endif

namespace ck_tile::arch {
/// e^x as 2^(x log2 e) through fast_exp2: the product adds half an ulp of x log2 e to the
/// exponent, so the error grows with |x| (about 3e-6 relative at |x| = 16).
CK_TILE_HOST_DEVICE float fast_exp(float x)
{
    constexpr float log2e = 1.44269504088896340736f;
    return fast_exp2(x * log2e);
}
} // namespace ck_tile::arch
