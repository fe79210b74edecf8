// SPDX-License-Identifier: MIT
// The command line of cktile-profiler: `cktile-profiler <op> [mode] [options]`. One table of
// options (name, spellings, whether it takes a value, help) drives parsing, --help and the
// replay commands, so the three cannot disagree.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cktile_profiler {

/// Exit codes of cktile-profiler (also listed by --help and profiler/README.md).
enum exit_code : int
{
    exit_ok        = 0, ///< everything ran; every verification passed
    exit_failed    = 1, ///< a run failed or a result did not verify
    exit_no_device = 2, ///< the mode needs a GPU and none is present
    exit_usage     = 3, ///< bad command line (the message says which option and why)
    exit_setup     = 4  ///< no kernel library for the target, a file that cannot be written, ...
};

/// A command-line mistake; what() names the option and what was expected.
struct usage_error : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

enum class option_group
{
    problem, ///< describes the GEMM; sweepable (lists and ranges)
    run,     ///< how to run, time, verify, select
    output   ///< where results go
};

struct option_spec
{
    std::string name;                 ///< canonical spelling without dashes: "type-a"
    std::vector<std::string> aliases; ///< other accepted spellings, normalised ("a-type")
    bool takes_value;                 ///< false: a flag (--verify, --no-verify, --verify=0)
    option_group group;
    std::string metavar; ///< "<int|range|list>"
    std::string help;
};

/// The modes of the gemm op, in the order --help lists them.
const std::vector<std::string>& gemm_modes();

/// Every gemm option, in the order --help lists them (and sweeps nest: first is outermost).
const std::vector<option_spec>& gemm_options();

/// "--a_type" and "a-type" -> "a-type": dashes stripped, '_' read as '-', lower case.
std::string normalise_option_name(std::string_view spelled);

/// The spec for a canonical name or alias (normalised); nullptr when unknown.
const option_spec* find_gemm_option(std::string_view normalised);

/// A parsed command line.
struct command_line
{
    std::string op;   ///< "gemm"; empty when only --help/--version was given
    std::string mode; ///< one of gemm_modes(); "profile" when omitted
    bool help    = false;
    bool version = false;
    /// Canonical option name -> its text. Flags hold "1" or "0".
    std::map<std::string, std::string> values;

    bool has(const std::string& name) const { return values.count(name) != 0; }
    /// The value of a flag: its default when not given.
    bool flag(const std::string& name, bool default_value) const;
    /// The text of an option, or `fallback` when not given.
    std::string text(const std::string& name, const std::string& fallback = "") const;
};

/// Parses argv[1..]. Accepts `--name=value`, `--name value` (options with values), `--flag`,
/// `--no-flag` and `--flag=0|1|true|false|yes|no|on|off`.
/// @throws usage_error naming the offending token: unknown op, mode or option (with the
///         nearest known spelling), a missing value, a value given to a flag, an option given
///         twice.
command_line parse_command_line(const std::vector<std::string>& args);

/// The nearest known option to an unknown one (edit distance <= 3), or "".
std::string suggest_option(std::string_view normalised);

} // namespace cktile_profiler
