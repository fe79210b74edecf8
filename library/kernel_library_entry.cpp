// SPDX-License-Identifier: MIT
// The single entry point of a per-target kernel library. libcktile.so finds it with dlsym
// and reads which target the library was built for.
#include "ck_tile/core/config.hpp"

extern "C" __attribute__((visibility("default"))) const char* cktile_kernel_library_target(void)
{
    return CKTILE_KERNEL_TARGET;
}
