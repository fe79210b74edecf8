// SPDX-License-Identifier: MIT
// Warp MMA atoms on the GPU (NVIDIA): one warp computes C + A * B^T for every mma.sync atom
// (and K loops of several in both fragment orders) from random inputs, loading and storing its
// fragments through the warp GEMM's encodings; the result is compared with a host reference in
// double: exactly for int8, within a bound per accumulation type otherwise. The output is
// poisoned first, with a guard region after it that must stay poisoned. ldmatrix x1/x2/x4 with
// and without .trans are checked against the PTX ISA's description.
#include "arch_mma_kernels.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/hip_check.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace {

using namespace cktile_arch_mma_test;
using ck_tile::bf16_t;
using ck_tile::bf8_t;
using ck_tile::fp8_t;
using ck_tile::half_t;

constexpr unsigned char poison_byte = 0x7b;
constexpr size_t guard              = 64; // elements after C that must keep the poison

template <typename T>
struct device_buffer
{
    ck_tile::DeviceMem mem;
    explicit device_buffer(const std::vector<T>& host) : mem(host.size() * sizeof(T))
    {
        HIP_CHECK_ERROR(hipMemcpy(mem.GetDeviceBuffer(), host.data(), host.size() * sizeof(T),
                                  hipMemcpyHostToDevice));
    }
    void* get() { return mem.GetDeviceBuffer(); }
    std::vector<T> to_host(size_t n)
    {
        std::vector<T> h(n);
        HIP_CHECK_ERROR(
            hipMemcpy(h.data(), mem.GetDeviceBuffer(), n * sizeof(T), hipMemcpyDeviceToHost));
        return h;
    }
};

template <typename T>
double to_double(T v)
{
    if constexpr(std::is_integral_v<T> || std::is_floating_point_v<T>)
        return static_cast<double>(v);
    else
        return static_cast<double>(static_cast<float>(v));
}

// A multiplicand of type T: small integers for int8, values in [-1, 1] for f16/bf16, tf32
// values (low 13 mantissa bits clear) for float, values in [-8, 8] for the 8-bit floats.
template <typename T>
T random_operand(std::mt19937& g)
{
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    if constexpr(std::is_same_v<T, int8_t>)
        return static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(g));
    else if constexpr(std::is_same_v<T, uint8_t>)
        return static_cast<uint8_t>(std::uniform_int_distribution<int>(0, 255)(g));
    else if constexpr(std::is_same_v<T, float>)
    {
        uint32_t bits;
        const float v = u(g);
        std::memcpy(&bits, &v, 4);
        bits &= 0xffffe000u;
        float r;
        std::memcpy(&r, &bits, 4);
        return r;
    }
    else if constexpr(std::is_same_v<T, fp8_t> || std::is_same_v<T, bf8_t>)
        return T(8.f * u(g));
    else
        return T(u(g));
}

template <typename T>
T random_accumulator(std::mt19937& g)
{
    if constexpr(std::is_same_v<T, int32_t>)
        return std::uniform_int_distribution<int32_t>(-100000, 100000)(g);
    else
        return T(std::uniform_real_distribution<float>(-1.f, 1.f)(g));
}

// Allowed |error| relative to |c| + sum |a * b|: the products are exact in every form, so the
// error is the accumulation's (and the f16 result's rounding).
template <typename WG>
double relative_tolerance()
{
    using a_t = typename WG::a_type;
    using c_t = typename WG::c_type;
    if constexpr(std::is_same_v<c_t, int32_t>)
        return 0.0;
    else if constexpr(std::is_same_v<c_t, half_t>)
        return 1.0 / 128; // f16 accumulation: up to one f16 rounding per step
    else if constexpr(sizeof(a_t) == 1)
        return 1.0 / 128; // native fp8 tensor-core paths accumulate with fewer bits than f32
    else
        return 1.0 / 65536;
}

