// SPDX-License-Identifier: MIT
// NVIDIA warp-level tensor-core instructions: one wrapper per PTX instruction.
//
//   mma_sync_m16n8k16   mma.sync.aligned.m16n8k16.row.col  f16/bf16 -> f32, f16 -> f16  (sm_80+)
//   mma_sync_m16n8k8    mma.sync.aligned.m16n8k8.row.col   tf32 -> f32                  (sm_80+)
//   mma_sync_m16n8k32   mma.sync.aligned.m16n8k32.row.col  s8/u8 -> s32                 (sm_80+)
//                                                          e4m3/e5m2 -> f32             (sm_89+)
//   ldmatrix_x1/x2/x4   ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16          (sm_75+)
//
// Every mma computes C += A * B for one warp: A is M x K ("row"), B is K x N ("col"), each lane
// holds a fixed fragment of A, B and C (ops/gemm/warp/mma_sync_atoms.hpp describes which
// elements). Fragments are passed as ext_vectors of the element type, in the order of the
// PTX operand list (a0, a1, ...): the low half of a 32-bit register is the lower-numbered
// element. The accumulator is updated in place (the instruction's D and C are one operand).
//
// On sm_90 the e4m3/e5m2 forms are not a tensor-core datapath of their own: ptxas unpacks the
// operands to f16 (F2FP.F16.E4M3.UNPACK_B) and issues two HMMA.16816.F32 per instruction, so
// they run at f16 speed or below. Hopper's native 8-bit float path is wgmma (QGMMA).
//
// The wrappers are templates over their operand types so that each instantiation is exactly
// one instruction and a use the target cannot execute fails to compile (a static_assert that
// names the instruction and the architecture it needs) instead of failing at run time. The
// header can be included by any compiler: outside an NVIDIA device pass the bodies are empty
// and never run (their qualifiers make them device functions).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {
namespace arch {
namespace nvidia {

namespace detail {
// False, but only once instantiated: lets a static_assert depend on a template parameter.
template <typename...>
inline constexpr bool unavailable_v = false;

template <typename T>
inline constexpr bool is_mma_f16_input_v = std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>;
template <typename T>
inline constexpr bool is_mma_int8_input_v = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>;
template <typename T>
inline constexpr bool is_mma_fp8_input_v = std::is_same_v<T, fp8_t> || std::is_same_v<T, bf8_t>;
} // namespace detail

// Device pass for an NVIDIA GPU older than the instruction, or a device pass for another vendor:
// both fail to compile with the instruction's name. Host passes see an empty body.
#if defined(__CUDA_ARCH__)
#define CK_TILE_NV_ARCH_AT_LEAST(sm) (__CUDA_ARCH__ >= (sm))
#define CK_TILE_NV_DEVICE_PASS 1
#else
#define CK_TILE_NV_ARCH_AT_LEAST(sm) 0
#define CK_TILE_NV_DEVICE_PASS 0
#endif

/// C(16x8) += A(16x16) * B(16x8) with f32 accumulation (CType float) or f16 accumulation
/// (CType half_t, AB half_t only: the f16-accumulate form exists for f16 inputs alone).
/// a: a0..a7 (four .f16x2/.bf16x2 registers), b: b0..b3 (two), c: c0..c3.
template <typename CType, typename ABType>
CK_TILE_DEVICE void mma_sync_m16n8k16([[maybe_unused]] ext_vector<CType, 4>& c,
                                      [[maybe_unused]] const ext_vector<ABType, 8>& a,
                                      [[maybe_unused]] const ext_vector<ABType, 4>& b)
{
    static_assert(detail::is_mma_f16_input_v<ABType>,
                  "mma.sync m16n8k16: A and B must be half_t or bf16_t");
    static_assert(std::is_same_v<CType, float> ||
                      (std::is_same_v<CType, half_t> && std::is_same_v<ABType, half_t>),
                  "mma.sync m16n8k16: accumulates in float, or in half_t for half_t inputs");
#if CK_TILE_NV_DEVICE_PASS
#if CK_TILE_NV_ARCH_AT_LEAST(800)
    const auto ar = bit_cast<ext_vector<uint32_t, 4>>(a);
    const auto br = bit_cast<ext_vector<uint32_t, 2>>(b);
    if constexpr(std::is_same_v<CType, half_t>)
    {
        auto cr = bit_cast<ext_vector<uint32_t, 2>>(c);
        asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, "
            "{%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"
            : "+r"(cr[0]), "+r"(cr[1])
            : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
        c = bit_cast<ext_vector<half_t, 4>>(cr);
    }
    else if constexpr(std::is_same_v<ABType, half_t>)
    {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    }
    else
    {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    }
#else
    static_assert(detail::unavailable_v<CType, ABType>,
                  "mma.sync m16n8k16 (f16/bf16) needs sm_80 or newer");
#endif
#elif CK_TILE_DEVICE_COMPILE
    static_assert(detail::unavailable_v<CType, ABType>,
                  "mma.sync is an NVIDIA instruction; this device pass is for another GPU");
#endif
}

/// C(16x8) += A(16x8) * B(8x8) in tf32 with f32 accumulation. The operands are floats whose
/// low 13 mantissa bits the tensor core ignores: round them first (cvt_rna_tf32) where the
/// truncation matters. a: a0..a3, b: b0..b1, c: c0..c3.
template <typename ABType>
CK_TILE_DEVICE void mma_sync_m16n8k8([[maybe_unused]] ext_vector<float, 4>& c,
                                     [[maybe_unused]] const ext_vector<ABType, 4>& a,
                                     [[maybe_unused]] const ext_vector<ABType, 2>& b)
{
    static_assert(std::is_same_v<ABType, float>,
                  "mma.sync m16n8k8: the tf32 form takes float operands (tf32 values)");
#if CK_TILE_NV_DEVICE_PASS
#if CK_TILE_NV_ARCH_AT_LEAST(800)
    const auto ar = bit_cast<ext_vector<uint32_t, 4>>(a);
    const auto br = bit_cast<ext_vector<uint32_t, 2>>(b);
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
#else
    static_assert(detail::unavailable_v<ABType>, "mma.sync m16n8k8 (tf32) needs sm_80 or newer");
#endif
#elif CK_TILE_DEVICE_COMPILE
    static_assert(detail::unavailable_v<ABType>,
                  "mma.sync is an NVIDIA instruction; this device pass is for another GPU");
#endif
}

/// x rounded to the nearest tf32 value (ties away from zero), as a float whose low 13
/// mantissa bits are zero: the operand form mma_sync_m16n8k8 multiplies exactly.
template <typename T = float>
CK_TILE_DEVICE float cvt_rna_tf32(T x)
{
    static_assert(std::is_same_v<T, float>, "cvt.rna.tf32.f32 converts a float");
#if CK_TILE_NV_DEVICE_PASS
#if CK_TILE_NV_ARCH_AT_LEAST(800)
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return bit_cast<float>(r);
#else
    static_assert(detail::unavailable_v<T>, "cvt.rna.tf32.f32 needs sm_80 or newer");
    return x;
#endif
#elif CK_TILE_DEVICE_COMPILE
    static_assert(detail::unavailable_v<T>,
                  "cvt.rna.tf32 is an NVIDIA instruction; this device pass is for another GPU");
    return x;
#else
    return x;
#endif
}

/// C(16x8) += A(16x32) * B(32x8) for 8-bit inputs: s8/u8 (any mix) with s32 accumulation
/// (wrapping, no .satfinite), or e4m3/e5m2 (any mix; sm_89+) with f32 accumulation.
/// a: a0..a15 (four registers of four bytes), b: b0..b7 (two), c: c0..c3.
template <typename CType, typename AType, typename BType>
CK_TILE_DEVICE void mma_sync_m16n8k32([[maybe_unused]] ext_vector<CType, 4>& c,
                                      [[maybe_unused]] const ext_vector<AType, 16>& a,
                                      [[maybe_unused]] const ext_vector<BType, 8>& b)
{
    constexpr bool is_int =
        detail::is_mma_int8_input_v<AType> && detail::is_mma_int8_input_v<BType>;
    constexpr bool is_fp8 = detail::is_mma_fp8_input_v<AType> && detail::is_mma_fp8_input_v<BType>;
    static_assert((is_int && std::is_same_v<CType, int32_t>) ||
                      (is_fp8 && std::is_same_v<CType, float>),
                  "mma.sync m16n8k32: int8_t/uint8_t inputs accumulate in int32_t, "
                  "fp8_t/bf8_t inputs in float");
#if CK_TILE_NV_DEVICE_PASS
#if CK_TILE_NV_ARCH_AT_LEAST(800)
    const auto ar = bit_cast<ext_vector<uint32_t, 4>>(a);
    const auto br = bit_cast<ext_vector<uint32_t, 2>>(b);
    // The operand list is the same for every form; only the type suffixes differ.
#define CK_TILE_MMA_M16N8K32(types, cc)                                                            \
    asm("mma.sync.aligned.m16n8k32.row.col." types " {%0, %1, %2, %3}, "                           \
        "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"                                          \
        : "+" cc(c[0]), "+" cc(c[1]), "+" cc(c[2]), "+" cc(c[3])                                   \
        : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]))
    if constexpr(is_int)
    {
        constexpr bool as = std::is_same_v<AType, int8_t>;
        constexpr bool bs = std::is_same_v<BType, int8_t>;
        if constexpr(as && bs)
            CK_TILE_MMA_M16N8K32("s32.s8.s8.s32", "r");
        else if constexpr(as && !bs)
            CK_TILE_MMA_M16N8K32("s32.s8.u8.s32", "r");
        else if constexpr(!as && bs)
            CK_TILE_MMA_M16N8K32("s32.u8.s8.s32", "r");
        else
            CK_TILE_MMA_M16N8K32("s32.u8.u8.s32", "r");
    }
    else
    {
#if CK_TILE_NV_ARCH_AT_LEAST(890)
        constexpr bool a4 = std::is_same_v<AType, fp8_t>;
        constexpr bool b4 = std::is_same_v<BType, fp8_t>;
        if constexpr(a4 && b4)
            CK_TILE_MMA_M16N8K32("f32.e4m3.e4m3.f32", "f");
        else if constexpr(a4 && !b4)
            CK_TILE_MMA_M16N8K32("f32.e4m3.e5m2.f32", "f");
        else if constexpr(!a4 && b4)
            CK_TILE_MMA_M16N8K32("f32.e5m2.e4m3.f32", "f");
        else
            CK_TILE_MMA_M16N8K32("f32.e5m2.e5m2.f32", "f");
#else
        static_assert(detail::unavailable_v<AType, BType>,
                      "mma.sync m16n8k32 with e4m3/e5m2 inputs needs sm_89 or newer");
#endif
    }
#undef CK_TILE_MMA_M16N8K32
#else
    static_assert(detail::unavailable_v<CType, AType, BType>,
                  "mma.sync m16n8k32 (8-bit inputs) needs sm_80 or newer");
#endif
#elif CK_TILE_DEVICE_COMPILE
    static_assert(detail::unavailable_v<CType, AType, BType>,
                  "mma.sync is an NVIDIA instruction; this device pass is for another GPU");
#endif
}

