// SPDX-License-Identifier: MIT
// Host-callable launchers for the warp MMA device tests (arch_mma_kernels.cpp is the only file
// here that the device compiler sees). NVIDIA only: the kernels issue mma.sync and ldmatrix.
#pragma once

#include "ck_tile/host/hip_runtime.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"

#include <cstdint>

namespace cktile_arch_mma_test {

// The warp GEMMs the device test runs: every mma.sync atom once, and K loops in both orders.
using wg_f32_f16       = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k16_f32_f16>;
using wg_f16_f16       = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k16_f16_f16>;
using wg_f32_bf16      = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k16_f32_bf16>;
using wg_f32_tf32      = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k8_f32_tf32>;
using wg_s32_s8s8      = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_s32_s8s8>;
using wg_s32_s8u8      = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_s32_s8u8>;
using wg_s32_u8s8      = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_s32_u8s8>;
using wg_s32_u8u8      = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_s32_u8u8>;
using wg_f32_e4m3e4m3  = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_f32_e4m3e4m3>;
using wg_f32_e4m3e5m2  = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_f32_e4m3e5m2>;
using wg_f32_e5m2e4m3  = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_f32_e5m2e4m3>;
using wg_f32_e5m2e5m2  = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_f32_e5m2e5m2>;
using wg_f32_f16_k2am  = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k16_f32_f16, 2,
                                           ck_tile::warp_gemm_k_order::atom_major>;
using wg_f32_bf16_k4lc = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k16_f32_bf16, 4,
                                            ck_tile::warp_gemm_k_order::lane_contiguous>;
using wg_s32_s8s8_k2lc = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_s32_s8s8, 2,
                                            ck_tile::warp_gemm_k_order::lane_contiguous>;
using wg_f32_e4m3_k2lc = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k32_f32_e4m3e4m3, 2,
                                            ck_tile::warp_gemm_k_order::lane_contiguous>;
using wg_f32_tf32_k3am = ck_tile::warp_gemm<ck_tile::mma_sync_m16n8k8_f32_tf32, 3,
                                            ck_tile::warp_gemm_k_order::atom_major>;

/// One warp: c_out (M x N, row-major) = c_in + a (M x K, row-major) * b^T (b: N x K,
/// row-major), each lane loading its fragments through WarpGemm's encodings into distributed
/// tensors and storing its C values through the C encoding. Element types are WarpGemm's.
template <typename WarpGemm>
hipError_t launch_warp_gemm_tile(const void* a, const void* b, const void* c_in, void* c_out,
                                 hipStream_t stream);

/// One warp: in holds four 8x8 matrices of 16-bit values (matrix j at in[64 j ...], rows of 8);
/// they are copied to shared memory and loaded with ldmatrix.x{num_matrices}[.trans], lane l
/// addressing row l % 8 of matrix l / 8. Lane l writes its register j to out[4 l + j]
/// (j < num_matrices; the other entries are left alone).
hipError_t launch_ldmatrix(int num_matrices, bool transpose, const uint16_t* in, uint32_t* out,
                           hipStream_t stream);

} // namespace cktile_arch_mma_test
