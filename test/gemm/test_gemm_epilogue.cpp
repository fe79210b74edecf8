// SPDX-License-Identifier: MIT
// The epilogue's conversions on the host, where they are the same functions the kernels call:
// output rounding and overflow per D type, C/bias loads, and the multi-D combine step (its
// functors, its point relative to the activation, its typed and batched loads).
#include "ck_tile/ops/gemm/gemm_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_multi_d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace {

using ck_tile::bf16_t;
using ck_tile::convert_output;
using ck_tile::half_t;
using ck_tile::load_output_type;

constexpr float inf = std::numeric_limits<float>::infinity();

TEST(GemmEpilogue, Fp16OutputRoundsToNearestEven)
{
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
    EXPECT_EQ(convert_output<half_t>(1.0f + 0x1p-11f).data, 0x3c00);
    EXPECT_EQ(convert_output<half_t>(1.0f + 3 * 0x1p-11f).data, 0x3c02);
    EXPECT_EQ(convert_output<half_t>(-2.5f).data, 0xc100);
    // Half the smallest denormal ties to zero; a little more rounds up to it.
    EXPECT_EQ(convert_output<half_t>(0x1p-25f).data, 0x0000);
    EXPECT_EQ(convert_output<half_t>(0x1.01p-25f).data, 0x0001);
}

TEST(GemmEpilogue, Fp16OutputOverflowsToInfinity)
{
    EXPECT_EQ(convert_output<half_t>(65504.0f).data, 0x7bff);
    EXPECT_EQ(convert_output<half_t>(65519.0f).data, 0x7bff);
    EXPECT_EQ(convert_output<half_t>(65520.0f).data, 0x7c00); // rounds past max: not saturated
    EXPECT_EQ(convert_output<half_t>(-1e9f).data, 0xfc00);
    EXPECT_EQ(convert_output<half_t>(inf).data, 0x7c00);
    EXPECT_TRUE(std::isnan(static_cast<float>(convert_output<half_t>(std::nanf("")))));
}

TEST(GemmEpilogue, Bf16OutputRoundsToNearestEvenAndOverflowsToInfinity)
{
    EXPECT_EQ(convert_output<bf16_t>(1.0f + 0x1p-8f).data, 0x3f80);     // tie to even
    EXPECT_EQ(convert_output<bf16_t>(1.0f + 3 * 0x1p-8f).data, 0x3f82); // tie to even
    EXPECT_EQ(convert_output<bf16_t>(1.0f + 0x1.8p-8f).data, 0x3f81);   // above the tie
    EXPECT_EQ(convert_output<bf16_t>(std::numeric_limits<float>::max()).data, 0x7f80);
    EXPECT_EQ(convert_output<bf16_t>(-inf).data, 0xff80);
    EXPECT_TRUE(std::isnan(static_cast<float>(convert_output<bf16_t>(std::nanf("")))));
}

TEST(GemmEpilogue, Int32OutputRoundsHalfAwayAndSaturates)
{
    EXPECT_EQ(convert_output<std::int32_t>(2.5), 3);
    EXPECT_EQ(convert_output<std::int32_t>(-2.5), -3);
    EXPECT_EQ(convert_output<std::int32_t>(1e12), 2147483647);
    EXPECT_EQ(convert_output<std::int32_t>(-1e12), -2147483647 - 1);
    EXPECT_EQ(convert_output<std::int32_t>(std::nan("")), 0);
}

TEST(GemmEpilogue, Int8OutputRoundsHalfAwayAndSaturates)
{
    EXPECT_EQ(convert_output<std::int8_t>(2.5f), 3);
    EXPECT_EQ(convert_output<std::int8_t>(-2.5f), -3);
    EXPECT_EQ(convert_output<std::int8_t>(0.49999997f), 0); // no float + 0.5 rounding up
    EXPECT_EQ(convert_output<std::int8_t>(126.5f), 127);
    EXPECT_EQ(convert_output<std::int8_t>(127.49f), 127);
    EXPECT_EQ(convert_output<std::int8_t>(1e9f), 127);
    EXPECT_EQ(convert_output<std::int8_t>(-128.5f), -128);
    EXPECT_EQ(convert_output<std::int8_t>(-1e9f), -128);
    EXPECT_EQ(convert_output<std::int8_t>(std::nanf("")), 0);
    EXPECT_EQ(load_output_type<float>(std::int8_t{-128}), -128.0f);
}

