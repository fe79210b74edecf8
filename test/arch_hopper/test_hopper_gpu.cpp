// SPDX-License-Identifier: MIT
// The Hopper atoms on the device: TMA tile loads (every swizzle mode, boxes crossing the
// tensor's edges, out-of-range elements read as zero) read back through smem_swizzle_offset,
// TMA stores (out-of-range elements dropped), and one warpgroup's wgmma over 4 K steps from
// TMA-loaded, 128-byte-swizzled shared memory, for f16, bf16 (A from shared memory and from
// registers), fp8, tf32 and s8, against a double-precision host reference. Random inputs,
// poisoned outputs.
#include "hopper_kernels.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/tma_descriptor.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

using namespace ck_tile;

namespace {

/// Skips unless the test kernels were built for sm_90a and device 0 is one.
#define SKIP_WITHOUT_SM90A()                                                                       \
    do                                                                                             \
    {                                                                                              \
        CKTILE_SKIP_WITHOUT_GPU();                                                                 \
        if(std::string(CKTILE_HOPPER_KERNELS_TARGET) != "sm_90a")                                  \
            GTEST_SKIP() << "test kernels built for " << CKTILE_HOPPER_KERNELS_TARGET              \
                         << ", these tests need sm_90a";                                           \
        const std::string target = get_device_target_name(0);                                      \
        if(target != "sm_90a")                                                                     \
            GTEST_SKIP() << "device 0 is " << target << ", these tests need sm_90a";               \
    } while(0)

// Every byte of an output starts as 0x7f: 0x7f7f as u16 is outside the inputs drawn below
// except by chance (checked), as float 3.4e38 and as int32 2139062143, far from any result.
constexpr int poison_byte = 0x7f;

template <typename T>
struct device_array
{
    DeviceMem mem;
    std::size_t n;
    explicit device_array(std::size_t count) : mem(count * sizeof(T)), n(count)
    {
        HIP_CHECK_ERROR(hipMemset(mem.GetDeviceBuffer(), poison_byte, count * sizeof(T)));
    }
    explicit device_array(const std::vector<T>& host) : device_array(host.size())
    {
        HIP_CHECK_ERROR(
            hipMemcpy(get(), host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
    }
    T* get() { return static_cast<T*>(mem.GetDeviceBuffer()); }
    std::vector<T> to_host()
    {
        std::vector<T> h(n);
        HIP_CHECK_ERROR(hipMemcpy(h.data(), get(), n * sizeof(T), hipMemcpyDeviceToHost));
        return h;
    }
};

// ---- TMA ------------------------------------------------------------------------------------

struct tma_case
{
    smem_swizzle swizzle;
    int c0, r0; // box origin: column, row
};

std::string name_of(smem_swizzle s)
{
    return s == smem_swizzle::none  ? "none"
           : s == smem_swizzle::b32 ? "32B"
           : s == smem_swizzle::b64 ? "64B"
                                    : "128B";
}

/// Loads boxes of a 100 x 150 u16 matrix (interior, across the right and bottom edges, across
/// the top and left edges) and checks shared memory through smem_swizzle_offset: in-range
/// elements are the source's, the others zero. With tma_step_store, also checks that storing
/// the box back wrote exactly its in-range elements.
void check_tma_roundtrip(smem_swizzle swz, uint32_t steps)
{
    // A 100 x 150 u16 matrix with a row pitch of 160 elements (320 bytes).
    const int rows = 100, cols = 150, ld = 160;
    const uint32_t box_cols =
        swz == smem_swizzle::none ? 40u : smem_swizzle_span_bytes(swz) / 2; // one span per row
    const uint32_t box_rows = 48;

    std::mt19937 gen(1234 + static_cast<unsigned>(swz));
    std::uniform_int_distribution<int> dist(1, 0x7000); // never 0 (the fill), never poison
    std::vector<uint16_t> src(static_cast<std::size_t>(rows) * ld);
    for(auto& v : src)
        v = static_cast<uint16_t>(dist(gen));
    device_array<uint16_t> d_src(src);

    // Interior; crossing the right and bottom edges; crossing the top and left edges.
    // The innermost coordinate is kept a multiple of 8 elements (16 bytes): tma.hpp's
    // precondition. The outer coordinate is free.
    const auto align8       = [](int c) { return c >= 0 ? c / 8 * 8 : -((-c + 7) / 8 * 8); };
    const int half          = static_cast<int>(box_cols) / 2;
    const int origins[4][2] = {
        {8, 16},
        {align8(cols - static_cast<int>(box_cols)), rows - static_cast<int>(box_rows)},
        {align8(cols - half), rows - 20},
        {align8(-half), -7}};
    for(const auto& o : origins)
    {
        const int c0 = o[0], r0 = o[1];
        // Stores are checked only for boxes inside the tensor: on the H100 a store box that
        // crosses the inner edge wrote the rest of the last 16-byte chunk past it, and one that
        // starts at negative coordinates stopped the kernel (illegal instruction). tma.hpp
        // states the resulting precondition.
        const bool box_inside = r0 >= 0 && c0 >= 0 && r0 + static_cast<int>(box_rows) <= rows &&
                                c0 + static_cast<int>(box_cols) <= cols;
        if((steps & cktile_hopper_test::tma_step_store) && !box_inside)
            continue;
        SCOPED_TRACE("swizzle " + name_of(swz) + ", box origin (row " + std::to_string(r0) +
                     ", col " + std::to_string(c0) + ")");
        device_array<uint16_t> d_dst(static_cast<std::size_t>(rows) * ld);
        const auto src_spec =
            make_tma_tile_spec_2d(d_src.get(), rows, cols, ld, box_rows, box_cols, swz);
        const auto dst_spec =
            make_tma_tile_spec_2d(d_dst.get(), rows, cols, ld, box_rows, box_cols, swz);
        const tma_descriptor src_map = make_tma_descriptor(src_spec);
        const tma_descriptor dst_map = make_tma_descriptor(dst_spec);
        const uint32_t box_bytes     = static_cast<uint32_t>(src_spec.box_bytes());
        device_array<uint8_t> d_raw(box_bytes);

        HIP_CHECK_ERROR(cktile_hopper_test::run_tma_roundtrip(src_map, dst_map, c0, r0, box_bytes,
                                                              d_raw.get(), steps, nullptr));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto raw = d_raw.to_host();
        const auto dst = d_dst.to_host();

        // Shared memory, read through the swizzle function.
        int bad = 0;
        for(uint32_t br = 0; br < box_rows; ++br)
            for(uint32_t bc = 0; bc < box_cols; ++bc)
            {
                const int r = r0 + static_cast<int>(br), c = c0 + static_cast<int>(bc);
                const bool inside = r >= 0 && r < rows && c >= 0 && c < cols;
                const uint16_t expected =
                    inside ? src[static_cast<std::size_t>(r) * ld + static_cast<std::size_t>(c)]
                           : uint16_t{0};
                const uint32_t phys = smem_swizzle_offset(swz, (br * box_cols + bc) * 2);
                uint16_t got;
                std::memcpy(&got, &raw[phys], 2);
                if(got != expected && bad++ < 8)
                {
                    // Where the expected value really is helps tell a layout bug from bad data.
                    std::ostringstream where;
                    for(uint32_t p = 0; p + 1 < box_bytes; p += 2)
                    {
                        uint16_t v;
                        std::memcpy(&v, &raw[p], 2);
                        if(v == expected && expected != 0)
                        {
                            where << " (expected value found at byte " << p << ")";
                            break;
                        }
                    }
                    ADD_FAILURE() << "shared tile (" << br << ", " << bc << ") at byte " << phys
                                  << ": got " << got << ", expected " << expected << where.str();
                }
            }
        EXPECT_EQ(bad, 0) << "mismatching shared-memory elements";

        if(!(steps & cktile_hopper_test::tma_step_store))
            continue;
        // Global destination: the box's in-range elements copied, everything else untouched.
        int bad_dst = 0;
        for(int r = 0; r < rows; ++r)
            for(int c = 0; c < ld; ++c)
            {
                const bool in_box = r >= r0 && r < r0 + static_cast<int>(box_rows) && c >= c0 &&
                                    c < c0 + static_cast<int>(box_cols) && c < cols;
                const std::size_t i =
                    static_cast<std::size_t>(r) * ld + static_cast<std::size_t>(c);
                const uint16_t expected = in_box ? src[i] : uint16_t{0x7f7f};
                if(dst[i] != expected && bad_dst++ < 8)
                    ADD_FAILURE() << "global (" << r << ", " << c << "): got " << dst[i]
                                  << ", expected " << expected;
            }
        EXPECT_EQ(bad_dst, 0) << "mismatching global elements after the TMA store";
    }
}

class TmaLoad : public ::testing::TestWithParam<smem_swizzle>
{};
TEST_P(TmaLoad, SwizzlesAndZeroFillsOutOfRange)
{
    SKIP_WITHOUT_SM90A();
    check_tma_roundtrip(GetParam(), 0);
}
INSTANTIATE_TEST_SUITE_P(AllSwizzles, TmaLoad,
                         ::testing::Values(smem_swizzle::none, smem_swizzle::b32, smem_swizzle::b64,
                                           smem_swizzle::b128),
                         [](const auto& info) { return name_of(info.param); });

class TmaStore : public ::testing::TestWithParam<smem_swizzle>
{};
TEST_P(TmaStore, WritesOnlyInRangeElements)
{
    SKIP_WITHOUT_SM90A();
    check_tma_roundtrip(GetParam(), cktile_hopper_test::tma_step_store);
}
INSTANTIATE_TEST_SUITE_P(AllSwizzles, TmaStore,
                         ::testing::Values(smem_swizzle::none, smem_swizzle::b128),
                         [](const auto& info) { return name_of(info.param); });

TEST(TmaLoad, AfterDescriptorPrefetch)
{
    SKIP_WITHOUT_SM90A();
    check_tma_roundtrip(smem_swizzle::b128, cktile_hopper_test::tma_step_prefetch);
}

TEST(TmaLoad, BarrierInvalidatedAfterUse)
{
    SKIP_WITHOUT_SM90A();
    check_tma_roundtrip(smem_swizzle::b128, cktile_hopper_test::tma_step_inval);
}

TEST(TmaDescriptor, DriverEncodesAndRejects)
{
    SKIP_WITHOUT_SM90A();
    device_array<float> buf(64 * 64);
    tma_descriptor d{};
    std::string why;
    EXPECT_EQ(
        encode_tma_descriptor(
            make_tma_tile_spec_2d(buf.get(), 64, 64, 64, 64, 32, smem_swizzle::b128), &d, &why),
        hipSuccess)
        << why;
    // 64 floats = 256 bytes: wider than the 128-byte swizzle span.
    EXPECT_NE(
        encode_tma_descriptor(
            make_tma_tile_spec_2d(buf.get(), 64, 64, 64, 64, 64, smem_swizzle::b128), &d, &why),
        hipSuccess);
    EXPECT_NE(why.find("swizzle span"), std::string::npos) << why;
}

// ---- wgmma ----------------------------------------------------------------------------------

// Host storage and value of each operand type.
template <typename T>
using storage_t = std::conditional_t<std::is_same_v<T, tf32_t>, float, T>;

template <typename T>
double value_of(const storage_t<T>& v)
{
    if constexpr(std::is_same_v<T, int8_t>)
        return static_cast<double>(v);
    else
        return static_cast<double>(static_cast<float>(v));
}

template <typename T>
storage_t<T> random_value(std::mt19937& gen)
{
    if constexpr(std::is_same_v<T, int8_t>)
        return static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(gen));
    else
    {
        const float x = std::uniform_real_distribution<float>(-2.f, 2.f)(gen);
        if constexpr(std::is_same_v<T, tf32_t>)
        {
            // Keep the 10 mantissa bits tf32 reads, so the operand is what the reference sees.
            uint32_t bits;
            std::memcpy(&bits, &x, 4);
            bits &= 0xffffe000u;
            float y;
            std::memcpy(&y, &bits, 4);
            return y;
        }
        else
            return T(x);
    }
}

template <typename A, typename B, typename C, int N, bool ARegs>
struct wgmma_case
{
    using a_type                 = A;
    using b_type                 = B;
    using c_type                 = C;
    static constexpr int n       = N;
    static constexpr bool a_regs = ARegs;
};

template <typename Case>
class WgmmaTile : public ::testing::Test
{};

using WgmmaCases = ::testing::Types<
    wgmma_case<half_t, half_t, float, 64, false>, wgmma_case<half_t, half_t, float, 128, false>,
    wgmma_case<half_t, half_t, float, 256, false>, wgmma_case<bf16_t, bf16_t, float, 64, false>,
    wgmma_case<bf16_t, bf16_t, float, 128, false>, wgmma_case<bf16_t, bf16_t, float, 256, false>,
    wgmma_case<half_t, half_t, float, 128, true>, wgmma_case<bf16_t, bf16_t, float, 64, true>,
    wgmma_case<fp8_t, fp8_t, float, 128, false>, wgmma_case<fp8_t, fp8_t, float, 256, false>,
    wgmma_case<bf8_t, fp8_t, float, 64, false>, wgmma_case<tf32_t, tf32_t, float, 64, false>,
    wgmma_case<int8_t, int8_t, int32_t, 64, false>>;

struct wgmma_case_names
{
    template <typename Case>
    static std::string GetName(int)
    {
        using A         = typename Case::a_type;
        using B         = typename Case::b_type;
        const auto name = [](auto tag) -> std::string {
            using T = decltype(tag);
            if constexpr(std::is_same_v<T, half_t>)
                return "f16";
            else if constexpr(std::is_same_v<T, bf16_t>)
                return "bf16";
            else if constexpr(std::is_same_v<T, fp8_t>)
                return "e4m3";
            else if constexpr(std::is_same_v<T, bf8_t>)
                return "e5m2";
            else if constexpr(std::is_same_v<T, tf32_t>)
                return "tf32";
            else
                return "s8";
        };
        return name(A{}) + "x" + name(B{}) + "_n" + std::to_string(Case::n) +
               (Case::a_regs ? "_rs" : "_ss");
    }
};

TYPED_TEST_SUITE(WgmmaTile, WgmmaCases, wgmma_case_names);

TYPED_TEST(WgmmaTile, MatchesDoubleReference)
{
    SKIP_WITHOUT_SM90A();
    using Case      = TypeParam;
    using A         = typename Case::a_type;
    using B         = typename Case::b_type;
    using C         = typename Case::c_type;
    constexpr int N = Case::n;
    constexpr int K = 4 * wgmma_traits<A, B, C, N>::k;
    constexpr int M = 64;

    for(unsigned seed = 1; seed <= 2; ++seed)
    {
        std::mt19937 gen(seed * 7919u + N);
        std::vector<storage_t<A>> a(M * K);
        std::vector<storage_t<B>> b(static_cast<std::size_t>(N) * K);
        for(auto& v : a)
            v = random_value<A>(gen);
        for(auto& v : b)
            v = random_value<B>(gen);
        device_array<storage_t<A>> d_a(a);
        device_array<storage_t<B>> d_b(b);
        device_array<C> d_d(static_cast<std::size_t>(M) * N);

        HIP_CHECK_ERROR((cktile_hopper_test::run_wgmma_tile<A, B, C, N, Case::a_regs>(
            d_a.get(), d_b.get(), d_d.get(), nullptr)));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto d = d_d.to_host();

        int bad = 0;
        for(int m = 0; m < M; ++m)
            for(int n = 0; n < N; ++n)
            {
                double ref = 0, mag = 0;
                for(int k = 0; k < K; ++k)
                {
                    const double p = value_of<A>(a[static_cast<std::size_t>(m) * K + k]) *
                                     value_of<B>(b[static_cast<std::size_t>(n) * K + k]);
                    ref += p;
                    mag += std::fabs(p);
                }
                const double got = static_cast<double>(d[static_cast<std::size_t>(m) * N + n]);
                // Products are exact in float; only the accumulation rounds (integers: exact).
                // The fp8 forms accumulate inside the tensor core with fewer mantissa bits
                // than float, hence their looser bound; a layout error is O(mag) either way.
                constexpr bool is_fp8 = sizeof(A) == 1 && !std::is_same_v<A, int8_t>;
                const double tol      = std::is_same_v<C, int32_t> ? 0.0
                                        : is_fp8                   ? 2e-3 * mag + 1e-6
                                                                   : 1e-5 * mag + 1e-6;
                if(!(std::fabs(got - ref) <= tol) && bad++ < 8)
                    ADD_FAILURE() << "seed " << seed << " D(" << m << ", " << n << ") = " << got
                                  << ", reference " << ref << " (tolerance " << tol << ")";
            }
        EXPECT_EQ(bad, 0) << "mismatching elements of the 64 x " << N << " tile";
    }
}

} // namespace
