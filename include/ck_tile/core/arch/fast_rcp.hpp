// SPDX-License-Identifier: MIT
// 1/x from the GPU's special-function unit: one instruction where IEEE division takes a
// Newton iteration, a range check and a slow path that the compiler keeps out of line (a GEMM
// epilogue's silu ran 47% slower than its relu with it, fp16 4096^3 on the H100).
//
// Contract of arch::fast_rcp(x): a relative error of at most about 1 ulp of fp32 for normal x
// (NVIDIA rcp.approx.ftz: 1 ulp; AMD v_rcp_f32: 1 ulp), rcp(+-inf) = +-0, rcp(+-0) = +-inf,
// results below the smallest normal float may be flushed to zero, rcp(NaN) = NaN. Host code
// (and device compilers without the instruction) divide.
#pragma once

#include "ck_tile/core/config.hpp"

#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/fast_rcp.hpp"
#elif defined(CK_TILE_PLATFORM_AMD)
#include "ck_tile/core/arch/amd/fast_rcp.hpp"
#else
namespace ck_tile::arch {
CK_TILE_HOST_DEVICE float fast_rcp(float x) { return 1.0f / x; }
} // namespace ck_tile::arch
#endif
