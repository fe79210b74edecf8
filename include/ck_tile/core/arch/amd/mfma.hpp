// SPDX-License-Identifier: MIT
// AMD matrix fused multiply-add (MFMA) instructions of CDNA2 (gfx90a) and CDNA3 (gfx940):
// one wrapper per instruction family and operand types, each instantiation one v_mfma.
//
//   mfma_32x32x8     v_mfma_f32_32x32x8f16, v_mfma_f32_32x32x8bf16_1k   gfx90a, gfx940
//                    v_mfma_i32_32x32x8i8                               gfx90a only
//   mfma_16x16x16    v_mfma_f32_16x16x16f16, v_mfma_f32_16x16x16bf16_1k gfx90a, gfx940
//                    v_mfma_i32_16x16x16i8                              gfx90a only
//   mfma_32x32x2     v_mfma_f32_32x32x2f32                              gfx90a, gfx940
//   mfma_16x16x4     v_mfma_f32_16x16x4f32                              gfx90a, gfx940
//   mfma_32x32x16    v_mfma_i32_32x32x16_i8, v_mfma_f32_32x32x16_{fp8,bf8}_{fp8,bf8}  gfx940
//   mfma_16x16x32    v_mfma_i32_16x16x32_i8, v_mfma_f32_16x16x32_{fp8,bf8}_{fp8,bf8}  gfx940
//
// Each computes C += A * B for one wavefront of 64 lanes (single-block forms: the whole
// M x N tile is one output block; cbsz/abid/blgp broadcast controls are left at 0). Lane l
// holds A's row l % M and B's column l % N, at K offset (l / M) * (K values per lane); the
// accumulator layout is in ops/gemm/warp/mfma_atoms.hpp. CDNA3 replaced the 4-byte int8 forms
// by 8-byte ones (x16 / x32 K), so the int8 atom differs between the two targets: the compiler
// aborts in its backend on the old one for gfx940, hence the static_asserts here.
//
// fp8: gfx940 reads its 8-bit operands as the FNUZ formats, not as the OCP e4m3/e5m2 that
// fp8_t/bf8_t encode. FNUZ has an exponent bias one higher, so every finite OCP byte reads as
// exactly half its OCP value (a product of two as a quarter), and 0x80 (OCP -0) reads as NaN.
// The wrappers pass the bytes through unchanged; data for them must be FNUZ-encoded.
//
// The header can be included by any compiler: outside an AMD device pass the bodies are empty
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
namespace amd {

namespace detail {
template <typename...>
inline constexpr bool unavailable_v = false;

template <typename T>
inline constexpr bool is_fp8_input_v = std::is_same_v<T, fp8_t> || std::is_same_v<T, bf8_t>;

#if defined(__HIP_DEVICE_COMPILE__)
// The builtins take clang vector types; ext_vector has the same bytes.
using f16x4_t  = _Float16 __attribute__((ext_vector_type(4)));
using i16x4_t  = short __attribute__((ext_vector_type(4)));
using f32x4_t  = float __attribute__((ext_vector_type(4)));
using f32x16_t = float __attribute__((ext_vector_type(16)));
using i32x4_t  = int __attribute__((ext_vector_type(4)));
using i32x16_t = int __attribute__((ext_vector_type(16)));
#endif
} // namespace detail

#if defined(__HIP_DEVICE_COMPILE__)
#define CK_TILE_AMD_DEVICE_PASS 1
#else
#define CK_TILE_AMD_DEVICE_PASS 0
#endif
#if defined(__gfx90a__)
#define CK_TILE_AMD_CDNA2 1
#else
#define CK_TILE_AMD_CDNA2 0
#endif
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define CK_TILE_AMD_CDNA3 1
#else
#define CK_TILE_AMD_CDNA3 0
#endif

// One MFMA: converts the ext_vectors to the builtin's vector types and back. `cvec` is the
// builtin's accumulator type, `in` the operand type (both bit-compatible with ours).
#define CK_TILE_MFMA(builtin, cvec, in)                                                            \
    c = bit_cast<std::remove_cvref_t<decltype(c)>>(                                                \
        builtin(bit_cast<in>(a), bit_cast<in>(b), bit_cast<detail::cvec>(c), 0, 0, 0))

/// C(32x32) += A(32x8) * B(8x32): f16 or bf16 inputs with f32 accumulation, or (gfx90a only)
/// int8 inputs with i32 accumulation. 4 K values per lane, 16 accumulators per lane.
template <typename CType, typename ABType>
CK_TILE_DEVICE void mfma_32x32x8([[maybe_unused]] ext_vector<CType, 16>& c,
                                 [[maybe_unused]] const ext_vector<ABType, 4>& a,
                                 [[maybe_unused]] const ext_vector<ABType, 4>& b)
{
    constexpr bool is_f16  = std::is_same_v<ABType, half_t>;
    constexpr bool is_bf16 = std::is_same_v<ABType, bf16_t>;
    constexpr bool is_i8   = std::is_same_v<ABType, int8_t>;
    static_assert(((is_f16 || is_bf16) && std::is_same_v<CType, float>) ||
                      (is_i8 && std::is_same_v<CType, int32_t>),
                  "mfma 32x32x8: half_t/bf16_t -> float or int8_t -> int32_t");
#if CK_TILE_AMD_DEVICE_PASS
    if constexpr(is_i8)
    {
#if CK_TILE_AMD_CDNA2
        CK_TILE_MFMA(__builtin_amdgcn_mfma_i32_32x32x8i8, i32x16_t, int);
#else
        static_assert(detail::unavailable_v<CType, ABType>,
                      "v_mfma_i32_32x32x8i8 exists on gfx90a only (gfx940: mfma_32x32x16)");
#endif
    }
    else
    {
#if CK_TILE_AMD_CDNA2 || CK_TILE_AMD_CDNA3
        if constexpr(is_f16)
            CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_32x32x8f16, f32x16_t, detail::f16x4_t);
        else
            CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_32x32x8bf16_1k, f32x16_t, detail::i16x4_t);
#else
        static_assert(detail::unavailable_v<CType, ABType>,
                      "mfma 32x32x8 f16/bf16_1k needs gfx90a or gfx940");
#endif
    }
