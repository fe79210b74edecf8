// SPDX-License-Identifier: MIT
// Conversions of half_t, bf16_t, fp8_t and bf8_t: exhaustive over every code, and float ->
// narrow rounding checked against an independent reference (fp_reference.hpp) on random floats,
// exact ties, overflow, underflow, signed zeros, infinities and NaNs.
#include "fp_reference.hpp"

#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using ck_tile::bit_cast;
using ck_tile::overflow_mode;
using ck_tile::type_convert;

template <typename T>
struct type_info;
template <>
struct type_info<ck_tile::half_t>
{
    static const fp_ref::format& ref() { return fp_ref::fp16; }
    static constexpr const char* name = "half_t";
};
template <>
struct type_info<ck_tile::bf16_t>
{
    static const fp_ref::format& ref() { return fp_ref::bf16; }
    static constexpr const char* name = "bf16_t";
};
template <>
struct type_info<ck_tile::fp8_t>
{
    static const fp_ref::format& ref() { return fp_ref::e4m3; }
    static constexpr const char* name = "fp8_t";
};
template <>
struct type_info<ck_tile::bf8_t>
{
    static const fp_ref::format& ref() { return fp_ref::e5m2; }
    static constexpr const char* name = "bf8_t";
};

template <typename T>
uint32_t code_count()
{
    return 1u << (8 * sizeof(T));
}

template <typename T>
T from_code(uint32_t c)
{
    return T::from_bits(static_cast<typename T::raw_type>(c));
}

