// SPDX-License-Identifier: MIT
#include "measured_selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace cktile::detail {

std::vector<std::size_t> measurement_finalists(const std::vector<double>& screen_ms,
                                               const measurement_plan& plan)
{
    std::vector<std::size_t> order;
    for(std::size_t i = 0; i < screen_ms.size(); ++i)
        if(std::isfinite(screen_ms[i]))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return screen_ms[a] < screen_ms[b]; });
    if(order.empty())
        return order;
    const double limit = screen_ms[order.front()] * plan.finalist_within;
    std::size_t keep   = 0;
    while(keep < order.size() && keep < std::max<std::size_t>(plan.max_finalists, 1) &&
          screen_ms[order[keep]] <= limit)
        ++keep;
    order.resize(std::max<std::size_t>(keep, 1));
    return order;
}

int launches_per_round(double fastest_ms, const measurement_plan& plan)
{
    const int cap = std::max(plan.max_launches_per_round, 1);
    if(!(fastest_ms > 0) || !std::isfinite(fastest_ms))
        return 1;
    const double wanted = std::ceil(plan.round_ms / fastest_ms);
    return wanted >= cap ? cap : std::max(1, static_cast<int>(wanted));
}

std::vector<std::size_t> measurement_round_order(std::size_t finalists, int round)
{
    std::vector<std::size_t> order(finalists);
    std::iota(order.begin(), order.end(), std::size_t{0});
    if(round % 2 != 0)
        std::reverse(order.begin(), order.end());
    return order;
}

double median_of(std::vector<double> values)
{
    const std::size_t n = values.size();
    std::sort(values.begin(), values.end());
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::size_t fastest_by_median(const std::vector<std::vector<double>>& round_ms)
{
    std::size_t best  = 0;
    double best_value = std::numeric_limits<double>::infinity();
    for(std::size_t f = 0; f < round_ms.size(); ++f)
        if(const double m = median_of(round_ms[f]); m < best_value)
        {
            best       = f;
            best_value = m;
        }
    return best;
}

} // namespace cktile::detail