#endif
}

/// C(16x16) += A(16x16) * B(16x16): f16 or bf16 inputs with f32 accumulation, or (gfx90a only)
/// int8 inputs with i32 accumulation. 4 K values per lane, 4 accumulators per lane.
template <typename CType, typename ABType>
CK_TILE_DEVICE void mfma_16x16x16([[maybe_unused]] ext_vector<CType, 4>& c,
                                  [[maybe_unused]] const ext_vector<ABType, 4>& a,
                                  [[maybe_unused]] const ext_vector<ABType, 4>& b)
{
    constexpr bool is_f16  = std::is_same_v<ABType, half_t>;
    constexpr bool is_bf16 = std::is_same_v<ABType, bf16_t>;
    constexpr bool is_i8   = std::is_same_v<ABType, int8_t>;
    static_assert(((is_f16 || is_bf16) && std::is_same_v<CType, float>) ||
                      (is_i8 && std::is_same_v<CType, int32_t>),
                  "mfma 16x16x16: half_t/bf16_t -> float or int8_t -> int32_t");
#if CK_TILE_AMD_DEVICE_PASS
    if constexpr(is_i8)
    {
#if CK_TILE_AMD_CDNA2
        CK_TILE_MFMA(__builtin_amdgcn_mfma_i32_16x16x16i8, i32x4_t, int);
#else
        static_assert(detail::unavailable_v<CType, ABType>,
                      "v_mfma_i32_16x16x16i8 exists on gfx90a only (gfx940: mfma_16x16x32)");
#endif
    }
    else
    {
#if CK_TILE_AMD_CDNA2 || CK_TILE_AMD_CDNA3
        if constexpr(is_f16)
            CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_16x16x16f16, f32x4_t, detail::f16x4_t);
        else
            CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_16x16x16bf16_1k, f32x4_t, detail::i16x4_t);
#else
        static_assert(detail::unavailable_v<CType, ABType>,
                      "mfma 16x16x16 f16/bf16_1k needs gfx90a or gfx940");
#endif
    }
#endif
}

/// C(32x32) += A(32x2) * B(2x32) in f32: 1 K value per lane, 16 accumulators per lane.
template <typename ABType>
CK_TILE_DEVICE void mfma_32x32x2([[maybe_unused]] ext_vector<float, 16>& c,
                                 [[maybe_unused]] const ext_vector<ABType, 1>& a,
                                 [[maybe_unused]] const ext_vector<ABType, 1>& b)
{
    static_assert(std::is_same_v<ABType, float>, "mfma 32x32x2: float inputs");
#if CK_TILE_AMD_DEVICE_PASS
#if CK_TILE_AMD_CDNA2 || CK_TILE_AMD_CDNA3
    CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_32x32x2f32, f32x16_t, float);
#else
    static_assert(detail::unavailable_v<ABType>, "mfma 32x32x2 f32 needs gfx90a or gfx940");
#endif
#endif
}

