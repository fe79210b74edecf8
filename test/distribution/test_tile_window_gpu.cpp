// SPDX-License-Identifier: MIT
// Tile windows in kernels: a copy global -> registers -> XOR-swizzled shared memory ->
// registers (another thread mapping) -> global for fp16, bf16 and fp32, with vector and with
// scalar global accesses, on shapes that are not multiples of the tile; a transposing store;
// register shuffles (shuffle_tile into a permuted distribution, transpose_tile into the
// transposed one) stored through windows with the new distributions; an atomic update; and
// seed 004's 7.5.6 example against the host's calculate_index.
// Random inputs, outputs poisoned (the row gaps and a guard region after the last row too):
// every element outside the matrix must still hold the poison.
#include "tile_window_kernels.hpp"

#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/hip_check.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace cktile_tile_window_test;

constexpr unsigned char poison_byte = 0x7b;
constexpr int guard                 = 64; // elements after the last row

struct byte_buffer
{
    std::vector<unsigned char> host;
    ck_tile::DeviceMem dev;
    explicit byte_buffer(std::vector<unsigned char> h) : host(std::move(h)), dev(host.size())
    {
        HIP_CHECK_ERROR(
            hipMemcpy(dev.GetDeviceBuffer(), host.data(), host.size(), hipMemcpyHostToDevice));
    }
    void* get() { return dev.GetDeviceBuffer(); }
    std::vector<unsigned char> to_host()
    {
        std::vector<unsigned char> h(host.size());
        HIP_CHECK_ERROR(
            hipMemcpy(h.data(), dev.GetDeviceBuffer(), h.size(), hipMemcpyDeviceToHost));
        return h;
    }
};

int elem_bytes(dtype t) { return t == dtype::fp32 ? 4 : 2; }
int vec_len(dtype t) { return 16 / elem_bytes(t); }
const char* name(dtype t) { return t == dtype::fp16 ? "fp16" : t == dtype::bf16 ? "bf16" : "fp32"; }

// n elements of random values (integers in [-50, 50] plus 0.25: exact in all three types,
// never zero) as raw bytes of type t; positions outside rows x cols (row stride ld) poisoned.
std::vector<unsigned char> random_matrix(dtype t, int rows, int cols, int ld, unsigned seed)
{
    const int eb = elem_bytes(t);
    std::vector<unsigned char> b(static_cast<size_t>(rows * ld + guard) * eb, poison_byte);
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> d(-50, 50);
    for(int r = 0; r < rows; ++r)
        for(int c = 0; c < cols; ++c)
        {
            const float v    = static_cast<float>(d(g)) + 0.25f;
            unsigned char* p = b.data() + static_cast<size_t>(r * ld + c) * eb;
            if(t == dtype::fp16)
            {
                const auto h = ck_tile::type_convert<ck_tile::half_t>(v);
                std::memcpy(p, &h, 2);
            }
            else if(t == dtype::bf16)
            {
                const auto h = ck_tile::type_convert<ck_tile::bf16_t>(v);
                std::memcpy(p, &h, 2);
            }
            else
                std::memcpy(p, &v, 4);
        }
    return b;
}

std::vector<unsigned char> poisoned(dtype t, int rows, int ld)
{
    return std::vector<unsigned char>(static_cast<size_t>(rows * ld + guard) * elem_bytes(t),
                                      poison_byte);
}

bool same_element(const std::vector<unsigned char>& a, size_t ia,
                  const std::vector<unsigned char>& b, size_t ib, int eb)
{
    return std::memcmp(a.data() + ia * eb, b.data() + ib * eb, static_cast<size_t>(eb)) == 0;
}

bool is_poison(const std::vector<unsigned char>& a, size_t i, int eb)
{
    for(int k = 0; k < eb; ++k)
        if(a[i * eb + k] != poison_byte)
            return false;
    return true;
}

void run_copy(dtype t, int rows, int cols, int ld, bool vector_view)
{
    SCOPED_TRACE(std::string(name(t)) + " " + std::to_string(rows) + "x" + std::to_string(cols) +
                 " ld " + std::to_string(ld) + (vector_view ? " vector" : " scalar"));
    const int eb = elem_bytes(t);
    byte_buffer in(random_matrix(t, rows, cols, ld, 1234u + static_cast<unsigned>(rows * cols)));
    byte_buffer out(poisoned(t, rows, ld));
    HIP_CHECK_ERROR(
        launch_copy_through_lds(t, in.get(), out.get(), rows, cols, ld, vector_view, nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    const auto o       = out.to_host();
    const size_t total = static_cast<size_t>(rows * ld + guard);
    for(size_t i = 0; i < total; ++i)
    {
        const bool inside = i < static_cast<size_t>(rows * ld) && static_cast<int>(i % ld) < cols;
        if(inside)
            ASSERT_TRUE(same_element(o, i, in.host, i, eb))
                << "element " << i / ld << "," << i % ld;
        else
            ASSERT_TRUE(is_poison(o, i, eb)) << "written outside: " << i / ld << "," << i % ld;
    }
}

class TileWindowGpu : public ::testing::TestWithParam<dtype>
{};

} // namespace

TEST_P(TileWindowGpu, CopyThroughSwizzledLdsVectorAccess)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const dtype t = GetParam();
    const int v   = vec_len(t);
    const int tm  = copy_tile_rows();
    const int tn  = copy_tile_cols(t);
    // columns multiples of the vector but not of the tile; rows not multiples of the tile
    run_copy(t, 1, v, v, true);
    run_copy(t, tm + 5, tn + 3 * v, tn + 3 * v, true);
    run_copy(t, 3 * tm - 1, 2 * tn + v, 2 * tn + 5 * v, true);
    run_copy(t, 4097, 5 * v, 6 * v, true);
}

