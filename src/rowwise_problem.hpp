// SPDX-License-Identifier: MIT
// What makes a row-wise problem (normalization, softmax) well formed, independent of any
// instance, and its text forms (the key for caches and logs).
#pragma once

#include "cktile.h"

#include <string>

namespace cktile::detail {

/// Throws api_error (INVALID_ARGUMENT for malformed values, NOT_SUPPORTED for type
/// combinations no instance family computes) naming the field and the constraint.
/// @post known enums; rows, cols >= 1 and cols < 2^31; every stride covers a row; every
/// tensor's index space fits in int64 bytes; epsilon finite and >= 0.
void validate_norm_problem(const cktile_norm_problem_t* problem);
/// Checks pointers against a validated problem: present exactly when used, aligned to their
/// element size, and outputs overlapping no other tensor (except the aliasing cktile.h allows).
void validate_norm_args(const cktile_norm_problem_t& problem, const cktile_norm_args_t* args);

void validate_softmax_problem(const cktile_softmax_problem_t* problem);
void validate_softmax_args(const cktile_softmax_problem_t& problem,
                           const cktile_softmax_args_t* args);

/// "norm/layernorm/fp16,fp16->fp16/rows=..,cols=../bias=1,residual=0,stats=0".
std::string norm_problem_key(const cktile_norm_problem_t& p);
std::string softmax_problem_key(const cktile_softmax_problem_t& p);

} // namespace cktile::detail
