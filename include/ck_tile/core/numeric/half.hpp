// SPDX-License-Identifier: MIT
// half_t: IEEE 754 binary16 (1 sign, 5 exponent, 10 mantissa bits; max 65504).
#pragma once

#include "ck_tile/core/numeric/fp_format.hpp"
#include "ck_tile/core/numeric/minifloat.hpp"
#include "ck_tile/core/numeric/numeric.hpp"

namespace ck_tile {
/// Conversions into half_t overflow to infinity, as IEEE (and the hardware) does.
using half_t = minifloat<fp16_format, overflow_mode::non_saturate>;
using fp16_t = half_t;

static_assert(sizeof(half_t) == 2 && alignof(half_t) == 2);
} // namespace ck_tile
