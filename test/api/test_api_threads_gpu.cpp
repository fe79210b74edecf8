// SPDX-License-Identifier: MIT
// Eight threads run GEMMs through one device handle at once, each on its own stream, over
// shapes that repeat (so the handle's selection cache, the per-device launch state and the
// per-thread tensor-map cache are all hit concurrently) and buffers that differ per thread.
// Every result is compared with a double-precision CPU reference.
#include "gpu_test.hpp"

#include "cktile.h"

#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/device_memory.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

std::uint16_t fp16_bits(float v)
{
    const auto h = ck_tile::type_convert<ck_tile::half_t>(v);
    std::uint16_t b;
    std::memcpy(&b, &h.data, 2);
    return b;
}

float from_fp16(std::uint16_t b)
{
    return ck_tile::type_convert<float>(ck_tile::half_t::from_bits(b));
}

/// Runs one m x n x k row-major fp16 GEMM `repeats` times on `stream` (selection each time)
/// and returns an empty string when D matches the reference, else what went wrong.
std::string run_and_check(cktile_handle_t h, hipStream_t stream, std::int64_t m, std::int64_t n,
                          std::int64_t k, int repeats, std::mt19937& rng)
{
    // Multiples of 1/8 up to 2 in magnitude, never zero: fp32 sums of them are exact, so the
    // only error left is D's rounding to fp16.
    std::uniform_int_distribution<int> eighths(1, 16), sign(0, 1);
    auto fill = [&](std::vector<std::uint16_t>& bits, std::vector<double>& values) {
        for(std::size_t i = 0; i < bits.size(); ++i)
        {
            const float v = static_cast<float>(eighths(rng) * (sign(rng) ? 1 : -1)) / 8.0f;
            bits[i]       = fp16_bits(v);
            values[i]     = v;
        }
    };
    const auto mn = static_cast<std::size_t>(m * n);
    std::vector<std::uint16_t> a_bits(static_cast<std::size_t>(m * k)),
        b_bits(static_cast<std::size_t>(k * n)), d_bits(mn);
    std::vector<double> a(a_bits.size()), b(b_bits.size());
    fill(a_bits, a);
    fill(b_bits, b);

    ck_tile::DeviceMem da(a_bits.size() * 2), db(b_bits.size() * 2), dd(mn * 2);
    da.ToDevice(a_bits.data());
    db.ToDevice(b_bits.data());
    dd.SetValue(0xff); // NaN: an element the kernel does not write shows

    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = m, p.n = n, p.k = k;
    p.lda = k, p.ldb = n, p.ldc = n, p.ldd = n;
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = da.GetDeviceBuffer();
    args.b = db.GetDeviceBuffer();
    args.d = dd.GetDeviceBuffer();
    for(int r = 0; r < repeats; ++r)
    {
        std::uint64_t id = 0;
        if(cktile_gemm_select(h, &p, &args, CKTILE_SELECT_DEFAULT, &id) != CKTILE_STATUS_SUCCESS ||
           cktile_gemm_run(h, id, &p, &args, nullptr, 0, stream) != CKTILE_STATUS_SUCCESS)
            return cktile_get_last_error_message();
    }
    if(hipStreamSynchronize(stream) != hipSuccess)
        return "hipStreamSynchronize failed";
    dd.FromDevice(d_bits.data());
    for(std::int64_t i = 0; i < m; ++i)
        for(std::int64_t j = 0; j < n; ++j)
        {
            double ref = 0;
            for(std::int64_t q = 0; q < k; ++q)
                ref += a[i * k + q] * b[q * n + j];
            const double got = from_fp16(d_bits[i * n + j]);
            if(!(std::fabs(got - ref) <= std::fabs(ref) * 0x1p-10 + 1e-6))
            {
                std::ostringstream os;
                os << m << "x" << n << "x" << k << ": D(" << i << "," << j << ") = " << got
                   << ", reference " << ref;
                return os.str();
            }
        }
    return {};
}

TEST(ApiThreads, ConcurrentRunsOnOneDeviceHandleMatchTheReference)
{
    CKTILE_SKIP_WITHOUT_GPU();
    cktile_handle_t h = nullptr;
    ASSERT_EQ(cktile_create(&h, 0), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();
    // Shapes shared by every thread (the same cache entries from many threads) and one per
    // thread; 1, primes and tile non-multiples among them.
    const std::int64_t shared_shapes[][3] = {{64, 64, 64}, {1, 1, 1}, {67, 129, 31}, {128, 96, 64}};
    constexpr int threads = 8, rounds = 6;
    std::atomic<int> failures{0};
    std::vector<std::string> first_failure(threads);
    std::vector<std::thread> pool;
    for(int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::mt19937 rng(1234u + static_cast<unsigned>(t));
            hipStream_t stream = nullptr;
            if(hipStreamCreate(&stream) != hipSuccess)
            {
                ++failures;
                first_failure[t] = "hipStreamCreate failed";
                return;
            }
            for(int r = 0; r < rounds; ++r)
            {
                const auto& s                = shared_shapes[(t + r) % 4];
                const std::string shared_why = run_and_check(h, stream, s[0], s[1], s[2], 20, rng);
                const std::string own_why =
                    run_and_check(h, stream, 13 + 17 * t, 7 + 11 * r, 5 + 3 * t + r, 3, rng);
                for(const std::string& why : {shared_why, own_why})
                    if(!why.empty())
                    {
                        if(failures++ == 0 || first_failure[t].empty())
                            first_failure[t] = why;
                    }
            }
            (void)hipStreamDestroy(stream);
        });
    for(auto& th : pool)
        th.join();
    for(int t = 0; t < threads; ++t)
        EXPECT_TRUE(first_failure[t].empty()) << "thread " << t << ": " << first_failure[t];
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(cktile_destroy(h), CKTILE_STATUS_SUCCESS);
}

} // namespace
