// SPDX-License-Identifier: MIT
// What makes a row-wise problem (normalization, softmax, reduction) well formed, independent of any
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

/// @post as above, plus: op known; rank 1..6; dims >= 1 (0 is an empty reduction); strides
/// >= 0; reduce_mask names at least one axis and none >= rank; y does not overlap itself.
void validate_reduce_problem(const cktile_reduce_problem_t* problem);
/// x and y present, aligned to their element size, and y not overlapping x.
void validate_reduce_args(const cktile_reduce_problem_t& problem, const cktile_reduce_args_t* args);

/// "norm/layernorm/fp16,fp16->fp16/rows=..,cols=../bias=1,residual=0,stats=0".
std::string norm_problem_key(const cktile_norm_problem_t& p);
std::string softmax_problem_key(const cktile_softmax_problem_t& p);
/// "reduce/sum/fp16->fp32/dims=4x8,x_strides=8x1,mask=0x2,y_strides=1x0".
std::string reduce_problem_key(const cktile_reduce_problem_t& p);

} // namespace cktile::detail
