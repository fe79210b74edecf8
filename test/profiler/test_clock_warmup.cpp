// SPDX-License-Identifier: MIT
// The clock warm-up before a measurement: when it runs, and how long.
#include "clock_warmup.hpp"

#include <gtest/gtest.h>

#include <chrono>

using namespace cktile_profiler;
using std::chrono::milliseconds;

TEST(ClockWarmup, RunsFirstAndAfterTheDeviceSatIdle)
{
    const auto now = std::chrono::steady_clock::now();
    EXPECT_TRUE(needs_clock_warmup(std::nullopt, now));
    EXPECT_FALSE(needs_clock_warmup(now - milliseconds(100), now));
    EXPECT_FALSE(needs_clock_warmup(now - clock_warmup_idle_after + milliseconds(1), now));
    EXPECT_TRUE(needs_clock_warmup(now - clock_warmup_idle_after, now));
    EXPECT_TRUE(needs_clock_warmup(now - milliseconds(5000), now));
}

TEST(ClockWarmup, SteadyTimeRunsBeforeEveryMeasurementAndCoversTheIdleWarmup)
{
    EXPECT_DOUBLE_EQ(warmup_busy_ms(0, false), 0.0);
    EXPECT_DOUBLE_EQ(warmup_busy_ms(0, true), clock_warmup_busy_ms);
    EXPECT_DOUBLE_EQ(warmup_busy_ms(1500, false), 1500.0);
    EXPECT_DOUBLE_EQ(warmup_busy_ms(1500, true), 1500.0);
    EXPECT_DOUBLE_EQ(warmup_busy_ms(50, true), clock_warmup_busy_ms);
    EXPECT_DOUBLE_EQ(warmup_busy_ms(50, false), 50.0);
}

TEST(ClockWarmup, KeepsTheDeviceBusyForTheWholeTime)
{
    int calls            = 0;
    const double elapsed = warm_clocks([&] {
        ++calls;
        return 7.0;
    });
    // 28 batches of 7 ms are 196 ms, short of 200: the 29th runs.
    EXPECT_EQ(calls, 29);
    EXPECT_DOUBLE_EQ(elapsed, 203.0);
    calls = 0;
    EXPECT_DOUBLE_EQ(warm_clocks(
                         [&] {
                             ++calls;
                             return 60.0;
                         },
                         100.0),
                     120.0);
    EXPECT_EQ(calls, 2);
}

TEST(ClockWarmup, StopsAtTheFirstFailedBatch)
{
    int calls = 0;
    EXPECT_LT(warm_clocks([&] { return ++calls < 3 ? 5.0 : -1.0; }), 0.0);
    EXPECT_EQ(calls, 3);
}

TEST(ClockWarmup, EndsAfterMaxBatchesWhenBatchesTakeNoTime)
{
    int calls = 0;
    EXPECT_DOUBLE_EQ(warm_clocks(
                         [&] {
                             ++calls;
                             return 0.0;
                         },
                         200.0, 50),
                     0.0);
    EXPECT_EQ(calls, 50);
}
