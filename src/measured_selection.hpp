// SPDX-License-Identifier: MIT
// How measured selection spends its launches. One timed launch per candidate sorts the clearly
// slow from the close: a launch of a few microseconds moves by several percent from one run to
// the next, and a card whose clock follows its power draw runs a candidate faster or slower by
// when it ran. So the close ones (the finalists) are timed again, together, in rounds: each
// round times every finalist over the same number of launches, in an order that turns round by
// round, and the fastest median over the rounds wins.
#pragma once

#include <cstddef>
#include <vector>

namespace cktile::detail {

struct measurement_plan
{
    /// Finalists: screened within this factor of the fastest screened time...
    double finalist_within = 1.25;
    /// ... and at most this many (the fastest screened first).
    std::size_t max_finalists = 8;
    int rounds                = 5;
    /// Launches per finalist and round: enough that a round of the fastest lasts this long
    /// (a single launch of a small problem is mostly the timer's and the launch's jitter)...
    double round_ms = 0.2;
    /// ... and no more than this many.
    int max_launches_per_round = 20;
};

/// The candidates (indices into `screen_ms`, one screened time per candidate; infinity for one
/// that was not timed) that go on to the rounds.
/// @post fastest screened first, ties by index; empty only when no time is finite; the first
/// is the fastest screened candidate; at most plan.max_finalists.
std::vector<std::size_t> measurement_finalists(const std::vector<double>& screen_ms,
                                               const measurement_plan& plan);

/// Launches per finalist in each round, for a fastest screened time of `fastest_ms`.
/// @post 1 <= result <= plan.max_launches_per_round.
int launches_per_round(double fastest_ms, const measurement_plan& plan);

/// The order the finalists run in during round `round`: forwards in even rounds, backwards in
/// odd ones, so that over an even number of rounds each has the same mean position.
std::vector<std::size_t> measurement_round_order(std::size_t finalists, int round);

/// The median of `values` (the mean of the middle two for an even count). @pre non-empty.
double median_of(std::vector<double> values);

/// The finalist with the smallest median time per launch over its rounds (`round_ms[f]`: one
/// time per round), ties to the lower index (the faster screened). @pre every entry non-empty.
std::size_t fastest_by_median(const std::vector<std::vector<double>>& round_ms);

} // namespace cktile::detail
