// SPDX-License-Identifier: MIT
// cktile-profiler norm | softmax | reduce: the memory-bound operations. Every instance that
// supports the problem (or those named by --instance) is run through the C API, optionally
// verified against the CPU reference, and timed; bandwidth counts the bytes the operation must
// read plus the bytes it must write, once each.
#pragma once

#include "cktile.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace cktile_profiler {

/// True when args[0] names one of the memory-bound operations.
bool is_rowwise_op(const std::vector<std::string>& args);

/// The three operations' problems, parsed from the command line.
struct rowwise_problem
{
    std::string op; ///< "norm", "softmax" or "reduce"
    cktile_norm_problem_t norm{};
    cktile_softmax_problem_t softmax{};
    cktile_reduce_problem_t reduce{};

    /// Bytes read plus bytes written by one run (each tensor once).
    std::int64_t bytes_moved() const;
    /// "32768x4096 fp16->fp16 layernorm" and the like.
    std::string text() const;
    /// The problem options that rebuild it (" --rows=4 --cols=8 ...").
    std::string options() const;
};

/// Parses `cktile-profiler <op> [profile] [options]`. @throws usage_error naming the option.
struct rowwise_settings
{
    rowwise_problem problem;
    int device = 0, warmup = 10, iters = 50;
    std::uint64_t seed = 1;
    bool verify = false, quiet = false;
    std::string csv, json;
    std::vector<std::string> instances;
    bool help = false;
};
rowwise_settings parse_rowwise_command_line(const std::vector<std::string>& args);

/// The --help text of `op`.
std::string rowwise_help(const std::string& op);

/// Runs the subcommand; returns an exit_code.
int run_rowwise_profiler(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err);

} // namespace cktile_profiler
