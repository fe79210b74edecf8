// SPDX-License-Identifier: MIT
// Every softmax instance of the device's kernel library through the C API against the double
// reference: random rows (never all zeros), rows of 1, odd lengths, rows longer than any
// register tile (the online path) up to 1M+ elements, unaligned pointers, in place, poisoned
// outputs with padding that must stay poisoned, and rows with -inf, all -inf, +inf and NaN.
#include "cktile.h"
#include "gpu_test.hpp"
#include "../norm/rowwise_test_data.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/reference_softmax.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace rowwise_test;

namespace {

class SoftmaxGpu : public ::testing::Test
{
    protected:
    void SetUp() override
    {
        CKTILE_SKIP_WITHOUT_GPU();
        ASSERT_EQ(cktile_create(&h_, 0), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();
    }
    void TearDown() override
    {
        if(h_)
            cktile_destroy(h_);
    }

    void check(cktile_datatype_t t, std::int64_t rows, std::int64_t cols, std::int64_t pad,
               std::uint64_t id, std::mt19937& rng, std::size_t misalign = 0, bool in_place = false,
               bool specials = false)
    {
        const std::int64_t stride = cols + pad;
        const std::string what    = std::string(type_name(t)) + " " + std::to_string(rows) + "x" +
                                 std::to_string(cols) + " pad " + std::to_string(pad) +
                                 (misalign ? " misaligned" : "") + (in_place ? " in place" : "") +
                                 (specials ? " specials" : "");
        host_tensor x(t, rows, cols, stride);
        x.fill(rng, -8, 8);
        if(specials)
        {
            // Row 0: some -inf; row 1: all -inf; row 2: a +inf; row 3: a NaN.
            for(std::int64_t j = 0; j < cols; j += 3)
                x.set(0, j, -INFINITY);
            for(std::int64_t j = 0; j < cols && rows > 1; ++j)
                x.set(1, j, -INFINITY);
            if(rows > 2)
                x.set(2, cols - 1, INFINITY);
            if(rows > 3)
                x.set(3, cols / 2, std::nan(""));
        }
        cktile_softmax_problem_t p;
        cktile_softmax_problem_init(&p);
        p.x_type = p.y_type = t;
        p.rows = rows, p.cols = cols, p.x_stride = p.y_stride = stride;
        const std::size_t off = misalign * bytes_of(t);
        ck_tile::DeviceMem dx(x.bytes.size() + off), dy(x.bytes.size() + off);
        dx.SetValue(0xff), dy.SetValue(0xff);
        auto* px = static_cast<unsigned char*>(dx.GetDeviceBuffer()) + off;
        auto* py = in_place ? px : static_cast<unsigned char*>(dy.GetDeviceBuffer()) + off;
        hipMemcpy(px, x.bytes.data(), x.bytes.size(), hipMemcpyHostToDevice);
        cktile_softmax_args_t a;
        cktile_softmax_args_init(&a);
        a.x = px, a.y = py;
        if(id != 0 && cktile_softmax_supports(h_, id, &p, &a, nullptr, 0) != CKTILE_STATUS_SUCCESS)
            return;
        ++ran_;
        ASSERT_EQ(cktile_softmax_run(h_, id, &p, &a, nullptr), CKTILE_STATUS_SUCCESS)
            << what << ": " << cktile_get_last_error_message();
        ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
        host_tensor y(t, rows, cols, stride, 0);
        hipMemcpy(y.bytes.data(), py, y.bytes.size(), hipMemcpyDeviceToHost);

        const auto xv = x.values();
        std::vector<double> ref(xv.size());
        ck_tile::reference_softmax(rows, cols, xv.data(), stride, ref.data(), stride);
        int bad = 0;
        // Probabilities: relative error of the output type, absolute floor for tiny ones.
        const double tol = tolerance(t);
        for(std::int64_t i = 0; i < rows && bad < 5; ++i)
        {
            for(std::int64_t j = 0; j < cols && bad < 5; ++j)
            {
                const std::string m = mismatch(y.get(i, j), ref[i * stride + j], tol, 1e-6);
                if(!m.empty() && ++bad)
                    ADD_FAILURE() << what << " y(" << i << "," << j << "): " << m;
            }
            if(!in_place && pad > 0 && i + 1 < rows && *y.at(i, cols) != 0xff && ++bad)
                ADD_FAILURE() << what << ": padding after row " << i << " was written";
        }
    }

    cktile_handle_t h_ = nullptr;
    int ran_           = 0;
};

TEST_F(SoftmaxGpu, EveryInstanceMatchesTheReference)
{
    std::mt19937 rng(42);
    for(const auto& info : instances_of(h_, CKTILE_OP_SOFTMAX))
    {
        for(const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                {1, 1}, {3, 7}, {5, 64}, {4, 1000}, {2, 4096}, {3, 4097}, {2, 8192}, {5, 20000}})
        {
            check(info.a_type, rows, cols, 0, info.id, rng);
            check(info.a_type, rows, cols, 8, info.id, rng);
            check(info.a_type, 5, cols, 3, info.id, rng, 0, false, true);
        }
    }
    EXPECT_GT(ran_, 0);
}

// Rows of exactly one or two tiles take the unmasked folds (no per-column compare); a vector
// less or more takes the masked ones (one element for the scalar instances). Five rows leave
// the last row group of a multi-row block short; the specials (some -inf, all -inf, +inf, NaN)
// check that NaN reaches every output of its row on both paths.
TEST_F(SoftmaxGpu, RowsOfWholeTilesAndOneVectorMoreOrLess)
{
    std::mt19937 rng(11);
    for(const auto& info : instances_of(h_, CKTILE_OP_SOFTMAX))
    {
        const std::int64_t tile = info.tile_n, vec = info.alignment_elements;
        for(const std::int64_t cols : {tile, tile - vec, tile + vec, 2 * tile})
        {
            if(cols < 1)
                continue;
            check(info.a_type, 5, cols, 0, info.id, rng);
            check(info.a_type, 5, cols, 0, info.id, rng, 0, false, true);
        }
    }
    EXPECT_GT(ran_, 0);
}

TEST_F(SoftmaxGpu, AutomaticSelectionLongRowsMisalignedInPlace)
{
    std::mt19937 rng(5);
    for(const auto t : {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32})
    {
        check(t, 2, (1 << 20) + 8, 0, 0, rng);        // online path, 1M+ per row
        check(t, 1024, 1024, 0, 0, rng);              // 1M elements
        check(t, 9, 777, 2, 0, rng, 1);               // misaligned
        check(t, 16, 4096, 0, 0, rng, 0, true);       // in place
        check(t, 4, 50000, 0, 0, rng, 0, true, true); // long, in place, specials
        check(t, 4, 100, 0, 0, rng, 0, false, true);  // short with specials
    }
}

} // namespace
