// SPDX-License-Identifier: MIT
// Every elementwise instance of the device's kernel library through the C API against the
// double reference: every operation, every type combination, contiguous tensors of odd
// lengths, rows with padding, broadcasting (size-1 axes, stride-0 axes, lower ranks), up to 6
// axes, unaligned pointers, in place, alpha/beta scaling, NaN and infinities; outputs poisoned
// first, padding that must stay poisoned.
#include "cktile.h"
#include "gpu_test.hpp"
#include "memops_test_data.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/reference_elementwise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace memops_test;

namespace {

const std::vector<cktile_elementwise_op_t> unary_ops = {
    CKTILE_ELEMENTWISE_IDENTITY, CKTILE_ELEMENTWISE_RELU, CKTILE_ELEMENTWISE_GELU_TANH,
    CKTILE_ELEMENTWISE_GELU_ERF, CKTILE_ELEMENTWISE_SILU, CKTILE_ELEMENTWISE_SIGMOID,
    CKTILE_ELEMENTWISE_EXP,      CKTILE_ELEMENTWISE_LOG,  CKTILE_ELEMENTWISE_NEG,
    CKTILE_ELEMENTWISE_ABS,      CKTILE_ELEMENTWISE_SQRT, CKTILE_ELEMENTWISE_RSQRT,
    CKTILE_ELEMENTWISE_TANH};
const std::vector<cktile_elementwise_op_t> binary_ops = {
    CKTILE_ELEMENTWISE_ADD, CKTILE_ELEMENTWISE_SUB, CKTILE_ELEMENTWISE_MUL,
    CKTILE_ELEMENTWISE_DIV, CKTILE_ELEMENTWISE_MAX, CKTILE_ELEMENTWISE_MIN};

struct ew_case
{
    cktile_tensor_desc_t y, a, b;
    std::size_t misalign = 0; ///< elements added to every pointer
    bool in_place        = false;
    bool specials        = false;
};

class ElementwiseGpu : public ::testing::Test
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

