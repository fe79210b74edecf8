// SPDX-License-Identifier: MIT
#include "clock_warmup.hpp"

namespace cktile_profiler {

bool needs_clock_warmup(const std::optional<std::chrono::steady_clock::time_point>& last_end,
                        std::chrono::steady_clock::time_point now)
{
    return !last_end || now - *last_end >= clock_warmup_idle_after;
}

double warmup_busy_ms(double steady_ms, bool clocks_may_be_low)
{
    const double idle = clocks_may_be_low ? clock_warmup_busy_ms : 0.0;
    return steady_ms > idle ? steady_ms : idle;
}

double warm_clocks(const std::function<double()>& batch, double busy_ms, int max_batches)
{
    double total = 0;
    for(int i = 0; i < max_batches && total < busy_ms; ++i)
    {
        const double ms = batch();
        if(ms < 0)
            return ms;
        total += ms;
    }
    return total;
}

} // namespace cktile_profiler
