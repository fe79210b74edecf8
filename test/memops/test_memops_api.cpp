// SPDX-License-Identifier: MIT
// Elementwise and permute without a GPU: the CPU references (broadcasting, non-finite values,
// permutations), C API validation (shape mismatch, bad broadcast, bad permutation, overlapping
// tensors) and offline queries of the kernel library's instances.
#include "cktile.h"

#include "memops_test_data.hpp"

#include "ck_tile/host/reference_elementwise.hpp"
#include "ck_tile/host/reference_permute.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace memops_test;
const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;
std::string last() { return cktile_get_last_error_message(); }
constexpr auto f16 = CKTILE_DATATYPE_FP16;

bool mentions(const std::string& text) { return last().find(text) != std::string::npos; }

cktile_elementwise_problem_t add_problem(std::initializer_list<std::int64_t> y,
                                         std::initializer_list<std::int64_t> a,
                                         std::initializer_list<std::int64_t> b)
{
    cktile_elementwise_problem_t p;
    cktile_elementwise_problem_init(&p);
    p.op = CKTILE_ELEMENTWISE_ADD;
    p.y  = packed(f16, y);
    p.a  = packed(f16, a);
    p.b  = packed(f16, b);
    return p;
}

cktile_permute_problem_t transpose_problem(std::int64_t r, std::int64_t c)
{
    cktile_permute_problem_t p;
    cktile_permute_problem_init(&p);
    p.x       = packed(f16, {r, c});
    p.y       = packed(f16, {c, r});
    p.perm[0] = 1;
    p.perm[1] = 0;
    return p;
}

TEST(ReferenceElementwise, BroadcastingScalingAndNonFiniteValues)
{
    // y[2,3] = max(2 * a[2,1], 0.5 * b[3]).
    const std::vector<double> a{1, NAN};
    const std::vector<double> b{1, 4, 8};
    std::vector<double> y(6, -1);
    const auto yd = host_desc(packed(f16, {2, 3}));
    ck_tile::reference_elementwise(ck_tile::elementwise_op::max, 2, 0.5, a.data(),
                                   host_desc(packed(f16, {2, 1})), b.data(),
                                   host_desc(packed(f16, {3})), y.data(), yd);
    EXPECT_EQ(y[0], 2);
    EXPECT_EQ(y[1], 2);
    EXPECT_EQ(y[2], 4);
    for(int j = 3; j < 6; ++j)
        EXPECT_TRUE(std::isnan(y[j])) << "max propagates NaN";

    const std::vector<double> x{-1, NAN, INFINITY, 3};
    std::vector<double> r(4);
    const auto xd = host_desc(packed(f16, {4}));
    ck_tile::reference_elementwise(ck_tile::elementwise_op::relu, 1, 1, x.data(), xd, nullptr, xd,
                                   r.data(), xd);
    EXPECT_EQ(r[0], 0);
    EXPECT_EQ(r[1], 0) << "relu maps NaN to 0, as the GEMM epilogue does";
    EXPECT_EQ(r[2], INFINITY);
    EXPECT_EQ(r[3], 3);
    ck_tile::reference_elementwise(ck_tile::elementwise_op::silu, 1, 1, x.data(), xd, nullptr, xd,
                                   r.data(), xd);
    EXPECT_DOUBLE_EQ(r[3], 3 / (1 + std::exp(-3.0)));
    // A stride-0 axis repeats one element.
    cktile_tensor_desc_t bcast = packed(f16, {4});
    bcast.strides[0]           = 0;
    ck_tile::reference_elementwise(ck_tile::elementwise_op::neg, 1, 1, x.data() + 3,
                                   host_desc(bcast), nullptr, xd, r.data(), xd);
    for(double v : r)
        EXPECT_EQ(v, -3);
}

TEST(ReferencePermute, TransposeAndThreeAxes)
{
    const std::vector<int> x{0, 1, 2, 3, 4, 5}; // 2 x 3
    std::vector<int> y(6, -1);
    const int perm[2] = {1, 0};
    ck_tile::reference_permute(x.data(), host_desc(packed(f16, {2, 3})), perm, y.data(),
                               host_desc(packed(f16, {3, 2})));
    EXPECT_EQ(y, (std::vector<int>{0, 3, 1, 4, 2, 5}));

    // x[2][3][4] -> y[4][2][3] (perm 2, 0, 1): y[k][i][j] = x[i][j][k].
    std::vector<int> x3(24), y3(24, -1);
    for(int i = 0; i < 24; ++i)
        x3[i] = i;
    const int perm3[3] = {2, 0, 1};
    ck_tile::reference_permute(x3.data(), host_desc(packed(f16, {2, 3, 4})), perm3, y3.data(),
                               host_desc(packed(f16, {4, 2, 3})));
    for(int k = 0; k < 4; ++k)
        for(int i = 0; i < 2; ++i)
            for(int j = 0; j < 3; ++j)
                EXPECT_EQ(y3[k * 6 + i * 3 + j], i * 12 + j * 4 + k);
}

