// SPDX-License-Identifier: MIT
// Element types of the GEMM instances as raw storage (bit patterns) with exact, portable
// conversions to and from the compute types. Pure integer/bit arithmetic, so the same code
// runs on the host (references, tests) and on both GPU platforms without vendor intrinsics.
//
// These stand in for ck_tile's numeric types (core/numeric) until the instances move to them;
// the bit layouts are the standard ones, so data is interchangeable.
#pragma once

#include "ck_tile/core/config.hpp"

#include <cstdint>
#include <cstring>

namespace ck_tile::gemm_storage {

struct fp16
{
    std::uint16_t bits;
};
struct bf16
{
    std::uint16_t bits;
};
/// OCP e4m3fn: bias 7, no infinities, 0x7f/0xff are NaN, max 448.
struct fp8_e4m3
{
    std::uint8_t bits;
};
/// OCP e5m2: bias 15, IEEE-style infinities and NaNs, max 57344.
struct fp8_e5m2
{
    std::uint8_t bits;
};

CK_TILE_HOST_DEVICE float float_from_bits(std::uint32_t u)
{
    float f;
    __builtin_memcpy(&f, &u, sizeof(f)); // the builtin exists on host and device alike
    return f;
}
CK_TILE_HOST_DEVICE std::uint32_t bits_from_float(float f)
{
    std::uint32_t u;
    __builtin_memcpy(&u, &f, sizeof(u));
    return u;
}

/// @post exact (every fp16 value is a float).
CK_TILE_HOST_DEVICE float to_float(fp16 h)
{
    const std::uint32_t sign = (std::uint32_t(h.bits) & 0x8000u) << 16;
    const std::uint32_t e    = (h.bits >> 10) & 0x1fu;
    const std::uint32_t m    = h.bits & 0x3ffu;
    if(e == 0)
    {
        // Subnormal: m * 2^-24, exact in float.
        const float v = static_cast<float>(m) * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    if(e == 31)
        return float_from_bits(sign | 0x7f800000u | (m << 13));
    return float_from_bits(sign | ((e + 112u) << 23) | (m << 13));
}

/// Rounds to nearest, ties to even; overflow gives infinity, NaN stays NaN.
CK_TILE_HOST_DEVICE fp16 to_fp16(float f)
{
    const std::uint32_t x    = bits_from_float(f);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t ax   = x & 0x7fffffffu;
    if(ax >= 0x7f800000u)
        return {static_cast<std::uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u))};
    if(ax >= 0x477ff000u) // 65520 and above round to infinity
        return {static_cast<std::uint16_t>(sign | 0x7c00u)};
    if(ax < 0x38800000u) // below 2^-14: fp16 subnormal (unit 2^-24)
    {
        if(ax < 0x33000000u) // below 2^-25 (or exactly half of the smallest): zero
            return {sign};
        const std::uint32_t mant  = (ax & 0x7fffffu) | 0x800000u;
        const std::uint32_t shift = 126u - (ax >> 23);
        std::uint32_t h           = mant >> shift;
        const std::uint32_t rem   = mant & ((1u << shift) - 1u);
        const std::uint32_t half  = 1u << (shift - 1u);
        if(rem > half || (rem == half && (h & 1u)))
            ++h;
        return {static_cast<std::uint16_t>(sign | h)};
    }
    std::uint32_t h         = (((ax >> 23) - 112u) << 10) | ((ax & 0x7fffffu) >> 13);
    const std::uint32_t rem = ax & 0x1fffu;
    if(rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        ++h; // a carry into the exponent is the correct rounding
    return {static_cast<std::uint16_t>(sign | h)};
}

CK_TILE_HOST_DEVICE float to_float(bf16 b) { return float_from_bits(std::uint32_t(b.bits) << 16); }

/// Rounds to nearest, ties to even; NaN stays NaN.
CK_TILE_HOST_DEVICE bf16 to_bf16(float f)
{
    const std::uint32_t x = bits_from_float(f);
    if((x & 0x7fffffffu) > 0x7f800000u)
        return {static_cast<std::uint16_t>((x >> 16) | 0x40u)};
    return {static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16)};
}

CK_TILE_HOST_DEVICE float to_float(fp8_e4m3 v)
{
    const std::uint32_t sign = (std::uint32_t(v.bits) & 0x80u) << 24;
    const std::uint32_t e    = (v.bits >> 3) & 0xfu;
    const std::uint32_t m    = v.bits & 0x7u;
    if(e == 15 && m == 7)
        return float_from_bits(sign | 0x7fc00000u);
    if(e == 0)
    {
        const float r = static_cast<float>(m) * 0.001953125f; // m * 2^-9
        return sign ? -r : r;
    }
    return float_from_bits(sign | ((e + 120u) << 23) | (m << 20));
}

CK_TILE_HOST_DEVICE float to_float(fp8_e5m2 v)
{
    const std::uint32_t sign = (std::uint32_t(v.bits) & 0x80u) << 24;
    const std::uint32_t e    = (v.bits >> 2) & 0x1fu;
    const std::uint32_t m    = v.bits & 0x3u;
    if(e == 31)
        return float_from_bits(sign | 0x7f800000u | (m << 21));
    if(e == 0)
    {
        const float r = static_cast<float>(m) * 1.52587890625e-5f; // m * 2^-16
        return sign ? -r : r;
    }
    return float_from_bits(sign | ((e + 112u) << 23) | (m << 21));
}

CK_TILE_HOST_DEVICE float to_float(float v) { return v; }

} // namespace ck_tile::gemm_storage
