// SPDX-License-Identifier: MIT
// Normalization without a GPU: the CPU reference on values worked out by hand, the C API's
// validation (each bad field named in the message), and offline queries of the kernel
// library's normalization instances.
#include "cktile.h"
#include "rowwise_test_data.hpp"

#include "ck_tile/host/reference_norm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;
std::string last() { return cktile_get_last_error_message(); }

cktile_norm_problem_t problem(std::int64_t rows, std::int64_t cols)
{
    cktile_norm_problem_t p;
    cktile_norm_problem_init(&p);
    p.rows = rows, p.cols = cols;
    p.x_stride = p.y_stride = p.residual_stride = p.residual_out_stride = cols;
    return p;
}

TEST(ReferenceNorm, RmsNormOfAKnownRow)
{
    const std::vector<double> x{1, 2, 3, 4}, w{1, 1, 2, 0.5};
    std::vector<double> y(4), rstd(1);
    ck_tile::reference_norm_desc d;
    d.rows = 1, d.cols = 4, d.x_stride = d.y_stride = 4, d.epsilon = 0;
    ck_tile::reference_norm(d, x.data(), nullptr, w.data(), nullptr, y.data(), nullptr, nullptr,
                            rstd.data(), [](double v) { return v; });
    const double r = 1.0 / std::sqrt(30.0 / 4.0);
    EXPECT_DOUBLE_EQ(rstd[0], r);
    EXPECT_DOUBLE_EQ(y[2], 3 * r * 2);
    EXPECT_DOUBLE_EQ(y[3], 4 * r * 0.5);
}

TEST(ReferenceNorm, LayerNormWithResidualAndBias)
{
    // h = x + r = (1, 3, 5, 7): mean 4, population variance 5.
    const std::vector<double> x{0, 1, 2, 3}, r{1, 2, 3, 4}, w{1, 1, 1, 1}, b{10, 10, 10, 10};
    std::vector<double> y(4), h(4), mean(1), rstd(1);
    ck_tile::reference_norm_desc d;
    d.rows = 1, d.cols = 4, d.epsilon = 0, d.layernorm = true, d.has_bias = true,
    d.fused_residual = true;
    d.x_stride = d.y_stride = d.residual_stride = d.residual_out_stride = 4;
    ck_tile::reference_norm(d, x.data(), r.data(), w.data(), b.data(), y.data(), h.data(),
                            mean.data(), rstd.data(), [](double v) { return v; });
    EXPECT_DOUBLE_EQ(mean[0], 4.0);
    EXPECT_DOUBLE_EQ(rstd[0], 1.0 / std::sqrt(5.0));
    EXPECT_DOUBLE_EQ(h[3], 7.0);
    EXPECT_DOUBLE_EQ(y[0], 10.0 - 3.0 / std::sqrt(5.0));
}

