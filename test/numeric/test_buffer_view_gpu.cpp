// SPDX-License-Identifier: MIT
// buffer_view in device code: vector reads with bounds checks from global memory, and atomic
// updates on LDS and global memory (native float/int atomics and the compare-and-swap path of
// half_t and bf16_t).
#include "numeric_kernels.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(BufferViewGpu, GetSetAndAtomicsOnDevice)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const int threads  = 256;
    const int src_size = 1001; // not a multiple of the 4-vector: thread 250's read straddles
    std::vector<float> src(src_size);
    for(int i = 0; i < src_size; ++i)
        src[i] = static_cast<float>(i) + 0.25f;

    ck_tile::DeviceMem d_src(src_size * sizeof(float)), d_scratch(8 * sizeof(float)),
        d_res(sizeof(cktile_numeric_test::buffer_view_results));
    HIP_CHECK_ERROR(hipMemcpy(d_src.GetDeviceBuffer(), src.data(), src_size * sizeof(float),
                              hipMemcpyHostToDevice));
    HIP_CHECK_ERROR(cktile_numeric_test::launch_buffer_view_ops(
        static_cast<const float*>(d_src.GetDeviceBuffer()), src_size,
        static_cast<float*>(d_scratch.GetDeviceBuffer()),
        static_cast<cktile_numeric_test::buffer_view_results*>(d_res.GetDeviceBuffer()), threads,
        nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    cktile_numeric_test::buffer_view_results r{};
    HIP_CHECK_ERROR(hipMemcpy(&r, d_res.GetDeviceBuffer(), sizeof(r), hipMemcpyDeviceToHost));

    for(int i = 0; i < 4 * threads; ++i)
    {
        const bool whole_vector_in = (i / 4) * 4 + 4 <= src_size;
        EXPECT_EQ(r.loaded[i], whole_vector_in ? src[i] : 0.0f) << i;
    }
    EXPECT_EQ(r.lds_sum, static_cast<float>(threads));
    EXPECT_EQ(r.lds_max, static_cast<float>(threads - 1));
    EXPECT_EQ(r.lds_half_sum, 0.5f * threads);
    EXPECT_EQ(r.global_sum, static_cast<float>(threads));
    EXPECT_EQ(r.oob_untouched, 0.0f);
    EXPECT_EQ(r.global_max, threads - 1);
    EXPECT_EQ(r.global_bf16_sum, static_cast<float>(threads)); // 256 is exact in bf16
    EXPECT_EQ(r.invalid_read, -7.0f);
}

} // namespace
