// SPDX-License-Identifier: MIT
// AMD conversion instructions for the narrow formats (see arch/convert.hpp for the contract).
//
// fp16 <-> f32 use v_cvt_f16_f32 / v_cvt_f32_f16 (clang emits them for _Float16 casts): round to
// nearest even, overflow to infinity, denormals kept (HIP does not flush by default). There are
// no others: gfx90a has no fp8/bf8 or bf16 conversions, and gfx94x converts to the FNUZ fp8
// variants, whose encodings differ from the OCP formats of fp8_t and bf8_t.
#pragma once

#include "ck_tile/core/arch/convert.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#if defined(__HIP_DEVICE_COMPILE__)
namespace ck_tile::arch {

template <>
struct float_to_fp_hw<fp16_format, overflow_mode::non_saturate>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static uint16_t convert(float x)
    {
        return __builtin_bit_cast(uint16_t, static_cast<_Float16>(x));
    }
};

template <>
struct fp_to_float_hw<fp16_format>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static float convert(uint16_t bits)
    {
        return static_cast<float>(__builtin_bit_cast(_Float16, bits));
    }
};

} // namespace ck_tile::arch
#endif
