// SPDX-License-Identifier: MIT
// From problem options to cktile_gemm_problem_t values, and back: the sweep of GEMM problems
// a command line describes, the defaults that fill what it leaves out, and the problem part of
// a replay command (the shortest option list that rebuilds the same problem).
#pragma once

#include "cktile.h"
#include "command_line.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cktile_profiler {

/// Short names used in output and replay commands: "f16", "row", "col", "gelu_tanh".
/// Parsing also accepts the library's log spellings ("fp16", "fp8_e4m3", "int8", "column").
const char* type_name(cktile_datatype_t t);
const char* layout_name(cktile_layout_t l);
const char* bias_name(cktile_bias_t b);
const char* activation_name(cktile_activation_t a);
const char* multi_d_name(cktile_multi_d_op_t op);             // "add", "mul_add"
const char* multi_d_point_name(cktile_multi_d_point_t point); // "after", "before"
int multi_d_inputs(cktile_multi_d_op_t op);                   // extra tensors it reads: 0..2
std::size_t type_bytes(cktile_datatype_t t);                  // 0 when unknown

/// One point of a sweep: the problem options the user gave, each with one value. Integers,
/// reals and enums (stored as their C enum value) share one representation.
struct gemm_point
{
    std::map<std::string, std::int64_t> ints;
    std::map<std::string, double> reals;
};

/// The sweep a command line describes: every problem option's list of values.
class gemm_sweep
{
    public:
    /// Parses every problem option of `cl`; values of other options are ignored.
    /// @throws usage_error naming the option and the bad value.
    explicit gemm_sweep(const command_line& cl);
    std::size_t size() const;
    gemm_point point(std::size_t i) const;
    /// Options with more than one value, in nesting order ("m", "k").
    std::vector<std::string> swept_options() const;

    private:
    struct axis
    {
        std::string option;
        bool real = false;
        std::vector<std::int64_t> ints;
        std::vector<double> reals;
        std::size_t size() const { return real ? reals.size() : ints.size(); }
    };
    std::vector<axis> axes_;
};

/// Defaults for sizes the point leaves out (4096, or 64 for the host-overhead mode).
struct gemm_defaults
{
    std::int64_t m = 4096, n = 4096, k = 4096;
};

/// The problem for one point: given values, then derived defaults (types follow A, C follows
/// D, leading dimensions tight, batch strides packed, bias stride its length).
/// @post struct_size set; only fields the point leaves out are derived.
cktile_gemm_problem_t make_gemm_problem(const gemm_point& p, const gemm_defaults& d = {});

/// The problem options that rebuild `p` through make_gemm_problem (with default sizes
/// `d`): m n k, the types and layouts of A, B and D always, everything else only where it
/// differs from what would be derived. Starts with a space: " --m=... --n=...".
/// @post make_gemm_problem(the point these options parse to, d) equals p field by field.
std::string gemm_problem_options(const cktile_gemm_problem_t& p);

/// "4096x4096x4096" (with "x8" for a batch of 8).
std::string shape_text(const cktile_gemm_problem_t& p);
/// "f16*f16->f16" (with "+f16 C" when C is read... kept short: types of A, B and D).
std::string types_text(const cktile_gemm_problem_t& p);
/// Layouts of A, B, C, D as four letters: "rcrr".
std::string layouts_text(const cktile_gemm_problem_t& p);
/// "-" or "bias=row,relu,alpha=2".
std::string epilogue_text(const cktile_gemm_problem_t& p);

/// 2 * m * n * k * batch.
double gemm_flops(const cktile_gemm_problem_t& p);
/// Bytes a GEMM must move at least: A, B (and C when beta != 0, the bias when present) read
/// once, D written once. A batch stride of 0 broadcasts one matrix, read once.
double gemm_min_bytes(const cktile_gemm_problem_t& p);

/// Shortest text that reads back as the same double ("0.1", "2", "1e-07").
std::string real_text(double v);

} // namespace cktile_profiler
