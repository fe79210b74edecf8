// SPDX-License-Identifier: MIT
// How a measurement of several rows splits its runs into rounds and orders the rows in each.
#include "timing_rounds.hpp"

#include <gtest/gtest.h>

#include <numeric>

using namespace cktile_profiler;

TEST(TimingRounds, NeverMoreRoundsThanRunsAndAtLeastOne)
{
    EXPECT_EQ(effective_rounds(50, 5), 5);
    EXPECT_EQ(effective_rounds(3, 5), 3);
    EXPECT_EQ(effective_rounds(1, 5), 1);
    EXPECT_EQ(effective_rounds(50, 1), 1);
    EXPECT_EQ(effective_rounds(50, 0), 1);
}

TEST(TimingRounds, RunsOfAllRoundsAddUpToIters)
{
    for(int iters : {1, 2, 7, 50, 51, 200})
        for(int rounds : {1, 2, 3, 5, 8, 400})
        {
            const int r = effective_rounds(iters, rounds);
            int total = 0, least = iters, most = 0;
            for(int i = 0; i < r; ++i)
            {
                const int n = round_runs(iters, rounds, i);
                total += n;
                least = std::min(least, n);
                most  = std::max(most, n);
            }
            EXPECT_EQ(total, iters) << iters << " runs in " << rounds << " rounds";
            EXPECT_GE(least, 1) << iters << " runs in " << rounds << " rounds";
            EXPECT_LE(most - least, 1) << iters << " runs in " << rounds << " rounds";
        }
    // The first rounds take the remainder.
    EXPECT_EQ(round_runs(52, 5, 0), 11);
    EXPECT_EQ(round_runs(52, 5, 1), 11);
    EXPECT_EQ(round_runs(52, 5, 2), 10);
}

TEST(TimingRounds, OrderTurnsRoundByRound)
{
    EXPECT_EQ(round_order(3, 0), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(round_order(3, 1), (std::vector<std::size_t>{2, 1, 0}));
    EXPECT_EQ(round_order(3, 2), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(round_order(1, 1), (std::vector<std::size_t>{0}));
    EXPECT_TRUE(round_order(0, 0).empty());
    // Over an even number of rounds every row's positions add up to the same.
    const std::size_t rows = 4;
    std::vector<std::size_t> position_sum(rows, 0);
    for(int round = 0; round < 6; ++round)
    {
        const std::vector<std::size_t> order = round_order(rows, round);
        for(std::size_t pos = 0; pos < rows; ++pos)
            position_sum[order[pos]] += pos;
    }
    for(std::size_t r = 1; r < rows; ++r)
        EXPECT_EQ(position_sum[r], position_sum[0]);
}
