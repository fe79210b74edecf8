// SPDX-License-Identifier: MIT
// What the entry points of the operations other than GEMM share (row-wise, elementwise,
// permute): finding an instance by id, asking it whether it runs a problem and why not,
// listing the instances that do, reporting support to the caller, and running one on the
// handle's device. Each operation supplies its own cost model for selection.
#pragma once

#include "handle.hpp"
#include "kernel_library_abi.h"

#include <string>
#include <vector>

namespace cktile::detail {

/// What tells one operation's instances from the others' in messages and filters.
struct op_family
{
    cktile_op_kind_t kind;
    const char* what; ///< "normalization"
    cktile_datatype_t in_type, out_type;
};

/// "" when instance `r` runs the problem (`args` may be null), else the reason.
std::string why_not(const cktile_kernel_instance_t& r, const op_family& f, const void* problem,
                    const void* args);

/// The instance with `id`; throws INVALID_ARGUMENT for CKTILE_INSTANCE_AUTO, NOT_FOUND else.
const cktile_kernel_instance_t& require_instance(const handle_state& s, std::uint64_t id);

/// Every instance of the family that runs the problem; throws NOT_SUPPORTED (with the reasons
/// of a few instances of the problem's types) when none does.
std::vector<const cktile_kernel_instance_t*> supporting(const handle_state& s, const op_family& f,
                                                        const void* problem, const void* args);

/// A problem's one-line description for messages and logs: built only when one is written.
using problem_text = std::string (*)(const void* problem);

/// Throws INVALID_ARGUMENT for a mode that is not a cktile_select_mode_t, and NOT_FOUND for
/// CKTILE_SELECT_TUNING_DB (the tuning database holds GEMM problems only).
void check_select_mode(cktile_select_mode_t mode, const void* problem, problem_text key);

/// SUCCESS when `why` is empty; else copies it into `reason` and throws NOT_SUPPORTED.
cktile_status_t report_support(const cktile_kernel_instance_t& r, const std::string& why,
                               char* reason, size_t reason_size);

/// Launches instance `r` on the handle's device (made current for the call) and `stream`.
void run_on_device(const handle_state& s, const cktile_kernel_instance_t& r, const void* problem,
                   const void* args, void* stream, problem_text key);

} // namespace cktile::detail
