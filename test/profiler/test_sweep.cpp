// SPDX-License-Identifier: MIT
// Lists, ranges, the cartesian sweep, the defaults that complete a problem, and the replay
// options that rebuild it.
#include "command_line.hpp"
#include "gemm_sweep.hpp"
#include "sweep.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace cktile_profiler;

namespace {

std::string error_of(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch(const usage_error& e)
    {
        return e.what();
    }
    return "";
}

gemm_sweep sweep_of(std::vector<std::string> args)
{
    args.insert(args.begin(), "gemm");
    return gemm_sweep(parse_command_line(args));
}

std::vector<std::string> words(const std::string& s)
{
    std::istringstream in(s);
    std::vector<std::string> out;
    for(std::string w; in >> w;)
        out.push_back(w);
    return out;
}

void expect_same_problem(const cktile_gemm_problem_t& a, const cktile_gemm_problem_t& b,
                         const std::string& context)
{
    EXPECT_EQ(a.a_type, b.a_type) << context;
    EXPECT_EQ(a.b_type, b.b_type) << context;
    EXPECT_EQ(a.c_type, b.c_type) << context;
    EXPECT_EQ(a.d_type, b.d_type) << context;
    EXPECT_EQ(a.compute_type, b.compute_type) << context;
    EXPECT_EQ(a.a_layout, b.a_layout) << context;
    EXPECT_EQ(a.b_layout, b.b_layout) << context;
    EXPECT_EQ(a.c_layout, b.c_layout) << context;
    EXPECT_EQ(a.d_layout, b.d_layout) << context;
    EXPECT_EQ(a.m, b.m) << context;
    EXPECT_EQ(a.n, b.n) << context;
    EXPECT_EQ(a.k, b.k) << context;
    EXPECT_EQ(a.lda, b.lda) << context;
    EXPECT_EQ(a.ldb, b.ldb) << context;
    EXPECT_EQ(a.ldc, b.ldc) << context;
    EXPECT_EQ(a.ldd, b.ldd) << context;
    EXPECT_EQ(a.batch_count, b.batch_count) << context;
    EXPECT_EQ(a.stride_a, b.stride_a) << context;
    EXPECT_EQ(a.stride_b, b.stride_b) << context;
    EXPECT_EQ(a.stride_c, b.stride_c) << context;
    EXPECT_EQ(a.stride_d, b.stride_d) << context;
    EXPECT_EQ(a.stride_bias, b.stride_bias) << context;
    EXPECT_EQ(a.alpha, b.alpha) << context;
    EXPECT_EQ(a.beta, b.beta) << context;
    EXPECT_EQ(a.bias, b.bias) << context;
    EXPECT_EQ(a.activation, b.activation) << context;
    EXPECT_EQ(a.multi_d_op, b.multi_d_op) << context;
    if(a.multi_d_op == CKTILE_MULTI_D_NONE)
        return;
    EXPECT_EQ(a.multi_d_point, b.multi_d_point) << context;
    EXPECT_EQ(a.d0_type, b.d0_type) << context;
    EXPECT_EQ(a.d0_layout, b.d0_layout) << context;
    EXPECT_EQ(a.ldd0, b.ldd0) << context;
    EXPECT_EQ(a.stride_d0, b.stride_d0) << context;
    if(a.multi_d_op == CKTILE_MULTI_D_ADD || a.multi_d_op == CKTILE_MULTI_D_MUL)
        return;
    EXPECT_EQ(a.d1_type, b.d1_type) << context;
    EXPECT_EQ(a.d1_layout, b.d1_layout) << context;
    EXPECT_EQ(a.ldd1, b.ldd1) << context;
    EXPECT_EQ(a.stride_d1, b.stride_d1) << context;
}

} // namespace

