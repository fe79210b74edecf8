// SPDX-License-Identifier: MIT
// Readable names of MMA atoms for test messages, e.g. "mma_sync_m16n8k32_f32_e4m3e5m2" or
// "mfma_32x32x8_f32_f16" (the alias names).
#pragma once

#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace cktile_arch_mma_test {

template <typename T, bool Tf32>
std::string type_name()
{
    using namespace ck_tile;
    if constexpr(std::is_same_v<T, float>)
        return Tf32 ? "tf32" : "f32";
    else if constexpr(std::is_same_v<T, half_t>)
        return "f16";
    else if constexpr(std::is_same_v<T, bf16_t>)
        return "bf16";
    else if constexpr(std::is_same_v<T, int8_t>)
        return "s8";
    else if constexpr(std::is_same_v<T, uint8_t>)
        return "u8";
    else if constexpr(std::is_same_v<T, int32_t>)
        return "s32";
    else if constexpr(std::is_same_v<T, fp8_t>)
        return "e4m3";
    else if constexpr(std::is_same_v<T, bf8_t>)
        return "e5m2";
    else
        return "unknown";
}

template <typename Atom>
std::string atom_name()
{
    constexpr bool nv = Atom::warp_size == 32;
    std::string s     = nv ? "mma_sync_m16n8k" + std::to_string(Atom::k)
                           : "mfma_" + std::to_string(Atom::m) + "x" + std::to_string(Atom::n) + "x" +
                             std::to_string(Atom::k);
    s += "_" + type_name<typename Atom::c_type, false>() + "_" +
         type_name<typename Atom::a_type, nv>();
    // 8-bit forms name both inputs (any mix exists); the others have one input type.
    if constexpr(sizeof(typename Atom::a_type) == 1)
        s += type_name<typename Atom::b_type, nv>();
    return s;
}

} // namespace cktile_arch_mma_test
