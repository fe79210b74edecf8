// SPDX-License-Identifier: MIT
// What every mode of one cktile-profiler invocation shares: the settings read from the
// command line, the problems of the sweep, the cktile handle, the report being built, and
// how a result row is described and replayed.
#pragma once

#include "command_line.hpp"
#include "gemm_sweep.hpp"
#include "report.hpp"

#include "cktile.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace cktile_profiler {

struct settings
{
    std::string mode;
    int device = 0;
    std::string target; ///< --target: offline handle for enumerate/select
    int warmup = 10, iters = 50;
    int steady_ms = 0; ///< --steady-ms: device time of a row itself before each of its turns
    int rounds    = 5; ///< --rounds: profile times a problem's rows in this many rounds
    bool verify   = false;
    bool vendor = true; ///< --vendor/--no-vendor; --instance without the vendor's name turns it off
    std::string tuning_db;
    std::uint64_t seed = 1;
    int calls          = 5000;
    std::string csv, json;
    bool quiet    = false;
    bool progress = false;
    std::vector<std::string> instances; ///< --instance items, as given
    bool given(const std::string& option) const;
    command_line cl;
};

/// Reads every non-problem option of `cl`. @throws usage_error.
settings read_settings(const command_line& cl);

/// Shell-safe form of one word (quoted only when it needs to be).
std::string shell_word(const std::string& s);

/// `cktile-profiler gemm <mode> <problem options> [--instance=...] <mode's run options>`:
/// reruns one row. `instance` may be empty (the whole problem).
std::string replay_command(const settings& s, const cktile_gemm_problem_t& p,
                           const std::string& instance);

/// Problem fields shared by every row: index, shape text, all problem parameters.
void add_problem_fields(record& r, std::size_t index, const cktile_gemm_problem_t& p);

/// Instance facts shared by enumerate, select and profile rows.
/// An instance's tile, "MxNxK".
std::string tile_text(const cktile_instance_info_t& info);

void add_instance_fields(record& r, const cktile_instance_info_t& info);

/// Whether the instance has the problem's types, A's and B's either way round: an instance may
/// run the problem as its transpose (cktile_gemm_runs_transposed).
bool gemm_types_match(const cktile_instance_info_t& info, const cktile_gemm_problem_t& p);

/// Every GEMM instance of a handle's kernel library, in library order.
std::vector<cktile_instance_info_t> list_instances(cktile_handle_t h);

/// The instances --instance names (all when it is absent), and whether it names the vendor.
/// @throws usage_error for a name or id the library does not have.
std::vector<cktile_instance_info_t> chosen_instances(cktile_handle_t h, const settings& s,
                                                     bool& vendor_named);

/// Facts about the handle for the report's context (target, compute units, device).
void add_handle_context(report& rep, cktile_handle_t h);

/// "0x1234abcd...": instance ids are 64-bit hashes; JSON numbers lose their low bits.
std::string id_text(std::uint64_t id);

/// The modes. Each fills `rep` and returns an exit_code; `err` takes messages.
int run_enumerate(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
                  cktile_handle_t h, report& rep, std::ostream& err);
int run_select(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
               cktile_handle_t h, report& rep, std::ostream& err);
int run_profile(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
                cktile_handle_t h, report& rep, std::ostream& err);
int run_tune(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
             cktile_handle_t h, report& rep, std::ostream& err);
int run_overhead(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
                 cktile_handle_t h, report& rep, std::ostream& err);

} // namespace cktile_profiler
