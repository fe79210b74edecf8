// SPDX-License-Identifier: MIT
// NVIDIA spelling of arch::fast_exp2 (see arch/fast_exp.hpp): ex2.approx.ftz.f32, the
// special-function unit's 2^x (PTX ISA: maximum relative error 2 ulp, subnormal results
// flushed to zero).
#pragma once

#include "ck_tile/core/config.hpp"

#include <cmath>

namespace ck_tile::arch {
CK_TILE_HOST_DEVICE float fast_exp2(float x)
{
#if defined(__CUDA_ARCH__)
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return std::exp2(x);
#endif
}
} // namespace ck_tile::arch
