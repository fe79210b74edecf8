// SPDX-License-Identifier: MIT
#include "progress.hpp"

#include <cstdio>
#include <ostream>
#include <unistd.h>

namespace cktile_profiler {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

progress_bar::progress_bar(std::ostream& out, std::size_t total, bool enabled)
    : out_(out), total_(total), enabled_(enabled && total > 1),
      start_(std::chrono::steady_clock::now()), last_draw_(start_ - std::chrono::seconds(1))
{}

void progress_bar::step(const std::string& label)
{
    if(!enabled_)
        return;
    ++done_;
    const auto now = std::chrono::steady_clock::now();
    if(now - last_draw_ < std::chrono::milliseconds(100) && done_ < total_)
        return;
    last_draw_           = now;
    constexpr int width  = 30;
    const int filled     = static_cast<int>(width * done_ / total_);
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double eta     = done_ ? elapsed * double(total_ - done_) / double(done_) : 0;
    char head[96];
    std::snprintf(head, sizeof(head), "[%-*s] %zu/%zu  %.0fs left  ", width,
                  std::string(static_cast<std::size_t>(filled), '#').c_str(), done_, total_, eta);
    std::string line = head + label;
    if(line.size() > 110)
        line.resize(110);
    out_ << '\r' << line << "\033[K" << std::flush; // \033[K: clear the rest of the line
    drawn_ = true;
}

void progress_bar::finish()
{
    if(drawn_)
        out_ << "\r\033[K" << std::flush;
    drawn_ = false;
}

} // namespace cktile_profiler