TEST(GemmEpilogue, OutputTypeLoadsAreExact)
{
    EXPECT_EQ(load_output_type<float>(half_t::from_bits(0x0001)), 0x1p-24f);
    EXPECT_EQ(load_output_type<float>(half_t::from_bits(0xfbff)), -65504.0f);
    EXPECT_EQ(load_output_type<float>(bf16_t::from_bits(0x3f81)), 1.0f + 0x1p-7f);
    EXPECT_EQ(load_output_type<float>(1.25f), 1.25f);
    EXPECT_EQ(load_output_type<double>(std::int32_t{-7}), -7.0);
}

TEST(GemmMultiD, EachOperationCombinesAsDocumented)
{
    using ck_tile::combine_multi_d;
    using op       = ck_tile::gemm_multi_d_op;
    const auto d0  = [] { return 3.0; };
    const auto d1  = [] { return -0.5; };
    const auto bad = []() -> double {
        ADD_FAILURE() << "read an input the operation does not use";
        return 0;
    };
    EXPECT_EQ(combine_multi_d(op::none, 2.0, bad, bad), 2.0);
    EXPECT_EQ(combine_multi_d(op::add, 2.0, d0, bad), 5.0);
    EXPECT_EQ(combine_multi_d(op::multiply, 2.0, d0, bad), 6.0);
    EXPECT_EQ(combine_multi_d(op::add_multiply, 2.0, d0, d1), -2.5);
    EXPECT_EQ(combine_multi_d(op::multiply_add, 2.0, d0, d1), 5.5);
    EXPECT_EQ(ck_tile::multi_d_inputs(op::none), 0);
    EXPECT_EQ(ck_tile::multi_d_inputs(op::multiply), 1);
    EXPECT_EQ(ck_tile::multi_d_inputs(op::multiply_add), 2);
}

TEST(GemmMultiD, PointIsBeforeOrAfterTheActivation)
{
    const float x[1] = {-4.0f};
    ck_tile::gemm_multi_d md;
    md.op   = ck_tile::gemm_multi_d_op::add;
    md.d0.p = x, md.d0.fp32 = true;
    // relu(1) + (-4) = -3 after; relu(1 + (-4)) = 0 before.
    EXPECT_EQ(ck_tile::activate_and_combine<float>(md, ck_tile::gemm_activation::relu, 1.0f, 0, 0),
              -3.0f);
    md.before_activation = true;
    EXPECT_EQ(ck_tile::activate_and_combine<float>(md, ck_tile::gemm_activation::relu, 1.0f, 0, 0),
              0.0f);
    md.op   = ck_tile::gemm_multi_d_op::none; // no read at all (the pointer could be anything)
    md.d0.p = nullptr;
    EXPECT_EQ(ck_tile::activate_and_combine<float>(md, ck_tile::gemm_activation::relu, -1.0f, 0, 0),
              0.0f);
}

TEST(GemmMultiD, TensorsReadTheirTypeLayoutAndBatch)
{
    // A 2 x 3 fp16 tensor, column-major with ld 4, two batches 8 elements apart.
    half_t h[24];
    for(int i = 0; i < 24; ++i)
        h[i] = ck_tile::type_convert<half_t>(static_cast<float>(i));
    ck_tile::gemm_multi_d_tensor t;
    t.p = h, t.stride_m = 1, t.stride_n = 4, t.batch_stride = 8;
    EXPECT_EQ((t.load<half_t, float>(1, 2)), 9.0f);
    t.select_batch<half_t>(1);
    EXPECT_EQ((t.load<half_t, float>(1, 2)), 17.0f);
    // An fp32 extra of an fp16 GEMM: element size 4 for the batch step.
    float f[24];
    for(int i = 0; i < 24; ++i)
        f[i] = 0.5f * static_cast<float>(i);
    ck_tile::gemm_multi_d_tensor u;
    u.p = f, u.stride_m = 3, u.stride_n = 1, u.batch_stride = 6, u.fp32 = true;
    u.select_batch<half_t>(2);
    EXPECT_EQ((u.load<half_t, float>(1, 1)), 0.5f * 16);
    // Batch stride 0: every batch reads the same tensor.
    ck_tile::gemm_multi_d_tensor w;
    w.p = f, w.stride_m = 3, w.stride_n = 1, w.fp32 = true;
    w.select_batch<half_t>(5);
    EXPECT_EQ((w.load<half_t, float>(0, 2)), 1.0f);
}

} // namespace
