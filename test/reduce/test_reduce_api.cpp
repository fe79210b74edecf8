// SPDX-License-Identifier: MIT
// Reductions without a GPU: the CPU reference (known values, NaN, empty reductions), the
// canonical form the kernels take (patterns, merges), C API validation with the argument named,
// and offline queries of the kernel library's reduce instances (which kernel fits which layout).
#include "cktile.h"

#include "ck_tile/host/reference_reduce.hpp"
#include "ck_tile/ops/reduce/reduce_problem.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;
std::string last() { return cktile_get_last_error_message(); }

using ck_tile::reference_reduce;
using op = ck_tile::reference_reduce_op;

/// A packed row-major problem over `dims`, keepdim-style packed y strides.
cktile_reduce_problem_t problem(std::vector<std::int64_t> dims, std::uint32_t mask)
{
    cktile_reduce_problem_t p;
    cktile_reduce_problem_init(&p);
    p.rank          = static_cast<int>(dims.size());
    std::int64_t xs = 1, ys = 1;
    for(int a = p.rank - 1; a >= 0; --a)
    {
        p.dims[a]      = dims[a];
        p.x_strides[a] = xs;
        xs *= dims[a];
        p.y_strides[a] = (mask >> a) & 1u ? 0 : ys;
        ys *= (mask >> a) & 1u ? 1 : dims[a];
    }
    p.reduce_mask = mask;
    return p;
}

TEST(ReferenceReduce, KnownValuesOverEveryAxisSet)
{
    // x = [[1, 2, 3], [4, 5, 6]]
    const std::vector<double> x{1, 2, 3, 4, 5, 6};
    const std::int64_t dims[] = {2, 3}, xs[] = {3, 1};
    double y[3]                 = {};
    const std::int64_t y_rows[] = {1, 0};
    reference_reduce(op::sum, 2, dims, x.data(), xs, 0b10, y, y_rows);
    EXPECT_EQ(y[0], 6);
    EXPECT_EQ(y[1], 15);
    const std::int64_t y_cols[] = {0, 1};
    reference_reduce(op::max, 2, dims, x.data(), xs, 0b01, y, y_cols);
    EXPECT_EQ(y[0], 4);
    EXPECT_EQ(y[2], 6);
    reference_reduce(op::min, 2, dims, x.data(), xs, 0b01, y, y_cols);
    EXPECT_EQ(y[1], 2);
    reference_reduce(op::mean, 2, dims, x.data(), xs, 0b11, y, y_cols);
    EXPECT_DOUBLE_EQ(y[0], 3.5);
    reference_reduce(op::sum_squares, 2, dims, x.data(), xs, 0b11, y, y_cols);
    EXPECT_EQ(y[0], 91);
}

TEST(ReferenceReduce, NanPropagatesAndEmptyReductionsAreRejected)
{
    const std::vector<double> x{1, std::nan(""), -INFINITY, 2};
    const std::int64_t dims[] = {4}, xs[] = {1}, ys[] = {0};
    double y = 0;
    for(const op o : {op::sum, op::max, op::min, op::mean, op::sum_squares})
    {
        reference_reduce(o, 1, dims, x.data(), xs, 1, &y, ys);
        EXPECT_TRUE(std::isnan(y)) << static_cast<int>(o);
    }
    const std::vector<double> z{1, -INFINITY, 2};
    const std::int64_t d3[] = {3};
    reference_reduce(op::min, 1, d3, z.data(), xs, 1, &y, ys);
    EXPECT_EQ(y, -INFINITY);
    const std::int64_t empty[] = {0};
    EXPECT_THROW(reference_reduce(op::sum, 1, empty, z.data(), xs, 1, &y, ys),
                 std::invalid_argument);
    EXPECT_THROW(reference_reduce(op::sum, 1, d3, z.data(), xs, 0, &y, ys), std::invalid_argument);
}

ck_tile::reduce_host_args canonical(const cktile_reduce_problem_t& p)
{
    ck_tile::long_index_t d[6], xs[6], ys[6];
    for(int a = 0; a < p.rank; ++a)
        d[a] = p.dims[a], xs[a] = p.x_strides[a], ys[a] = p.y_strides[a];
    return ck_tile::make_reduce_host_args(ck_tile::reduce_op::sum, p.rank, d, xs, ys,
                                          p.reduce_mask);
}