std::string hex(uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

/// Checks the conversion of x into T (both overflow modes) against the reference.
/// @return false after reporting the first mismatch, so a broken conversion prints one line.
template <typename T>
bool check_narrowing(float x, const fp_ref::rounder& r)
{
    const auto& f = type_info<T>::ref();
    for(bool sat : {true, false})
    {
        const uint32_t got  = sat ? type_convert<T, overflow_mode::saturate>(x).data
                                  : type_convert<T, overflow_mode::non_saturate>(x).data;
        const uint32_t want = r.round(x, sat);
        const bool ok       = std::isnan(x)
                                  ? (f.is_nan(got) && (got & f.sign_bit()) == (want & f.sign_bit()))
                                  : got == want;
        if(!ok)
        {
            ADD_FAILURE() << type_info<T>::name << (sat ? " saturate" : " non_saturate")
                          << ": x = " << x << " (bits " << hex(bit_cast<uint32_t>(x)) << ") -> "
                          << hex(got) << ", expected " << hex(want);
            return false;
        }
    }
    return true;
}

template <typename T>
class NarrowFloat : public ::testing::Test
{};
using narrow_types =
    ::testing::Types<ck_tile::half_t, ck_tile::bf16_t, ck_tile::fp8_t, ck_tile::bf8_t>;
TYPED_TEST_SUITE(NarrowFloat, narrow_types);

TYPED_TEST(NarrowFloat, EveryCodeConvertsToItsExactValue)
{
    using T       = TypeParam;
    const auto& f = type_info<T>::ref();
    for(uint32_t c = 0; c < code_count<T>(); ++c)
    {
        const float v    = type_convert<float>(from_code<T>(c));
        const double ref = f.value(c);
        if(std::isnan(ref))
        {
            ASSERT_TRUE(std::isnan(v)) << hex(c);
            ASSERT_EQ(std::signbit(v), (c & f.sign_bit()) != 0) << hex(c);
        }
        else
        {
            ASSERT_EQ(static_cast<double>(v), ref) << hex(c);
            ASSERT_EQ(std::signbit(v), std::signbit(ref)) << hex(c); // -0 stays -0
        }
        ASSERT_EQ(type_convert<double>(from_code<T>(c)) == ref, !std::isnan(ref)) << hex(c);
    }
}

// Bit-exact for every code, NaN payloads included: nothing is lost on the way through float.
// (Saturation maps infinities to +-max by definition, so those codes come back as max.)
TYPED_TEST(NarrowFloat, EveryCodeRoundTripsThroughFloatBitExactly)
{
    using T       = TypeParam;
    const auto& f = type_info<T>::ref();
    for(uint32_t c = 0; c < code_count<T>(); ++c)
    {
        const float v = type_convert<float>(from_code<T>(c));
        ASSERT_EQ((type_convert<T, overflow_mode::non_saturate>(v).data), c) << hex(c);
        // float -> double quiets signaling NaNs on the host CPU, so from double only NaN-ness
        // is required for NaN codes.
        const uint32_t from_double =
            type_convert<T, overflow_mode::non_saturate>(static_cast<double>(v)).data;
        if(f.is_nan(c))
            ASSERT_TRUE(f.is_nan(from_double) && (from_double & f.sign_bit()) == (c & f.sign_bit()))
                << hex(c);
        else
            ASSERT_EQ(from_double, c) << hex(c);
        const uint32_t sat_want = f.is_inf(c) ? (c & f.sign_bit()) | f.max_finite() : c;
        ASSERT_EQ((type_convert<T, overflow_mode::saturate>(v).data), sat_want) << hex(c);
    }
}

TYPED_TEST(NarrowFloat, RandomFloatBitPatternsRoundAsReference)
{
    using T = TypeParam;
    const fp_ref::rounder r(type_info<T>::ref());
    std::mt19937 rng(1234);
    for(int i = 0; i < 300000; ++i)
        ASSERT_TRUE(check_narrowing<T>(bit_cast<float>(static_cast<uint32_t>(rng())), r));
}

// Random floats in and around the format's range (including its denormals and past its max),
// where uniform bit patterns are too sparse to exercise each binade.
TYPED_TEST(NarrowFloat, RandomFloatsInRangeRoundAsReference)
{
    using T       = TypeParam;
    const auto& f = type_info<T>::ref();
    const fp_ref::rounder r(f);
    std::mt19937 rng(99);
    const int lo = 1 - f.bias() - f.mant_bits - 3;
    const int hi = f.bias() + 3;
    std::uniform_int_distribution<int> exp_dist(lo, hi);
    for(int i = 0; i < 300000; ++i)
    {
        const int e      = std::max(exp_dist(rng), -149 + 23);
        const float mant = 1.0f + std::ldexp(static_cast<float>(rng() & 0x7fffff), -23);
        float x          = std::ldexp(mant, e);
        if(rng() & 1)
            x = -x;
        ASSERT_TRUE(check_narrowing<T>(x, r));
    }
}

// Midpoints between neighbours (ties go to the even code), one float ulp either side of them,
// and the neighbours themselves, for every pair of adjacent magnitudes including 0 and the value
// just past max (the overflow boundary).
TYPED_TEST(NarrowFloat, TiesAndTheirNeighboursRoundAsReference)
{
    using T = TypeParam;
    const fp_ref::rounder r(type_info<T>::ref());
    const auto& mags = r.magnitudes();
    for(std::size_t i = 0; i + 1 < mags.size(); ++i)
    {
        const double mid_d = 0.5 * (mags[i] + mags[i + 1]);
        const float mid    = static_cast<float>(mid_d);
        ASSERT_EQ(static_cast<double>(mid), mid_d) << "midpoint not a float";
        for(float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY),
                       static_cast<float>(mags[i])})
        {
            ASSERT_TRUE(check_narrowing<T>(x, r));
            ASSERT_TRUE(check_narrowing<T>(-x, r));
        }
    }
}

TYPED_TEST(NarrowFloat, SpecialValues)
{
    using T = TypeParam;
    const fp_ref::rounder r(type_info<T>::ref());
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for(float x :
        {0.0f, -0.0f, inf, -inf, nan, -nan, std::numeric_limits<float>::max(),
         std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
         std::numeric_limits<float>::min(), bit_cast<float>(0x7f800001u) /* sNaN */})
        ASSERT_TRUE(check_narrowing<T>(x, r));
    EXPECT_EQ(type_convert<T>(-0.0f).data, type_info<T>::ref().sign_bit());
    EXPECT_EQ(type_convert<T>(0.0f).data, 0u);
}

