// SPDX-License-Identifier: MIT
#include "ck_tile/core/numeric/magic_divisor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using ck_tile::magic_divisor;

namespace {

void expect_divides(const magic_divisor& d, std::uint32_t n)
{
    const auto qr = d.divmod(n);
    ASSERT_EQ(qr.quotient, n / d.divisor) << n << " / " << d.divisor;
    ASSERT_EQ(qr.remainder, n % d.divisor) << n << " % " << d.divisor;
}

// Numerators where a rounding error would show first: around every multiple of d near the
// ends of the range, and the range's ends.
std::vector<std::uint32_t> edge_numerators(std::uint32_t d)
{
    std::vector<std::uint32_t> n{
        0, 1, d - 1, d, d + 1, magic_divisor::max_value, magic_divisor::max_value - 1};
    const std::uint32_t top = magic_divisor::max_value / d * d; // the last multiple
    for(std::uint32_t m : {top, top - d})
        for(std::uint32_t delta : {0u, 1u})
        {
            n.push_back(m + delta);
            if(m >= delta)
                n.push_back(m - delta);
        }
    return n;
}

// Every edge numerator and `random` uniform ones.
void expect_divides_samples(std::uint32_t divisor, std::mt19937& rng, int random)
{
    const auto d = magic_divisor::of(divisor);
    for(std::uint32_t n : edge_numerators(divisor))
        expect_divides(d, n);
    std::uniform_int_distribution<std::uint32_t> any(0, magic_divisor::max_value);
    for(int i = 0; i < random; ++i)
        expect_divides(d, any(rng));
}

} // namespace

TEST(MagicDivisor, EverySmallDivisorAtEdgesAndRandomNumerators)
{
    std::mt19937 rng(7);
    for(std::uint32_t divisor = 1; divisor <= 4096; ++divisor)
        expect_divides_samples(divisor, rng, 64);
}

TEST(MagicDivisor, LargeAndPowerOfTwoDivisors)
{
    std::mt19937 rng(11);
    std::vector<std::uint32_t> divisors{magic_divisor::max_value,
                                        magic_divisor::max_value - 1,
                                        46340,
                                        46341,
                                        65535,
                                        65537,
                                        1000003,
                                        0x40000001u};
    for(std::uint32_t l = 0; l <= 30; ++l)
        for(std::int64_t delta : {-1, 0, 1})
        {
            const std::int64_t d = (std::int64_t{1} << l) + delta;
            if(d >= 1)
                divisors.push_back(static_cast<std::uint32_t>(d));
        }
    for(std::uint32_t divisor : divisors)
        expect_divides_samples(divisor, rng, 4096);
}

// The error term n e / (d 2^p) is largest where e = m d - 2^p is close to d: the divisors below
// 2^16 with the largest e / d, densely swept (every numerator up to 2^16, then ever sparser).
TEST(MagicDivisor, DenseSweepWhereTheRoundingErrorIsLargest)
{
    std::vector<std::pair<double, std::uint32_t>> worst;
    for(std::uint32_t divisor = 2; divisor <= 65536; ++divisor)
    {
        const auto d = magic_divisor::of(divisor);
        const std::uint64_t e =
            std::uint64_t{d.multiplier} * divisor - (std::uint64_t{1} << d.shift);
        ASSERT_LT(e, divisor);
        worst.push_back({double(e) / divisor, divisor});
    }
    std::sort(worst.rbegin(), worst.rend());
    for(std::size_t i = 0; i < 4; ++i)
    {
        const auto d = magic_divisor::of(worst[i].second);
        for(std::uint32_t n = 0; n < magic_divisor::max_value; n += 1 + n / 65536)
            expect_divides(d, n);
        expect_divides(d, magic_divisor::max_value);
    }
}

static_assert(magic_divisor::of(1).quotient(12345) == 12345);
static_assert(magic_divisor::of(16).divmod(1000).quotient == 62);
static_assert(magic_divisor::of(16).divmod(1000).remainder == 8);
