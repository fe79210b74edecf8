// SPDX-License-Identifier: MIT
// What makes an elementwise or permute problem well formed, independent of any instance, and
// its text form (the key for logs).
#pragma once

#include "cktile.h"

#include <string>

namespace cktile::detail {

/// Throws api_error (INVALID_ARGUMENT for malformed values, NOT_SUPPORTED for types no
/// instance family computes) naming the field and the constraint.
/// @post known op; fp32 compute; ranks 1..6; dims >= 1; strides >= 0; a (and b, for binary
/// ops) broadcast to y's shape under NumPy rules; y does not overlap itself; every tensor's
/// index space fits in int64 bytes; alpha and beta finite.
void validate_elementwise_problem(const cktile_elementwise_problem_t* problem);
/// Pointers present exactly when used, aligned to their element size; y overlapping no input
/// unless it is that very tensor (same pointer, type, shape and strides).
void validate_elementwise_args(const cktile_elementwise_problem_t& problem,
                               const cktile_elementwise_args_t* args);

/// @post equal ranks 1..6; perm a permutation; y.dims[d] == x.dims[perm[d]]; one type;
/// strides >= 0; y does not overlap itself; index spaces fit in int64 bytes.
void validate_permute_problem(const cktile_permute_problem_t* problem);
/// Pointers present and aligned; y not overlapping x at all (no permutation runs in place).
void validate_permute_args(const cktile_permute_problem_t& problem,
                           const cktile_permute_args_t* args);

/// "elementwise/add/fp16,fp16->fp16/y=[4,8]:[8,1],a=[4,8]:[8,1],b=[8]:[1]/alpha=1,beta=1".
std::string elementwise_problem_key(const cktile_elementwise_problem_t& p);
/// "permute/fp16/x=[4,8]:[8,1]/perm=1,0/y=[8,4]:[4,1]".
std::string permute_problem_key(const cktile_permute_problem_t& p);

} // namespace cktile::detail
