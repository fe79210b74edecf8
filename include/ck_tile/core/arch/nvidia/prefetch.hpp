// SPDX-License-Identifier: MIT
// A hint that a global line will be read soon (PTX ISA: prefetch.global.L2): the line is
// brought into L2 with no register result and nothing to wait for, so a later load of it is an
// L2 hit instead of a DRAM read.
#pragma once

#include "ck_tile/core/config.hpp"

namespace ck_tile::arch {
CK_TILE_DEVICE void prefetch_l2([[maybe_unused]] const void* p)
{
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#endif
}
} // namespace ck_tile::arch
