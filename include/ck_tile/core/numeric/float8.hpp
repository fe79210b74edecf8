// SPDX-License-Identifier: MIT
// The OCP 8-bit floating-point formats (OCP FP8 specification v1.0):
//   fp8_t  E4M3, the FN variant: no infinities, NaN = S.1111.111 (0x7f/0xff), max 448
//   bf8_t  E5M2, IEEE-like: infinities and NaNs at exponent 11111, max 57344
// Not the FNUZ variants of AMD gfx94x hardware, whose bias and NaN encodings differ.
#pragma once

#include "ck_tile/core/numeric/fp_format.hpp"
#include "ck_tile/core/numeric/minifloat.hpp"
#include "ck_tile/core/numeric/numeric.hpp"

namespace ck_tile {
/// Conversions into the fp8 types saturate by default (out-of-range values and infinities become
/// +-max), as quantizing kernels want and as NVIDIA's cvt .satfinite instructions do; pass
/// overflow_mode::non_saturate to type_convert for the OCP non-saturating behaviour.
using float8_e4m3_t = minifloat<fp8_e4m3_format, overflow_mode::saturate>;
using float8_e5m2_t = minifloat<bf8_e5m2_format, overflow_mode::saturate>;
using fp8_t         = float8_e4m3_t;
using f8_t          = float8_e4m3_t;
using bf8_t         = float8_e5m2_t;

static_assert(sizeof(fp8_t) == 1 && sizeof(bf8_t) == 1);
} // namespace ck_tile
