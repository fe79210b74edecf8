// SPDX-License-Identifier: MIT
// The runtime's own cost per launch on this machine: kernels that do nothing, launched the way
// the instances launch theirs (and the ways they could), so the host time the C API adds can be
// read above the runtime's floor rather than against zero.
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cktile_bench {

/// One call to time: returns false when the runtime reports a failure.
struct timed_case
{
    std::string label;
    std::function<bool()> call;
};

/// Launches of empty kernels on `stream` (1 block of 128 threads) with argument blocks of 0,
/// the size of the Hopper GEMM's (448 bytes) and 4 KiB, through the launch seam
/// (ck_tile::launch_kernel), the plain runtime launch, and where the runtime has them the
/// launch with a pre-resolved function handle; then the runtime calls around a launch
/// (device get/set, last error).
std::vector<timed_case> launch_floor_cases(hipStream_t stream);

} // namespace cktile_bench
