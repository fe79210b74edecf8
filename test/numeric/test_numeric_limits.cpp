// SPDX-License-Identifier: MIT
// numeric<T> limits and numeric_traits<T> layouts, checked against the documented values.
#include "ck_tile/core/numeric/numeric.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace {

using namespace ck_tile;

template <typename T>
constexpr float f(T x)
{
    return type_convert<float>(x);
}

// Everything here is constexpr, so it is also usable in device code.
static_assert(f(numeric<half_t>::max()) == 65504.0f);
static_assert(f(numeric<half_t>::lowest()) == -65504.0f);
static_assert(f(numeric<half_t>::min()) == 0x1p-14f);
static_assert(f(numeric<half_t>::denorm_min()) == 0x1p-24f);
static_assert(f(numeric<half_t>::epsilon()) == 0x1p-10f);
static_assert(f(numeric<half_t>::round_error()) == 0.5f);
static_assert(f(numeric<half_t>::infinity()) == std::numeric_limits<float>::infinity());

static_assert(f(numeric<bf16_t>::max()) == 0x1.fep127f);
static_assert(f(numeric<bf16_t>::min()) == 0x1p-126f);
static_assert(f(numeric<bf16_t>::denorm_min()) == 0x1p-133f);
static_assert(f(numeric<bf16_t>::epsilon()) == 0x1p-7f);

static_assert(f(numeric<fp8_t>::max()) == 448.0f);
static_assert(f(numeric<fp8_t>::lowest()) == -448.0f);
static_assert(f(numeric<fp8_t>::min()) == 0x1p-6f);
static_assert(f(numeric<fp8_t>::denorm_min()) == 0x1p-9f);
static_assert(f(numeric<fp8_t>::epsilon()) == 0.125f);
static_assert(!numeric<fp8_t>::has_infinity);
static_assert(numeric<fp8_t>::quiet_NaN().data == 0x7f);

static_assert(f(numeric<bf8_t>::max()) == 57344.0f);
static_assert(f(numeric<bf8_t>::min()) == 0x1p-14f);
static_assert(f(numeric<bf8_t>::denorm_min()) == 0x1p-16f);
static_assert(f(numeric<bf8_t>::epsilon()) == 0.25f);
static_assert(numeric<bf8_t>::has_infinity);
static_assert(numeric<bf8_t>::infinity().data == 0x7c);

static_assert(numeric<float>::max() == std::numeric_limits<float>::max());
static_assert(numeric<double>::epsilon() == std::numeric_limits<double>::epsilon());
static_assert(numeric<int8_t>::lowest() == -128 && numeric<uint8_t>::max() == 255);
static_assert(numeric<int32_t>::max() == 2147483647);
static_assert(numeric<float>::zero() == 0.0f && f(numeric<half_t>::zero()) == 0.0f);

static_assert(numeric_traits<float>::exp == 8 && numeric_traits<float>::mant == 23 &&
              numeric_traits<float>::bias == 127);
static_assert(numeric_traits<double>::exp == 11 && numeric_traits<double>::mant == 52);
static_assert(numeric_traits<half_t>::exp == 5 && numeric_traits<half_t>::mant == 10 &&
              numeric_traits<half_t>::bias == 15);
static_assert(numeric_traits<bf16_t>::exp == 8 && numeric_traits<bf16_t>::mant == 7 &&
              numeric_traits<bf16_t>::bias == 127);
static_assert(numeric_traits<fp8_t>::exp == 4 && numeric_traits<fp8_t>::mant == 3 &&
              numeric_traits<fp8_t>::bias == 7);
static_assert(numeric_traits<bf8_t>::exp == 5 && numeric_traits<bf8_t>::mant == 2 &&
              numeric_traits<bf8_t>::bias == 15);
static_assert(std::is_same_v<numeric_traits<half_t>::bitwise_type, uint16_t>);
static_assert(std::is_same_v<numeric_traits<fp8_t>::bitwise_type, uint8_t>);

TEST(NumericLimits, NaNsAreNaN)
{
    EXPECT_TRUE(std::isnan(f(numeric<half_t>::quiet_NaN())));
    EXPECT_TRUE(std::isnan(f(numeric<half_t>::signaling_NaN())));
    EXPECT_TRUE(std::isnan(f(numeric<bf16_t>::quiet_NaN())));
    EXPECT_TRUE(std::isnan(f(numeric<fp8_t>::quiet_NaN())));
    EXPECT_TRUE(std::isnan(f(numeric<bf8_t>::quiet_NaN())));
    EXPECT_TRUE(std::isnan(f(numeric<bf8_t>::signaling_NaN())));
    // E4M3FN has no infinity: infinity() is its NaN so that misuse is visible.
    EXPECT_TRUE(std::isnan(f(numeric<fp8_t>::infinity())));
    EXPECT_TRUE(is_nan(numeric<fp8_t>::quiet_NaN()));
    EXPECT_TRUE(is_inf(-numeric<bf8_t>::infinity()));
    EXPECT_FALSE(is_inf(numeric<fp8_t>::max()));
    EXPECT_TRUE(is_nan(std::numeric_limits<float>::quiet_NaN()));
}

TEST(NumericLimits, NextAboveOneIsOnePlusEpsilon)
{
    EXPECT_EQ(f(half_t::from_bits(0x3c01)), 1.0f + f(numeric<half_t>::epsilon()));
    EXPECT_EQ(f(bf16_t::from_bits(0x3f81)), 1.0f + f(numeric<bf16_t>::epsilon()));
    EXPECT_EQ(f(fp8_t::from_bits(0x39)), 1.0f + f(numeric<fp8_t>::epsilon()));
    EXPECT_EQ(f(bf8_t::from_bits(0x3d)), 1.0f + f(numeric<bf8_t>::epsilon()));
}

TEST(NarrowFloatArithmetic, OperatorsComputeInFloatAndRound)
{
    const half_t a = type_convert<half_t>(1.5f), b = type_convert<half_t>(2.25f);
    EXPECT_EQ(f(a + b), 3.75f);
    EXPECT_EQ(f(a * b), 3.375f);
    EXPECT_EQ(f(b - a), 0.75f);
    EXPECT_EQ(f(b / a), 1.5f);
    EXPECT_EQ(f(-a), -1.5f);
    half_t c = a;
    c += b;
    EXPECT_EQ(f(c), 3.75f);
    EXPECT_TRUE(a < b && b > a && a <= a && a >= a && a != b);
    EXPECT_TRUE(type_convert<half_t>(0.0f) == type_convert<half_t>(-0.0f));
    EXPECT_FALSE(numeric<half_t>::quiet_NaN() == numeric<half_t>::quiet_NaN());
    EXPECT_EQ((-type_convert<fp8_t>(0.0f)).data, 0x80); // the sign bit flips, also on zero
    EXPECT_EQ(f(type_convert<fp8_t>(300.0f) + type_convert<fp8_t>(300.0f)), 448.0f); // saturates
    EXPECT_EQ(f(half_t(3)), 3.0f);
    EXPECT_EQ(f(bf16_t(0.1)), f(type_convert<bf16_t>(0.1)));
    EXPECT_EQ(half_t{}.data, 0u);
}

} // namespace
