// SPDX-License-Identifier: MIT
// NVIDIA spelling of arch::fast_rcp (see arch/fast_rcp.hpp): rcp.approx.ftz.f32, the
// special-function unit's reciprocal (PTX ISA: maximum relative error 1 ulp over the normal
// range, subnormal inputs and results flushed to zero).
#pragma once

#include "ck_tile/core/config.hpp"

namespace ck_tile::arch {
CK_TILE_HOST_DEVICE float fast_rcp(float x)
{
#if defined(__CUDA_ARCH__)
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return 1.0f / x;
#endif
}
} // namespace ck_tile::arch