    /// Runs one problem (instance `id`, 0 for automatic selection) and compares every element;
    /// returns false when the instance does not support it.
    bool check(cktile_elementwise_op_t op, cktile_datatype_t at, cktile_datatype_t yt, ew_case c,
               std::uint64_t id, std::mt19937& rng, double alpha = 1, double beta = 1)
    {
        const bool binary = static_cast<int>(op) > 100;
        c.a.type = c.b.type = at;
        c.y.type            = yt;
        if(c.in_place)
            c.y = c.a;
        cktile_elementwise_problem_t p;
        cktile_elementwise_problem_init(&p);
        p.op = op, p.a = c.a, p.b = c.b, p.y = c.y, p.alpha = alpha, p.beta = beta;

        nd_tensor a(c.a), b(c.b), y(c.y);
        a.fill(rng, -3, 3);
        b.fill(rng, -3, 3);
        if(c.specials)
        {
            const double sp[] = {NAN, INFINITY, -INFINITY, 0.0, 70000.0, -1e-30};
            int k             = 0;
            a.for_each([&](std::int64_t off) {
                if(k % 7 == 3)
                    a.set(off, sp[(k / 7) % 6]);
                ++k;
            });
            k = 0;
            b.for_each([&](std::int64_t off) {
                if(k % 5 == 1)
                    b.set(off, sp[(k / 5 + 2) % 6]);
                ++k;
            });
        }
        const std::size_t off_a = c.misalign * bytes_of(at), off_y = c.misalign * bytes_of(yt);
        ck_tile::DeviceMem da(a.bytes.size() + off_a), db(b.bytes.size() + off_a),
            dy(y.bytes.size() + off_y);
        dy.SetValue(0xff);
        auto* pa = static_cast<unsigned char*>(da.GetDeviceBuffer()) + off_a;
        auto* pb = static_cast<unsigned char*>(db.GetDeviceBuffer()) + off_a;
        auto* py = c.in_place ? pa : static_cast<unsigned char*>(dy.GetDeviceBuffer()) + off_y;
        hipMemcpy(pa, a.bytes.data(), a.bytes.size(), hipMemcpyHostToDevice);
        hipMemcpy(pb, b.bytes.data(), b.bytes.size(), hipMemcpyHostToDevice);
        cktile_elementwise_args_t args;
        cktile_elementwise_args_init(&args);
        args.a = pa, args.b = binary ? pb : nullptr, args.y = py;
        if(id != 0 &&
           cktile_elementwise_supports(h_, id, &p, &args, nullptr, 0) != CKTILE_STATUS_SUCCESS)
            return false;
        ++ran_;
        const std::string what = describe(op, at, yt, c);
        EXPECT_EQ(cktile_elementwise_run(h_, id, &p, &args, nullptr), CKTILE_STATUS_SUCCESS)
            << what << ": " << cktile_get_last_error_message();
        EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
        hipMemcpy(y.bytes.data(), py, y.bytes.size(), hipMemcpyDeviceToHost);

        const auto av = a.values(), bv = b.values();
        std::vector<double> ref(static_cast<std::size_t>(span_elements(c.y)), 0.0);
        ck_tile::reference_elementwise(static_cast<ck_tile::elementwise_op>(op), alpha, beta,
                                       av.data(), host_desc(c.a), bv.data(), host_desc(c.b),
                                       ref.data(), host_desc(c.y));
        // Transcendental functions in fp32 are good to a few ulp; fp16/bf16 outputs to their
        // rounding.
        const double rel = yt == CKTILE_DATATYPE_FP32 ? 2e-5 : tolerance(yt);
        int bad          = 0;
        y.for_each([&](std::int64_t off) {
            const double want   = round_to(yt, ref[off]);
            const std::string m = mismatch(y.get(off), want, rel, 1e-5);
            if(!m.empty() && bad++ < 5)
                ADD_FAILURE() << what << " at offset " << off << ": " << m << " (a "
                              << av[std::min<std::int64_t>(off, av.size() - 1)] << ")";
        });
        if(!c.in_place && !y.padding_untouched())
            ADD_FAILURE() << what << ": bytes between y's elements were written";
        return true;
    }

    static std::string describe(cktile_elementwise_op_t op, cktile_datatype_t at,
                                cktile_datatype_t yt, const ew_case& c)
    {
        std::string s =
            "op " + std::to_string(op) + " " + type_name(at) + "->" + type_name(yt) + " y[";
        for(int k = 0; k < c.y.rank; ++k)
            s += std::to_string(c.y.dims[k]) + ":" + std::to_string(c.y.strides[k]) + " ";
        s += "] a[";
        for(int k = 0; k < c.a.rank; ++k)
            s += std::to_string(c.a.dims[k]) + ":" + std::to_string(c.a.strides[k]) + " ";
        s += "] b[";
        for(int k = 0; k < c.b.rank; ++k)
            s += std::to_string(c.b.dims[k]) + ":" + std::to_string(c.b.strides[k]) + " ";
        return s + "]" + (c.misalign ? " misaligned" : "") + (c.in_place ? " in place" : "") +
               (c.specials ? " specials" : "");
    }

    static std::vector<ew_case> cases()
    {
        const auto t = CKTILE_DATATYPE_FP32; // replaced per run
        std::vector<ew_case> v;
        for(std::int64_t n : {1, 7, 64, 4097, 100003})
            v.push_back({packed(t, {n}), packed(t, {n}), packed(t, {n})});
        v.push_back({packed(t, {33, 1024}), packed(t, {33, 1024}), packed(t, {1024})});
        v.push_back({packed(t, {5, 96}, 32), packed(t, {5, 96}, 8), packed(t, {5, 96}, 16)});
        v.push_back({packed(t, {37, 61}), packed(t, {37, 1}), packed(t, {1, 61})});
        v.push_back(
            {packed(t, {2, 3, 5, 7, 2, 3}), packed(t, {2, 1, 5, 7, 1, 3}), packed(t, {7, 2, 3})});
        cktile_tensor_desc_t zero = packed(t, {16, 256});
        zero.strides[0]           = 0; // a stride-0 row: one row read for every row
        v.push_back({packed(t, {16, 256}), zero, packed(t, {16, 256})});
        ew_case m{packed(t, {9, 130}), packed(t, {9, 130}), packed(t, {9, 130})};
        m.misalign = 1;
        v.push_back(m);
        ew_case ip{packed(t, {3, 4096}), packed(t, {3, 4096}), packed(t, {3, 4096})};
        ip.in_place = true;
        v.push_back(ip);
        ew_case sp{packed(t, {3, 999}), packed(t, {3, 999}), packed(t, {999})};
        sp.specials = true;
        v.push_back(sp);
        return v;
    }

