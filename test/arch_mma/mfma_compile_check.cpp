// SPDX-License-Identifier: MIT
// Compile-only check of the AMD MFMA atoms: one kernel per atom (and K loops in both fragment
// orders) through warp_gemm, for the target family this object is built for
// (CKTILE_MFMA_CHECK_CDNA3 set: gfx940; else gfx90a). Nothing here is run.
#include "ck_tile/core.hpp"
#include "ck_tile/host/kernel_launch.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"

namespace cktile_mfma_compile_check {
namespace {

using namespace ck_tile;

template <typename WG>
struct warp_gemm_kernel
{
    using a_t = typename WG::a_type;
    using b_t = typename WG::b_type;
    using c_t = typename WG::c_type;

    CK_TILE_DEVICE void operator()(const a_t* a, const b_t* b, c_t* c) const
    {
        const index_t lane = get_lane_id();
        typename WG::a_fragment af;
        typename WG::b_fragment bf;
        typename WG::c_fragment cf;
        static_for<0, WG::a_per_lane, 1>{}([&](auto r) { af(r) = a[lane * WG::a_per_lane + r]; });
        static_for<0, WG::b_per_lane, 1>{}([&](auto r) { bf(r) = b[lane * WG::b_per_lane + r]; });
        static_for<0, WG::c_per_lane, 1>{}([&](auto r) { cf(r) = c[lane * WG::c_per_lane + r]; });
        WG{}(cf, af, bf);
        static_for<0, WG::c_per_lane, 1>{}([&](auto r) { c[lane * WG::c_per_lane + r] = cf[r]; });
    }
};

template <typename... WGs>
void launch_each(hipStream_t stream)
{
    (make_kernel<64>(warp_gemm_kernel<WGs>{}, dim3(1), dim3(64), 0u,
                     static_cast<const typename WGs::a_type*>(nullptr),
                     static_cast<const typename WGs::b_type*>(nullptr),
                     static_cast<typename WGs::c_type*>(nullptr))(stream),
     ...);
}

constexpr auto lane_contiguous = warp_gemm_k_order::lane_contiguous;

} // namespace

/// Instantiates the kernels (never called).
void launch_all(hipStream_t stream)
{
    launch_each<warp_gemm<mfma_32x32x8_f32_f16>, warp_gemm<mfma_16x16x16_f32_f16>,
                warp_gemm<mfma_32x32x8_f32_bf16>, warp_gemm<mfma_16x16x16_f32_bf16>,
                warp_gemm<mfma_32x32x2_f32_f32>, warp_gemm<mfma_16x16x4_f32_f32>,
                warp_gemm<mfma_32x32x8_f32_f16, 2, lane_contiguous>,
                warp_gemm<mfma_16x16x16_f32_bf16, 4>>(stream);
#if defined(CKTILE_MFMA_CHECK_CDNA3)
    launch_each<warp_gemm<mfma_32x32x16_i32_i8>, warp_gemm<mfma_16x16x32_i32_i8>,
                warp_gemm<mfma_32x32x16_f32_fp8fp8>, warp_gemm<mfma_32x32x16_f32_fp8bf8>,
                warp_gemm<mfma_32x32x16_f32_bf8fp8>, warp_gemm<mfma_32x32x16_f32_bf8bf8>,
                warp_gemm<mfma_16x16x32_f32_fp8fp8>, warp_gemm<mfma_16x16x32_f32_fp8bf8>,
                warp_gemm<mfma_16x16x32_f32_bf8fp8>, warp_gemm<mfma_16x16x32_f32_bf8bf8>,
                warp_gemm<mfma_32x32x16_f32_fp8fp8, 2, lane_contiguous>>(stream);
#else
    launch_each<warp_gemm<mfma_32x32x8_i32_i8>, warp_gemm<mfma_16x16x16_i32_i8>,
                warp_gemm<mfma_32x32x8_i32_i8, 2, lane_contiguous>>(stream);
#endif
}

} // namespace cktile_mfma_compile_check