TEST(NormValidate, DefaultsAreValid)
{
    cktile_norm_problem_t p;
    ASSERT_EQ(cktile_norm_problem_init(&p), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(cktile_norm_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(p.epsilon, 1e-5);
}

TEST(NormValidate, BadFieldsAreNamed)
{
    struct bad_case
    {
        const char* name;
        void (*edit)(cktile_norm_problem_t&);
        cktile_status_t status;
        const char* fragment;
    };
    const bad_case cases[] = {
        {"kind", [](cktile_norm_problem_t& p) { p.kind = static_cast<cktile_norm_kind_t>(9); },
         CKTILE_STATUS_INVALID_ARGUMENT, "problem->kind = 9"},
        {"eps<0", [](cktile_norm_problem_t& p) { p.epsilon = -1e-6; },
         CKTILE_STATUS_INVALID_ARGUMENT, "epsilon"},
        {"eps nan", [](cktile_norm_problem_t& p) { p.epsilon = std::nan(""); },
         CKTILE_STATUS_INVALID_ARGUMENT, "epsilon is not finite"},
        {"rows", [](cktile_norm_problem_t& p) { p.rows = 0; }, CKTILE_STATUS_INVALID_ARGUMENT,
         "problem->rows = 0"},
        {"cols", [](cktile_norm_problem_t& p) { p.cols = -3; }, CKTILE_STATUS_INVALID_ARGUMENT,
         "problem->cols = -3"},
        {"huge cols",
         [](cktile_norm_problem_t& p) { p.cols = p.x_stride = p.y_stride = 1ll << 33; },
         CKTILE_STATUS_INVALID_ARGUMENT, "2^31"},
        {"x_stride", [](cktile_norm_problem_t& p) { p.x_stride = 7; },
         CKTILE_STATUS_INVALID_ARGUMENT, "problem->x_stride = 7 is smaller than the row length"},
        {"residual_stride",
         [](cktile_norm_problem_t& p) {
             p.fused_residual  = 1;
             p.residual_stride = 2;
         },
         CKTILE_STATUS_INVALID_ARGUMENT, "problem->residual_stride = 2"},
        {"int8", [](cktile_norm_problem_t& p) { p.x_type = CKTILE_DATATYPE_INT8; },
         CKTILE_STATUS_NOT_SUPPORTED, "x_type = int8"},
        {"type enum",
         [](cktile_norm_problem_t& p) { p.y_type = static_cast<cktile_datatype_t>(77); },
         CKTILE_STATUS_INVALID_ARGUMENT, "problem->y_type = 77"},
        {"compute", [](cktile_norm_problem_t& p) { p.compute_type = CKTILE_DATATYPE_FP16; },
         CKTILE_STATUS_NOT_SUPPORTED, "compute in fp32"},
        {"overflow", [](cktile_norm_problem_t& p) { p.rows = 1ll << 62; },
         CKTILE_STATUS_INVALID_ARGUMENT, "overflows 64 bits"},
        {"struct_size", [](cktile_norm_problem_t& p) { p.struct_size = 8; },
         CKTILE_STATUS_INVALID_ARGUMENT, "struct_size is 8"},
    };
    for(const auto& c : cases)
    {
        auto p = problem(4, 16);
        c.edit(p);
        EXPECT_EQ(cktile_norm_validate(&p, nullptr), c.status) << c.name;
        EXPECT_NE(last().find(c.fragment), std::string::npos) << c.name << ": " << last();
    }
    EXPECT_EQ(cktile_norm_validate(nullptr, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem is NULL"), std::string::npos) << last();
}

TEST(NormValidate, PointersAndOverlaps)
{
    alignas(16) static unsigned char mem[1 << 16];
    auto at = [](std::size_t off) { return static_cast<void*>(mem + off); };
    auto p  = problem(4, 16); // fp16: each tensor is 128 bytes
    cktile_norm_args_t a;
    cktile_norm_args_init(&a);
    a.x = at(0), a.weight = at(4096), a.y = at(8192);
    EXPECT_EQ(cktile_norm_validate(&p, &a), CKTILE_STATUS_SUCCESS) << last();

    auto expect_bad = [&](cktile_norm_args_t b, const char* fragment) {
        EXPECT_EQ(cktile_norm_validate(&p, &b), CKTILE_STATUS_INVALID_ARGUMENT) << fragment;
        EXPECT_NE(last().find(fragment), std::string::npos) << last();
    };
    auto b = a;
    b.x    = nullptr;
    expect_bad(b, "args->x is NULL");
    b   = a;
    b.y = at(8193);
    expect_bad(b, "args->y is not aligned to its element size");
    b   = a;
    b.y = at(64); // inside x, not x itself
    expect_bad(b, "args->y overlaps args->x");
    b   = a;
    b.y = at(4096 + 8); // over the weight
    expect_bad(b, "args->y overlaps args->weight");
    b          = a;
    b.residual = at(12288);
    expect_bad(b, "args->residual is set but problem->fused_residual is 0");
    b      = a;
    b.bias = at(12288);
    expect_bad(b, "args->bias is set but problem->has_bias is 0");

    // In place: y is x itself.
    b   = a;
    b.y = const_cast<void*>(a.x);
    EXPECT_EQ(cktile_norm_validate(&p, &b), CKTILE_STATUS_SUCCESS) << last();

    // Statistics: RMSNorm has no mean; LayerNorm needs both; outputs may not overlap.
    p.save_statistics = 1;
    b                 = a;
    expect_bad(b, "args->rstd (problem->save_statistics is set) is NULL");
    b.rstd = reinterpret_cast<float*>(at(16384));
    EXPECT_EQ(cktile_norm_validate(&p, &b), CKTILE_STATUS_SUCCESS) << last();
    b.mean = reinterpret_cast<float*>(at(20000));
    expect_bad(b, "RMSNorm has no mean");
    p.kind = CKTILE_NORM_LAYERNORM;
    b.mean = reinterpret_cast<float*>(at(16384 + 4));
    expect_bad(b, "args->rstd overlaps args->mean");

    // Fused residual: residual_out may be x, not a part of y.
    p                = problem(4, 16);
    p.fused_residual = 1;
    b                = a;
    b.residual       = at(12288);
    expect_bad(b, "args->residual_out (problem->fused_residual is set) is NULL");
    b.residual_out = const_cast<void*>(a.x);
    EXPECT_EQ(cktile_norm_validate(&p, &b), CKTILE_STATUS_SUCCESS) << last();
    b.residual_out = at(8192 + 32);
    expect_bad(b, "overlaps");
}

#define SKIP_WITHOUT_KERNEL_LIBRARY()                                                              \
    do                                                                                             \
    {                                                                                              \
        if(offline_target.empty())                                                                 \
            GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";         \
    } while(0)

TEST(NormOffline, InstancesOfTheTargetAnswerQueries)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    cktile_handle_t h = nullptr;
    ASSERT_EQ(cktile_create_for_target(&h, offline_target.c_str()), CKTILE_STATUS_SUCCESS)
        << last();
    const auto insts = rowwise_test::instances_of(h, CKTILE_OP_NORMALIZATION);
    ASSERT_FALSE(insts.empty());
    for(const auto t : {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32})
    {
        int general = 0, vector = 0;
        for(const auto& i : insts)
            if(i.a_type == t)
            {
                general += i.is_general;
                vector += i.alignment_elements > 1;
                EXPECT_EQ(i.compute_type, CKTILE_DATATYPE_FP32);
                EXPECT_EQ(i.alignment_elements * (t == CKTILE_DATATYPE_FP32 ? 4 : 2) == 16,
                          i.alignment_elements > 1);
            }
        EXPECT_GE(general, 1) << "every type has a general instance";
        EXPECT_GE(vector, 1);
    }

    // An odd row: only general instances; their support is exact.
    auto p = problem(3, 4097);
    for(const auto& i : insts)
    {
        if(i.a_type != CKTILE_DATATYPE_FP16)
            continue;
        char reason[256] = "x";
        const auto st    = cktile_norm_supports(h, i.id, &p, nullptr, reason, sizeof(reason));
        if(i.is_general)
            EXPECT_EQ(st, CKTILE_STATUS_SUCCESS) << i.name << ": " << reason;
        else
        {
            EXPECT_EQ(st, CKTILE_STATUS_NOT_SUPPORTED) << i.name;
            EXPECT_NE(std::string(reason).find("multiple of the instance's vector length"),
                      std::string::npos)
                << reason;
        }
    }
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_norm_select(h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id), CKTILE_STATUS_SUCCESS)
        << last();
    cktile_instance_info_t chosen;
    chosen.struct_size = sizeof(chosen);
    ASSERT_EQ(cktile_get_instance_info_by_id(h, id, &chosen), CKTILE_STATUS_SUCCESS);
    EXPECT_TRUE(chosen.is_general);

    // An aligned 4096-wide fp16 row picks a 16-byte instance.
    p = problem(32768, 4096);
    ASSERT_EQ(cktile_norm_select(h, &p, nullptr, CKTILE_SELECT_HEURISTIC, &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    ASSERT_EQ(cktile_get_instance_info_by_id(h, id, &chosen), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(chosen.alignment_elements, 8) << chosen.name;
    EXPECT_EQ(cktile_norm_select(h, &p, nullptr, CKTILE_SELECT_TUNING_DB, &id),
              CKTILE_STATUS_NOT_FOUND);

    // GEMM entry points refuse a normalization instance, with the reason.
    cktile_gemm_problem_t g;
    cktile_gemm_problem_init(&g);
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(h, chosen.id, &g, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("runs no GEMM"), std::string::npos) << reason;

    // No instance of another family is taken for a norm.
    cktile_softmax_problem_t sp;
    cktile_softmax_problem_init(&sp);
    EXPECT_EQ(cktile_softmax_supports(h, chosen.id, &sp, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);

    // Running needs a device.
    cktile_norm_args_t a;
    cktile_norm_args_init(&a);
    alignas(16) static unsigned char mem[1 << 12];
    p   = problem(1, 8);
    a.x = mem, a.weight = mem + 1024, a.y = mem + 2048;
    EXPECT_EQ(cktile_norm_run(h, CKTILE_INSTANCE_AUTO, &p, &a, nullptr), CKTILE_STATUS_NO_DEVICE)
        << last();
    cktile_destroy(h);
}

TEST(NormApiTable, VersionTwoAppendsTheRowWiseOps)
{
    const auto* t = static_cast<const cktile_api_v2_t*>(cktile_get_api(CKTILE_API_VERSION_2));
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->v1.version, static_cast<std::uint32_t>(CKTILE_API_VERSION_2));
    EXPECT_EQ(t->v1.struct_size, sizeof(cktile_api_v2_t));
    EXPECT_EQ(t->v1.gemm_run, &cktile_gemm_run);
    EXPECT_EQ(t->norm_run, &cktile_norm_run);
    EXPECT_EQ(t->softmax_run, &cktile_softmax_run);
}

} // namespace
