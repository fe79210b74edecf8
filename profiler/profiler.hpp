// SPDX-License-Identifier: MIT
// cktile-profiler as a function: the executable's main() is run_profiler() on argv, and the
// tests call it directly with their own streams.
#pragma once

#include "command_line.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace cktile_profiler {

/// Runs one command line (without the program name). The table goes to `out` (unless
/// --quiet, or --csv=- / --json=- take stdout), messages and the progress bar to `err`.
/// @return an exit_code.
int run_profiler(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `cktile-profiler --help` and `cktile-profiler gemm --help`.
std::string general_help();
std::string gemm_help();

} // namespace cktile_profiler
