// SPDX-License-Identifier: MIT
// What the Hopper warpgroup MMA (wgmma.mma_async) instructions are, without the instructions:
// the shared-memory matrix descriptor, the shape and types of each atom, and which thread of the
// 128-thread warpgroup holds which element of the A fragment and of the accumulator.
// Host and device code: the descriptor bits and layouts are tested on the CPU.
//
// The instruction wrappers are in wgmma.hpp (device only).
#pragma once

#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

// ---- shared-memory matrix descriptor ---------------------------------------------------------

/// Where an operand's elements run contiguously in shared memory: along K (a row-major A,
/// a "column-major" B, i.e. B stored as N rows of K) or along M/N. The value is the
/// instruction's imm-trans operand: only 16-bit types may be MN-major; every other type reads
/// K-major operands only (PTX ISA: "wgmma.mma_async", imm-trans-a/imm-trans-b).
enum class wgmma_major : uint32_t
{
    k  = 0,
    mn = 1,
};

/// scale-d: 0 computes D = A * B (the first K step of a tile, no zeroing needed), 1 computes
/// D = A * B + D.
enum class wgmma_scale_d : uint32_t
{
    zero = 0,
    one  = 1,
};

/// imm-scale-a / imm-scale-b: 1 or -1 (negate the operand); floating-point types only.
enum class wgmma_scale_in : int
{
    one = 1,
    neg = -1,
};

/// The 64-bit descriptor that names a wgmma operand in shared memory (PTX ISA: "Matrix
/// Descriptor Format" of the asynchronous warpgroup-level matrix shared memory layout):
///   bits  0-13  start address >> 4
///   bits 16-29  leading dimension byte offset (LBO) >> 4
///   bits 32-45  stride dimension byte offset (SBO) >> 4
///   bits 49-51  matrix base offset (the pattern phase when the start address is not on a
///               swizzle repeat boundary; 0 for the canonical layouts)
///   bits 62-63  swizzle mode: 0 none, 1 128-byte, 2 64-byte, 3 32-byte
/// The operand is made of 8-row "core matrices", each row 16 bytes (no swizzle) or one
/// swizzle span. K-major: SBO is the distance between core matrices adjacent in M/N (8 rows
/// apart); LBO the distance between core matrices adjacent in K (unused by the swizzled
/// layouts, whose K extent per instruction, 32 bytes, stays inside one swizzle row).
/// MN-major swizzled: the other way round, each row holding one swizzle span of M/N indices:
/// LBO is the distance between such groups along M/N, SBO between groups of 8 K rows.
struct wgmma_smem_descriptor
{
    static constexpr uint32_t field_mask = (1u << 14) - 1u;

    /// The 2-bit code of a swizzle mode (the descriptor's order is not TMA's).
    CK_TILE_HOST_DEVICE static constexpr uint64_t swizzle_code(smem_swizzle s)
    {
        return s == smem_swizzle::b128  ? 1u
               : s == smem_swizzle::b64 ? 2u
               : s == smem_swizzle::b32 ? 3u
                                        : 0u;
    }

    /// @pre start_address, lbo_bytes, sbo_bytes are multiples of 16 and below 2^18 (the shared
    ///      window is 228 KB); base_offset < 8.
    /// @post the fields above, each read back by the accessors.
    CK_TILE_HOST_DEVICE static constexpr uint64_t make(uint32_t start_address, uint32_t lbo_bytes,
                                                       uint32_t sbo_bytes, smem_swizzle swizzle,
                                                       uint32_t base_offset = 0)
    {
        return (static_cast<uint64_t>((start_address >> 4) & field_mask)) |
               (static_cast<uint64_t>((lbo_bytes >> 4) & field_mask) << 16) |
               (static_cast<uint64_t>((sbo_bytes >> 4) & field_mask) << 32) |
               (static_cast<uint64_t>(base_offset & 7u) << 49) | (swizzle_code(swizzle) << 62);
    }