    cktile_handle_t h_ = nullptr;
    int ran_           = 0;
};

TEST_F(ElementwiseGpu, EveryInstanceMatchesTheReference)
{
    std::mt19937 rng(42);
    std::size_t n = 0;
    cktile_get_instance_count(h_, &n);
    const auto all = cases();
    for(std::size_t k = 0; k < n; ++k)
    {
        cktile_instance_info_t info;
        info.struct_size = sizeof(info);
        cktile_get_instance_info(h_, k, &info);
        if(info.op_kind != CKTILE_OP_ELEMENTWISE)
            continue;
        int supported = 0;
        for(std::size_t c = 0; c < all.size(); ++c)
        {
            // Rotate through the operations so every instance meets unary and binary ones.
            const auto op          = c % 2 ? binary_ops[(c / 2 + k) % binary_ops.size()]
                                           : unary_ops[(c / 2 + k) % unary_ops.size()];
            const bool in_place_ok = !all[c].in_place || info.a_type == info.d_type;
            if(in_place_ok && check(op, info.a_type, info.d_type, all[c], info.id, rng,
                                    c % 3 ? 1.0 : 0.75, c % 3 ? 1.0 : -1.5))
                ++supported;
        }
        EXPECT_GT(supported, 0) << info.name << " ran no case";
    }
    EXPECT_GT(ran_, 0);
}

TEST_F(ElementwiseGpu, EveryOperationAndTypeWithAutomaticSelection)
{
    std::mt19937 rng(7);
    const std::pair<cktile_datatype_t, cktile_datatype_t> types[] = {
        {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP16}, {CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_BF16},
        {CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP32}, {CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP16},
        {CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_BF16}, {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP32},
        {CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32}};
    const auto t = CKTILE_DATATYPE_FP32;
    for(const auto& [at, yt] : types)
    {
        for(auto op : unary_ops)
        {
            check(op, at, yt, {packed(t, {3, 1001}), packed(t, {3, 1001}), packed(t, {1})}, 0, rng);
            ew_case sp{packed(t, {2, 512}), packed(t, {2, 512}), packed(t, {1})};
            sp.specials = true;
            check(op, at, yt, sp, 0, rng, 1.25);
        }
        for(auto op : binary_ops)
        {
            check(op, at, yt, {packed(t, {4, 2048}), packed(t, {4, 2048}), packed(t, {2048})}, 0,
                  rng);
            check(op, at, yt, {packed(t, {6, 5, 33}), packed(t, {6, 1, 33}), packed(t, {5, 1})}, 0,
                  rng, -2.0, 0.5);
            ew_case sp{packed(t, {1, 777}), packed(t, {1, 777}), packed(t, {1, 777})};
            sp.specials = true;
            check(op, at, yt, sp, 0, rng);
        }
    }
    // A cast that overflows fp16 gives infinity; large contiguous tensors.
    check(CKTILE_ELEMENTWISE_IDENTITY, CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP16,
          {packed(t, {1 << 22}), packed(t, {1 << 22}), packed(t, {1})}, 0, rng, 40000.0);
    check(CKTILE_ELEMENTWISE_ADD, CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP16,
          {packed(t, {1024, 4099}), packed(t, {1024, 4099}), packed(t, {1024, 4099})}, 0, rng);
    EXPECT_GT(ran_, 0);
}

} // namespace
