// SPDX-License-Identifier: MIT
// AMD spelling of arch::fast_exp2 (see arch/fast_exp.hpp): v_exp_f32 through
// __builtin_amdgcn_exp2f where the compiler has it (clang 17 and later; 1 ulp, denormal
// results flushed), the math library's exp2f otherwise.
#pragma once

#include "ck_tile/core/config.hpp"

#include <cmath>

namespace ck_tile::arch {
CK_TILE_HOST_DEVICE float fast_exp2(float x)
{
#if defined(__HIP_DEVICE_COMPILE__) && defined(__has_builtin)
#if __has_builtin(__builtin_amdgcn_exp2f)
    return __builtin_amdgcn_exp2f(x);
#else
    return exp2f(x);
#endif
#else
    return std::exp2(x);
#endif
}
} // namespace ck_tile::arch