template <typename WG>
void expect_warp_gemm_tile_matches_reference()
{
    using a_t          = typename WG::a_type;
    using b_t          = typename WG::b_type;
    using c_t          = typename WG::c_type;
    constexpr size_t M = WG::m, N = WG::n, K = WG::k;

    std::mt19937 g(20240601u + static_cast<unsigned>(K * 7 + sizeof(a_t) * 3 + sizeof(c_t)));
    std::vector<a_t> a(M * K);
    std::vector<b_t> b(N * K);
    std::vector<c_t> c(M * N);
    for(auto& v : a)
        v = random_operand<a_t>(g);
    for(auto& v : b)
        v = random_operand<b_t>(g);
    for(auto& v : c)
        v = random_accumulator<c_t>(g);

    std::vector<c_t> poison(M * N + guard);
    std::memset(poison.data(), poison_byte, poison.size() * sizeof(c_t));

    device_buffer<a_t> da(a);
    device_buffer<b_t> db(b);
    device_buffer<c_t> dc(c);
    device_buffer<c_t> dout(poison);
    HIP_CHECK_ERROR(launch_warp_gemm_tile<WG>(da.get(), db.get(), dc.get(), dout.get(), nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    const auto out = dout.to_host(M * N + guard);

    const double tol = relative_tolerance<WG>();
    double worst     = 0; // largest |error| / (|c| + sum |a * b|), reported for the record
    for(size_t i = 0; i < M; ++i)
        for(size_t j = 0; j < N; ++j)
        {
            double ref = to_double(c[i * N + j]), mag = std::fabs(ref);
            for(size_t kk = 0; kk < K; ++kk)
            {
                const double p = to_double(a[i * K + kk]) * to_double(b[j * K + kk]);
                ref += p;
                mag += std::fabs(p);
            }
            const double got = to_double(out[i * N + j]);
            worst            = std::max(worst, std::fabs(got - ref) / mag);
            if constexpr(std::is_same_v<c_t, int32_t>)
            {
                // The s32 accumulator wraps; these inputs stay far from 2^31.
                EXPECT_EQ(out[i * N + j], static_cast<int32_t>(ref))
                    << "C(" << i << ", " << j << ")";
            }
            else
            {
                EXPECT_LE(std::fabs(got - ref), tol * mag)
                    << "C(" << i << ", " << j << "): got " << got << ", expected " << ref;
            }
        }
    std::printf("M %zu N %zu K %zu: largest relative error %.3g (allowed %.3g)\n", M, N, K, worst,
                tol);
    for(size_t i = M * N; i < M * N + guard; ++i)
    {
        unsigned char bytes[sizeof(c_t)];
        std::memcpy(bytes, &out[i], sizeof(c_t));
        for(unsigned char byte : bytes)
            EXPECT_EQ(byte, poison_byte) << "guard element " << i - M * N << " was written";
    }
}

// One test per warp GEMM: the tile through the encodings matches the host reference.
#define WARP_GEMM_GPU_TEST(wg)                                                                     \
    TEST(WarpGemmGpu, wg)                                                                          \
    {                                                                                              \
        CKTILE_SKIP_WITHOUT_GPU();                                                                 \
        expect_warp_gemm_tile_matches_reference<wg>();                                             \
    }

WARP_GEMM_GPU_TEST(wg_f32_f16)
WARP_GEMM_GPU_TEST(wg_f16_f16)
WARP_GEMM_GPU_TEST(wg_f32_bf16)
WARP_GEMM_GPU_TEST(wg_f32_tf32)
WARP_GEMM_GPU_TEST(wg_s32_s8s8)
WARP_GEMM_GPU_TEST(wg_s32_s8u8)
WARP_GEMM_GPU_TEST(wg_s32_u8s8)
WARP_GEMM_GPU_TEST(wg_s32_u8u8)
WARP_GEMM_GPU_TEST(wg_f32_e4m3e4m3)
WARP_GEMM_GPU_TEST(wg_f32_e4m3e5m2)
WARP_GEMM_GPU_TEST(wg_f32_e5m2e4m3)
WARP_GEMM_GPU_TEST(wg_f32_e5m2e5m2)
WARP_GEMM_GPU_TEST(wg_f32_f16_k2am)
WARP_GEMM_GPU_TEST(wg_f32_bf16_k4lc)
WARP_GEMM_GPU_TEST(wg_s32_s8s8_k2lc)
WARP_GEMM_GPU_TEST(wg_f32_e4m3_k2lc)
WARP_GEMM_GPU_TEST(wg_f32_tf32_k3am)

TEST(LdmatrixGpu, EveryCountAndTransposeMatchesThePtxDescription)
{
    CKTILE_SKIP_WITHOUT_GPU();
    std::vector<uint16_t> in(4 * 64);
    for(size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<uint16_t>(0x1000 + i * 3); // distinct, never the poison
    device_buffer<uint16_t> din(in);
    const auto elem = [&](int matrix, int row, int col) -> uint32_t {
        return in[static_cast<size_t>(64 * matrix + 8 * row + col)];
    };
    const uint32_t poison = 0x7b7b7b7bu;
    for(int num : {1, 2, 4})
        for(bool trans : {false, true})
        {
            SCOPED_TRACE("x" + std::to_string(num) + (trans ? ".trans" : ""));
            device_buffer<uint32_t> dout(std::vector<uint32_t>(32 * 4, poison));
            HIP_CHECK_ERROR(launch_ldmatrix(num, trans, static_cast<const uint16_t*>(din.get()),
                                            static_cast<uint32_t*>(dout.get()), nullptr));
            HIP_CHECK_ERROR(hipDeviceSynchronize());
            const auto out = dout.to_host(32 * 4);
            for(int l = 0; l < 32; ++l)
                for(int j = 0; j < 4; ++j)
                {
                    const uint32_t got = out[static_cast<size_t>(4 * l + j)];
                    if(j >= num)
                    {
                        EXPECT_EQ(got, poison) << "lane " << l << " reg " << j;
                        continue;
                    }
                    // Register j of lane l: two consecutive elements of matrix j, low half first:
                    // row l / 4, columns 2 (l % 4) + {0, 1}; transposed, those are columns.
                    const int r = l / 4, c0 = 2 * (l % 4);
                    const uint32_t lo = trans ? elem(j, c0, r) : elem(j, r, c0);
                    const uint32_t hi = trans ? elem(j, c0 + 1, r) : elem(j, r, c0 + 1);
                    EXPECT_EQ(got, lo | (hi << 16)) << "lane " << l << " reg " << j;
                }
        }
}

} // namespace