// ldmatrix: a warp loads 8x8 matrices of 16-bit elements from shared memory. Lanes 8j..8j+7
// give the addresses of rows 0..7 of matrix j (16 contiguous, 16-byte aligned bytes each).
// Register j of lane l then holds matrix j's elements (l / 4, 2 * (l % 4)) and (l / 4,
// 2 * (l % 4) + 1); with Transpose, (2 * (l % 4), l / 4) and (2 * (l % 4) + 1, l / 4), low half
// first. That is the 16-bit mma fragment layout: one ldmatrix.x4 fills an m16n8k16 A fragment
// of a row-major (K-contiguous) A; one x2 fills a B fragment, plain when B is stored N x K
// (K contiguous), .trans when it is stored K x N (N contiguous).
// Lanes that give no address (x1: 8..31, x2: 16..31) still have to call it: it is a warp-wide
// instruction. The compiler does not see the shared-memory read: order the writes before it
// with a barrier (block_sync_lds, or warp_sync when one warp wrote the data).

namespace detail {
template <index_t NumMatrices, bool Transpose>
CK_TILE_DEVICE ext_vector<uint32_t, NumMatrices> ldmatrix([[maybe_unused]] const void* smem_row)
{
    static_assert(NumMatrices == 1 || NumMatrices == 2 || NumMatrices == 4,
                  "ldmatrix loads 1, 2 or 4 matrices");
    ext_vector<uint32_t, NumMatrices> r;
#if CK_TILE_NV_DEVICE_PASS
#if CK_TILE_NV_ARCH_AT_LEAST(750)
    const auto addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_row));
    if constexpr(NumMatrices == 1 && !Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n"
                     : "=r"(r[0])
                     : "r"(addr));
    else if constexpr(NumMatrices == 1)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                     : "=r"(r[0])
                     : "r"(addr));
    else if constexpr(NumMatrices == 2 && !Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(addr));
    else if constexpr(NumMatrices == 2)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(addr));
    else if constexpr(!Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
#else
    static_assert(unavailable_v<ext_vector<uint32_t, NumMatrices>>,
                  "ldmatrix needs sm_75 or newer");
#endif
#elif CK_TILE_DEVICE_COMPILE
    static_assert(unavailable_v<ext_vector<uint32_t, NumMatrices>>,
                  "ldmatrix is an NVIDIA instruction; this device pass is for another GPU");
#else
    for(index_t i = 0; i < NumMatrices; ++i)
        r[i] = 0;
#endif
    return r;
}
} // namespace detail

