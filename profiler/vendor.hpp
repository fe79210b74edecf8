// SPDX-License-Identifier: MIT
// The vendor baseline measured in the same process, on the same buffers, with the same
// timing: cuBLASLt on NVIDIA when the CUDA toolkit's cublasLt was found at build time.
#pragma once

#include "cktile.h"

#include "ck_tile/host/hip_runtime.hpp"

#include <memory>
#include <string>

namespace cktile_profiler {

class vendor_gemm
{
    public:
    virtual ~vendor_gemm() = default;
    /// The row label: "cublasLt".
    virtual std::string name() const = 0;
    /// "cuBLASLt 130100" (the library's own version number).
    virtual std::string version() const = 0;
    /// Sets up `p` (descriptors, the vendor heuristic's algorithm). Returns "" when the
    /// vendor runs it, else why not ("cuBLASLt has no gelu_erf epilogue").
    virtual std::string prepare(const cktile_gemm_problem_t& p) = 0;
    /// Launches the prepared problem asynchronously; returns "" or what failed.
    virtual std::string run(const cktile_gemm_args_t& args, hipStream_t stream) = 0;
    /// The algorithm the vendor heuristic picked, for the row's instance column.
    virtual std::string algorithm() const = 0;
};

/// The vendor library for `device`, or nullptr with `why` set when this build has none (not
/// NVIDIA, or cublasLt was not found) or it cannot start.
std::unique_ptr<vendor_gemm> make_vendor_gemm(int device, std::string& why);

/// The row label a vendor would have in this build ("cublasLt"), or "" when none is built.
std::string vendor_name();

} // namespace cktile_profiler
