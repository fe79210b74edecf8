// SPDX-License-Identifier: MIT
// The norm kernel's host side: a kernel compiled for one normalization refuses the other, and
// the register caps (blocks per compute unit) each kind asks for.
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/ops/norm/norm_kernel.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using ck_tile::norm_kind;
template <typename T, int Rows, int Warps, int Repeat>
using shape = ck_tile::row_tile_shape<T, Rows, Warps, Repeat, 16>;
template <typename T, int Rows, int Warps, int Repeat, norm_kind K = norm_kind::either>
using kernel = ck_tile::norm_kernel<T, T, T, shape<T, Rows, Warps, Repeat>, K>;

alignas(16) ck_tile::half_t buffer[4096];

ck_tile::norm_host_args args(bool layernorm)
{
    ck_tile::norm_host_args h;
    h.x = h.weight = buffer;
    h.y            = buffer;
    h.rows = 1, h.cols = 1024, h.x_stride = h.y_stride = 1024;
    h.epsilon   = 1e-5f;
    h.layernorm = layernorm;
    return h;
}

TEST(NormKernelHost, AKernelOfOneKindRefusesTheOther)
{
    using either = kernel<ck_tile::half_t, 1, 8, 2>;
    using ln     = either::of_kind<norm_kind::layernorm>;
    using rms    = either::of_kind<norm_kind::rmsnorm>;
    for(bool layernorm : {false, true})
        EXPECT_EQ(either::why_unsupported(args(layernorm)), nullptr);
    EXPECT_EQ(ln::why_unsupported(args(true)), nullptr);
    EXPECT_EQ(rms::why_unsupported(args(false)), nullptr);
    ASSERT_NE(ln::why_unsupported(args(false)), nullptr);
    EXPECT_EQ(std::string(ln::why_unsupported(args(false))),
              "this kernel is compiled for LayerNorm, not RMSNorm");
    ASSERT_NE(rms::why_unsupported(args(true)), nullptr);
    EXPECT_EQ(std::string(rms::why_unsupported(args(true))),
              "this kernel is compiled for RMSNorm, not LayerNorm");
    EXPECT_TRUE(ln::is_layernorm(args(false)));
    EXPECT_FALSE(rms::is_layernorm(args(true)));
    EXPECT_TRUE(either::is_layernorm(args(true)));
}

TEST(NormKernelHost, RegisterCapsFollowTheElementsAThreadHolds)
{
    // Blocks a compute unit keeps of the shape's own cap, and of the raised one (5 blocks of
    // 256 threads where the warp is 32 lanes).
    using f16_x1  = kernel<ck_tile::half_t, 1, 8, 1>;
    using f16_x2  = kernel<ck_tile::half_t, 1, 8, 2>;
    const int own = f16_x2::Shape::MinBlocksPerCu, raised = 1280 / f16_x2::BlockSize;
    ASSERT_EQ(own * f16_x2::BlockSize, 1024);
    ASSERT_GT(raised, own);
    // One 16-byte vector per lane (8 16-bit elements, or 4 fp32 twice): raised for both kinds.
    EXPECT_EQ((f16_x1::of_kind<norm_kind::layernorm>::MinBlocksPerCu), raised);
    EXPECT_EQ((kernel<float, 1, 8, 2, norm_kind::rmsnorm>::MinBlocksPerCu), raised);
    // 16 fp16 elements: RMSNorm alone takes the raised cap, LayerNorm and either keep their own.
    EXPECT_EQ((f16_x2::of_kind<norm_kind::rmsnorm>::MinBlocksPerCu), raised);
    EXPECT_EQ((f16_x2::of_kind<norm_kind::layernorm>::MinBlocksPerCu), own);
    EXPECT_EQ(f16_x2::MinBlocksPerCu, own);
    // bf16's conversions spill under it.
    EXPECT_EQ((kernel<ck_tile::bf16_t, 1, 8, 2, norm_kind::rmsnorm>::MinBlocksPerCu), own);
    // Only 16-bit RMSNorm moves its weight loads after the statistics.
    EXPECT_TRUE((kernel<ck_tile::half_t, 1, 8, 2, norm_kind::rmsnorm>::WeightsAfterStatistics));
    EXPECT_FALSE((kernel<float, 1, 8, 2, norm_kind::rmsnorm>::WeightsAfterStatistics));
    EXPECT_FALSE((kernel<ck_tile::half_t, 1, 8, 2, norm_kind::layernorm>::WeightsAfterStatistics));
}

TEST(NormKernelHost, OnlyFittingLayerNormRowsAreStaged)
{
    using staged = ck_tile::norm_kernel<ck_tile::half_t, ck_tile::half_t, ck_tile::half_t,
                                        shape<ck_tile::half_t, 1, 8, 2>, norm_kind::either, 2>;
    EXPECT_EQ(staged::StagedRows, 8);
    EXPECT_TRUE(staged::StagedPath);
    EXPECT_TRUE(staged::staged(args(true)));
    EXPECT_FALSE(staged::staged(args(false))); // RMSNorm keeps its rows in registers
    auto fused           = args(true);
    fused.fused_residual = true;
    EXPECT_FALSE(staged::staged(fused));
    auto wide = args(true);
    wide.cols = staged::Shape::TileN + staged::Shape::Vector;
    EXPECT_FALSE(staged::staged(wide)); // rows longer than the tile take two passes
    EXPECT_FALSE(staged::of_kind<norm_kind::rmsnorm>::StagedPath);
    EXPECT_TRUE(staged::of_kind<norm_kind::layernorm>::staged(args(true)));
    EXPECT_FALSE((kernel<ck_tile::half_t, 1, 8, 2>::staged(args(true))));
    // A staged grid has a block per StagedRows rows.
    auto many = args(true);
    many.rows = 37;
    EXPECT_EQ(staged::make_kargs(many).groups.count, 5);
    EXPECT_EQ((kernel<ck_tile::half_t, 1, 8, 2>::make_kargs(many).groups.count), 37);
}

} // namespace