TEST_P(TileWindowGpu, CopyThroughSwizzledLdsScalarAccess)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const dtype t = GetParam();
    const int tm  = copy_tile_rows();
    const int tn  = copy_tile_cols(t);
    run_copy(t, 1, 1, 1, false);
    run_copy(t, 7, 13, 13, false);
    run_copy(t, tm + 1, tn + 1, tn + 4, false);
    run_copy(t, 2 * tm + 3, 3 * tn - 5, 3 * tn, false);
}

TEST_P(TileWindowGpu, TransposingStore)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const dtype t = GetParam();
    const int eb  = elem_bytes(t);
    for(const auto& shape :
        {std::pair{5, 3}, std::pair{copy_tile_rows() + 7, copy_tile_cols(t) * 2 - 1},
         std::pair{97, 131}})
    {
        const int rows = shape.first, cols = shape.second, ld_in = cols + 2, ld_out = rows + 3;
        SCOPED_TRACE(std::string(name(t)) + " " + std::to_string(rows) + "x" +
                     std::to_string(cols));
        byte_buffer in(random_matrix(t, rows, cols, ld_in, 99u));
        byte_buffer out(poisoned(t, cols, ld_out));
        HIP_CHECK_ERROR(
            launch_transpose_store(t, in.get(), out.get(), rows, cols, ld_in, ld_out, nullptr));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto o       = out.to_host();
        const size_t total = static_cast<size_t>(cols * ld_out + guard);
        for(size_t i = 0; i < total; ++i)
        {
            const int n = static_cast<int>(i / ld_out), m = static_cast<int>(i % ld_out);
            const bool inside = n < cols && m < rows;
            if(inside)
                ASSERT_TRUE(same_element(o, i, in.host, static_cast<size_t>(m * ld_in + n), eb))
                    << n << "," << m;
            else
                ASSERT_TRUE(is_poison(o, i, eb)) << "written outside: " << n << "," << m;
        }
    }
}

TEST_P(TileWindowGpu, ShuffleTileThenStoreWithTheOtherDistribution)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const dtype t = GetParam();
    const int eb  = elem_bytes(t);
    const int tm = shuffle_tile_rows(), tn = copy_tile_cols(t);
    for(const auto& shape : {std::pair{1, 1}, std::pair{tm + 3, tn + 5}, std::pair{3 * tm - 1, 97}})
    {
        const int rows = shape.first, cols = shape.second, ld = cols + 3;
        SCOPED_TRACE(std::string(name(t)) + " " + std::to_string(rows) + "x" +
                     std::to_string(cols));
        byte_buffer in(random_matrix(t, rows, cols, ld, 4242u + static_cast<unsigned>(rows)));
        byte_buffer out(poisoned(t, rows, ld));
        HIP_CHECK_ERROR(launch_shuffle_store(t, in.get(), out.get(), rows, cols, ld, nullptr));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto o       = out.to_host();
        const size_t total = static_cast<size_t>(rows * ld + guard);
        for(size_t i = 0; i < total; ++i)
        {
            const bool inside =
                i < static_cast<size_t>(rows * ld) && static_cast<int>(i % ld) < cols;
            if(inside)
                ASSERT_TRUE(same_element(o, i, in.host, i, eb)) << i / ld << "," << i % ld;
            else
                ASSERT_TRUE(is_poison(o, i, eb)) << "written outside: " << i / ld << "," << i % ld;
        }
    }
}