    /// The descriptor of the K-major swizzled canonical layout for a tile whose rows (one per M
    /// or N index) are `row_bytes` apart: a TMA box whose inner dimension is one swizzle span
    /// lands exactly like this. 8-row groups are 8 rows apart, so SBO = 8 * row_bytes; LBO is
    /// ignored by these layouts and set to 16 bytes (encoded 1).
    /// @pre swizzle != none (the unswizzled layout stores 8 x 16-byte core matrices whose
    ///      arrangement the caller states through make()); start_address on a repeat boundary
    ///      of the mode, or advanced from one along K inside the first swizzle row.
    CK_TILE_HOST_DEVICE static constexpr uint64_t
    make_k_major(uint32_t start_address, smem_swizzle swizzle, uint32_t row_bytes)
    {
        return make(start_address, 16u, 8u * row_bytes, swizzle);
    }

    /// The same operand `bytes` further on (the next K step inside a swizzle row is 32 bytes
    /// further: the hardware applies the swizzle to the computed address, so advancing the
    /// start address is enough while the tile base stays on a repeat boundary).
    /// @pre bytes % 16 == 0 and the start address field does not overflow.
    CK_TILE_HOST_DEVICE static constexpr uint64_t advance(uint64_t desc, uint32_t bytes)
    {
        // The start address field is the low word's lowest 14 bits and cannot carry out of it
        // (the shared window is below 2^18 bytes): a 32-bit add leaves the high word alone.
        return (desc & ~uint64_t{0xffffffffu}) |
               static_cast<uint32_t>(static_cast<uint32_t>(desc) + (bytes >> 4));
    }

    CK_TILE_HOST_DEVICE static constexpr uint32_t start_address(uint64_t d)
    {
        return static_cast<uint32_t>(d & field_mask) << 4;
    }
    CK_TILE_HOST_DEVICE static constexpr uint32_t lbo_bytes(uint64_t d)
    {
        return static_cast<uint32_t>((d >> 16) & field_mask) << 4;
    }
    CK_TILE_HOST_DEVICE static constexpr uint32_t sbo_bytes(uint64_t d)
    {
        return static_cast<uint32_t>((d >> 32) & field_mask) << 4;
    }
    CK_TILE_HOST_DEVICE static constexpr uint32_t base_offset(uint64_t d)
    {
        return static_cast<uint32_t>((d >> 49) & 7u);
    }
    CK_TILE_HOST_DEVICE static constexpr smem_swizzle swizzle(uint64_t d)
    {
        const uint32_t code = static_cast<uint32_t>(d >> 62);
        return code == 1u   ? smem_swizzle::b128
               : code == 2u ? smem_swizzle::b64
               : code == 3u ? smem_swizzle::b32
                            : smem_swizzle::none;
    }
};

// ---- atom traits -------------------------------------------------------------------------------

/// Operand type tag for tf32 operands: 32-bit containers of which the instruction reads the
/// sign, exponent and 10 high mantissa bits (a float's layout; TMA loads them as float).
struct tf32_t
{
    float value;
};

namespace detail {
template <typename A, typename B, typename C>
struct wgmma_type_combo
{
    static constexpr bool f16   = std::is_same_v<A, half_t> && std::is_same_v<B, half_t>;
    static constexpr bool bf16  = std::is_same_v<A, bf16_t> && std::is_same_v<B, bf16_t>;
    static constexpr bool is8   = (std::is_same_v<A, fp8_t> || std::is_same_v<A, bf8_t>);
    static constexpr bool fp8   = is8 && (std::is_same_v<B, fp8_t> || std::is_same_v<B, bf8_t>);
    static constexpr bool tf32  = std::is_same_v<A, tf32_t> && std::is_same_v<B, tf32_t>;
    static constexpr bool int8  = std::is_same_v<A, int8_t> && std::is_same_v<B, int8_t>;
    static constexpr bool f32_c = std::is_same_v<C, float>;
    static constexpr bool s32_c = std::is_same_v<C, int32_t>;
    static constexpr bool valid = ((f16 || bf16 || fp8 || tf32) && f32_c) || (int8 && s32_c);
};
} // namespace detail

