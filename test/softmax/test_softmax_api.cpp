// SPDX-License-Identifier: MIT
// Softmax without a GPU: the CPU reference (including non-finite rows), C API validation and
// offline queries of the kernel library's softmax instances.
#include "cktile.h"

#include "ck_tile/host/reference_softmax.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;
std::string last() { return cktile_get_last_error_message(); }

cktile_softmax_problem_t problem(std::int64_t rows, std::int64_t cols)
{
    cktile_softmax_problem_t p;
    cktile_softmax_problem_init(&p);
    p.rows = rows, p.cols = cols, p.x_stride = p.y_stride = cols;
    return p;
}

TEST(ReferenceSoftmax, KnownRowsAndNonFiniteRows)
{
    const double inf = INFINITY;
    const std::vector<double> x{0,    std::log(3.0), -inf, //
                                -inf, -inf,          -inf, //
                                1,    inf,           2,    //
                                1,    std::nan(""),  2};
    std::vector<double> y(12);
    ck_tile::reference_softmax(4, 3, x.data(), 3, y.data(), 3);
    EXPECT_DOUBLE_EQ(y[0], 0.25);
    EXPECT_DOUBLE_EQ(y[1], 0.75);
    EXPECT_EQ(y[2], 0.0);
    for(int j = 3; j < 12; ++j)
        EXPECT_TRUE(std::isnan(y[j])) << j;
}

TEST(SoftmaxValidate, BadFieldsAndPointersAreNamed)
{
    auto p = problem(4, 16);
    EXPECT_EQ(cktile_softmax_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();
    p.y_stride = 15;
    EXPECT_EQ(cktile_softmax_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->y_stride = 15 is smaller than the row length"),
              std::string::npos)
        << last();
    p = problem(0, 16);
    EXPECT_EQ(cktile_softmax_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->rows = 0"), std::string::npos) << last();
    p        = problem(4, 16);
    p.x_type = CKTILE_DATATYPE_FP8_E4M3;
    EXPECT_EQ(cktile_softmax_validate(&p, nullptr), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("x_type = fp8_e4m3"), std::string::npos) << last();

    alignas(16) static unsigned char mem[1 << 12];
    p = problem(4, 16);
    cktile_softmax_args_t a;
    cktile_softmax_args_init(&a);
    a.x = mem;
    EXPECT_EQ(cktile_softmax_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->y is NULL"), std::string::npos) << last();
    a.y = mem; // in place
    EXPECT_EQ(cktile_softmax_validate(&p, &a), CKTILE_STATUS_SUCCESS) << last();
    a.y = mem + 2;
    EXPECT_EQ(cktile_softmax_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->y overlaps args->x (it may only be the very same tensor"),
              std::string::npos)
        << last();
    a.y = mem + 1;
    EXPECT_EQ(cktile_softmax_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("not aligned"), std::string::npos) << last();
}

TEST(SoftmaxOffline, InstancesOfTheTargetAnswerQueries)
{
    if(offline_target.empty())
        GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";
    cktile_handle_t h = nullptr;
    ASSERT_EQ(cktile_create_for_target(&h, offline_target.c_str()), CKTILE_STATUS_SUCCESS)
        << last();
    std::size_t n = 0, softmax = 0, general = 0;
    cktile_get_instance_count(h, &n);
    for(std::size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info;
        info.struct_size = sizeof(info);
        ASSERT_EQ(cktile_get_instance_info(h, i, &info), CKTILE_STATUS_SUCCESS);
        if(info.op_kind != CKTILE_OP_SOFTMAX)
            continue;
        ++softmax;
        general += info.is_general;
    }
    EXPECT_GT(softmax, 0u);
    EXPECT_EQ(general, 3u) << "one general instance per type";

    auto p           = problem(5, 1 << 20);
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_softmax_select(h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    p.cols     = 7;
    p.x_stride = p.y_stride = 7;
    char reason[256]        = {};
    cktile_instance_info_t info;
    info.struct_size = sizeof(info);
    cktile_get_instance_info_by_id(h, id, &info);
    EXPECT_EQ(cktile_softmax_supports(h, id, &p, nullptr, reason, sizeof(reason)),
              info.is_general ? CKTILE_STATUS_SUCCESS : CKTILE_STATUS_NOT_SUPPORTED)
        << reason;
    cktile_norm_problem_t np;
    cktile_norm_problem_init(&np);
    EXPECT_EQ(cktile_norm_supports(h, id, &np, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("not a normalization one"), std::string::npos) << reason;
    cktile_destroy(h);
}

} // namespace
