// SPDX-License-Identifier: MIT
// How measured selection spends its launches: which screened candidates go on to the rounds,
// how many launches a round takes, the rounds' order and the pick by median.
#include "measured_selection.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using namespace cktile::detail;

namespace {
constexpr double untimed = std::numeric_limits<double>::infinity();
}

TEST(MeasuredSelection, FinalistsAreTheCloseOnesFastestFirst)
{
    const measurement_plan plan; // within 1.25x, at most 8
    const std::vector<double> screened = {0.110, 0.100, 0.300, 0.125, 0.126, untimed, 0.124};
    EXPECT_EQ(measurement_finalists(screened, plan), (std::vector<std::size_t>{1, 0, 6, 3}));
}

TEST(MeasuredSelection, FinalistsAreCappedAndTiesKeepTheModelsOrder)
{
    measurement_plan plan;
    plan.max_finalists                 = 3;
    const std::vector<double> screened = {0.2, 0.1, 0.1, 0.1, 0.1};
    EXPECT_EQ(measurement_finalists(screened, plan), (std::vector<std::size_t>{1, 2, 3}));
    plan.max_finalists = 0; // still the fastest
    EXPECT_EQ(measurement_finalists(screened, plan), (std::vector<std::size_t>{1}));
}

TEST(MeasuredSelection, NoFinalistsWithoutATime)
{
    const measurement_plan plan;
    EXPECT_TRUE(measurement_finalists({}, plan).empty());
    EXPECT_TRUE(measurement_finalists({untimed, untimed}, plan).empty());
    EXPECT_EQ(measurement_finalists({untimed, 3.0}, plan), (std::vector<std::size_t>{1}));
}

TEST(MeasuredSelection, LaunchesPerRoundFillTheRoundWithinTheCap)
{
    const measurement_plan plan; // 0.2 ms a round, at most 20 launches
    EXPECT_EQ(launches_per_round(0.009, plan), 20);
    EXPECT_EQ(launches_per_round(0.015, plan), 14);
    EXPECT_EQ(launches_per_round(0.1, plan), 2);
    EXPECT_EQ(launches_per_round(1.5, plan), 1);
    EXPECT_EQ(launches_per_round(0.0, plan), 1);
    EXPECT_EQ(launches_per_round(untimed, plan), 1);
    EXPECT_EQ(launches_per_round(std::numeric_limits<double>::quiet_NaN(), plan), 1);
}

TEST(MeasuredSelection, RoundsAlternateTheirOrder)
{
    EXPECT_EQ(measurement_round_order(3, 0), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(measurement_round_order(3, 1), (std::vector<std::size_t>{2, 1, 0}));
    EXPECT_EQ(measurement_round_order(3, 4), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_TRUE(measurement_round_order(0, 1).empty());
}

TEST(MeasuredSelection, MedianOfOddAndEvenCounts)
{
    EXPECT_DOUBLE_EQ(median_of({3.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(median_of({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_DOUBLE_EQ(median_of({7.0}), 7.0);
}

TEST(MeasuredSelection, TheLowestMedianWinsNotTheLuckiestRound)
{
    // Finalist 0 had one fast round (a clock that had not yet dropped); 1 is faster throughout.
    const std::vector<std::vector<double>> rounds = {{0.080, 0.101, 0.102, 0.100, 0.103},
                                                     {0.095, 0.096, 0.094, 0.097, 0.095}};
    EXPECT_EQ(fastest_by_median(rounds), 1u);
    // An exact tie goes to the lower index: the faster screened, or the model's preference.
    EXPECT_EQ(fastest_by_median({{0.1, 0.2, 0.3}, {0.3, 0.2, 0.1}}), 0u);
}