TEST(ElementwiseValidate, ShapesBroadcastingAndFieldsAreNamed)
{
    auto p = add_problem({4, 8}, {4, 8}, {8});
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();
    p = add_problem({4, 8}, {4, 1}, {1, 8});
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();

    p = add_problem({4, 8}, {4, 8}, {3});
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->b.dims[0] = 3 does not broadcast to problem->y.dims[1] = 8"))
        << last();
    p = add_problem({4, 8}, {4, 1}, {8});
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();
    p = add_problem({4, 8}, {1, 8}, {8});
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->y.dims[0] = 4 is not the broadcast length 1")) << last();
    p = add_problem({8}, {2, 8}, {8});
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->a.rank = 2 exceeds problem->y.rank = 1")) << last();

    p        = add_problem({4, 8}, {4, 8}, {8});
    p.y.rank = 7;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->y.rank = 7")) << last();
    p           = add_problem({4, 8}, {4, 8}, {8});
    p.a.dims[1] = 0;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->a.dims[1] = 0 must be at least 1")) << last();
    p              = add_problem({4, 8}, {4, 8}, {8});
    p.a.strides[0] = -8;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->a.strides[0] = -8 is negative")) << last();
    p              = add_problem({4, 8}, {4, 8}, {8});
    p.y.strides[0] = 4; // rows of 8 elements 4 apart: y overlaps itself
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("makes y overlap itself")) << last();
    p              = add_problem({4, 8}, {4, 8}, {8});
    p.y.strides[0] = 0;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    p    = add_problem({4, 8}, {4, 8}, {8});
    p.op = static_cast<cktile_elementwise_op_t>(55);
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->op = 55")) << last();
    p        = add_problem({4, 8}, {4, 8}, {8});
    p.b.type = CKTILE_DATATYPE_FP32;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_NOT_SUPPORTED);
    p        = add_problem({4, 8}, {4, 8}, {8});
    p.a.type = CKTILE_DATATYPE_INT8;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_TRUE(mentions("problem->a.type = int8")) << last();
    p       = add_problem({4, 8}, {4, 8}, {8});
    p.alpha = NAN;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    // Unary: b is not looked at.
    p        = add_problem({4, 8}, {4, 8}, {3});
    p.op     = CKTILE_ELEMENTWISE_EXP;
    p.b.rank = 0;
    EXPECT_EQ(cktile_elementwise_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();
}

TEST(ElementwiseValidate, PointersAndAliasing)
{
    alignas(16) static unsigned char mem[1 << 12];
    auto p = add_problem({4, 8}, {4, 8}, {4, 8});
    cktile_elementwise_args_t a;
    cktile_elementwise_args_init(&a);
    a.a = mem, a.b = mem + 256;
    EXPECT_EQ(cktile_elementwise_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("args->y is NULL")) << last();
    a.y = mem; // in place on a
    EXPECT_EQ(cktile_elementwise_validate(&p, &a), CKTILE_STATUS_SUCCESS) << last();
    a.y = mem + 256; // in place on b
    EXPECT_EQ(cktile_elementwise_validate(&p, &a), CKTILE_STATUS_SUCCESS) << last();
    a.y = mem + 2;
    EXPECT_EQ(cktile_elementwise_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("args->y overlaps args->a (it may only be the very same tensor"))
        << last();
    a.y = mem + 1;
    EXPECT_EQ(cktile_elementwise_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("not aligned")) << last();
    // Same pointer but another shape (b broadcast): not the same tensor.
    p   = add_problem({4, 8}, {4, 8}, {8});
    a.y = mem + 256;
    EXPECT_EQ(cktile_elementwise_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("args->y overlaps args->b")) << last();
    // A unary op with b set.
    p.op = CKTILE_ELEMENTWISE_RELU;
    a.y  = mem + 1024;
    EXPECT_EQ(cktile_elementwise_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("args->b is set but problem->op is unary")) << last();
}

