// SPDX-License-Identifier: MIT
// AMD spelling of arch::fast_rcp (see arch/fast_rcp.hpp): v_rcp_f32 through
// __builtin_amdgcn_rcpf where the compiler has it (1 ulp, denormals flushed), division
// otherwise.
#pragma once

#include "ck_tile/core/config.hpp"

namespace ck_tile::arch {
CK_TILE_HOST_DEVICE float fast_rcp(float x)
{
#if defined(__HIP_DEVICE_COMPILE__) && defined(__has_builtin)
#if __has_builtin(__builtin_amdgcn_rcpf)
    return __builtin_amdgcn_rcpf(x);
#else
    return 1.0f / x;
#endif
#else
    return 1.0f / x;
#endif
}
} // namespace ck_tile::arch
