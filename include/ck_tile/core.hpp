// SPDX-License-Identifier: MIT
// The ck_tile core: everything a kernel or a host tool needs from the tile programming model.
// Compiles with a plain host compiler (g++ -std=c++20) as well as with nvcc and hipcc.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/numeric/integer.hpp"
