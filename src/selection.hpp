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
    /// Threads per compute unit that hide memory latency; fewer resident threads run slower
    /// (instances fed by the copy engine hide it with their stages instead).
    int latency_hiding_threads = 512;
    /// 32-bit registers per compute unit (NVIDIA: 64 K; AMD gfx9: 4 SIMDs of 512 x 64 lanes).
    int registers_per_cu = 64 * 1024;
    /// Calibrated on the H100, where a cost unit is about 4 ps (4096^3 fp16 on 128x256 tiles:
    /// 46.4M units, 188 us). Memory: bytes the whole device reads or writes per unit (3 TB/s),
    /// the floor of every GEMM (its operands read once, D written once) and the price of the
    /// split-K partial sums; one more launch (the split-K reduction's) about 2 us.
    double memory_bytes_per_unit = 12.0;
    double launch_units          = 5.0e5;
    /// Operand bytes one compute unit can stage from L2 per cost unit: the 128x256x64 fp16 K
    /// step (48 KiB) just keeps up with its math there, so narrower tiles, which stage more
    /// bytes per multiply-accumulate, are bound by L2 rather than by the tensor cores.
    double cache_bytes_per_unit_per_cu = 0.469;
};

/// The usual part of a target: compute units (when no device is at hand) and per-CU limits.
machine_model machine_for_target(const std::string& target, int compute_units);

/// Estimated time in arbitrary units (comparable between instances for one problem only), of
/// the fastest run or (`full_workspace` false) of a run with the instance's least workspace.
/// @pre the instance supports the problem.
double estimate_gemm_cost(const cktile_kernel_instance_t& inst, const cktile_gemm_problem_t& p,
                          const machine_model& m, bool full_workspace = true);

/// The least workspace `inst` runs `p` with (its minimum_workspace_size, else workspace_size).
std::size_t minimum_workspace(const cktile_kernel_instance_t& inst, const cktile_gemm_problem_t& p);

/// Output tiles over compute units for the statement `inst` runs (D^T's tiles where it runs the
/// problem as its transpose), without clusters, splits or occupancy: how full its last wave is.
double output_waves(const cktile_kernel_instance_t& inst, const cktile_gemm_problem_t& p,
                    const machine_model& m);

} // namespace cktile::detail