TEST_P(TileWindowGpu, TransposeTileInRegisters)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const dtype t = GetParam();
    const int eb  = elem_bytes(t);
    for(const auto& shape :
        {std::pair{1, 1}, std::pair{7, 5},
         std::pair{shuffle_tile_rows() + 1, copy_tile_cols(t) * 2 - 3}, std::pair{131, 97}})
    {
        const int rows = shape.first, cols = shape.second, ld_in = cols + 1, ld_out = rows + 2;
        SCOPED_TRACE(std::string(name(t)) + " " + std::to_string(rows) + "x" +
                     std::to_string(cols));
        byte_buffer in(random_matrix(t, rows, cols, ld_in, 777u + static_cast<unsigned>(cols)));
        byte_buffer out(poisoned(t, cols, ld_out));
        HIP_CHECK_ERROR(
            launch_register_transpose(t, in.get(), out.get(), rows, cols, ld_in, ld_out, nullptr));
        HIP_CHECK_ERROR(hipDeviceSynchronize());
        const auto o       = out.to_host();
        const size_t total = static_cast<size_t>(cols * ld_out + guard);
        for(size_t i = 0; i < total; ++i)
        {
            const int n = static_cast<int>(i / ld_out), m = static_cast<int>(i % ld_out);
            if(n < cols && m < rows)
                ASSERT_TRUE(same_element(o, i, in.host, static_cast<size_t>(m * ld_in + n), eb))
                    << n << "," << m;
            else
                ASSERT_TRUE(is_poison(o, i, eb)) << "written outside: " << n << "," << m;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Types, TileWindowGpu,
                         ::testing::Values(dtype::fp16, dtype::bf16, dtype::fp32),
                         [](const auto& info) { return std::string(name(info.param)); });

TEST(TileWindowGpuAtomic, UpdateTileAddsThroughAnAtomicView)
{
    CKTILE_SKIP_WITHOUT_GPU();
    const int rows = 45, cols = 70, ld = 72;
    std::vector<float> in(static_cast<size_t>(rows * ld), 0.0f), acc(in.size() + guard, 1.5f);
    std::mt19937 g(7);
    std::uniform_int_distribution<int> d(-50, 50);
    for(auto& x : in)
        x = static_cast<float>(d(g)) + 0.25f;
    ck_tile::DeviceMem din(in.size() * sizeof(float)), dacc(acc.size() * sizeof(float));
    din.ToDevice(in.data());
    dacc.ToDevice(acc.data());
    HIP_CHECK_ERROR(launch_atomic_update(static_cast<const float*>(din.GetDeviceBuffer()),
                                         static_cast<float*>(dacc.GetDeviceBuffer()), rows, cols,
                                         ld, nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    std::vector<float> out(acc.size());
    dacc.FromDevice(out.data());
    for(size_t i = 0; i < out.size(); ++i)
    {
        const bool inside = i < static_cast<size_t>(rows * ld) && static_cast<int>(i % ld) < cols;
        ASSERT_EQ(out[i], inside ? 1.5f + in[i] : 1.5f) << i / ld << "," << i % ld;
    }
}

TEST(TileWindowGpuSeed, Seed756MatchesHostCalculateIndex)
{
    CKTILE_SKIP_WITHOUT_GPU();
    constexpr int n = 9;
    std::vector<float> h(n * n);
    for(int i = 0; i < n; ++i)
        for(int j = 0; j < n; ++j)
            h[static_cast<size_t>(i * n + j)] = static_cast<float>(i * 100 + j);
    ck_tile::DeviceMem dg(h.size() * sizeof(float)), dv(16 * sizeof(float)), di(8 * sizeof(int));
    dg.ToDevice(h.data());
    std::vector<float> poison_v(16, -1.0f);
    std::vector<int> poison_i(8, -1);
    dv.ToDevice(poison_v.data());
    di.ToDevice(poison_i.data());
    HIP_CHECK_ERROR(launch_seed_756(static_cast<const float*>(dg.GetDeviceBuffer()), n, n,
                                    static_cast<float*>(dv.GetDeviceBuffer()),
                                    static_cast<int*>(di.GetDeviceBuffer()), true, nullptr));
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    std::vector<float> values(16);
    std::vector<int> ids(8);
    dv.FromDevice(values.data());
    di.FromDevice(ids.data());

    using namespace ck_tile;
    using Enc =
        tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>,
                                   tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                                   sequence<1, 2>, sequence<1, 1>>;
    constexpr auto dstr = make_static_tile_distribution(Enc{});
    for(int k = 0; k < 4; ++k)
    {
        const int warp = k / 2, lane = k % 2; // threads 0, 1, W, W + 1
        EXPECT_EQ(ids[static_cast<size_t>(2 * k)], warp);
        EXPECT_EQ(ids[static_cast<size_t>(2 * k + 1)], lane);
        // sweep order: Y0 (rows) outer, Y1 (columns) inner
        int v = 0;
        for(index_t y0 = 0; y0 < 2; ++y0)
            for(index_t y1 = 0; y1 < 2; ++y1, ++v)
            {
                const auto x =
                    dstr.calculate_index(make_multi_index(warp, lane), make_multi_index(y0, y1));
                EXPECT_EQ(values[static_cast<size_t>(4 * k + v)],
                          static_cast<float>((1 + x[0]) * 100 + 3 + x[1]))
                    << "thread " << k << " value " << v;
            }
    }
}
