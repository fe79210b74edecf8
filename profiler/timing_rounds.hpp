// SPDX-License-Identifier: MIT
// Timing several launches (the rows of one problem: instances and the vendor) in rounds. A card
// whose clock follows its power draw runs a launch faster or slower by when it ran: 50 launches
// of fp16 4096^3 right after the clock warm-up do not bring an H200 to its power cap, and the
// row timed second ran at a higher clock than the first (0.87 of cuBLASLt where both held the
// cap at 0.98). Timed in rounds, each row takes its share of the runs in every round, in an
// order that turns round by round, so that a drift of the clock falls on every row alike.
#pragma once

#include <cstddef>
#include <vector>

namespace cktile_profiler {

/// The rounds a measurement of `iters` runs per row takes when `rounds` are asked for: at least
/// one, at most one per run. @pre iters >= 1.
int effective_rounds(int iters, int rounds);

/// The timed runs of each row in round `round` (of effective_rounds(iters, rounds)): iters
/// split evenly, the first iters % rounds rounds one run more. The runs of all rounds add up to
/// iters. @pre iters >= 1, 0 <= round < effective_rounds(iters, rounds).
int round_runs(int iters, int rounds, int round);

/// The order the rows run in during round `round`: 0 .. rows - 1 on even rounds, backwards on
/// odd ones, so that over an even number of rounds each row's mean position is the same, and a
/// clock that rises or falls steadily through the measurement favours no row.
std::vector<std::size_t> round_order(std::size_t rows, int round);

} // namespace cktile_profiler
