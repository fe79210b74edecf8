// SPDX-License-Identifier: MIT
// AMD conversion instructions for the narrow formats (see arch/convert.hpp for the contract).
//
// None are used: gfx90a has no fp8/bf8 or bf16 conversions, and gfx94x converts to the FNUZ fp8
// variants, whose encodings differ from the OCP formats of fp8_t and bf8_t.
#pragma once

#include "ck_tile/core/arch/convert.hpp"
