// SPDX-License-Identifier: MIT
#include "timing_rounds.hpp"

#include <algorithm>

namespace cktile_profiler {

int effective_rounds(int iters, int rounds) { return std::clamp(rounds, 1, std::max(iters, 1)); }

int round_runs(int iters, int rounds, int round)
{
    const int r = effective_rounds(iters, rounds);
    return iters / r + (round < iters % r ? 1 : 0);
}

std::vector<std::size_t> round_order(std::size_t rows, int round)
{
    std::vector<std::size_t> order(rows);
    for(std::size_t i = 0; i < rows; ++i)
        order[i] = round % 2 ? rows - 1 - i : i;
    return order;
}

} // namespace cktile_profiler
