// SPDX-License-Identifier: MIT
// Descriptors, buffer views and tensor views inside kernels: seed 002's register-level 4x4
// transpose, a copy out of a transposed and padded view, and writes through a padded view.
// Random inputs, poisoned outputs, host references.
#include "tensor_view_kernels.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <vector>

namespace {

using cktile_tensor_view_test::launch_copy_transposed_padded;
using cktile_tensor_view_test::launch_register_transpose;
using cktile_tensor_view_test::launch_scatter_through_padded_view;

// Never produced by the fill below (which gives integers in [-50, 50] plus a quarter), so an
// element still holding it was never written.
constexpr float poison = -12345.5f;

std::vector<float> random_floats(std::size_t n, unsigned seed)
{
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> d(-50, 50);
    std::vector<float> v(n);
    for(auto& x : v)
        x = static_cast<float>(d(g)) + 0.25f; // never zero: a zero read means padding
    return v;
}

/// Device copy of host data, and back.
struct device_buffer
{
    ck_tile::DeviceMem mem;
    explicit device_buffer(const std::vector<float>& host) : mem(host.size() * sizeof(float))
    {
        HIP_CHECK_ERROR(hipMemcpy(mem.GetDeviceBuffer(), host.data(), host.size() * sizeof(float),
                                  hipMemcpyHostToDevice));
    }
    float* get() { return static_cast<float*>(mem.GetDeviceBuffer()); }
    std::vector<float> to_host(std::size_t n)
    {
        std::vector<float> h(n);
        HIP_CHECK_ERROR(
            hipMemcpy(h.data(), mem.GetDeviceBuffer(), n * sizeof(float), hipMemcpyDeviceToHost));
        return h;
    }
};

int round_up(int x, int m) { return (x + m - 1) / m * m; }

TEST(TensorViewGpu, Seed002RegisterTranspose)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const int K = 32;
    for(int M : {32, 96, 2560}) // 2560 x 32 is the seed's problem: 80 blocks
    {
        const auto src = random_floats(static_cast<std::size_t>(M) * K, 7u + M);
        device_buffer d_src(src);
        device_buffer d_dst(std::vector<float>(static_cast<std::size_t>(K) * M, poison));
        HIP_CHECK_ERROR(launch_register_transpose(d_src.get(), d_dst.get(), M, K, nullptr));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto dst = d_dst.to_host(static_cast<std::size_t>(K) * M);
        int bad        = 0;
        for(int i = 0; i < M; ++i)
            for(int j = 0; j < K; ++j)
                if(dst[j * M + i] != src[i * K + j] && ++bad <= 10)
                    ADD_FAILURE() << "M=" << M << " dst(" << j << "," << i
                                  << ") = " << dst[j * M + i] << ", expected " << src[i * K + j];
        EXPECT_EQ(bad, 0) << "M=" << M;
    }
}

struct pad_case
{
    int M, N, ld, tile_m, tile_n;
};
// edge shapes: 1, primes, exact multiples of the tile, a row stride with a gap
const pad_case pad_cases[] = {
    {1, 1, 1, 1, 1},      {1, 1, 1, 4, 4},      {7, 5, 5, 4, 4},     {13, 17, 20, 8, 16},
    {32, 64, 64, 32, 64}, {33, 65, 67, 32, 64}, {4097, 3, 3, 64, 8}, {3, 4097, 4100, 2, 128},
};

TEST(TensorViewGpu, CopyOfTransposedPaddedViewIntoPlainOutput)
{
    CKTILE_SKIP_WITHOUT_GPU();
    for(const auto& c : pad_cases)
    {
        const auto in = random_floats(static_cast<std::size_t>(c.M) * c.ld, 11u + c.M * 31u + c.N);
        const int PN = round_up(c.N, c.tile_n), PM = round_up(c.M, c.tile_m);
        device_buffer d_in(in);
        device_buffer d_out(std::vector<float>(static_cast<std::size_t>(PN) * PM, poison));
        HIP_CHECK_ERROR(launch_copy_transposed_padded(d_in.get(), c.M, c.N, c.ld, c.tile_m,
                                                      c.tile_n, d_out.get(), nullptr));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto out = d_out.to_host(static_cast<std::size_t>(PN) * PM);
        int bad        = 0;
        for(int j = 0; j < PN; ++j)
            for(int i = 0; i < PM; ++i)
            {
                const float expect = (j < c.N && i < c.M) ? in[i * c.ld + j] : 0.0f;
                const float got    = out[static_cast<std::size_t>(j) * PM + i];
                if(got != expect && ++bad <= 10)
                    ADD_FAILURE() << c.M << "x" << c.N << " ld " << c.ld << " tile " << c.tile_m
                                  << "x" << c.tile_n << ": out(" << j << "," << i << ") = " << got
                                  << ", expected " << expect;
            }
        EXPECT_EQ(bad, 0) << c.M << "x" << c.N;
    }
}

TEST(TensorViewGpu, WritesThroughPaddedViewLandOnlyInsideTheTensor)
{
    CKTILE_SKIP_WITHOUT_GPU();
    for(const auto& c : pad_cases)
    {
        const int PM = round_up(c.M, c.tile_m), PN = round_up(c.N, c.tile_n);
        const auto src = random_floats(static_cast<std::size_t>(PM) * PN, 5u + c.N * 17u + c.M);
        // out: M rows of stride ld, plus one spare row of guard elements after the tensor
        const std::size_t out_size = static_cast<std::size_t>(c.M + 1) * c.ld;
        device_buffer d_src(src);
        device_buffer d_out(std::vector<float>(out_size, poison));
        HIP_CHECK_ERROR(launch_scatter_through_padded_view(d_src.get(), c.M, c.N, c.ld, c.tile_m,
                                                           c.tile_n, d_out.get(), nullptr));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto out = d_out.to_host(out_size);
        int bad        = 0;
        for(std::size_t k = 0; k < out_size; ++k)
        {
            const int i = static_cast<int>(k / c.ld), j = static_cast<int>(k % c.ld);
            const float expect =
                (i < c.M && j < c.N) ? src[static_cast<std::size_t>(i) * PN + j] : poison;
            if(out[k] != expect && ++bad <= 10)
                ADD_FAILURE() << c.M << "x" << c.N << " ld " << c.ld << " tile " << c.tile_m << "x"
                              << c.tile_n << ": out[" << k << "] = " << out[k] << ", expected "
                              << expect;
        }
        EXPECT_EQ(bad, 0) << c.M << "x" << c.N;
    }
}

} // namespace
