// SPDX-License-Identifier: MIT
#include "arch_mma_kernels.hpp"

#include "ck_tile/core.hpp"
#include "ck_tile/core/arch/nvidia/mma_sync.hpp"
#include "ck_tile/host/kernel_launch.hpp"

namespace cktile_arch_mma_test {
namespace {

using namespace ck_tile;

template <typename WG>
struct warp_gemm_tile_kernel
{
    using a_t = typename WG::a_type;
    using b_t = typename WG::b_type;
    using c_t = typename WG::c_type;

    CK_TILE_DEVICE void operator()(const a_t* a, const b_t* b, const c_t* c_in, c_t* c_out) const
    {
        const index_t lane = get_lane_id();
        auto at            = make_static_distributed_tensor<a_t>(WG::make_a_distribution());
        auto bt            = make_static_distributed_tensor<b_t>(WG::make_b_distribution());
        auto ct            = make_static_distributed_tensor<c_t>(WG::make_c_distribution());

        static_for<0, WG::a_per_lane, 1>{}([&](auto r) {
            const auto x              = mma_fragment_coordinate<typename WG::a_encoding>(lane, r);
            at.get_thread_buffer()(r) = a[x[0] * WG::k + x[1]];
        });
        static_for<0, WG::b_per_lane, 1>{}([&](auto r) {
            const auto x              = mma_fragment_coordinate<typename WG::b_encoding>(lane, r);
            bt.get_thread_buffer()(r) = b[x[0] * WG::k + x[1]];
        });
        static_for<0, WG::c_per_lane, 1>{}([&](auto r) {
            const auto x              = mma_fragment_coordinate<typename WG::c_encoding>(lane, r);
            ct.get_thread_buffer()(r) = c_in[x[0] * WG::n + x[1]];
        });

        WG{}(ct, at, bt);

        static_for<0, WG::c_per_lane, 1>{}([&](auto r) {
            const auto x               = mma_fragment_coordinate<typename WG::c_encoding>(lane, r);
            c_out[x[0] * WG::n + x[1]] = ct.get_thread_buffer()[r];
        });
    }
};

template <index_t NumMatrices, bool Transpose>
struct ldmatrix_kernel
{
    CK_TILE_DEVICE void operator()(const uint16_t* in, uint32_t* out) const
    {
        alignas(16) __shared__ uint16_t smem[4 * 64];
        const index_t lane = get_lane_id();
        for(index_t i = lane; i < 4 * 64; i += get_warp_size())
            smem[i] = in[i];
        warp_sync();
        const uint16_t* row = smem + 64 * (lane / 8) + 8 * (lane % 8);
        ext_vector<uint32_t, NumMatrices> r;
        if constexpr(NumMatrices == 1)
            r = arch::nvidia::ldmatrix_x1<Transpose>(row);
        else if constexpr(NumMatrices == 2)
            r = arch::nvidia::ldmatrix_x2<Transpose>(row);
        else
            r = arch::nvidia::ldmatrix_x4<Transpose>(row);
        for(index_t j = 0; j < NumMatrices; ++j)
            out[4 * lane + j] = r[j];
    }
};

template <index_t NumMatrices, bool Transpose>
hipError_t run_ldmatrix(const uint16_t* in, uint32_t* out, hipStream_t stream)
{
    make_kernel<32>(ldmatrix_kernel<NumMatrices, Transpose>{}, dim3(1), dim3(32), 0u, in,
                    out)(stream);
    return hipGetLastError();
}

} // namespace

template <typename WarpGemm>
hipError_t launch_warp_gemm_tile(const void* a, const void* b, const void* c_in, void* c_out,
                                 hipStream_t stream)
{
    using a_t = typename WarpGemm::a_type;
    using b_t = typename WarpGemm::b_type;
    using c_t = typename WarpGemm::c_type;
    make_kernel<32>(warp_gemm_tile_kernel<WarpGemm>{}, dim3(1), dim3(WarpGemm::warp_size), 0u,
                    static_cast<const a_t*>(a), static_cast<const b_t*>(b),
                    static_cast<const c_t*>(c_in), static_cast<c_t*>(c_out))(stream);
    return hipGetLastError();
}

hipError_t launch_ldmatrix(int num_matrices, bool transpose, const uint16_t* in, uint32_t* out,
                           hipStream_t stream)
{
    switch(num_matrices * 2 + (transpose ? 1 : 0))
    {
    case 2:
        return run_ldmatrix<1, false>(in, out, stream);
    case 3:
        return run_ldmatrix<1, true>(in, out, stream);
    case 4:
        return run_ldmatrix<2, false>(in, out, stream);
    case 5:
        return run_ldmatrix<2, true>(in, out, stream);
    case 8:
        return run_ldmatrix<4, false>(in, out, stream);
    case 9:
        return run_ldmatrix<4, true>(in, out, stream);
    default:
        return hipErrorInvalidValue;
    }
}

template hipError_t launch_warp_gemm_tile<wg_f32_f16>(const void*, const void*, const void*, void*,
                                                      hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f16_f16>(const void*, const void*, const void*, void*,
                                                      hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_bf16>(const void*, const void*, const void*, void*,
                                                       hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_tf32>(const void*, const void*, const void*, void*,
                                                       hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_s32_s8s8>(const void*, const void*, const void*, void*,
                                                       hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_s32_s8u8>(const void*, const void*, const void*, void*,
                                                       hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_s32_u8s8>(const void*, const void*, const void*, void*,
                                                       hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_s32_u8u8>(const void*, const void*, const void*, void*,
                                                       hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_e4m3e4m3>(const void*, const void*, const void*,
                                                           void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_e4m3e5m2>(const void*, const void*, const void*,
                                                           void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_e5m2e4m3>(const void*, const void*, const void*,
                                                           void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_e5m2e5m2>(const void*, const void*, const void*,
                                                           void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_f16_k2am>(const void*, const void*, const void*,
                                                           void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_bf16_k4lc>(const void*, const void*, const void*,
                                                            void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_s32_s8s8_k2lc>(const void*, const void*, const void*,
                                                            void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_e4m3_k2lc>(const void*, const void*, const void*,
                                                            void*, hipStream_t);
template hipError_t launch_warp_gemm_tile<wg_f32_tf32_k3am>(const void*, const void*, const void*,
                                                            void*, hipStream_t);

} // namespace cktile_arch_mma_test