/// C(16x16) += A(16x4) * B(4x16) in f32: 1 K value per lane, 4 accumulators per lane.
template <typename ABType>
CK_TILE_DEVICE void mfma_16x16x4([[maybe_unused]] ext_vector<float, 4>& c,
                                 [[maybe_unused]] const ext_vector<ABType, 1>& a,
                                 [[maybe_unused]] const ext_vector<ABType, 1>& b)
{
    static_assert(std::is_same_v<ABType, float>, "mfma 16x16x4: float inputs");
#if CK_TILE_AMD_DEVICE_PASS
#if CK_TILE_AMD_CDNA2 || CK_TILE_AMD_CDNA3
    CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_16x16x4f32, f32x4_t, float);
#else
    static_assert(detail::unavailable_v<ABType>, "mfma 16x16x4 f32 needs gfx90a or gfx940");
#endif
#endif
}

/// C(32x32) += A(32x16) * B(16x32) on gfx940: int8 inputs with i32 accumulation, or fp8/bf8
/// (any mix) with f32 accumulation. 8 K values per lane, 16 accumulators per lane.
template <typename CType, typename AType, typename BType>
CK_TILE_DEVICE void mfma_32x32x16([[maybe_unused]] ext_vector<CType, 16>& c,
                                  [[maybe_unused]] const ext_vector<AType, 8>& a,
                                  [[maybe_unused]] const ext_vector<BType, 8>& b)
{
    constexpr bool is_i8 = std::is_same_v<AType, int8_t> && std::is_same_v<BType, int8_t>;
    constexpr bool is_f8 = detail::is_fp8_input_v<AType> && detail::is_fp8_input_v<BType>;
    static_assert((is_i8 && std::is_same_v<CType, int32_t>) ||
                      (is_f8 && std::is_same_v<CType, float>),
                  "mfma 32x32x16: int8_t -> int32_t, or fp8_t/bf8_t -> float");
#if CK_TILE_AMD_DEVICE_PASS
#if CK_TILE_AMD_CDNA3
    constexpr bool a8 = std::is_same_v<AType, fp8_t>;
    constexpr bool b8 = std::is_same_v<BType, fp8_t>;
    if constexpr(is_i8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_i32_32x32x16_i8, i32x16_t, int64_t);
    else if constexpr(a8 && b8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8, f32x16_t, int64_t);
    else if constexpr(a8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8, f32x16_t, int64_t);
    else if constexpr(b8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8, f32x16_t, int64_t);
    else
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8, f32x16_t, int64_t);
#else
    static_assert(detail::unavailable_v<CType, AType, BType>,
                  "mfma 32x32x16 (int8, fp8, bf8) needs gfx940 (CDNA3)");
#endif
#endif
}

/// C(16x16) += A(16x32) * B(32x16) on gfx940: int8 inputs with i32 accumulation, or fp8/bf8
/// (any mix) with f32 accumulation. 8 K values per lane, 4 accumulators per lane.
template <typename CType, typename AType, typename BType>
CK_TILE_DEVICE void mfma_16x16x32([[maybe_unused]] ext_vector<CType, 4>& c,
                                  [[maybe_unused]] const ext_vector<AType, 8>& a,
                                  [[maybe_unused]] const ext_vector<BType, 8>& b)
{
    constexpr bool is_i8 = std::is_same_v<AType, int8_t> && std::is_same_v<BType, int8_t>;
    constexpr bool is_f8 = detail::is_fp8_input_v<AType> && detail::is_fp8_input_v<BType>;
    static_assert((is_i8 && std::is_same_v<CType, int32_t>) ||
                      (is_f8 && std::is_same_v<CType, float>),
                  "mfma 16x16x32: int8_t -> int32_t, or fp8_t/bf8_t -> float");
#if CK_TILE_AMD_DEVICE_PASS
#if CK_TILE_AMD_CDNA3
    constexpr bool a8 = std::is_same_v<AType, fp8_t>;
    constexpr bool b8 = std::is_same_v<BType, fp8_t>;
    if constexpr(is_i8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_i32_16x16x32_i8, i32x4_t, int64_t);
    else if constexpr(a8 && b8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8, f32x4_t, int64_t);
    else if constexpr(a8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8, f32x4_t, int64_t);
    else if constexpr(b8)
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8, f32x4_t, int64_t);
    else
        CK_TILE_MFMA(__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8, f32x4_t, int64_t);
#else
    static_assert(detail::unavailable_v<CType, AType, BType>,
                  "mfma 16x16x32 (int8, fp8, bf8) needs gfx940 (CDNA3)");
#endif
#endif
}

#undef CK_TILE_MFMA
#undef CK_TILE_AMD_DEVICE_PASS
#undef CK_TILE_AMD_CDNA2
#undef CK_TILE_AMD_CDNA3

} // namespace amd
} // namespace arch
} // namespace ck_tile
