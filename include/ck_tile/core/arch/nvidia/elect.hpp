// SPDX-License-Identifier: MIT
// One lane of a converged warp, chosen by the hardware (sm_90; PTX ISA: elect.sync).
//
// Instructions that take only uniform-register operands (the copy engine's UTMALDG) are issued
// directly when their operands are warp-uniform values of a converged warp. Issued by one
// thread (`thread == 0`) the same values sit in vector registers, and the compiler wraps each
// such instruction in a loop over the distinct values of the active lanes. So the warp runs
// the loop together, and elect_one() picks the lane that issues.
#pragma once

#include "ck_tile/core/arch/nvidia/sm90_features.hpp"
#include "ck_tile/core/config.hpp"

#include <cstdint>

#if !defined(CK_TILE_PLATFORM_NVIDIA)
#error "ck_tile/core/arch/nvidia/elect.hpp is NVIDIA device code: compile it with nvcc"
#endif

namespace ck_tile {
namespace arch {

/// True on exactly one lane of the warp, false on the others. All 32 lanes call it together.
CK_TILE_DEVICE bool elect_one()
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    uint32_t elected;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 "elect.sync _|p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t"
                 "}"
                 : "=r"(elected));
    return elected != 0;
#else
    ck_tile_error_needs_sm_90_or_later();
    return false;
#endif
}

} // namespace arch
} // namespace ck_tile