TEST(ReduceCanonicalForm, PatternsAndMerges)
{
    using ck_tile::reduce_pattern;
    // Last axis of a 3-D tensor: the leading axes merge into rows.
    auto h = canonical(problem({4, 5, 6}, 0b100));
    EXPECT_EQ(h.pattern, reduce_pattern::row);
    EXPECT_EQ(h.rows(), 20);
    EXPECT_EQ(h.cols(), 6);
    // The two last axes merge into one row of 30.
    h = canonical(problem({4, 5, 6}, 0b110));
    EXPECT_EQ(h.pattern, reduce_pattern::row);
    EXPECT_EQ(h.cols(), 30);
    // Column sums, and outer x reduced x inner.
    h = canonical(problem({7, 9}, 0b01));
    EXPECT_EQ(h.pattern, reduce_pattern::column);
    h = canonical(problem({3, 7, 9}, 0b010));
    EXPECT_EQ(h.pattern, reduce_pattern::column);
    EXPECT_EQ(h.kept.rank, 2);
    // Reducing axes 0 and 2 of a 3-D tensor: two reduced axes, no merge.
    h = canonical(problem({3, 7, 9}, 0b101));
    EXPECT_EQ(h.pattern, reduce_pattern::strided);
    // Length-1 axes vanish; all of them reduced is one element.
    h = canonical(problem({1, 8, 1}, 0b101));
    EXPECT_EQ(h.reduced.count(), 1);
    EXPECT_EQ(h.kept.count(), 8);
    // A transposed input (last axis strided) is not a row problem.
    auto p         = problem({8, 16}, 0b10);
    p.x_strides[0] = 1;
    p.x_strides[1] = 8;
    EXPECT_EQ(canonical(p).pattern, reduce_pattern::column);
}

