// SPDX-License-Identifier: MIT
// Host-callable launchers for the tile-window device tests (tile_window_kernels.cpp is the only
// file here that the device compiler sees).
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

namespace cktile_tile_window_test {

enum class dtype
{
    fp16,
    bf16,
    fp32
};

/// Rows and columns of the copy tile for a type: every thread moves 16-byte vectors, so the
/// tile is 8 vectors wide; it is 8 rows per 8 lanes of a warp tall (warp size dependent).
int copy_tile_rows();
int copy_tile_cols(dtype t);

/// out (rows x cols, row stride ld) = in (same shape and stride), tile by tile: global ->
/// registers -> XOR-swizzled shared memory -> registers (another thread mapping) -> global.
/// Only the rows x cols elements of out are written. `vector_view` says the views promise
/// 16-byte runs (cols and ld multiples of the vector length, 16-byte aligned pointers); else
/// every global access is scalar.
hipError_t launch_copy_through_lds(dtype t, const void* in, void* out, int rows, int cols, int ld,
                                   bool vector_view, hipStream_t stream);

/// out (cols x rows, row stride ld_out) = transpose of in (rows x cols, row stride ld_in): each
/// tile is loaded with vector reads and stored through a transposed view of out.
hipError_t launch_transpose_store(dtype t, const void* in, void* out, int rows, int cols, int ld_in,
                                  int ld_out, hipStream_t stream);

/// out (fp32, rows x cols, row stride ld) += in, tile by tile, with update_tile through an
/// atomic_add view.
hipError_t launch_atomic_update(const float* in, float* out, int rows, int cols, int ld,
                                hipStream_t stream);

/// Rows of the register-shuffle tiles (2 rows per thread, warp size dependent); their columns
/// are copy_tile_cols(t).
int shuffle_tile_rows();

/// out = in (rows x cols, row stride ld), tile by tile: loaded with one distribution,
/// shuffle_tile'd in registers into another that gives each thread the same elements in
/// another register order, stored with that one. Scalar global accesses.
hipError_t launch_shuffle_store(dtype t, const void* in, void* out, int rows, int cols, int ld,
                                hipStream_t stream);

/// out (cols x rows, row stride ld_out) = transpose of in (rows x cols, row stride ld_in):
/// each tile is loaded, transpose_tile'd in registers into the transposed distribution and
/// stored as the transposed tile of out.
hipError_t launch_register_transpose(dtype t, const void* in, void* out, int rows, int cols,
                                     int ld_in, int ld_out, hipStream_t stream);

/// Seed 004 7.5.6 in one block of 128 threads: the 4x4 window at (1, 3) of a 9x9 float matrix
/// is loaded with the seed's distribution and swept. Threads 0, 1, W and W + 1 (W the warp
/// size) write their 4 collected values to values[4 * k ...] and their (warp, lane) to
/// ids[2 * k ...]. With `print` they also print them as the seed does.
hipError_t launch_seed_756(const float* global, int rows, int cols, float* values, int* ids,
                           bool print, hipStream_t stream);

/// The warp size of the device code (32 on NVIDIA, 64 on AMD).
int device_warp_size();

} // namespace cktile_tile_window_test
