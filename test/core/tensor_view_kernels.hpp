// SPDX-License-Identifier: MIT
// Host-callable launchers for the tensor-view device tests (tensor_view_kernels.cpp is the only
// file here that the device compiler sees).
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

namespace cktile_tensor_view_test {

/// Seed 002's matrix transpose: each thread of a 64-thread block reads a 4x4 sub-matrix with
/// four 4-float vector loads, transposes it in registers and writes it with four vector stores.
/// src is M x K row-major, dst K x M row-major.
/// @pre M % 32 == 0 and K == 32 (one block covers 32 rows and all 32 columns); src and dst
///      aligned to 16 bytes.
hipError_t launch_register_transpose(const float* src, float* dst, int M, int K,
                                     hipStream_t stream);

/// out (packed, PN x PM) = the transpose of in (M x N, row stride ld), padded with zeros up to
/// PN = multiple of tile_n >= N rows and PM = multiple of tile_m >= M columns. Read through a
/// transposed and padded tensor_view, written through a plain one.
hipError_t launch_copy_transposed_padded(const float* in, int M, int N, int ld, int tile_m,
                                         int tile_n, float* out, hipStream_t stream);

/// Writes src (packed, PM x PN, the padded shape) through a padded view of out (M x N, row
/// stride ld): only out's M x N elements change; pad writes, which would alias the gap after
/// each row and the next row, are dropped.
hipError_t launch_scatter_through_padded_view(const float* src, int M, int N, int ld, int tile_m,
                                              int tile_n, float* out, hipStream_t stream);

} // namespace cktile_tensor_view_test
