// SPDX-License-Identifier: MIT
// The epilogue's conversions on the host, where they are the same functions the kernels call:
// output rounding and overflow per D type, and C/bias loads.
#include "ck_tile/ops/gemm/gemm_epilogue.hpp"

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

} // namespace