// Conversions between narrow types go through the exact float value: check every source code.
template <typename Dst, typename Src>
void check_all_codes_of_into()
{
    const fp_ref::rounder r(type_info<Dst>::ref());
    for(uint32_t c = 0; c < code_count<Src>(); ++c)
    {
        const float x       = type_convert<float>(from_code<Src>(c));
        const uint32_t got  = type_convert<Dst>(from_code<Src>(c)).data;
        const uint32_t want = r.round(x, Dst::default_overflow == overflow_mode::saturate);
        if(std::isnan(x))
            ASSERT_TRUE(type_info<Dst>::ref().is_nan(got)) << hex(c);
        else
            ASSERT_EQ(got, want) << type_info<Src>::name << " " << hex(c) << " -> "
                                 << type_info<Dst>::name;
    }
}

TEST(NarrowFloatCross, EveryCodeConvertsBetweenNarrowTypesAsReference)
{
    using namespace ck_tile;
    check_all_codes_of_into<fp8_t, half_t>();
    check_all_codes_of_into<bf8_t, half_t>();
    check_all_codes_of_into<fp8_t, bf16_t>();
    check_all_codes_of_into<bf8_t, bf16_t>();
    check_all_codes_of_into<half_t, bf16_t>();
    check_all_codes_of_into<bf16_t, half_t>();
    check_all_codes_of_into<half_t, fp8_t>();
    check_all_codes_of_into<bf16_t, bf8_t>();
    check_all_codes_of_into<fp8_t, bf8_t>();
    check_all_codes_of_into<bf8_t, fp8_t>();
}

// Documented overflow behaviour, spelled out (the reference checks agree; these read as spec).
TEST(NarrowFloatOverflow, E4M3SaturatesOrBecomesNaN)
{
    using namespace ck_tile;
    EXPECT_EQ(type_convert<fp8_t>(448.0f).data, 0x7e);
    EXPECT_EQ(type_convert<fp8_t>(464.0f).data, 0x7e); // tie between 448 (even) and 480
    EXPECT_EQ(type_convert<fp8_t>(464.1f).data, 0x7e); // saturating by default
    EXPECT_EQ((type_convert<fp8_t, overflow_mode::non_saturate>(464.0f).data), 0x7e);
    EXPECT_EQ((type_convert<fp8_t, overflow_mode::non_saturate>(464.1f).data), 0x7f);
    EXPECT_EQ((type_convert<fp8_t, overflow_mode::non_saturate>(-1e30f).data), 0xff);
    EXPECT_EQ((type_convert<fp8_t, overflow_mode::non_saturate>(-INFINITY).data), 0xff);
    EXPECT_EQ(type_convert<fp8_t>(-INFINITY).data, 0xfe);
    EXPECT_EQ(type_convert<fp8_t>(NAN).data & 0x7f, 0x7f);
}

TEST(NarrowFloatOverflow, E5M2SaturatesOrBecomesInfinity)
{
    using namespace ck_tile;
    EXPECT_EQ(type_convert<bf8_t>(57344.0f).data, 0x7b);
    EXPECT_EQ(type_convert<bf8_t>(61439.0f).data, 0x7b);
    EXPECT_EQ((type_convert<bf8_t, overflow_mode::non_saturate>(61439.0f).data), 0x7b);
    // 61440 is the tie between max (odd mantissa 11) and 2^16 (even): it overflows.
    EXPECT_EQ((type_convert<bf8_t, overflow_mode::non_saturate>(61440.0f).data), 0x7c);
    EXPECT_EQ(type_convert<bf8_t>(61440.0f).data, 0x7b);
    EXPECT_EQ((type_convert<bf8_t, overflow_mode::non_saturate>(-INFINITY).data), 0xfc);
    EXPECT_EQ(type_convert<bf8_t>(INFINITY).data, 0x7b);
    EXPECT_EQ(type_convert<float>(bf8_t::from_bits(0x7c)), INFINITY);
}