/// NumMatrices (1, 2 or 4) 8x8 b16 matrices; lanes 0..8 * NumMatrices - 1 give the row
/// addresses.
template <index_t NumMatrices, bool Transpose = false>
CK_TILE_DEVICE ext_vector<uint32_t, NumMatrices> ldmatrix_x(const void* smem_row)
{
    return detail::ldmatrix<NumMatrices, Transpose>(smem_row);
}
/// One 8x8 b16 matrix; lanes 0..7 give the row addresses.
template <bool Transpose = false>
CK_TILE_DEVICE ext_vector<uint32_t, 1> ldmatrix_x1(const void* smem_row)
{
    return detail::ldmatrix<1, Transpose>(smem_row);
}
/// Two 8x8 b16 matrices; lanes 0..15 give the row addresses.
template <bool Transpose = false>
CK_TILE_DEVICE ext_vector<uint32_t, 2> ldmatrix_x2(const void* smem_row)
{
    return detail::ldmatrix<2, Transpose>(smem_row);
}
/// Four 8x8 b16 matrices; lanes 0..31 give the row addresses.
template <bool Transpose = false>
CK_TILE_DEVICE ext_vector<uint32_t, 4> ldmatrix_x4(const void* smem_row)
{
    return detail::ldmatrix<4, Transpose>(smem_row);
}

#undef CK_TILE_NV_ARCH_AT_LEAST
#undef CK_TILE_NV_DEVICE_PASS

} // namespace nvidia
} // namespace arch
} // namespace ck_tile
