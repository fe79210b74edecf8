// SPDX-License-Identifier: MIT
// The tile GEMM's pieces on the host: the shared-memory layout is lds_xor_swizzle.hpp's and
// reads an mma fragment without bank conflicts; the block GEMM's fragment loads, emulated lane
// by lane over explicit warp and lane indices, hand every lane the elements its warp GEMM
// encoding names; the epilogue visits each element of a warp tile once; the partitioner's
// grouped order is a bijection; support reasons and split-K workspace sizes.
#include "ck_tile/core/tensor/lds_xor_swizzle.hpp"
#include "ck_tile/ops/gemm/gemm_tile_kernel.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace ck_tile;

namespace {

template <typename T, index_t Outer, index_t Inner>
void expect_lds_tile_is_the_xor_swizzle()
{
    using tile          = gemm_lds_tile<T, Outer, Inner>;
    constexpr auto desc = make_xor_swizzled_lds_descriptor<Outer, Inner, tile::pack, tile::layer>();
    std::vector<int> hit(tile::elements, 0);
    for(index_t o = 0; o < Outer; ++o)
        for(index_t i = 0; i < Inner; ++i)
        {
            const index_t off = tile::offset(o, i);
            ASSERT_EQ(off, desc.calculate_offset(make_multi_index(o, i))) << o << "," << i;
            ++hit[static_cast<size_t>(off)];
        }
    for(int h : hit)
        ASSERT_EQ(h, 1);
}

TEST(GemmTileLds, OffsetsAreTheXorSwizzledDescriptor)
{
    expect_lds_tile_is_the_xor_swizzle<half_t, 128, 32>(); // 64-byte rows: two per line
    expect_lds_tile_is_the_xor_swizzle<half_t, 64, 64>();  // 128-byte rows
    expect_lds_tile_is_the_xor_swizzle<half_t, 32, 128>(); // K x rows, 256-byte rows
    expect_lds_tile_is_the_xor_swizzle<std::int8_t, 64, 64>();
    expect_lds_tile_is_the_xor_swizzle<float, 64, 32>();
}

TEST(GemmTileLds, AnMmaFragmentReadTouchesEveryBankOnce)
{
    // Lanes (g, t) read the 32-bit word t of rows g = 0..7 at one K offset (an m16n8k16 A
    // fragment register): 32 words, 32 banks.
    using tile = gemm_lds_tile<half_t, 128, 32>;
    for(index_t k0 = 0; k0 < 32; k0 += 8)
        for(index_t r0 = 0; r0 < 128; r0 += 8)
        {
            std::set<index_t> banks;
            for(index_t g = 0; g < 8; ++g)
                for(index_t t = 0; t < 4; ++t)
                    banks.insert(tile::offset(r0 + g, k0 + 2 * t) * 2 / 4 % 32);
            EXPECT_EQ(banks.size(), 32u) << "rows " << r0 << ", k " << k0;
        }
}

/// Emulates every lane of every warp loading its fragments from shared tiles filled from
/// random A (M x K) and B (N x K), and checks each register against the encoding's element.
template <typename Problem, typename Policy>
void expect_fragments_match_encodings()
{
    using bg            = gemm_tile_block_gemm<Problem, Policy>;
    using P             = typename Policy::template of<Problem>;
    using A             = typename Problem::ADataType;
    using B             = typename Problem::BDataType;
    constexpr index_t M = Policy::BlockM, N = Policy::BlockN, K = Policy::BlockK;
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> val(-100, 100);
    std::vector<float> a(M * K), b(N * K);
    std::vector<A> lds_a(P::a_lds::elements);
    std::vector<B> lds_b(P::b_lds::elements);
    for(index_t m = 0; m < M; ++m)
        for(index_t k = 0; k < K; ++k)
        {
            // the value as stored (fp8 rounds), so the comparison is exact
            a[m * K + k] = type_convert<float>(type_convert<A>(static_cast<float>(val(rng)) / 4));
            const index_t off =
                Problem::a_k_contiguous ? P::a_lds::offset(m, k) : P::a_lds::offset(k, m);
            lds_a[off] = type_convert<A>(a[m * K + k]);
        }
    for(index_t n = 0; n < N; ++n)
        for(index_t k = 0; k < K; ++k)
        {
            b[n * K + k] = type_convert<float>(type_convert<B>(static_cast<float>(val(rng)) / 4));
            const index_t off =
                Problem::b_k_contiguous ? P::b_lds::offset(n, k) : P::b_lds::offset(k, n);
            lds_b[off] = type_convert<B>(b[n * K + k]);
        }
    using wg = typename bg::warp_gemm_t;
    for(index_t warp = 0; warp < Policy::WarpsM * Policy::WarpsN; ++warp)
        for(index_t lane = 0; lane < Policy::WarpSize; ++lane)
            for(index_t s = 0; s < P::KSteps; ++s)
            {
                const index_t k0 = s * bg::atom::k;
                for(index_t i = 0; i < bg::MIter; ++i)
                {
                    const index_t m0 =
                        (warp / Policy::WarpsN) * Policy::WarpTileM + i * bg::atom::m;
                    const auto f = bg::load_a(lds_a.data(), m0, k0, lane);
                    for(index_t e = 0; e < wg::a_per_lane; ++e)
                    {
                        const auto x = mma_fragment_coordinate<typename wg::a_encoding>(lane, e);
                        ASSERT_EQ(type_convert<float>(f[e]), a[(m0 + x[0]) * K + k0 + x[1]]);
                    }
                }
                for(index_t j = 0; j < bg::NIter; ++j)
                {
                    const index_t n0 =
                        (warp % Policy::WarpsN) * Policy::WarpTileN + j * bg::atom::n;
                    const auto f = bg::load_b(lds_b.data(), n0, k0, lane);
                    for(index_t e = 0; e < wg::b_per_lane; ++e)
                    {
                        const auto x = mma_fragment_coordinate<typename wg::b_encoding>(lane, e);
                        ASSERT_EQ(type_convert<float>(f[e]), b[(n0 + x[0]) * K + k0 + x[1]]);
                    }
                }
            }
}

using row     = gemm_layout::row;
using col     = gemm_layout::col;
using pol_128 = gemm_tile_policy<128, 128, 32, 2, 2, 3, gemm_schedule::intrawave>;
using pol_64  = gemm_tile_policy<64, 64, 64, 2, 2, 3, gemm_schedule::interwave>;

TEST(GemmTileBlockGemm, FragmentsFromSharedMemoryMatchTheWarpGemmEncodings)
{
    expect_fragments_match_encodings<gemm_tile_problem<half_t, half_t, half_t, float, row, col>,
                                     pol_128>();
    expect_fragments_match_encodings<gemm_tile_problem<half_t, half_t, half_t, float, col, row>,
                                     pol_128>();
    expect_fragments_match_encodings<gemm_tile_problem<bf16_t, bf16_t, float, float, row, row>,
                                     pol_64>();
    expect_fragments_match_encodings<
        gemm_tile_problem<std::int8_t, std::int8_t, std::int32_t, std::int32_t, col, col>,
        pol_64>();
    expect_fragments_match_encodings<gemm_tile_problem<fp8_t, bf8_t, half_t, float, row, col>,
                                     pol_64>();
}

TEST(GemmTileEpilogue, EveryElementOfAWarpTileOnceAndMaskedAtTheEdge)
{
    using prob = gemm_tile_problem<half_t, half_t, half_t, float, row, col>;
    using epi  = gemm_tile_epilogue<prob, pol_128, true>;
    using bg   = gemm_tile_block_gemm<prob, pol_128>;
    typename bg::accumulators acc;
    bg::clear(acc);
    std::vector<int> hit(pol_128::WarpTileM * pol_128::WarpTileN, 0);
    for(index_t lane = 0; lane < pol_128::WarpSize; ++lane)
        epi::for_each(acc, 0, 0, 1000, 1000, lane, [&](std::int64_t r, std::int64_t c, float) {
            ++hit[static_cast<size_t>(r * pol_128::WarpTileN + c)];
        });
    for(int h : hit)
        EXPECT_EQ(h, 1);
    int inside = 0;
    for(index_t lane = 0; lane < pol_128::WarpSize; ++lane)
        epi::for_each(acc, 0, 0, 5, 3, lane, [&](std::int64_t r, std::int64_t c, float) {
            EXPECT_TRUE(r < 5 && c < 3);
            ++inside;
        });
    EXPECT_EQ(inside, 15);
}

TEST(GemmTilePartitioner, GroupedOrderVisitsEveryTileOnce)
{
    for(std::int64_t tm : {1, 7, 8, 9, 33})
        for(std::int64_t tn : {1, 5, 16})
        {
            gemm_tile_partitioner<8> part{tm, tn};
            std::set<std::pair<std::int64_t, std::int64_t>> seen;
            for(std::int64_t b = 0; b < tm * tn; ++b)
            {
                const auto t = part(b);
                ASSERT_TRUE(t.m >= 0 && t.m < tm && t.n >= 0 && t.n < tn);
                seen.insert({t.m, t.n});
            }
            EXPECT_EQ(static_cast<std::int64_t>(seen.size()), tm * tn);
            if(tm >= 8 && tn >= 2) // blocks 0..7 walk down a group of tile rows first
            {
                EXPECT_EQ(part(1).m, 1);
            }
        }
}

using f16_rc           = gemm_tile_problem<half_t, half_t, half_t, float, row, col>;
using f16_cr           = gemm_tile_problem<half_t, half_t, half_t, float, col, row>;
using kernel_rc        = gemm_tile_kernel<f16_rc, pol_128, false, false>;
using kernel_cr_splitk = gemm_tile_kernel<f16_cr, pol_64, true, true>;

gemm_simt_host_args problem(std::int64_t m, std::int64_t n, std::int64_t k, bool a_row, bool b_row)
{
    gemm_simt_host_args h;
    h.m = m, h.n = n, h.k = k;
    h.a_stride_m = a_row ? k : 1, h.a_stride_k = a_row ? 1 : m;
    h.b_stride_k = b_row ? n : 1, h.b_stride_n = b_row ? 1 : k;
    h.c_stride_m = h.d_stride_m = n, h.c_stride_n = h.d_stride_n = 1;
    return h;
}

std::string why(const char* r) { return r ? r : ""; }

TEST(GemmTileSupport, ReasonsNameTheConstraint)
{
    auto h = problem(17, 33, 64, true, false);
    EXPECT_EQ(why(kernel_rc::why_unsupported(h)), "");
    h.k = 65, h.a_stride_m = 65, h.b_stride_n = 72; // K itself needs no multiple: masked tail
    EXPECT_NE(why(kernel_rc::why_unsupported(h)).find("lda is not a multiple"), std::string::npos);
    h.a_stride_m = 72, h.b_stride_n = 66;
    EXPECT_NE(why(kernel_rc::why_unsupported(h)).find("ldb is not a multiple"), std::string::npos);
    h.b_stride_n = 72;
    EXPECT_EQ(why(kernel_rc::why_unsupported(h)), "");
    h.batch_count = 2, h.batch_stride_a = 17 * 72 + 1;
    EXPECT_NE(why(kernel_rc::why_unsupported(h)).find("stride_a"), std::string::npos);
    h.batch_stride_a = 17 * 72;
    h.a = reinterpret_cast<const void*>(std::uintptr_t(0x1008)); // 8-byte, not 16-byte aligned
    EXPECT_NE(why(kernel_rc::why_unsupported(h)).find("A's pointer"), std::string::npos);
    h.a = reinterpret_cast<const void*>(std::uintptr_t(0x1010));
    EXPECT_EQ(why(kernel_rc::why_unsupported(h)), "");
    h.bias_kind = gemm_bias::per_row;
    EXPECT_NE(why(kernel_rc::why_unsupported(h)).find("no bias"), std::string::npos);
    // A 1 x 1 column-major A has leading dimension 1: not a multiple of 8 elements.
    EXPECT_NE(why(kernel_cr_splitk::why_unsupported(problem(1, 1, 1, false, true))), "");
}

TEST(GemmTileSplitK, SplitsAndWorkspaceFollowTheShape)
{
    // No split-K template: never a workspace.
    EXPECT_EQ(kernel_rc::k_splits(problem(16, 64, 8192, true, false)), 1);
    EXPECT_EQ(kernel_rc::workspace_bytes(problem(16, 64, 8192, true, false)), 0u);
    // One 64x64 output tile, 128 K tiles: 16 splits (the cap) of 8 tiles each.
    auto h = problem(64, 64, 8192, false, true);
    EXPECT_EQ(kernel_cr_splitk::k_splits(h), 16);
    EXPECT_EQ(kernel_cr_splitk::k_per_split(h), 512);
    EXPECT_EQ(kernel_cr_splitk::workspace_bytes(h), 16u * 64 * 64 * sizeof(float));
    h.batch_count = 3;
    EXPECT_EQ(kernel_cr_splitk::workspace_bytes(h),
              std::size_t(kernel_cr_splitk::k_splits(h)) * 3 * 64 * 64 * sizeof(float));
    // Enough tiles to fill the machine, or too little K: no split.
    EXPECT_EQ(kernel_cr_splitk::k_splits(problem(4096, 4096, 4096, false, true)), 1);
    EXPECT_EQ(kernel_cr_splitk::workspace_bytes(problem(4096, 4096, 4096, false, true)), 0u);
    EXPECT_EQ(kernel_cr_splitk::k_splits(problem(64, 64, 200, false, true)), 1);
    // Every split has work: splits * k_per_split covers K, and the last split starts inside K.
    for(std::int64_t k : {256, 257, 1000, 4097, 65536})
    {
        const auto p           = problem(100, 30, k, false, true);
        const std::int64_t s   = kernel_cr_splitk::k_splits(p),
                           per = kernel_cr_splitk::k_per_split(p);
        EXPECT_GE(s * per, k);
        EXPECT_LT((s - 1) * per, k) << "K " << k;
    }
}

} // namespace