/// Shape, types and fragment sizes of the warpgroup MMA D(64 x N) (+)= A(64 x K) * B(K x N).
/// AType/BType: half_t, bf16_t (K = 16), fp8_t/bf8_t in any pairing (K = 32), tf32_t (K = 8),
/// int8_t (K = 32, CType int32_t); CType float otherwise. Every K step is 32 bytes of A and of
/// B per row, whatever the type.
template <typename AType, typename BType, typename CType, index_t N>
struct wgmma_traits
{
    using combo = detail::wgmma_type_combo<AType, BType, CType>;
    static_assert(combo::valid, "wgmma: no instruction takes these A, B, C types (f16/bf16/tf32/"
                                "e4m3/e5m2 -> float, s8 -> int32_t)");
    // N: a multiple of 8 up to 256; the integer forms take 8, 16, 24 and multiples of 16 above.
    static_assert(N >= 8 && N <= 256 && N % 8 == 0 && (!combo::int8 || N <= 32 || N % 16 == 0),
                  "wgmma: N must be a multiple of 8 in [8, 256] (of 16 above 32 for s8)");

    using a_type = AType;
    using b_type = BType;
    using c_type = CType;

    static constexpr index_t m               = 64;
    static constexpr index_t n               = N;
    static constexpr index_t k               = 32 / static_cast<index_t>(sizeof(AType));
    static constexpr index_t k_bytes         = 32;
    static constexpr index_t warpgroup_size  = 128;
    static constexpr index_t c_per_thread    = m * n / warpgroup_size; // N / 2
    static constexpr index_t a_regs          = 4; // 64 x 32 bytes over 128 threads, 4 words each
    static constexpr index_t a_per_reg       = 4 / static_cast<index_t>(sizeof(AType));
    static constexpr bool mn_major_supported = combo::f16 || combo::bf16;
};

/// A (row, column) position inside an MMA tile.
struct wgmma_coord
{
    index_t row;
    index_t col;
};

/// Where accumulator register `i` (0 <= i < N/2) of warpgroup thread `t` (0..127) sits in the
/// 64 x N tile (PTX ISA: "Register Fragments and Shared Memory Matrix Layouts", wgmma D,
/// m64nNk*): warp w = t / 32 owns rows [16w, 16w + 16); within it lane l holds, for each
/// 8-column block j = i / 4, rows 16w + l/4 and 16w + l/4 + 8 (bit 1 of i) at columns
/// 8j + 2(l%4) and the next one (bit 0 of i). Same for float and int32 accumulators.
CK_TILE_HOST_DEVICE constexpr wgmma_coord wgmma_accumulator_coord(index_t t, index_t i)
{
    const index_t warp = t / 32, lane = t % 32;
    return {warp * 16 + ((i / 2) % 2) * 8 + lane / 4, (i / 4) * 8 + (lane % 4) * 2 + i % 2};
}

/// Where element `e` of warpgroup thread `t`'s A fragment (the register-A form: 4 words, e
/// counts a_per_reg elements per word, low bits first) sits in the 64 x K tile of A: word r
/// covers row 16w + l/4 (+8 when r is odd) and columns (r/2) * K/2 + (l%4) * a_per_reg + the
/// element's place in the word (PTX ISA: wgmma A register fragment, m64nNk*).
template <typename AType>
CK_TILE_HOST_DEVICE constexpr wgmma_coord wgmma_a_fragment_coord(index_t t, index_t e)
{
    constexpr index_t per_reg = 4 / static_cast<index_t>(sizeof(AType));
    constexpr index_t k       = 32 / static_cast<index_t>(sizeof(AType));
    const index_t warp = t / 32, lane = t % 32, r = e / per_reg, within = e % per_reg;
    return {warp * 16 + (r % 2) * 8 + lane / 4, (r / 2) * (k / 2) + (lane % 4) * per_reg + within};
}

/// The accumulator layout as a tile distribution over the warpgroup: P0 = warp within the
/// warpgroup (0..3), P1 = lane; X0 = M (64) split <warp 4, Y 2, lane/4 8>, X1 = N split
/// <Y N/8, lane%4 4, Y 2>; Ys in register order (8-column block, row half, column pair), so the
/// Y -> D descriptor gives the register index i of wgmma_accumulator_coord.
template <index_t N>
using wgmma_accumulator_encoding = tile_distribution_encoding<
    sequence<>, tuple<sequence<4, 2, 8>, sequence<N / 8, 4, 2>>, tuple<sequence<1>, sequence<1, 2>>,
    tuple<sequence<0>, sequence<2, 1>>, sequence<2, 1, 2>, sequence<0, 1, 2>>;

} // namespace ck_tile