TEST(IntList, ValuesAndInclusiveRanges)
{
    EXPECT_EQ(parse_int_list("5", "m"), (std::vector<std::int64_t>{5}));
    EXPECT_EQ(parse_int_list("1024:4096:1024,77", "m"),
              (std::vector<std::int64_t>{1024, 2048, 3072, 4096, 77}));
    EXPECT_EQ(parse_int_list("1:3", "m"), (std::vector<std::int64_t>{1, 2, 3}));
    EXPECT_EQ(parse_int_list("0:10:4", "m"), (std::vector<std::int64_t>{0, 4, 8}));
    EXPECT_EQ(parse_int_list("-2:2:2", "m"), (std::vector<std::int64_t>{-2, 0, 2}));
    EXPECT_EQ(parse_int_list("7:7", "m"), (std::vector<std::int64_t>{7}));
    // The last step may not overflow.
    EXPECT_EQ(parse_int_list("9223372036854775806:9223372036854775807:5", "m").size(), 1u);
}

TEST(IntList, MistakesNameTheOptionAndTheItem)
{
    auto e = [](const char* text) { return error_of([&] { parse_int_list(text, "k"); }); };
    EXPECT_NE(e("4:1").find("--k: '4:1' is an empty range"), std::string::npos) << e("4:1");
    EXPECT_NE(e("1:5:0").find("step that is not positive"), std::string::npos);
    EXPECT_NE(e("1:2:3:4").find("is not a range"), std::string::npos);
    EXPECT_NE(e("abc").find("'abc' is not an integer"), std::string::npos);
    EXPECT_NE(e("12x").find("is not an integer"), std::string::npos);
    EXPECT_NE(e("1,,2").find("empty item"), std::string::npos);
    EXPECT_NE(e("99999999999999999999").find("does not fit in 64 bits"), std::string::npos);
    EXPECT_NE(e("0:100000000").find("more than a million"), std::string::npos);
}

TEST(RealList, ListsOnly)
{
    EXPECT_EQ(parse_real_list("1,0.5,-2e-3", "alpha"), (std::vector<double>{1, 0.5, -2e-3}));
    EXPECT_NE(error_of([] { parse_real_list("0:1", "beta"); }).find("is a range"),
              std::string::npos);
    EXPECT_NE(error_of([] { parse_real_list("x", "beta"); }).find("'x' is not a number"),
              std::string::npos);
    EXPECT_NE(error_of([] { parse_real_list("inf", "beta"); }).find("not finite"),
              std::string::npos);
}

TEST(WordList, CaseAndSeparatorInsensitiveWithTheChoicesInTheMessage)
{
    const std::vector<word> w = {{"gelu_tanh", 2}, {"gelu", 2}, {"relu", 1}};
    EXPECT_EQ(parse_word_list("GELU-TANH,relu,gelu", "activation", w), (std::vector<int>{2, 1, 2}));
    const std::string e = error_of([&] { parse_word_list("tanh", "activation", w); });
    EXPECT_NE(e.find("'tanh' is not one of: gelu_tanh, relu"), std::string::npos) << e;
}

