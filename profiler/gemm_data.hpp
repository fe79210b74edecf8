// SPDX-License-Identifier: MIT
// Host side of a GEMM run: where each operand's elements lie, random inputs that are never
// zero, and the check of a device result against the CPU reference (reference_gemm.hpp).
// Nothing here needs a device, so all of it is tested on the CPU.
#pragma once

#include "cktile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cktile_profiler {

/// One operand's storage: X[b](i, j) is element b * stride + i * row_step + j * col_step.
struct matrix_geometry
{
    std::int64_t rows = 1, cols = 1, batch = 1;
    bool row_major  = true;
    std::int64_t ld = 1, stride = 0;
    std::size_t element_bytes = 1;

    std::int64_t row_step() const { return row_major ? ld : 1; }
    std::int64_t col_step() const { return row_major ? 1 : ld; }
    /// Elements from the first to one past the last element of the last batch.
    std::int64_t span() const;
    std::size_t bytes() const { return static_cast<std::size_t>(span()) * element_bytes; }
};

/// The operands of a validated problem. The bias is a 1 x len matrix per batch.
struct gemm_geometry
{
    matrix_geometry a, b, c, d, bias, d0, d1;
    bool reads_c  = false; ///< beta != 0
    bool has_bias = false;
    int extras    = 0; ///< extra inputs the multi_d_op reads (D0, D1)
    static gemm_geometry of(const cktile_gemm_problem_t& p);
};

/// `count` random elements of type `t`, none zero, small enough that fp32 sums of up to
/// 2^14 products are exact (floats: multiples of 1/8 in [-2, 2]; fp8: exponents between
/// 1/8 and 2; int8: -8..8). The same seed gives the same bytes.
std::vector<unsigned char> random_elements(cktile_datatype_t t, std::int64_t count,
                                           std::uint64_t seed);

/// The value of one stored element (fp8/fp16/bf16/fp32/int8/int32) as a double.
double decode_element(cktile_datatype_t t, const unsigned char* p);

/// Host copies of one set of inputs (C, bias, D0, D1 empty when the problem does not read
/// them).
struct gemm_host_inputs
{
    std::vector<unsigned char> a, b, c, bias, d0, d1;
    static gemm_host_inputs random(const cktile_gemm_problem_t& p, std::uint64_t seed);
};

struct verify_options
{
    /// Multiply-adds the reference may spend; above it, a random sample of rows is checked
    /// (every column of each sampled row; always the first and last row).
    double max_reference_macs = 1 << 30;
    /// Reference elements kept for comparison (memory: 16 bytes each).
    std::int64_t max_reference_elements = 1 << 24;
    std::uint64_t seed                  = 1;
    unsigned threads                    = 0; ///< 0: every hardware thread
};

struct verify_result
{
    bool passed               = false;
    std::int64_t checked      = 0; ///< elements compared with the reference
    std::int64_t mismatches   = 0; ///< compared elements outside their tolerance
    std::int64_t unwritten    = 0; ///< elements of D still holding the poison (NaN) pattern
    std::int64_t overwritten  = 0; ///< padding between D's rows/batches that was written
    double max_error_over_tol = 0; ///< worst |got - want| / tolerance among compared elements
    bool sampled              = false;
    std::string first_problem; ///< "D[0](3, 17) = 1.5, expected 2.25 (tolerance ...)"
    std::string summary() const;
};

/// Byte every element of D is set to before a run: 0xff reads as NaN in every floating-point
/// type (and -1 in int32), so unwritten elements show.
constexpr int poison_byte = 0xff;

/// The CPU reference for one problem and one set of inputs, computed once in double
/// precision (reference_gemm.hpp) and then compared with any number of device results.
class gemm_reference
{
    public:
    gemm_reference(const cktile_gemm_problem_t& p, const gemm_host_inputs& in,
                   const verify_options& o = {});

    /// Checks `d` (the whole D buffer, geometry bytes() long, poisoned before the run):
    /// compared elements within a tolerance per output type (half an ulp of D twice over,
    /// fp32 accumulation error bounded by K * 2^-24 * sum|a*b|, the activation's float
    /// evaluation); floating-point D never left NaN; padding between rows and batches never
    /// written.
    verify_result check(const std::vector<unsigned char>& d) const;
    bool sampled() const { return sampled_; }

    private:
    cktile_gemm_problem_t p_;
    std::vector<std::int64_t> batches_;           ///< batches compared
    std::vector<std::vector<std::int64_t>> rows_; ///< rows compared, per compared batch
    std::vector<double> want_, tol_;              ///< per compared element, batch/row/column order
    bool sampled_ = false;
};

/// gemm_reference(p, in, o).check(d).
verify_result verify_gemm(const cktile_gemm_problem_t& p, const gemm_host_inputs& in,
                          const std::vector<unsigned char>& d, const verify_options& o = {});

} // namespace cktile_profiler
