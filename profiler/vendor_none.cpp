// SPDX-License-Identifier: MIT
// Builds without a vendor GEMM library (AMD, host-only, or NVIDIA without cublasLt).
#include "vendor.hpp"

namespace cktile_profiler {

std::unique_ptr<vendor_gemm> make_vendor_gemm(int, std::string& why)
{
    why = "this build has no vendor GEMM library (cuBLASLt is used on NVIDIA builds that find "
          "it)";
    return nullptr;
}

std::string vendor_name() { return ""; }

} // namespace cktile_profiler
