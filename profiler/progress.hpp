// SPDX-License-Identifier: MIT
// A one-line progress bar on stderr for long sweeps. Redrawn in place with '\r', so it is only
// ever shown on a terminal: logs and pipes stay free of it.
#pragma once

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace cktile_profiler {

/// True when stderr is a terminal (the default for --progress).
bool stderr_is_terminal();

class progress_bar
{
    public:
    /// Draws nothing when `enabled` is false or `total` is below 2.
    progress_bar(std::ostream& out, std::size_t total, bool enabled);
    ~progress_bar() { finish(); }
    progress_bar(const progress_bar&)            = delete;
    progress_bar& operator=(const progress_bar&) = delete;

    /// One step done; `label` says what runs next. Redraws at most every 100 ms.
    void step(const std::string& label);
    /// Erases the bar (idempotent).
    void finish();

    private:
    std::ostream& out_;
    std::size_t total_, done_ = 0;
    bool enabled_, drawn_     = false;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

} // namespace cktile_profiler
