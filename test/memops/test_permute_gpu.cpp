// SPDX-License-Identifier: MIT
// Every permute instance of the device's kernel library through the C API against the
// reference: transposes of every size class (tile multiples, odd, 1), batched transposes with
// one and two batch axes, 3- to 6-axis permutations, strided outputs whose padding must stay
// poisoned, unaligned pointers, and NaN/inf payloads (copied bit for bit).
#include "cktile.h"
#include "gpu_test.hpp"
#include "memops_test_data.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/reference_permute.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace memops_test;

namespace {

struct perm_case
{
    std::vector<std::int64_t> x_dims;
    std::vector<int> perm;
    std::int64_t y_pad   = 0; ///< elements after each of y's innermost rows
    std::size_t misalign = 0;
};

class PermuteGpu : public ::testing::Test
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

    bool check(cktile_datatype_t t, const perm_case& c, std::uint64_t id, std::mt19937& rng)
    {
        cktile_permute_problem_t p;
        cktile_permute_problem_init(&p);
        p.x = packed(t, c.x_dims);
        std::vector<std::int64_t> yd;
        for(int d : c.perm)
            yd.push_back(c.x_dims[d]);
        p.y = packed(t, yd);
        if(c.y_pad)
        {
            std::int64_t s = 1;
            for(int k = p.y.rank - 1; k >= 0; --k)
            {
                p.y.strides[k] = s;
                s *= p.y.dims[k] + (k == p.y.rank - 1 ? c.y_pad : 0);
            }
        }
        for(std::size_t d = 0; d < c.perm.size(); ++d)
            p.perm[d] = c.perm[d];

        nd_tensor x(p.x), y(p.y);
        x.fill(rng, -100, 100);
        int k = 0;
        x.for_each([&](std::int64_t off) {
            if(k++ % 11 == 5)
                x.set(off, k % 2 ? NAN : -INFINITY);
        });
        const std::size_t off = c.misalign * bytes_of(t);
        ck_tile::DeviceMem dx(x.bytes.size() + off), dy(y.bytes.size() + off);
        dy.SetValue(0xff);
        auto* px = static_cast<unsigned char*>(dx.GetDeviceBuffer()) + off;
        auto* py = static_cast<unsigned char*>(dy.GetDeviceBuffer()) + off;
        hipMemcpy(px, x.bytes.data(), x.bytes.size(), hipMemcpyHostToDevice);
        cktile_permute_args_t a;
        cktile_permute_args_init(&a);
        a.x = px, a.y = py;
        if(id != 0 && cktile_permute_supports(h_, id, &p, &a, nullptr, 0) != CKTILE_STATUS_SUCCESS)
            return false;
        ++ran_;
        std::string what = std::string(type_name(t)) + " x[";
        for(auto v : c.x_dims)
            what += std::to_string(v) + " ";
        what += "] perm(";
        for(int v : c.perm)
            what += std::to_string(v) + " ";
        what += ") pad " + std::to_string(c.y_pad) + (c.misalign ? " misaligned" : "");
        EXPECT_EQ(cktile_permute_run(h_, id, &p, &a, nullptr), CKTILE_STATUS_SUCCESS)
            << what << ": " << cktile_get_last_error_message();
        EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
        hipMemcpy(y.bytes.data(), py, y.bytes.size(), hipMemcpyDeviceToHost);

        // A permutation copies bits: compare the encodings, element by element.
        const std::size_t eb = bytes_of(t);
        std::vector<std::uint32_t> xe(static_cast<std::size_t>(span_elements(p.x)), 0),
            ref(static_cast<std::size_t>(span_elements(p.y)), 0);
        x.for_each([&](std::int64_t o) { std::memcpy(&xe[o], x.at(o), eb); });
        ck_tile::reference_permute(xe.data(), host_desc(p.x), c.perm.data(), ref.data(),
                                   host_desc(p.y));
        int bad = 0;
        y.for_each([&](std::int64_t o) {
            std::uint32_t got = 0;
            std::memcpy(&got, y.at(o), eb);
            if(got != ref[o] && bad++ < 5)
                ADD_FAILURE() << what << " at y offset " << o << ": got 0x" << std::hex << got
                              << ", want 0x" << ref[o] << std::dec;
        });
        if(!y.padding_untouched())
            ADD_FAILURE() << what << ": bytes between y's elements were written";
        return true;
    }

    static std::vector<perm_case> cases()
    {
        return {{{64, 64}, {1, 0}},
                {{128, 96}, {1, 0}},
                {{1, 1}, {1, 0}},
                {{7, 13}, {1, 0}},
                {{65, 130}, {1, 0}},
                {{256, 40}, {1, 0}, 8},
                {{96, 64}, {1, 0}, 0, 1},
                {{3, 64, 128}, {0, 2, 1}},
                // Many tiles with masked edges (520 and 392 are not tile multiples) and
                // batches whose tiles a staged block's run of neighbouring tiles crosses.
                {{520, 392}, {1, 0}, 8},
                {{5, 136, 72}, {0, 2, 1}},
                {{2, 3, 40, 72}, {0, 1, 3, 2}},
                {{4, 8, 16}, {2, 0, 1}},
                {{4, 8, 16}, {1, 0, 2}},
                {{2, 3, 4, 5}, {0, 2, 1, 3}},
                {{2, 3, 2, 5, 3, 4}, {5, 3, 1, 0, 4, 2}},
                {{1, 512, 1, 64}, {2, 0, 1, 3}},
                {{4096}, {0}},
                {{2, 1024}, {0, 1}, 16}};
    }

    cktile_handle_t h_ = nullptr;
    int ran_           = 0;
};

TEST_F(PermuteGpu, EveryInstanceMatchesTheReference)
{
    std::mt19937 rng(3);
    std::size_t n = 0;
    cktile_get_instance_count(h_, &n);
    for(std::size_t k = 0; k < n; ++k)
    {
        cktile_instance_info_t info;
        info.struct_size = sizeof(info);
        cktile_get_instance_info(h_, k, &info);
        if(info.op_kind != CKTILE_OP_PERMUTE)
            continue;
        int supported = 0;
        for(const auto& c : cases())
            supported += check(info.a_type, c, info.id, rng) ? 1 : 0;
        EXPECT_GT(supported, 0) << info.name << " ran no case";
    }
    EXPECT_GT(ran_, 0);
}

TEST_F(PermuteGpu, AutomaticSelectionAllTypesLargeAndRandomPermutations)
{
    std::mt19937 rng(11);
    for(const auto t : {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32})
    {
        check(t, {{2048, 1536}, {1, 0}}, 0, rng);
        check(t, {{1000, 999}, {1, 0}}, 0, rng);
        check(t, {{8, 256, 320}, {0, 2, 1}}, 0, rng);
        for(int r = 0; r < 6; ++r)
        {
            const int rank = 2 + r % 5;
            perm_case c;
            std::uniform_int_distribution<int> len(1, rank > 4 ? 5 : 17);
            for(int d = 0; d < rank; ++d)
                c.x_dims.push_back(len(rng));
            c.perm.resize(rank);
            std::iota(c.perm.begin(), c.perm.end(), 0);
            std::shuffle(c.perm.begin(), c.perm.end(), rng);
            c.y_pad    = r % 3 == 0 ? 3 : 0;
            c.misalign = r % 4 == 1 ? 1 : 0;
            check(t, c, 0, rng);
        }
    }
    EXPECT_GT(ran_, 0);
}

} // namespace
