// SPDX-License-Identifier: MIT
// NVIDIA conversion instructions for the narrow formats (see arch/convert.hpp for the contract).
// One PTX instruction per wrapper; all round to nearest even and keep denormals (no .ftz).
// NaN inputs give a NaN, the canonical one (positive, fixed payload), not the software path's
// sign-and-payload-preserving NaN; arch/convert.hpp allows that.
#pragma once

#include "ck_tile/core/arch/convert.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#if defined(__CUDA_ARCH__)
namespace ck_tile::arch {

// cvt.rn.f16.f32: overflow goes to infinity, which is IEEE and half_t's default.
template <>
struct float_to_fp_hw<fp16_format, overflow_mode::non_saturate>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static uint16_t convert(float x)
    {
        uint16_t r;
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(x));
        return r;
    }
};

template <>
struct fp_to_float_hw<fp16_format>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static float convert(uint16_t bits)
    {
        float r;
        asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(bits));
        return r;
    }
};

#if __CUDA_ARCH__ >= 800
template <>
struct float_to_fp_hw<bf16_format, overflow_mode::non_saturate>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static uint16_t convert(float x)
    {
        uint16_t r;
        asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(x));
        return r;
    }
};
#endif

#if __CUDA_ARCH__ >= 890
// The fp8 conversions exist only with .satfinite: out-of-range values and infinities become
// +-max, which is the saturating mode. The pair instruction converts (a, b) into (hi, lo) bytes;
// the value goes in the low byte.
template <>
struct float_to_fp_hw<fp8_e4m3_format, overflow_mode::saturate>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static uint8_t convert(float x)
    {
        uint16_t r;
        asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(x));
        return static_cast<uint8_t>(r);
    }
};

template <>
struct float_to_fp_hw<bf8_e5m2_format, overflow_mode::saturate>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static uint8_t convert(float x)
    {
        uint16_t r;
        asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(x));
        return static_cast<uint8_t>(r);
    }
};

// fp8 -> f16 is exact (f16 holds every e4m3 and e5m2 value), then f16 -> f32.
template <>
struct fp_to_float_hw<fp8_e4m3_format>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static float convert(uint8_t bits)
    {
        uint32_t h2;
        float r;
        asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(h2) : "h"(static_cast<uint16_t>(bits)));
        asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(static_cast<uint16_t>(h2)));
        return r;
    }
};

template <>
struct fp_to_float_hw<bf8_e5m2_format>
{
    static constexpr bool available = true;
    CK_TILE_DEVICE static float convert(uint8_t bits)
    {
        uint32_t h2;
        float r;
        asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(h2) : "h"(static_cast<uint16_t>(bits)));
        asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(static_cast<uint16_t>(h2)));
        return r;
    }
};
#endif

} // namespace ck_tile::arch
#endif
