// SPDX-License-Identifier: MIT
// What makes a GEMM problem well formed, independent of any instance; and the two text forms
// of a problem: the key the tuning database and measured cache use, and the profiler command
// line that replays a call.
#pragma once

#include "cktile.h"

#include <cstddef>
#include <string>

namespace cktile::detail {

const char* datatype_name(cktile_datatype_t t);  // "fp16"; "?" when unknown
std::size_t datatype_bytes(cktile_datatype_t t); // 0 when unknown
const char* layout_name(cktile_layout_t l);      // "row", "col", "any"
const char* bias_name(cktile_bias_t b);          // "none", "row", "column"
const char* activation_name(cktile_activation_t a);
const char* multi_d_op_name(cktile_multi_d_op_t op);          // "none", "add", "mul", ...
const char* multi_d_point_name(cktile_multi_d_point_t point); // "after_activation", ...
int multi_d_inputs(cktile_multi_d_op_t op);                   // extra tensors it reads: 0, 1, 2

/// Throws api_error (INVALID_ARGUMENT for malformed values, NOT_SUPPORTED for type
/// combinations no GEMM computes) naming the field and the constraint.
/// @post on return: known enums; m, n, k, batch_count >= 1; every leading dimension covers
/// its row or column; every matrix's (and every batch's) index space fits in int64 bytes; D's
/// batches do not overlap; alpha and beta are finite; with a multi_d_op, each extra input it
/// reads has D's type or fp32, a known layout and a leading dimension and batch stride that fit.
/// Returns the problem as this library's complete struct (fields a shorter, older struct lacks
/// are zero: no extra inputs).
cktile_gemm_problem_t validate_gemm_problem(const cktile_gemm_problem_t* problem);

/// Checks run-time pointers against a validated problem: A, B, D always; C when beta != 0;
/// the bias when the problem has one; D0/D1 when its multi_d_op reads them; each aligned to its
/// element size.
/// Validates `args` and returns them as this library's complete struct (fields a shorter,
/// older struct lacks are zero: no scales).
cktile_gemm_args_t validate_gemm_args(const cktile_gemm_problem_t& p,
                                      const cktile_gemm_args_t* args);

/// A query's problem and (optional) arguments, validated and completed to this library's
/// structs whatever the caller's sizes. @post args() is null exactly when none were given.
class validated_gemm_query
{
    public:
    validated_gemm_query(const cktile_gemm_problem_t* problem, const cktile_gemm_args_t* args)
        : problem_(validate_gemm_problem(problem)), has_args_(args != nullptr)
    {
        if(has_args_)
            args_ = validate_gemm_args(problem_, args);
    }
    const cktile_gemm_problem_t& problem() const { return problem_; }
    const cktile_gemm_args_t* args() const { return has_args_ ? &args_ : nullptr; }

    private:
    cktile_gemm_problem_t problem_;
    cktile_gemm_args_t args_{};
    bool has_args_;
};

/// A canonical key: types, layouts, M, N, K, batch, epilogue, whether C is read. Problems with
/// equal keys get the same tuning answer (support is still checked per problem).
std::string gemm_problem_key(const cktile_gemm_problem_t& p);

/// `cktile-profiler gemm --m=... ...` that repeats this call; `instance` may be empty.
std::string gemm_replay_command(const cktile_gemm_problem_t& p, const std::string& instance);

} // namespace cktile::detail
