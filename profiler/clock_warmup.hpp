// SPDX-License-Identifier: MIT
// Raising the GPU's clocks before a measurement. An idle GPU runs at a low clock and takes a
// while to raise it, and ten untimed launches of a problem of a few microseconds keep the device
// busy for well under a millisecond (an H100 sweep's first problem ran its pick in 0.0170 ms
// where the same instance took 0.0140 later in the run). So the first measurement of a process,
// and any that starts after the host kept the device idle for a while (verification, setting
// up buffers), first keeps the device busy with the problem it is about to time, by time rather
// than by count, as Triton's do_bench does.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

namespace cktile_profiler {

/// Device time the warm-up keeps the device busy for, and the host's idle time after which a
/// measurement warms up again.
inline constexpr double clock_warmup_busy_ms = 200.0;
inline constexpr std::chrono::milliseconds clock_warmup_idle_after{500};

/// Whether a measurement starting at `now` warms the clocks first: none has run in this
/// process (`last_end` empty), or the last one ended clock_warmup_idle_after or more before.
bool needs_clock_warmup(const std::optional<std::chrono::steady_clock::time_point>& last_end,
                        std::chrono::steady_clock::time_point now);

/// The device time to keep the device busy with a measurement's own problem before it:
/// `steady_ms`, and at least clock_warmup_busy_ms where `clocks_may_be_low`
/// (needs_clock_warmup). The profiler's timer asks for the idle warm-up alone (steady_ms 0) and
/// runs --steady-ms separately, each row before each of its turns (time_launches_in_rounds):
/// a card that caps its power times a large problem right after an idle gap at a higher clock
/// than under sustained load (an H100 at its 700 W cap: 1.2-1.55 GHz after the first 0.2 s,
/// against 1.98 GHz idle), so a run of a few hundred launches compares two libraries by when
/// each ran. @return 0 for no warm-up.
double warmup_busy_ms(double steady_ms, bool clocks_may_be_low);

/// Runs `batch` until the batches took `busy_ms` of device time together, or `max_batches`
/// ran. `batch` runs some launches and returns the milliseconds they took, or a negative
/// value when they failed.
/// @return the milliseconds the batches took, or the first negative value `batch` returned.
double warm_clocks(const std::function<double()>& batch, double busy_ms = clock_warmup_busy_ms,
                   int max_batches = 10000);

} // namespace cktile_profiler