TEST(PermuteValidate, PermutationsShapesAndOverlap)
{
    auto p = transpose_problem(4, 8);
    EXPECT_EQ(cktile_permute_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();
    p.perm[1] = 1;
    EXPECT_EQ(cktile_permute_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->perm[1] = 1 repeats an axis")) << last();
    p.perm[1] = 2;
    EXPECT_EQ(cktile_permute_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->perm[1] = 2 is not an axis of x")) << last();
    p   = transpose_problem(4, 8);
    p.y = packed(f16, {4, 8});
    EXPECT_EQ(cktile_permute_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->y.dims[0] = 4 differs from problem->x.dims[perm[0] = 1] = 8"))
        << last();
    p   = transpose_problem(4, 8);
    p.y = packed(f16, {8, 4, 1});
    EXPECT_EQ(cktile_permute_validate(&p, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("problem->y.rank = 3 differs from problem->x.rank = 2")) << last();
    p        = transpose_problem(4, 8);
    p.y.type = CKTILE_DATATYPE_FP32;
    EXPECT_EQ(cktile_permute_validate(&p, nullptr), CKTILE_STATUS_NOT_SUPPORTED);

    alignas(16) static unsigned char mem[1 << 12];
    p = transpose_problem(4, 8);
    cktile_permute_args_t a;
    cktile_permute_args_init(&a);
    a.x = mem, a.y = mem;
    EXPECT_EQ(cktile_permute_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("args->y overlaps args->x (a permutation cannot run in place)")) << last();
    a.y = mem + 62; // the last element of x is at byte 62
    EXPECT_EQ(cktile_permute_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    a.y = mem + 64;
    EXPECT_EQ(cktile_permute_validate(&p, &a), CKTILE_STATUS_SUCCESS) << last();
}

TEST(MemopsOffline, InstancesOfTheTargetAnswerQueries)
{
    if(offline_target.empty())
        GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";
    cktile_handle_t h = nullptr;
    ASSERT_EQ(cktile_create_for_target(&h, offline_target.c_str()), CKTILE_STATUS_SUCCESS)
        << last();
    std::size_t n = 0, elementwise = 0, permute = 0, general_e = 0, general_p = 0;
    cktile_get_instance_count(h, &n);
    for(std::size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info;
        info.struct_size = sizeof(info);
        ASSERT_EQ(cktile_get_instance_info(h, i, &info), CKTILE_STATUS_SUCCESS);
        if(info.op_kind == CKTILE_OP_ELEMENTWISE)
            ++elementwise, general_e += info.is_general;
        if(info.op_kind == CKTILE_OP_PERMUTE)
            ++permute, general_p += info.is_general;
    }
    EXPECT_GT(elementwise, general_e);
    EXPECT_EQ(general_e, 7u) << "one general instance per type combination";
    EXPECT_EQ(general_p, 3u) << "one general instance per type";

    char reason[256] = {};
    cktile_instance_info_t info;
    info.struct_size = sizeof(info);

    // A large transpose picks the shared-memory transpose kernel.
    auto t           = transpose_problem(4096, 1024);
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_permute_select(h, &t, nullptr, CKTILE_SELECT_DEFAULT, &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    cktile_get_instance_info_by_id(h, id, &info);
    EXPECT_NE(std::string(info.name).find("transpose"), std::string::npos) << info.name;
    // On sm_90a the measured shapes take the staged transpose (the next tile copied ahead;
    // fp16 32768 x 4096: 2769 against 2602 GB/s, 8192 x 8192: 2716 against 2513, 16384 x 1024:
    // 2370 against 2226), and a small one keeps square tiles: a staged block's two tiles would
    // halve a grid that does not fill the machine (1000 x 1024: 650 against 721 GB/s for
    // `t64_w8`).
    if(offline_target == "sm_90a")
    {
        const struct
        {
            std::int64_t rows, cols;
            const char* pick;
        } measured[] = {{32768, 4096, "permute_transpose_f16_t64x128_w8_a1"},
                        {8192, 8192, "permute_transpose_f16_t64x128_w8_a1"},
                        {16384, 1024, "permute_transpose_f16_t64x128_w8_a1"},
                        {1000, 1024, "permute_transpose_f16_t64_w8"}};
        for(const auto& m : measured)
        {
            auto p = transpose_problem(m.rows, m.cols);
            ASSERT_EQ(cktile_permute_select(h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id),
                      CKTILE_STATUS_SUCCESS)
                << last();
            cktile_get_instance_info_by_id(h, id, &info);
            EXPECT_EQ(std::string(info.name), m.pick) << m.rows << " x " << m.cols;
        }
    }
    // Odd extents: only the general instance.
    t = transpose_problem(4095, 1023);
    ASSERT_EQ(cktile_permute_select(h, &t, nullptr, CKTILE_SELECT_DEFAULT, &id),
              CKTILE_STATUS_SUCCESS);
    cktile_get_instance_info_by_id(h, id, &info);
    EXPECT_TRUE(info.is_general) << info.name;

    // A contiguous add picks a vectorized instance; the transpose kernel is no elementwise one.
    auto e = add_problem({1024, 4096}, {1024, 4096}, {4096});
    ASSERT_EQ(cktile_elementwise_select(h, &e, nullptr, CKTILE_SELECT_DEFAULT, &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    cktile_get_instance_info_by_id(h, id, &info);
    EXPECT_GT(info.alignment_elements, 1) << info.name;
    EXPECT_EQ(cktile_permute_supports(h, id, &t, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("not a permute one"), std::string::npos) << reason;
    // b broadcast along the inner axis: the vectorized instance says why not.
    e = add_problem({1024, 4096}, {1024, 4096}, {1024, 1});
    EXPECT_EQ(cktile_elementwise_supports(h, id, &e, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("rows of contiguous elements"), std::string::npos) << reason;
    EXPECT_EQ(cktile_elementwise_select(h, &e, nullptr, CKTILE_SELECT_TUNING_DB, &id),
              CKTILE_STATUS_NOT_FOUND);
    cktile_destroy(h);
}

} // namespace
