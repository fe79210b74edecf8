// SPDX-License-Identifier: MIT
// The Hopper atoms' host-visible parts against the PTX ISA and the CUDA driver documentation:
// wgmma shared-memory descriptor bits, the swizzle address function, the accumulator and A
// fragment layouts (each element held exactly once; the tile distribution encoding agrees with
// the formula), atom shapes, and the tensor-map spec checks.
#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/arch/nvidia/wgmma_traits.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/host/tma_descriptor.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace ck_tile;

namespace {

// ---- wgmma shared-memory descriptor -------------------------------------------------------

TEST(WgmmaSmemDescriptor, FieldsSitWhereThePtxIsaPutsThem)
{
    // start 0x1230 -> 0x123 in bits 0-13; LBO 16 -> 1 in 16-29; SBO 1024 -> 64 in 32-45;
    // base offset 5 in 49-51; 128-byte swizzle = 1 in 62-63.
    const uint64_t d        = wgmma_smem_descriptor::make(0x1230, 16, 1024, smem_swizzle::b128, 5);
    const uint64_t expected = 0x123ull | (1ull << 16) | (64ull << 32) | (5ull << 49) | (1ull << 62);
    EXPECT_EQ(d, expected);
}

TEST(WgmmaSmemDescriptor, SwizzleCodesFollowTheDescriptorOrderNotTheTensorMapOrder)
{
    EXPECT_EQ(wgmma_smem_descriptor::make(0, 0, 0, smem_swizzle::none) >> 62, 0u);
    EXPECT_EQ(wgmma_smem_descriptor::make(0, 0, 0, smem_swizzle::b128) >> 62, 1u);
    EXPECT_EQ(wgmma_smem_descriptor::make(0, 0, 0, smem_swizzle::b64) >> 62, 2u);
    EXPECT_EQ(wgmma_smem_descriptor::make(0, 0, 0, smem_swizzle::b32) >> 62, 3u);
}

TEST(WgmmaSmemDescriptor, FieldsDoNotBleedIntoReservedBits)
{
    // The largest encodable values fill their fields exactly; reserved bits 14-15, 30-31,
    // 46-48 and 52-61 stay clear.
    const uint32_t max = ((1u << 14) - 1u) << 4;
    const uint64_t d   = wgmma_smem_descriptor::make(max, max, max, smem_swizzle::b32, 7);
    const uint64_t reserved =
        (3ull << 14) | (3ull << 30) | (7ull << 46) | (((1ull << 10) - 1ull) << 52);
    EXPECT_EQ(d & reserved, 0u);
    EXPECT_EQ(wgmma_smem_descriptor::start_address(d), max);
    EXPECT_EQ(wgmma_smem_descriptor::lbo_bytes(d), max);
    EXPECT_EQ(wgmma_smem_descriptor::sbo_bytes(d), max);
    EXPECT_EQ(wgmma_smem_descriptor::base_offset(d), 7u);
    EXPECT_EQ(wgmma_smem_descriptor::swizzle(d), smem_swizzle::b32);
}

TEST(WgmmaSmemDescriptor, KMajorSwizzledTileAndKStepAdvance)
{
    // 128-byte rows, 128-byte swizzle: 8-row groups 1024 bytes apart; LBO encoded as 1.
    constexpr uint64_t d = wgmma_smem_descriptor::make_k_major(0x8000, smem_swizzle::b128, 128);
    static_assert(wgmma_smem_descriptor::sbo_bytes(d) == 1024);
    static_assert(wgmma_smem_descriptor::lbo_bytes(d) == 16);
    static_assert(wgmma_smem_descriptor::start_address(d) == 0x8000);
    // Three K steps of 32 bytes on: only the start address moves.
    constexpr uint64_t d3 = wgmma_smem_descriptor::advance(d, 96);
    static_assert(wgmma_smem_descriptor::start_address(d3) == 0x8000 + 96);
    static_assert((d3 & ~uint64_t{0x3fff}) == (d & ~uint64_t{0x3fff}));
    SUCCEED();
}

// ---- swizzle ------------------------------------------------------------------------------

TEST(SmemSwizzle, SpansAndRepeats)
{
    EXPECT_EQ(smem_swizzle_span_bytes(smem_swizzle::b32), 32u);
    EXPECT_EQ(smem_swizzle_span_bytes(smem_swizzle::b64), 64u);
    EXPECT_EQ(smem_swizzle_span_bytes(smem_swizzle::b128), 128u);
    EXPECT_EQ(smem_swizzle_repeat_bytes(smem_swizzle::b128), 1024u);
    EXPECT_EQ(smem_swizzle_repeat_bytes(smem_swizzle::b64), 512u);
    EXPECT_EQ(smem_swizzle_repeat_bytes(smem_swizzle::b32), 256u);
    // The mode of a row span, which tensor maps and descriptors of one tile must agree on.
    for(smem_swizzle s : {smem_swizzle::b32, smem_swizzle::b64, smem_swizzle::b128})
        EXPECT_EQ(smem_swizzle_for_span(smem_swizzle_span_bytes(s)), s);
    EXPECT_EQ(smem_swizzle_for_span(16), smem_swizzle::none);
    EXPECT_EQ(smem_swizzle_for_span(96), smem_swizzle::none);
}

TEST(SmemSwizzle, Chunk128IsXoredWithRowModulo8)
{
    // Row r of 128 bytes, 16-byte chunk c, byte b lands at r*128 + ((c ^ (r % 8)) * 16) + b.
    for(uint32_t r = 0; r < 24; ++r)
        for(uint32_t c = 0; c < 8; ++c)
            for(uint32_t b = 0; b < 16; b += 5)
                ASSERT_EQ(smem_swizzle_offset(smem_swizzle::b128, r * 128 + c * 16 + b),
                          r * 128 + ((c ^ (r % 8)) * 16) + b);
}

TEST(SmemSwizzle, Chunk64And32FollowThe128ByteLineIndex)
{
    // 64-byte rows: two per 128-byte line, chunk (0..3) XORed with line % 4.
    for(uint32_t r = 0; r < 32; ++r)
        for(uint32_t c = 0; c < 4; ++c)
            ASSERT_EQ(smem_swizzle_offset(smem_swizzle::b64, r * 64 + c * 16),
                      r * 64 + ((c ^ ((r / 2) % 4)) * 16));
    // 32-byte rows: four per line, chunk (0..1) XORed with line % 2.
    for(uint32_t r = 0; r < 32; ++r)
        for(uint32_t c = 0; c < 2; ++c)
            ASSERT_EQ(smem_swizzle_offset(smem_swizzle::b32, r * 32 + c * 16),
                      r * 32 + ((c ^ ((r / 4) % 2)) * 16));
}

TEST(SmemSwizzle, IsAPermutationOfEachRepeatAndAnInvolution)
{
    for(auto s : {smem_swizzle::none, smem_swizzle::b32, smem_swizzle::b64, smem_swizzle::b128})
    {
        const uint32_t repeat = s == smem_swizzle::none ? 1024u : smem_swizzle_repeat_bytes(s);
        std::vector<int> seen(repeat, 0);
        for(uint32_t o = 0; o < repeat; ++o)
        {
            const uint32_t p = smem_swizzle_offset(s, o);
            ASSERT_LT(p, repeat);
            ++seen[p];
            ASSERT_EQ(smem_swizzle_offset(s, p), o);
        }
        for(uint32_t o = 0; o < repeat; ++o)
            ASSERT_EQ(seen[o], 1);
    }
    EXPECT_EQ(smem_swizzle_offset(smem_swizzle::none, 12345u), 12345u);
}

// ---- atom shapes and fragment layouts -------------------------------------------------------

TEST(WgmmaTraits, ShapesPerTypePair)
{
    static_assert(wgmma_traits<half_t, half_t, float, 128>::k == 16);
    static_assert(wgmma_traits<bf16_t, bf16_t, float, 256>::k == 16);
    static_assert(wgmma_traits<fp8_t, bf8_t, float, 128>::k == 32);
    static_assert(wgmma_traits<tf32_t, tf32_t, float, 64>::k == 8);
    static_assert(wgmma_traits<int8_t, int8_t, int32_t, 64>::k == 32);
    static_assert(wgmma_traits<half_t, half_t, float, 256>::c_per_thread == 128);
    static_assert(wgmma_traits<half_t, half_t, float, 64>::a_per_reg == 2);
    static_assert(wgmma_traits<fp8_t, fp8_t, float, 64>::a_per_reg == 4);
    static_assert(wgmma_traits<half_t, half_t, float, 64>::mn_major_supported);
    static_assert(!wgmma_traits<fp8_t, fp8_t, float, 64>::mn_major_supported);
    SUCCEED();
}

template <index_t N>
void expect_accumulators_cover_tile_once()
{
    std::vector<int> count(64 * N, 0);
    for(index_t t = 0; t < 128; ++t)
        for(index_t i = 0; i < N / 2; ++i)
        {
            const auto c = wgmma_accumulator_coord(t, i);
            ASSERT_GE(c.row, 0);
            ASSERT_LT(c.row, 64);
            ASSERT_GE(c.col, 0);
            ASSERT_LT(c.col, N);
            ++count[static_cast<size_t>(c.row * N + c.col)];
        }
    for(int c : count)
        ASSERT_EQ(c, 1);
}

TEST(WgmmaAccumulatorLayout, EachElementHeldOnce)
{
    expect_accumulators_cover_tile_once<8>();
    expect_accumulators_cover_tile_once<64>();
    expect_accumulators_cover_tile_once<128>();
    expect_accumulators_cover_tile_once<256>();
}

TEST(WgmmaAccumulatorLayout, PtxIsaExamples)
{
    // Thread 0: d0, d1 at (0, 0), (0, 1); d2, d3 at (8, 0), (8, 1); d4 at (0, 8).
    EXPECT_EQ(wgmma_accumulator_coord(0, 0).row, 0);
    EXPECT_EQ(wgmma_accumulator_coord(0, 1).col, 1);
    EXPECT_EQ(wgmma_accumulator_coord(0, 2).row, 8);
    EXPECT_EQ(wgmma_accumulator_coord(0, 4).col, 8);
    // Thread 37 = warp 1, lane 5: row 16 + 1, columns 2, 3.
    EXPECT_EQ(wgmma_accumulator_coord(37, 0).row, 17);
    EXPECT_EQ(wgmma_accumulator_coord(37, 0).col, 2);
    EXPECT_EQ(wgmma_accumulator_coord(37, 3).row, 25);
    EXPECT_EQ(wgmma_accumulator_coord(37, 3).col, 3);
}

template <index_t N>
void expect_encoding_matches_formula()
{
    constexpr auto dstr = make_static_tile_distribution(wgmma_accumulator_encoding<N>{});
    static_assert(decltype(dstr)::NDimP == 2 && decltype(dstr)::NDimY == 3);
    static_assert(dstr.get_num_of_element_per_thread() == N / 2);
    for(index_t warp = 0; warp < 4; ++warp)
        for(index_t lane = 0; lane < 32; ++lane)
            for(index_t i = 0; i < N / 2; ++i)
            {
                const auto ys = make_multi_index(i / 4, (i / 2) % 2, i % 2);
                const auto x  = dstr.calculate_index(make_multi_index(warp, lane), ys);
                const auto f  = wgmma_accumulator_coord(warp * 32 + lane, i);
                ASSERT_EQ(x[0], f.row) << "warp " << warp << " lane " << lane << " i " << i;
                ASSERT_EQ(x[1], f.col) << "warp " << warp << " lane " << lane << " i " << i;
                ASSERT_EQ(dstr.get_ys_to_d_descriptor().calculate_offset(ys), i);
            }
}

TEST(WgmmaAccumulatorLayout, TileDistributionEncodingAgreesWithFormula)
{
    expect_encoding_matches_formula<16>();
    expect_encoding_matches_formula<64>();
    expect_encoding_matches_formula<256>();
}

template <typename AType>
void expect_a_fragment_covers_tile_once()
{
    constexpr index_t k   = 32 / static_cast<index_t>(sizeof(AType));
    constexpr index_t per = 4 * (4 / static_cast<index_t>(sizeof(AType)));
    std::vector<int> count(64 * k, 0);
    for(index_t t = 0; t < 128; ++t)
        for(index_t e = 0; e < per; ++e)
        {
            const auto c = wgmma_a_fragment_coord<AType>(t, e);
            ASSERT_GE(c.row, 0);
            ASSERT_LT(c.row, 64);
            ASSERT_GE(c.col, 0);
            ASSERT_LT(c.col, k);
            ++count[static_cast<size_t>(c.row * k + c.col)];
        }
    for(int c : count)
        ASSERT_EQ(c, 1);
}

TEST(WgmmaAFragmentLayout, EachElementHeldOnce)
{
    expect_a_fragment_covers_tile_once<half_t>();
    expect_a_fragment_covers_tile_once<fp8_t>();
    expect_a_fragment_covers_tile_once<tf32_t>();
}

TEST(WgmmaAFragmentLayout, F16MatchesTheM16N8K16Pattern)
{
    // Lane 6 of warp 0 (group 1, thread-in-group 2): a0,a1 at (1, 4..5), a2,a3 at (9, 4..5),
    // a4,a5 at (1, 12..13), a6,a7 at (9, 12..13).
    const index_t rows[8] = {1, 1, 9, 9, 1, 1, 9, 9};
    const index_t cols[8] = {4, 5, 4, 5, 12, 13, 12, 13};
    for(index_t e = 0; e < 8; ++e)
    {
        EXPECT_EQ(wgmma_a_fragment_coord<half_t>(6, e).row, rows[e]);
        EXPECT_EQ(wgmma_a_fragment_coord<half_t>(6, e).col, cols[e]);
    }
}

// ---- tensor-map specs ---------------------------------------------------------------------

alignas(16) const uint16_t tensor_storage[16] = {};

tma_tile_spec good_spec()
{
    return make_tma_tile_spec_2d(tensor_storage, 100, 150, 160, 32, 64, smem_swizzle::b128);
}

TEST(TmaTileSpec, AGoodSpecPasses)
{
    const auto s = good_spec();
    EXPECT_EQ(tma_tile_spec_error(s), "");
    EXPECT_EQ(s.element, tma_element::u16);
    EXPECT_EQ(s.dims[0], 150u);
    EXPECT_EQ(s.dims[1], 100u);
    EXPECT_EQ(s.strides_bytes[1], 320u);
    EXPECT_EQ(s.box_bytes(), 32u * 64u * 2u);
}

TEST(TmaTileSpec, EachDocumentedRequirementIsNamed)
{
    const auto expect_error = [](tma_tile_spec s, const char* words) {
        const std::string e = tma_tile_spec_error(s);
        EXPECT_NE(e.find(words), std::string::npos) << "got: '" << e << "'";
    };
    auto s = good_spec();
    s.rank = 6;
    expect_error(s, "rank");
    s                = good_spec();
    s.global_address = reinterpret_cast<const uint8_t*>(tensor_storage) + 8;
    expect_error(s, "16-byte aligned");
    s                  = good_spec();
    s.strides_bytes[1] = 328;
    expect_error(s, "multiple of 16");
    s        = good_spec();
    s.box[1] = 257;
    expect_error(s, "box extent");
    s        = good_spec();
    s.box[0] = 4; // 8 bytes
    expect_error(s, "multiple of 16 bytes");
    s         = good_spec();
    s.swizzle = smem_swizzle::b64; // 128-byte inner extent
    expect_error(s, "swizzle span");
    s              = good_spec();
    s.oob_fill_nan = true;
    expect_error(s, "floating-point");
    s         = good_spec();
    s.dims[1] = 0;
    expect_error(s, "size 0");
    s                    = good_spec();
    s.element_strides[1] = 9;
    expect_error(s, "element stride");
}

TEST(TmaTileSpec, ElementTypes)
{
    static_assert(tma_element_of<half_t>() == tma_element::f16);
    static_assert(tma_element_of<bf16_t>() == tma_element::bf16);
    static_assert(tma_element_of<fp8_t>() == tma_element::u8);
    static_assert(tma_element_of<float>() == tma_element::f32);
    static_assert(tma_element_of<int8_t>() == tma_element::u8);
    static_assert(tma_element_bytes(tma_element::bf16) == 2);
    static_assert(tma_element_bytes(tma_element::f64) == 8);
    SUCCEED();
}

TEST(TmaTileSpec, EncodingABadSpecFailsWithTheReasonBeforeAnyDriverCall)
{
    auto s   = good_spec();
    s.box[1] = 0;
    tma_descriptor d{};
    std::string why;
    EXPECT_NE(encode_tma_descriptor(s, &d, &why), hipSuccess);
    EXPECT_NE(why.find("box extent"), std::string::npos) << why;
    EXPECT_THROW(make_tma_descriptor(s), hip_error);
}

} // namespace
