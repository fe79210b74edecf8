// SPDX-License-Identifier: MIT
// bf16_t: bfloat16 (1 sign, 8 exponent, 7 mantissa bits): float's range at 8 bits of precision.
#pragma once

#include "ck_tile/core/numeric/fp_format.hpp"
#include "ck_tile/core/numeric/minifloat.hpp"
#include "ck_tile/core/numeric/numeric.hpp"

namespace ck_tile {
/// Conversions into bf16_t round to nearest even and overflow to infinity (IEEE behaviour; no
/// truncating shortcut).
using bfloat16_t = minifloat<bf16_format, overflow_mode::non_saturate>;
using bf16_t     = bfloat16_t;
using bhalf_t    = bfloat16_t;

static_assert(sizeof(bf16_t) == 2 && alignof(bf16_t) == 2);
} // namespace ck_tile
