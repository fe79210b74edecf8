// SPDX-License-Identifier: MIT
// The heuristic: an analytical estimate of an instance's run time on a problem, from its
// tiles, the waves they make over the compute units, and how many blocks fit on one.
#pragma once

#include "kernel_library_abi.h"

#include <string>

namespace cktile::detail {

/// What the model needs to know about the machine.
struct machine_model
{
    int compute_units      = 1;
    int max_threads_per_cu = 2048;
    std::size_t lds_per_cu = 228 * 1024;
    int max_blocks_per_cu  = 32;
    /// Threads per compute unit that hide memory latency; fewer resident threads run slower.
    int latency_hiding_threads = 512;
    /// 32-bit registers per compute unit (NVIDIA: 64 K; AMD gfx9: 4 SIMDs of 512 x 64 lanes).
    int registers_per_cu = 64 * 1024;
};

/// The usual part of a target: compute units (when no device is at hand) and per-CU limits.
machine_model machine_for_target(const std::string& target, int compute_units);

/// Estimated time in arbitrary units (comparable between instances for one problem only).
/// @pre the instance supports the problem.
double estimate_gemm_cost(const cktile_kernel_instance_t& inst, const cktile_gemm_problem_t& p,
                          const machine_model& m);

} // namespace cktile::detail