TEST(NarrowFloatOverflow, HalfAndBf16OverflowToInfinityByDefault)
{
    using namespace ck_tile;
    EXPECT_EQ(type_convert<half_t>(65519.99f).data, 0x7bff);
    EXPECT_EQ(type_convert<half_t>(65520.0f).data, 0x7c00); // tie with 2^16: overflows
    EXPECT_EQ((type_convert<half_t, overflow_mode::saturate>(65520.0f).data), 0x7bff);
    EXPECT_EQ(type_convert<bf16_t>(std::numeric_limits<float>::max()).data, 0x7f80);
    EXPECT_EQ((type_convert<bf16_t, overflow_mode::saturate>(INFINITY).data), 0x7f7f);
}

TEST(NarrowFloatUnderflow, GradualToDenormalsThenSignedZero)
{
    using namespace ck_tile;
    const float half_denorm_min = std::ldexp(1.0f, -24);
    EXPECT_EQ(type_convert<half_t>(half_denorm_min).data, 0x0001);
    EXPECT_EQ(type_convert<half_t>(half_denorm_min / 2).data, 0x0000); // tie to even: 0
    EXPECT_EQ(type_convert<half_t>(-half_denorm_min / 2).data, 0x8000);
    EXPECT_EQ(type_convert<half_t>(std::nextafter(half_denorm_min / 2, 1.0f)).data, 0x0001);
    EXPECT_EQ(type_convert<half_t>(1.5f * half_denorm_min).data, 0x0002); // tie to even: 2
    EXPECT_EQ(type_convert<fp8_t>(std::ldexp(1.0f, -10)).data, 0x00);     // e4m3 denorm_min/2
    EXPECT_EQ(type_convert<fp8_t>(std::ldexp(3.0f, -10)).data, 0x02);
    EXPECT_EQ(type_convert<bf8_t>(-std::ldexp(1.0f, -16)).data, 0x81);
    EXPECT_EQ(type_convert<bf16_t>(std::numeric_limits<float>::denorm_min()).data, 0x0000);
    EXPECT_EQ(type_convert<bf16_t>(std::ldexp(1.0f, -133)).data, 0x0001);
    // The largest denormal rounds up into the smallest normal.
    EXPECT_EQ(type_convert<half_t>(std::ldexp(1023.75f, -24)).data, 0x0400);
}

// A double is rounded once: going through float first would turn a value just above a tie into
// the tie and then round it the wrong way.
TEST(NarrowFloatDouble, RoundsOnceFromDouble)
{
    using namespace ck_tile;
    const double just_above_tie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    EXPECT_EQ(type_convert<half_t>(just_above_tie).data, 0x3c01);
    EXPECT_EQ(type_convert<half_t>(static_cast<float>(just_above_tie)).data, 0x3c00);
    EXPECT_EQ(type_convert<fp8_t>(1.0 + 1.0 / 16 + 1e-12).data, 0x39);
    EXPECT_EQ(type_convert<bf16_t>(1e300).data, 0x7f80);
    EXPECT_EQ(type_convert<bf16_t>(-1e-300).data, 0x8000);
    EXPECT_EQ(type_convert<fp8_t>(1e300).data, 0x7e);
    EXPECT_TRUE(is_nan(type_convert<bf8_t>(std::numeric_limits<double>::quiet_NaN())));
}

TEST(NarrowFloatInteger, IntegersConvertBothWays)
{
    using namespace ck_tile;
    EXPECT_EQ(type_convert<half_t>(2049).data, type_convert<half_t>(2048.0f).data); // tie: even
    EXPECT_EQ(type_convert<half_t>(int8_t{-128}).data, 0xd800);
    EXPECT_EQ(type_convert<fp8_t>(uint8_t{255}).data, type_convert<fp8_t>(256.0f).data);
    EXPECT_EQ(type_convert<bf16_t>(int32_t{16777217}).data, 0x4b80);
    EXPECT_EQ(type_convert<int32_t>(half_t(-3.75f)), -3);
    EXPECT_EQ(type_convert<int8_t>(fp8_t(100.0f)), 96);
    EXPECT_EQ(type_convert<uint8_t>(bf16_t(200.0f)), 200);
    EXPECT_EQ(type_convert<int32_t>(7.9f), 7);
    EXPECT_EQ(type_convert<float>(int8_t{-7}), -7.0f);
    EXPECT_EQ(type_convert<double>(3), 3.0);
}

} // namespace
