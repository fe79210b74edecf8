// SPDX-License-Identifier: MIT
// What the row-wise operations' registry records share (normalization, softmax, reduction): the
// GEMM entry points every record must carry, answering "not a GEMM"; the public description filled
// from a row_tile_shape; and the launch with its error reporting. Included by the generated
// instance sources only (device compiler).
#pragma once

#include "kernel_call.hpp"
#include "kernel_library_abi.h"

#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/kernel_launch.hpp"

#include <cstdio>
#include <exception>

namespace cktile::library::rowwise {

inline int refuse_gemm(const cktile_gemm_problem_t*, const cktile_gemm_args_t*, char* reason,
                       std::size_t reason_size)
{
    write_text(reason, reason_size,
               "a row-wise (normalization/softmax/reduction) instance runs no GEMM");
    return 1;
}
inline std::size_t no_workspace(const cktile_gemm_problem_t*) { return 0; }
inline int refuse_gemm_run(const cktile_gemm_problem_t*, const cktile_gemm_args_t*, void*,
                           std::size_t, void*, char* message, std::size_t message_size)
{
    write_text(message, message_size,
               "a row-wise (normalization/softmax/reduction) instance runs no GEMM");
    return CKTILE_STATUS_NOT_SUPPORTED;
}

/// The C-callable supports() answer from a reason (nullptr: supported).
inline int answer_supports(const char* why, char* reason, std::size_t reason_size)
{
    if(!why)
        return 0;
    write_text(reason, reason_size, why);
    return 1;
}

/// The blocks per compute unit a kernel asks the compiler to keep resident (a register cap,
/// __launch_bounds__); 1 when it does not say.
template <typename Kernel>
constexpr int min_blocks_per_cu()
{
    if constexpr(requires { Kernel::MinBlocksPerCu; })
        return Kernel::MinBlocksPerCu;
    else
        return 1;
}

/// Launches Kernel over its grid on `stream`, turning exceptions into a status and message.
template <typename Kernel>
int launch(const typename Kernel::kargs& ka, void* stream, char* message, std::size_t message_size)
{
    return guard_kernel_call(message, message_size, [&]() -> int {
        const unsigned grid = Kernel::grid_size(ka);
        if(grid == 0)
            return CKTILE_STATUS_SUCCESS;
        ck_tile::launch_kernel(
            ck_tile::stream_config{static_cast<hipStream_t>(stream), false, 0, 0, 1},
            ck_tile::make_kernel<Kernel::BlockSize, min_blocks_per_cu<Kernel>()>(
                Kernel{}, dim3(grid), dim3(Kernel::BlockSize), 0u, ka));
        return CKTILE_STATUS_SUCCESS;
    });
}

/// What the public description says about a kernel's tiling.
struct tile_info
{
    int tile_m, tile_n, threads, vector;
    std::size_t shared_memory_bytes;
};

/// The description of a row_tile_shape: tile_m rows per block, tile_n columns per chunk.
template <typename Shape>
constexpr tile_info row_tile_info()
{
    return {Shape::RowsPerBlock, Shape::TileN, Shape::BlockSize, Shape::Vector,
            sizeof(float) * Shape::RowsPerBlock * Shape::WarpsPerRow};
}

/// The record of one row-wise instance: description from the kernel's tiling, its launch
/// bound (min_blocks: blocks per compute unit, which caps its registers; the selection model
/// reads it), GEMM entry points that refuse, the operation's own supports/run, and the rows a
/// block copies ahead into shared memory (1: none).
inline cktile_kernel_instance_t make_record(std::uint64_t id, const char* name, const char* target,
                                            bool general, cktile_op_kind_t op, cktile_datatype_t x,
                                            cktile_datatype_t w, cktile_datatype_t y,
                                            const tile_info& tile, int min_blocks,
                                            cktile_kernel_op_supports_fn supports,
                                            cktile_kernel_op_run_fn run, int rows_in_flight = 1)
{
    cktile_kernel_instance_t r{};
    r.struct_size             = sizeof(r);
    cktile_instance_info_t& i = r.info;
    i.struct_size             = sizeof(i);
    i.id                      = id;
    std::snprintf(i.name, sizeof(i.name), "%s", name);
    std::snprintf(i.target, sizeof(i.target), "%s", target);
    i.op_kind             = op;
    i.a_type              = x;
    i.b_type              = w;
    i.c_type              = y;
    i.d_type              = y;
    i.compute_type        = CKTILE_DATATYPE_FP32;
    i.a_layout            = CKTILE_LAYOUT_ROW_MAJOR;
    i.b_layout            = CKTILE_LAYOUT_ROW_MAJOR;
    i.tile_m              = tile.tile_m;
    i.tile_n              = tile.tile_n;
    i.tile_k              = 1;
    i.block_threads       = tile.threads;
    i.index_bits          = 64;
    i.alignment_elements  = tile.vector;
    i.k_multiple          = tile.vector;
    i.shared_memory_bytes = tile.shared_memory_bytes;
    i.is_general          = general ? 1 : 0;
    r.min_blocks_per_cu   = min_blocks;
    r.supports            = &refuse_gemm;
    r.workspace_size      = &no_workspace;
    r.run                 = &refuse_gemm_run;
    r.op_supports         = supports;
    r.op_run              = run;
    r.rows_in_flight      = rows_in_flight;
    return r;
}

} // namespace cktile::library::rowwise
