// SPDX-License-Identifier: MIT
// The device smoke test: kernels built through the platform seam run and give exact results.
#include "smoke_kernels.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace {

struct copy_case
{
    std::size_t n;
    int elem_bytes;
    std::size_t src_offset; // in bytes, to exercise unaligned starts
    std::size_t dst_offset;
};

void PrintTo(const copy_case& c, std::ostream* os)
{
    *os << "{n=" << c.n << ", bytes=" << c.elem_bytes << ", src+" << c.src_offset << ", dst+"
        << c.dst_offset << "}";
}

class VectorCopy : public ::testing::TestWithParam<copy_case>
{};

TEST_P(VectorCopy, CopiesExactlyAndWritesNothingOutside)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const copy_case c       = GetParam();
    const std::size_t bytes = c.n * c.elem_bytes;
    const std::size_t guard = 64; // bytes checked on each side of the destination
    std::vector<unsigned char> src(bytes + c.src_offset), dst(bytes + c.dst_offset + 2 * guard);
    std::mt19937 rng(static_cast<unsigned>(c.n * 31 + c.elem_bytes));
    for(auto& b : src)
        b = static_cast<unsigned char>(rng());

    ck_tile::DeviceMem d_src(src.size() + 16), d_dst(dst.size() + 16);
    auto* s = static_cast<unsigned char*>(d_src.GetDeviceBuffer());
    auto* d = static_cast<unsigned char*>(d_dst.GetDeviceBuffer());
    HIP_CHECK_ERROR(hipMemcpy(s, src.data(), src.size(), hipMemcpyHostToDevice));
    d_dst.SetValue(0xA5); // poison

    HIP_CHECK_ERROR(cktile_smoke::launch_vector_copy(s + c.src_offset, d + guard + c.dst_offset,
                                                     c.n, c.elem_bytes, nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    HIP_CHECK_ERROR(hipMemcpy(dst.data(), d, dst.size(), hipMemcpyDeviceToHost));

    for(std::size_t i = 0; i < guard + c.dst_offset; ++i)
        ASSERT_EQ(dst[i], 0xA5) << "write before the destination at byte " << i;
    ASSERT_EQ(std::memcmp(dst.data() + guard + c.dst_offset, src.data() + c.src_offset, bytes), 0);
    for(std::size_t i = guard + c.dst_offset + bytes; i < dst.size(); ++i)
        ASSERT_EQ(dst[i], 0xA5) << "write past the destination at byte " << i;
}

INSTANTIATE_TEST_SUITE_P(Shapes, VectorCopy,
                         ::testing::Values(copy_case{0, 4, 0, 0}, copy_case{1, 4, 0, 0},
                                           copy_case{17, 2, 0, 0}, copy_case{4097, 4, 0, 0},
                                           copy_case{4097, 2, 2, 2}, copy_case{4097, 2, 2, 6},
                                           copy_case{1000003, 1, 3, 3}, copy_case{65536, 16, 0, 0},
                                           copy_case{12345, 8, 8, 8}, copy_case{333, 4, 2, 2},
                                           copy_case{1 << 22, 4, 4, 4}),
                         [](const ::testing::TestParamInfo<copy_case>& i) {
                             const copy_case& c = i.param;
                             return "n" + std::to_string(c.n) + "_b" +
                                    std::to_string(c.elem_bytes) + "_src" +
                                    std::to_string(c.src_offset) + "_dst" +
                                    std::to_string(c.dst_offset);
                         });

TEST(DeviceSmoke, LaneWarpIdsAndWarpSizeMatchTheRuntime)
{
    CKTILE_SKIP_WITHOUT_GPU();
    hipDeviceProp_t prop{};
    HIP_CHECK_ERROR(hipGetDeviceProperties(&prop, 0));
    const int threads = 256;
    std::vector<int32_t> out(2 * threads + 1, -1);
    ck_tile::DeviceMem d(out.size() * sizeof(int32_t));
    d.SetValue(0xFF);
    HIP_CHECK_ERROR(cktile_smoke::launch_thread_ids(static_cast<int32_t*>(d.GetDeviceBuffer()),
                                                    threads, nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    d.FromDevice(out.data());
    const int ws = out[2 * threads];
    EXPECT_EQ(ws, prop.warpSize);
    for(int t = 0; t < threads; ++t)
    {
        EXPECT_EQ(out[t], t % ws) << "lane id of thread " << t;
        EXPECT_EQ(out[threads + t], t / ws) << "warp id of thread " << t;
    }
}

TEST(DeviceSmoke, WarpShuffleXorSumsEachWarp)
{
    CKTILE_SKIP_WITHOUT_GPU();
    hipDeviceProp_t prop{};
    HIP_CHECK_ERROR(hipGetDeviceProperties(&prop, 0));
    const int threads = 256, ws = prop.warpSize;
    std::vector<float> in(threads), out(threads, -1.f);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> dist(-50, 50); // integers: the sum is exact in fp32
    for(auto& v : in)
        v = static_cast<float>(dist(rng));
    ck_tile::DeviceMem d_in(threads * sizeof(float)), d_out(threads * sizeof(float));
    d_in.ToDevice(in.data());
    d_out.SetValue(0xFF);
    HIP_CHECK_ERROR(cktile_smoke::launch_warp_sum(static_cast<const float*>(d_in.GetDeviceBuffer()),
                                                  static_cast<float*>(d_out.GetDeviceBuffer()),
                                                  threads, nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    d_out.FromDevice(out.data());
    for(int w = 0; w < threads / ws; ++w)
    {
        float ref = 0;
        for(int l = 0; l < ws; ++l)
            ref += in[w * ws + l];
        for(int l = 0; l < ws; ++l)
            EXPECT_EQ(out[w * ws + l], ref) << "thread " << w * ws + l;
    }
}

} // namespace