TEST(Cartesian, LastAxisVariesFastest)
{
    const cartesian_product c({2, 3});
    ASSERT_EQ(c.size(), 6u);
    EXPECT_EQ(c.indices(0), (std::vector<std::size_t>{0, 0}));
    EXPECT_EQ(c.indices(1), (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(c.indices(3), (std::vector<std::size_t>{1, 0}));
    EXPECT_EQ(c.indices(5), (std::vector<std::size_t>{1, 2}));
    EXPECT_EQ(cartesian_product({}).size(), 1u); // no swept option: one problem
    EXPECT_NE(error_of([] {
                  cartesian_product({1000, 1000, 1000, 2});
              }).find("more than 1000000 problems"),
              std::string::npos);
}

TEST(GemmSweep, RangesAndListsMakeTheCartesianProduct)
{
    const gemm_sweep s = sweep_of({"--m=1024:8192:1024", "--k=4096,8192", "--type-a=f16,bf16"});
    ASSERT_EQ(s.size(), 8u * 2u * 2u);
    EXPECT_EQ(s.swept_options(), (std::vector<std::string>{"m", "k", "type-a"}));
    // m is the outermost axis (the option table's order), type-a the innermost.
    const cktile_gemm_problem_t p0 = make_gemm_problem(s.point(0));
    const cktile_gemm_problem_t p1 = make_gemm_problem(s.point(1));
    const cktile_gemm_problem_t p2 = make_gemm_problem(s.point(2));
    const cktile_gemm_problem_t pl = make_gemm_problem(s.point(s.size() - 1));
    EXPECT_EQ(p0.m, 1024);
    EXPECT_EQ(p0.k, 4096);
    EXPECT_EQ(p0.a_type, CKTILE_DATATYPE_FP16);
    EXPECT_EQ(p1.a_type, CKTILE_DATATYPE_BF16);
    EXPECT_EQ(p1.d_type, CKTILE_DATATYPE_BF16); // D follows A per point
    EXPECT_EQ(p2.k, 8192);
    EXPECT_EQ(p2.lda, 8192); // derived per point
    EXPECT_EQ(pl.m, 8192);
    EXPECT_EQ(pl.k, 8192);
    EXPECT_EQ(pl.n, 4096); // the default
}

TEST(GemmSweep, BadValuesAreReportedBeforeAnythingRuns)
{
    EXPECT_NE(error_of([] { sweep_of({"--type-a=f64"}); }).find("--type-a: 'f64' is not one of"),
              std::string::npos);
    EXPECT_NE(error_of([] { sweep_of({"--layout-b=diag"}); }).find("row, col"), std::string::npos);
    EXPECT_NE(error_of([] { sweep_of({"--bias=both"}); }).find("none, row, col"),
              std::string::npos);
    EXPECT_NE(error_of([] {
                  sweep_of({"--m=1:1000", "--n=1:1000", "--k=1:1000"});
              }).find("more than"),
              std::string::npos);
}

TEST(GemmDefaults, TypesFollowAAndShapesAreTight)
{
    cktile_gemm_problem_t p = make_gemm_problem(sweep_of({"--type-a=i8"}).point(0));
    EXPECT_EQ(p.b_type, CKTILE_DATATYPE_INT8);
    EXPECT_EQ(p.d_type, CKTILE_DATATYPE_INT32);
    EXPECT_EQ(p.c_type, CKTILE_DATATYPE_INT32);
    EXPECT_EQ(p.compute_type, CKTILE_DATATYPE_INT32);
    EXPECT_EQ(cktile_gemm_validate(&p), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();

    p = make_gemm_problem(sweep_of({"--type-a=e4m3", "--type-b=e5m2"}).point(0));
    EXPECT_EQ(p.d_type, CKTILE_DATATYPE_FP16);
    EXPECT_EQ(p.compute_type, CKTILE_DATATYPE_FP32);
    EXPECT_EQ(cktile_gemm_validate(&p), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();

    p = make_gemm_problem(sweep_of({"--m=100", "--n=30", "--k=7", "--layout-a=col",
                                    "--layout-d=col", "--batch=3", "--bias=row"})
                              .point(0));
    EXPECT_EQ(p.a_layout, CKTILE_LAYOUT_COL_MAJOR);
    EXPECT_EQ(p.b_layout, CKTILE_LAYOUT_COL_MAJOR); // the default: K-contiguous B
    EXPECT_EQ(p.c_layout, CKTILE_LAYOUT_COL_MAJOR); // follows D
    EXPECT_EQ(p.lda, 100);
    EXPECT_EQ(p.ldb, 7);
    EXPECT_EQ(p.ldd, 100);
    EXPECT_EQ(p.stride_a, 100 * 7);
    EXPECT_EQ(p.stride_b, 7 * 30);
    EXPECT_EQ(p.stride_d, 100 * 30);
    EXPECT_EQ(p.stride_bias, 100);
    EXPECT_EQ(cktile_gemm_validate(&p), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();

    gemm_defaults tiny;
    tiny.m = tiny.n = tiny.k = 64;
    EXPECT_EQ(make_gemm_problem(sweep_of({}).point(0), tiny).m, 64);
    EXPECT_EQ(make_gemm_problem(sweep_of({}).point(0)).k, 4096);
}

TEST(Replay, ProblemOptionsRebuildTheSameProblem)
{
    const std::vector<std::vector<std::string>> cases = {
        {},
        {"--m=1", "--n=1", "--k=1"},
        {"--type-a=bf16", "--type-d=f32", "--layout-a=col", "--layout-b=row"},
        {"--type-a=i8", "--alpha=3", "--beta=-2", "--layout-c=col"},
        {"--type-a=e4m3", "--type-b=e5m2", "--bias=col", "--activation=gelu_erf"},
        {"--m=97", "--n=31", "--k=13", "--lda=40", "--ldb=50", "--ldc=33", "--ldd=60", "--batch=4",
         "--stride-a=0", "--stride-b=9999", "--stride-d=4000", "--bias=row", "--stride-bias=101",
         "--alpha=0.1", "--beta=1e-07", "--type-c=f32", "--type-d=f32", "--activation=silu"},
        {"--batch=2", "--type-a=f32", "--type-compute=f32", "--layout-d=col"},
        {"--multi-d=add"},
        {"--batch=3", "--multi-d=mul_add", "--multi-d-point=before", "--type-d0=f32",
         "--layout-d1=col", "--ldd1=5000", "--stride-d0=0", "--activation=relu"},
    };
    for(const auto& c : cases)
    {
        const cktile_gemm_problem_t p = make_gemm_problem(sweep_of(c).point(0));
        const std::string options     = gemm_problem_options(p);
        const gemm_sweep back         = sweep_of(words(options));
        ASSERT_EQ(back.size(), 1u) << options;
        // Other default sizes must not matter: m, n and k are always written out.
        gemm_defaults other;
        other.m = other.n = other.k = 3;
        expect_same_problem(make_gemm_problem(back.point(0), other), p, options);
    }
}

TEST(Replay, TheLibraryLogLineParsesToItsProblem)
{
    // The format of src/gemm_problem.cpp's gemm_replay_command, logged at info level for
    // every cktile_gemm_run.
    const std::string logged =
        "gemm --a_type=fp16 --b_type=fp16 --c_type=fp32 --d_type=fp32 --compute_type=fp32 "
        "--a_layout=row --b_layout=col --c_layout=row --d_layout=row --m=128 --n=96 --k=64 "
        "--lda=64 --ldb=64 --ldc=96 --ldd=100 --batch_count=2 --stride_a=8192 --stride_b=6144 "
        "--stride_c=12288 --stride_d=12800 --stride_bias=96 --alpha=0.5 --beta=0 "
        "--bias=column --activation=gelu_tanh "
        "--instance=gemm_simt_f16f16_f32_accf32_xx_64x64x16_t4x4_v1_i64_fused";
    const command_line cl = parse_command_line(words(logged));
    EXPECT_EQ(cl.mode, "profile");
    EXPECT_EQ(cl.text("instance"), "gemm_simt_f16f16_f32_accf32_xx_64x64x16_t4x4_v1_i64_fused");
    const cktile_gemm_problem_t p = make_gemm_problem(gemm_sweep(cl).point(0));
    EXPECT_EQ(p.d_type, CKTILE_DATATYPE_FP32);
    EXPECT_EQ(p.b_layout, CKTILE_LAYOUT_COL_MAJOR);
    EXPECT_EQ(p.ldd, 100);
    EXPECT_EQ(p.batch_count, 2);
    EXPECT_EQ(p.stride_d, 12800);
    EXPECT_EQ(p.stride_bias, 96);
    EXPECT_EQ(p.alpha, 0.5);
    EXPECT_EQ(p.bias, CKTILE_BIAS_PER_COLUMN);
    EXPECT_EQ(p.activation, CKTILE_ACTIVATION_GELU_TANH);
    EXPECT_EQ(p.multi_d_op, CKTILE_MULTI_D_NONE);
    EXPECT_EQ(cktile_gemm_validate(&p), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();
}

TEST(Replay, TheLibraryLogLineWithExtraInputsParsesToItsProblem)
{
    // gemm_replay_command's multi-D options, appended when the problem has a multi_d_op.
    const std::string logged =
        "gemm --a_type=fp16 --b_type=fp16 --c_type=fp16 --d_type=fp16 --compute_type=fp32 "
        "--a_layout=row --b_layout=col --c_layout=row --d_layout=row --m=128 --n=96 --k=64 "
        "--lda=64 --ldb=64 --ldc=96 --ldd=96 --batch_count=2 --stride_a=8192 --stride_b=6144 "
        "--stride_c=12288 --stride_d=12288 --stride_bias=0 --alpha=1 --beta=0 --bias=none "
        "--activation=relu --multi_d=add_mul --multi_d_point=before_activation --d0_type=fp32 "
        "--d0_layout=col --ldd0=130 --stride_d0=0 --d1_type=fp16 --d1_layout=row --ldd1=96 "
        "--stride_d1=12288";
    const cktile_gemm_problem_t p =
        make_gemm_problem(gemm_sweep(parse_command_line(words(logged))).point(0));
    EXPECT_EQ(p.multi_d_op, CKTILE_MULTI_D_ADD_MUL);
    EXPECT_EQ(p.multi_d_point, CKTILE_MULTI_D_BEFORE_ACTIVATION);
    EXPECT_EQ(p.d0_type, CKTILE_DATATYPE_FP32);
    EXPECT_EQ(p.d0_layout, CKTILE_LAYOUT_COL_MAJOR);
    EXPECT_EQ(p.ldd0, 130);
    EXPECT_EQ(p.stride_d0, 0);
    EXPECT_EQ(p.d1_type, CKTILE_DATATYPE_FP16);
    EXPECT_EQ(p.ldd1, 96);
    EXPECT_EQ(p.stride_d1, 12288);
    EXPECT_EQ(cktile_gemm_validate(&p), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();
}

TEST(Metrics, FlopsAndMinimumBytes)
{
    cktile_gemm_problem_t p = make_gemm_problem(sweep_of({"--m=10", "--n=20", "--k=30"}).point(0));
    EXPECT_EQ(gemm_flops(p), 2.0 * 10 * 20 * 30);
    EXPECT_EQ(gemm_min_bytes(p), 2.0 * (10 * 30 + 30 * 20 + 10 * 20));
    p = make_gemm_problem(sweep_of({"--m=10", "--n=20", "--k=30", "--batch=4", "--stride-b=0",
                                    "--beta=1", "--bias=col", "--type-d=f32", "--type-a=f16"})
                              .point(0));
    // B broadcast (read once), C read, bias per column per batch, D in fp32.
    EXPECT_EQ(gemm_min_bytes(p),
              2.0 * 10 * 30 * 4 + 2.0 * 30 * 20 + 4.0 * 10 * 20 * 4 * 2 + 4.0 * 20 * 4);
}

TEST(Text, ShortDescriptions)
{
    const cktile_gemm_problem_t p =
        make_gemm_problem(sweep_of({"--m=8", "--n=4", "--k=2", "--batch=3", "--alpha=2",
                                    "--bias=row", "--activation=relu", "--layout-b=row"})
                              .point(0));
    EXPECT_EQ(shape_text(p), "8x4x2x3");
    EXPECT_EQ(types_text(p), "f16*f16->f16");
    EXPECT_EQ(layouts_text(p), "rrrr");
    EXPECT_EQ(epilogue_text(p), "alpha=2,bias=row,relu");
    EXPECT_EQ(real_text(0.1), "0.1");
}