TEST(ReduceValidate, BadFieldsAndPointersAreNamed)
{
    auto p = problem({4, 16}, 0b10);
    EXPECT_EQ(cktile_reduce_validate(&p, nullptr), CKTILE_STATUS_SUCCESS) << last();

    auto expect_invalid = [&](const cktile_reduce_problem_t& q, const std::string& text) {
        EXPECT_EQ(cktile_reduce_validate(&q, nullptr), CKTILE_STATUS_INVALID_ARGUMENT) << text;
        EXPECT_NE(last().find(text), std::string::npos) << last();
    };
    auto q        = p;
    q.reduce_mask = 0;
    expect_invalid(q, "reduce_mask is 0: an empty reduction");
    q.reduce_mask = 0b100;
    expect_invalid(q, "names an axis >= rank 2");
    q         = p;
    q.dims[1] = 0;
    expect_invalid(q, "problem->dims[1] = 0: an empty reduction");
    q         = p;
    q.dims[0] = 0;
    expect_invalid(q, "problem->dims[0] = 0: an empty tensor");
    q         = p;
    q.dims[0] = -3;
    expect_invalid(q, "problem->dims[0] = -3 is negative");
    q              = p;
    q.x_strides[1] = -1;
    expect_invalid(q, "problem->x_strides[1] = -1 is negative");
    q      = p;
    q.rank = 7;
    expect_invalid(q, "problem->rank = 7 must be 1..6");
    q    = p;
    q.op = static_cast<cktile_reduce_op_t>(9);
    expect_invalid(q, "problem->op = 9");
    // y too small: two kept axes whose outputs would share elements.
    auto r         = problem({4, 5, 6}, 0b100);
    r.y_strides[0] = 4; // axis 1 spans 5 elements
    expect_invalid(r, "problem->y_strides[0] = 4 is too small: it must be at least 5");
    // The index space overflows.
    q              = p;
    q.x_strides[0] = std::int64_t(1) << 62;
    expect_invalid(q, "the index space of x");

    // Types: mismatched or unsupported combinations are NOT_SUPPORTED, with the field named.
    q        = p;
    q.x_type = CKTILE_DATATYPE_INT8;
    EXPECT_EQ(cktile_reduce_validate(&q, nullptr), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("x_type = int8"), std::string::npos) << last();
    q              = p;
    q.compute_type = CKTILE_DATATYPE_FP16;
    EXPECT_EQ(cktile_reduce_validate(&q, nullptr), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("compute in fp32"), std::string::npos) << last();

    // Pointers: present, aligned, and y not overlapping x.
    std::vector<std::uint16_t> buf(200);
    cktile_reduce_args_t a;
    cktile_reduce_args_init(&a);
    a.x = buf.data();
    EXPECT_EQ(cktile_reduce_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->y is NULL"), std::string::npos) << last();
    a.y = reinterpret_cast<unsigned char*>(buf.data() + 100) + 1;
    EXPECT_EQ(cktile_reduce_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->y is not aligned"), std::string::npos) << last();
    a.y = buf.data() + 10; // x spans 64 elements
    EXPECT_EQ(cktile_reduce_validate(&p, &a), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->y overlaps args->x"), std::string::npos) << last();
    a.y = buf.data() + 64;
    EXPECT_EQ(cktile_reduce_validate(&p, &a), CKTILE_STATUS_SUCCESS) << last();

    // Broadcast inputs (stride 0) are fine: x is only read.
    q              = p;
    q.x_strides[0] = 0;
    EXPECT_EQ(cktile_reduce_validate(&q, nullptr), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(cktile_reduce_validate(nullptr, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
}

/// The instance selection picks for `p` (no pointers), or 0.
std::uint64_t selected(cktile_handle_t h, const cktile_reduce_problem_t& p,
                       cktile_instance_info_t& info)
{
    std::uint64_t id = 0;
    if(cktile_reduce_select(h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id) != CKTILE_STATUS_SUCCESS)
        return 0;
    info.struct_size = sizeof(info);
    cktile_get_instance_info_by_id(h, id, &info);
    return id;
}

TEST(ReduceOffline, EachLayoutGetsTheKernelMadeForIt)
{
    if(offline_target.empty())
        GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";
    cktile_handle_t h = nullptr;
    ASSERT_EQ(cktile_create_for_target(&h, offline_target.c_str()), CKTILE_STATUS_SUCCESS)
        << last();
    std::size_t n = 0, reduce = 0, general = 0;
    cktile_get_instance_count(h, &n);
    for(std::size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info;
        info.struct_size = sizeof(info);
        ASSERT_EQ(cktile_get_instance_info(h, i, &info), CKTILE_STATUS_SUCCESS);
        if(info.op_kind != CKTILE_OP_REDUCTION)
            continue;
        ++reduce;
        general += info.is_general;
    }
    EXPECT_GT(reduce, 9u);
    EXPECT_EQ(general, 9u) << "one general instance per type combination";

    cktile_instance_info_t info{};
    // Rows: a vectorized row instance; columns: a vectorized column instance.
    ASSERT_NE(selected(h, problem({32768, 4096}, 0b10), info), 0u) << last();
    EXPECT_NE(std::string(info.name).find("_row_"), std::string::npos) << info.name;
    EXPECT_EQ(info.alignment_elements, 8);
    ASSERT_NE(selected(h, problem({32768, 4096}, 0b01), info), 0u) << last();
    EXPECT_NE(std::string(info.name).find("_col_"), std::string::npos) << info.name;
    EXPECT_EQ(info.alignment_elements, 8);
    // Odd lengths: the any-alignment kernels of the same patterns.
    ASSERT_NE(selected(h, problem({33, 4097}, 0b10), info), 0u) << last();
    EXPECT_NE(std::string(info.name).find("_row_"), std::string::npos) << info.name;
    EXPECT_EQ(info.alignment_elements, 1);
    // Two reduced axes that cannot merge: only the general instance.
    const std::uint64_t id = selected(h, problem({3, 7, 9}, 0b101), info);
    ASSERT_NE(id, 0u) << last();
    EXPECT_TRUE(info.is_general) << info.name;
    // Type combinations without tiled instances in this set still run, on the general one.
    auto p   = problem({64, 64}, 0b10);
    p.x_type = CKTILE_DATATYPE_FP32;
    p.y_type = CKTILE_DATATYPE_BF16;
    ASSERT_NE(selected(h, p, info), 0u) << last();

    // A vectorized instance refuses a misaligned pointer, saying why.
    const std::uint64_t row_id = selected(h, problem({64, 4096}, 0b10), info);
    ASSERT_NE(row_id, 0u);
    auto q = problem({64, 4096}, 0b10);
    cktile_reduce_args_t a;
    cktile_reduce_args_init(&a);
    a.x              = reinterpret_cast<const void*>(std::uintptr_t{0x10000} + 2);
    a.y              = reinterpret_cast<void*>(std::uintptr_t{0x100000});
    char reason[256] = {};
    EXPECT_EQ(cktile_reduce_supports(h, row_id, &q, &a, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("not aligned"), std::string::npos) << reason;
    // A repeated selection answers the same (from the handle's cache).
    std::uint64_t again = 0;
    ASSERT_EQ(cktile_reduce_select(h, &q, nullptr, CKTILE_SELECT_DEFAULT, &again),
              CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(again, row_id);
    EXPECT_EQ(cktile_reduce_select(h, &q, nullptr, CKTILE_SELECT_TUNING_DB, &again),
              CKTILE_STATUS_NOT_FOUND);
    // Other operations' instances are not reductions.
    cktile_softmax_problem_t sp;
    cktile_softmax_problem_init(&sp);
    EXPECT_EQ(cktile_softmax_supports(h, row_id, &sp, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("not a softmax one"), std::string::npos) << reason;
    // Running needs a device.
    EXPECT_EQ(cktile_reduce_run(h, 0, &q, &a, nullptr), CKTILE_STATUS_NO_DEVICE) << last();
    cktile_destroy(h);
}

/// The name of the instance the default selection picks, or the error.
template <typename Problem, typename Select>
std::string pick(cktile_handle_t h, const Problem& p, Select select)
{
    std::uint64_t id = 0;
    if(select(h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id) != CKTILE_STATUS_SUCCESS)
        return std::string("error: ") + last();
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    cktile_get_instance_info_by_id(h, id, &info);
    return info.name;
}

// The row-wise cost model against the H100 measurements of docs/performance.md (every
// instance of each problem timed in one run): it picks the fastest instance, or one within a
// few percent of it.
TEST(RowwiseSelection, FollowsTheH100Measurements)
{
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "measured on sm_90a";
    cktile_handle_t h = nullptr;
    ASSERT_EQ(cktile_create_for_target(&h, "sm_90a"), CKTILE_STATUS_SUCCESS) << last();
    // Row sums: a warp per row (95 us) beat a block per row (104 us) and 8 lanes per row (117).
    EXPECT_EQ(pick(h, problem({32768, 4096}, 0b10), cktile_reduce_select),
              "reduce_f16_f16_accf32_row_r4_w1_x2_v16");
    EXPECT_NE(pick(h, problem({32768, 4096}, 0b01), cktile_reduce_select).find("_col_w16_"),
              std::string::npos);
    EXPECT_EQ(pick(h, problem({1048576, 64}, 0b10), cktile_reduce_select),
              "reduce_f16_f16_accf32_row_r16_w1_x1_l8_v16");

    cktile_softmax_problem_t sp;
    cktile_softmax_problem_init(&sp);
    auto softmax = [&](std::int64_t rows, std::int64_t cols) {
        sp.rows = rows, sp.cols = cols, sp.x_stride = sp.y_stride = cols;
        return pick(h, sp, cktile_softmax_select);
    };
    // 1048576 x 64: 8 lanes per row 94 us, a warp per row 394 us, a block per row 2.7 ms.
    EXPECT_EQ(softmax(1048576, 64), "softmax_f16_f16_accf32_r16_w1_x1_l8_v16");
    // 4096 x 262144: a warp per row 2.27 ms, blocks of 4, 8 and 16 warps per row 2.27, 2.22
    // and 2.23 ms (within 2%).
    EXPECT_EQ(softmax(4096, 262144), "softmax_f16_f16_accf32_r4_w1_x2_v16");
    // 32768 x 4096, a row per block in registers: 8 warps 185 us, 4 warps 195 us, 16 warps
    // 258 us; a warp per row (8 chunks, two passes) 278 us.
    EXPECT_EQ(softmax(32768, 4096), "softmax_f16_f16_accf32_r1_w8_x2_v16");

    cktile_norm_problem_t np;
    cktile_norm_problem_init(&np);
    np.rows = 32768, np.cols = 4096, np.x_stride = np.y_stride = 4096;
    np.kind     = CKTILE_NORM_LAYERNORM;
    np.has_bias = 1;
    // LayerNorm 32768 x 4096: 8 warps per row with the next row copied ahead into shared
    // memory 198 us, from registers 229 us, a warp per row 280 us, 4 warps 314 us, 16 warps
    // 356 us.
    EXPECT_EQ(pick(h, np, cktile_norm_select), "norm_f16f16_f16_accf32_r1_w8_x2_f2_v16");
    // With a fused residual the rows are not staged: either 8-warp instance (the same code).
    np.fused_residual = 1, np.residual_stride = np.residual_out_stride = 4096;
    EXPECT_NE(pick(h, np, cktile_norm_select).find("norm_f16f16_f16_accf32_r1_w8_x2_"),
              std::string::npos);
    np.fused_residual = 0;
    // RMSNorm: 8 warps 190 us (staged or not: its rows are never staged), a warp per row
    // 275 us, 4 warps 289 us, 16 warps 305 us.
    np.kind     = CKTILE_NORM_RMSNORM;
    np.has_bias = 0;
    EXPECT_NE(pick(h, np, cktile_norm_select).find("norm_f16f16_f16_accf32_r1_w8_x2_"),
              std::string::npos);
    // bf16 (no 16-element 8-warp instance: it spills): 8 warps of one vector per lane 244 us
    // (RMSNorm) and 278 us (LayerNorm), a warp per row 281 and 284 us, 4 warps of 4 vectors
    // 462 and 524 us (197 registers).
    np.x_type = np.weight_type = np.y_type = CKTILE_DATATYPE_BF16;
    EXPECT_EQ(pick(h, np, cktile_norm_select), "norm_bf16bf16_bf16_accf32_r1_w8_x1_v16");
    np.kind     = CKTILE_NORM_LAYERNORM;
    np.has_bias = 1;
    EXPECT_EQ(pick(h, np, cktile_norm_select), "norm_bf16bf16_bf16_accf32_r1_w8_x1_v16");
    cktile_destroy(h);
}

} // namespace
