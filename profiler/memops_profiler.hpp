// SPDX-License-Identifier: MIT
// `cktile-profiler elementwise ...` and `cktile-profiler permute ...`: every instance that
// supports the problem, verified against the CPU reference (--verify), timed with device
// events, bandwidth counted as bytes read plus bytes written; table, CSV and JSON as for GEMM.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cktile_profiler {

/// True for the operations this front end handles ("elementwise", "permute").
bool is_memops_op(const std::string& op);

/// Runs one command line whose first word is an is_memops_op() operation; returns an exit_code.
int run_memops_profiler(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string memops_help(const std::string& op);

} // namespace cktile_profiler
