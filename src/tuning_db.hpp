// SPDX-License-Identifier: MIT
// The tuning database: which instance is fastest for a problem key, as measured on one target
// with one compute-unit count by one library version. A file stamped differently, and entries
// that do not parse or name unknown instances, are ignored with a logged warning.
//
// {"format": "cktile-tuning-db", "format_version": 1, "library_version": "0.2.0",
//  "target": "sm_90a", "compute_units": 132,
//  "entries": [{"problem": "<gemm_problem_key>", "instance": "<name>", "time_ms": 0.12}]}
#pragma once

#include "kernel_library.hpp"

#include <map>
#include <string>

namespace cktile::detail {

struct tuning_entry
{
    std::string instance;
    double time_ms = 0;
};

struct tuning_stamp
{
    std::string target;
    int compute_units = 0;
};

/// Reads `path` and returns the usable entries (problem key -> entry). Throws api_error
/// (INVALID_ARGUMENT) when the file cannot be read or is not a tuning database at all.
std::map<std::string, tuning_entry>
load_tuning_db(const std::string& path, const tuning_stamp& stamp, const kernel_library& lib);

/// Writes `entries` stamped with `stamp`; throws api_error when the file cannot be written.
void save_tuning_db(const std::string& path, const tuning_stamp& stamp,
                    const std::map<std::string, tuning_entry>& entries);

} // namespace cktile::detail
