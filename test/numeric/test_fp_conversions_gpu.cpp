// SPDX-License-Identifier: MIT
// Device conversions give the host's results: where the device uses a conversion instruction
// (arch/convert.hpp) it must agree with the software path bit for bit; a NaN must stay NaN, its
// sign and payload may differ (conversion instructions return a canonical NaN).
#include "fp_reference.hpp"
#include "numeric_kernels.hpp"

#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using ck_tile::overflow_mode;
using ck_tile::type_convert;

/// Inputs that exercise every rounding situation of the four formats: every exact value, every
/// midpoint and its float neighbours, plus random bit patterns and random in-range floats.
std::vector<float> conversion_inputs()
{
    std::vector<float> xs;
    for(const fp_ref::format* f : {&fp_ref::fp16, &fp_ref::bf16, &fp_ref::e4m3, &fp_ref::e5m2})
    {
        const fp_ref::rounder r(*f);
        const auto& m = r.magnitudes();
        for(std::size_t i = 0; i + 1 < m.size(); ++i)
        {
            const float mid = static_cast<float>(0.5 * (m[i] + m[i + 1]));
            for(float x : {static_cast<float>(m[i]), mid, std::nextafter(mid, 0.0f),
                           std::nextafter(mid, INFINITY)})
            {
                xs.push_back(x);
                xs.push_back(-x);
            }
        }
    }
    std::mt19937 rng(7);
    for(int i = 0; i < (1 << 22); ++i)
        xs.push_back(ck_tile::bit_cast<float>(static_cast<uint32_t>(rng())));
    for(int i = 0; i < (1 << 22); ++i)
        xs.push_back(std::ldexp(1.0f + std::ldexp(float(rng() & 0x7fffff), -23),
                                static_cast<int>(rng() % 48) - 30));
    for(float x : {INFINITY, -INFINITY, NAN, -NAN, 0.0f, -0.0f})
        xs.push_back(x);
    return xs;
}

template <typename T, overflow_mode M>
uint16_t host_code(float x)
{
    return type_convert<T, M>(x).data;
}

TEST(FpConversionsGpu, NarrowingOnDeviceMatchesHost)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const std::vector<float> xs = conversion_inputs();
    const std::size_t n         = xs.size();
    ck_tile::DeviceMem d_in(n * sizeof(float)), d_out(n * cktile_numeric_test::narrow_kinds * 2);
    HIP_CHECK_ERROR(
        hipMemcpy(d_in.GetDeviceBuffer(), xs.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK_ERROR(cktile_numeric_test::launch_narrow_from_float(
        static_cast<const float*>(d_in.GetDeviceBuffer()),
        static_cast<uint16_t*>(d_out.GetDeviceBuffer()), n, nullptr));
    std::vector<uint16_t> got(n * cktile_numeric_test::narrow_kinds);
    HIP_CHECK_ERROR(
        hipMemcpy(got.data(), d_out.GetDeviceBuffer(), got.size() * 2, hipMemcpyDeviceToHost));

    using namespace ck_tile;
    uint16_t (*const host[])(float) = {host_code<half_t, overflow_mode::non_saturate>,
                                       host_code<bf16_t, overflow_mode::non_saturate>,
                                       host_code<fp8_t, overflow_mode::saturate>,
                                       host_code<bf8_t, overflow_mode::saturate>,
                                       host_code<fp8_t, overflow_mode::non_saturate>,
                                       host_code<bf8_t, overflow_mode::non_saturate>};
    const fp_ref::format* fmt[]     = {&fp_ref::fp16, &fp_ref::bf16, &fp_ref::e4m3,
                                       &fp_ref::e5m2, &fp_ref::e4m3, &fp_ref::e5m2};
    for(int k = 0; k < cktile_numeric_test::narrow_kinds; ++k)
    {
        std::size_t mismatches = 0;
        for(std::size_t i = 0; i < n; ++i)
        {
            const uint16_t d = got[k * n + i];
            const uint16_t h = host[k](xs[i]);
            const bool same  = std::isnan(xs[i]) ? fmt[k]->is_nan(d) : d == h;
            if(!same && mismatches++ < 5)
                ADD_FAILURE() << "kind " << k << ": x = " << xs[i] << " (bits 0x" << std::hex
                              << ck_tile::bit_cast<uint32_t>(xs[i]) << ") device 0x" << d
                              << " host 0x" << h << std::dec;
        }
        EXPECT_EQ(mismatches, 0u) << "kind " << k << " of " << n << " inputs";
    }
}

TEST(FpConversionsGpu, WideningEveryCodeOnDeviceMatchesHost)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const std::size_t n = 1u << 16;
    std::vector<uint16_t> codes(n);
    for(std::size_t c = 0; c < n; ++c)
        codes[c] = static_cast<uint16_t>(c);
    ck_tile::DeviceMem d_in(n * 2), d_out(n * 4 * sizeof(float));
    HIP_CHECK_ERROR(hipMemcpy(d_in.GetDeviceBuffer(), codes.data(), n * 2, hipMemcpyHostToDevice));
    HIP_CHECK_ERROR(cktile_numeric_test::launch_widen_to_float(
        static_cast<const uint16_t*>(d_in.GetDeviceBuffer()),
        static_cast<float*>(d_out.GetDeviceBuffer()), n, nullptr));
    std::vector<float> got(4 * n);
    HIP_CHECK_ERROR(hipMemcpy(got.data(), d_out.GetDeviceBuffer(), got.size() * sizeof(float),
                              hipMemcpyDeviceToHost));

    using namespace ck_tile;
    for(std::size_t c = 0; c < n; ++c)
    {
        const auto low     = static_cast<uint8_t>(c);
        const float want[] = {type_convert<float>(half_t::from_bits(uint16_t(c))),
                              type_convert<float>(bf16_t::from_bits(uint16_t(c))),
                              type_convert<float>(fp8_t::from_bits(low)),
                              type_convert<float>(bf8_t::from_bits(low))};
        for(int k = 0; k < 4; ++k)
        {
            const float d = got[k * n + c];
            if(std::isnan(want[k]))
                ASSERT_TRUE(std::isnan(d)) << "kind " << k << " code 0x" << std::hex << c;
            else
                ASSERT_EQ(ck_tile::bit_cast<uint32_t>(d), ck_tile::bit_cast<uint32_t>(want[k]))
                    << "kind " << k << " code 0x" << std::hex << c;
        }
    }
}

} // namespace
