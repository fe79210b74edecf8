// SPDX-License-Identifier: MIT
// Host side of profile mode: random inputs, operand geometry, and the verifier, fed with
// results computed on the CPU (right ones, and ones broken in each way it must catch).
#include "command_line.hpp"
#include "gemm_data.hpp"
#include "gemm_sweep.hpp"

#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/reference_gemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace cktile_profiler;

namespace {

cktile_gemm_problem_t problem(std::vector<std::string> args)
{
    args.insert(args.begin(), "gemm");
    const cktile_gemm_problem_t p =
        make_gemm_problem(gemm_sweep(parse_command_line(args)).point(0));
    EXPECT_EQ(cktile_gemm_validate(&p), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();
    return p;
}

void encode(cktile_datatype_t t, double v, unsigned char* out)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
    {
        const auto h = ck_tile::type_convert<ck_tile::half_t>(static_cast<float>(v));
        std::memcpy(out, &h.data, 2);
        break;
    }
    case CKTILE_DATATYPE_BF16:
    {
        const auto h = ck_tile::type_convert<ck_tile::bf16_t>(static_cast<float>(v));
        std::memcpy(out, &h.data, 2);
        break;
    }
    case CKTILE_DATATYPE_FP32:
    {
        const float f = static_cast<float>(v);
        std::memcpy(out, &f, 4);
        break;
    }
    default:
    {
        const std::int32_t i = ck_tile::convert_output<std::int32_t>(v);
        std::memcpy(out, &i, 4);
    }
    }
}

/// What a correct device would leave in D: every element of the problem computed by the
/// reference in double and rounded to D's type; the padding still poisoned.
std::vector<unsigned char> correct_d(const cktile_gemm_problem_t& p, const gemm_host_inputs& in)
{
    const gemm_geometry g = gemm_geometry::of(p);
    auto values = [](const std::vector<unsigned char>& bytes, cktile_datatype_t t, std::int64_t n) {
        std::vector<double> v(static_cast<std::size_t>(n));
        for(std::int64_t i = 0; i < n; ++i)
            v[static_cast<std::size_t>(i)] =
                bytes.empty() ? 0.0 : decode_element(t, &bytes[i * type_bytes(t)]);
        return v;
    };
    const auto a    = values(in.a, p.a_type, g.a.span());
    const auto b    = values(in.b, p.b_type, g.b.span());
    const auto c    = values(in.c, p.c_type, g.reads_c ? g.c.span() : 0);
    const auto bias = values(in.bias, p.d_type, g.has_bias ? g.bias.span() : 0);
    std::vector<double> d(static_cast<std::size_t>(g.d.span()), std::nan(""));
    ck_tile::reference_gemm_desc rd;
    rd.m = p.m, rd.n = p.n, rd.k = p.k, rd.batch = p.batch_count;
    rd.a_row = g.a.row_step(), rd.a_col = g.a.col_step(), rd.a_batch = p.stride_a;
    rd.b_row = g.b.row_step(), rd.b_col = g.b.col_step(), rd.b_batch = p.stride_b;
    rd.c_row = g.c.row_step(), rd.c_col = g.c.col_step(), rd.c_batch = p.stride_c;
    rd.d_row = g.d.row_step(), rd.d_col = g.d.col_step(), rd.d_batch = p.stride_d;
    rd.bias_batch = p.stride_bias;
    rd.alpha = p.alpha, rd.beta = p.beta;
    rd.bias_kind                 = static_cast<ck_tile::gemm_bias>(p.bias);
    rd.activation                = static_cast<ck_tile::gemm_activation>(p.activation);
    const auto d0                = values(in.d0, p.d0_type, g.extras >= 1 ? g.d0.span() : 0);
    const auto d1                = values(in.d1, p.d1_type, g.extras >= 2 ? g.d1.span() : 0);
    rd.multi_d_op                = static_cast<ck_tile::gemm_multi_d_op>(p.multi_d_op);
    rd.multi_d_before_activation = p.multi_d_point == CKTILE_MULTI_D_BEFORE_ACTIVATION;
    rd.d0 = d0.data(), rd.d0_row = g.d0.row_step(), rd.d0_col = g.d0.col_step();
    rd.d0_batch = p.stride_d0;
    rd.d1 = d1.data(), rd.d1_row = g.d1.row_step(), rd.d1_col = g.d1.col_step();
    rd.d1_batch = p.stride_d1;
    ck_tile::reference_gemm(rd, a.data(), b.data(), c.data(), bias.data(), d.data());
    std::vector<unsigned char> out(g.d.bytes(), static_cast<unsigned char>(poison_byte));
    for(std::size_t i = 0; i < d.size(); ++i)
        if(!std::isnan(d[i]))
            encode(p.d_type, d[i], &out[i * g.d.element_bytes]);
    return out;
}

} // namespace

TEST(RandomElements, NeverZeroFiniteAndReproducible)
{
    for(cktile_datatype_t t :
        {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP8_E4M3,
         CKTILE_DATATYPE_FP8_E5M2, CKTILE_DATATYPE_INT8, CKTILE_DATATYPE_INT32})
    {
        const auto bytes = random_elements(t, 4096, 7);
        ASSERT_EQ(bytes.size(), 4096 * type_bytes(t));
        EXPECT_EQ(bytes, random_elements(t, 4096, 7));
        EXPECT_NE(bytes, random_elements(t, 4096, 8));
        bool negative = false, positive = false;
        for(std::size_t i = 0; i < 4096; ++i)
        {
            const double v = decode_element(t, &bytes[i * type_bytes(t)]);
            ASSERT_TRUE(std::isfinite(v)) << type_name(t);
            ASSERT_NE(v, 0.0) << type_name(t);
            ASSERT_LE(std::fabs(v), 24.0) << type_name(t);
            negative |= v<0, positive |= v> 0;
        }
        EXPECT_TRUE(negative && positive) << type_name(t);
    }
}

TEST(Geometry, SpansCoverLeadingDimensionsAndBatches)
{
    const auto p = problem({"--m=5", "--n=3", "--k=4", "--lda=6", "--layout-b=row", "--ldb=7",
                            "--batch=2", "--stride-a=40", "--stride-b=0", "--bias=col"});
    const gemm_geometry g = gemm_geometry::of(p);
    EXPECT_EQ(g.a.span(), 40 + 4 * 6 + 4); // row-major: (rows-1)*ld + cols, plus a batch
    EXPECT_EQ(g.b.span(), 3 * 7 + 3);      // broadcast: one matrix
    EXPECT_EQ(g.d.span(), 15 + 15);
    EXPECT_EQ(g.bias.span(), 3 + 3);
    EXPECT_TRUE(g.has_bias);
    EXPECT_FALSE(g.reads_c);
    EXPECT_EQ(g.a.bytes(), static_cast<std::size_t>(2 * g.a.span()));
}

TEST(Verify, PassesACorrectResultForEveryOutputType)
{
    const std::vector<std::vector<std::string>> cases = {
        {"--m=37", "--n=29", "--k=19"},
        {"--m=33", "--n=17", "--k=64", "--type-a=bf16", "--layout-a=col", "--layout-d=col",
         "--ldd=40", "--beta=0.5", "--bias=row", "--activation=gelu_tanh"},
        {"--m=16", "--n=16", "--k=300", "--type-a=f32", "--batch=3", "--bias=col",
         "--activation=silu", "--alpha=0.75"},
        {"--m=20", "--n=12", "--k=33", "--type-a=e4m3", "--type-b=e5m2", "--type-d=f32",
         "--activation=relu"},
        {"--m=9", "--n=8", "--k=50", "--type-a=i8", "--beta=2", "--batch=2", "--ldd=11",
         "--stride-d=120"},
    };
    for(const auto& c : cases)
    {
        const cktile_gemm_problem_t p = problem(c);
        const gemm_host_inputs in     = gemm_host_inputs::random(p, 3);
        const verify_result r         = verify_gemm(p, in, correct_d(p, in));
        EXPECT_TRUE(r.passed) << c[0] << " " << r.summary();
        EXPECT_EQ(r.checked, p.m * p.n * p.batch_count);
        EXPECT_FALSE(r.sampled);
    }
}

TEST(Verify, MultiDInputsAreGeneratedAndChecked)
{
    const std::vector<std::vector<std::string>> cases = {
        {"--m=13", "--n=11", "--k=9", "--multi-d=add"},
        {"--m=13", "--n=11", "--k=9", "--multi-d=mul", "--type-d0=f32", "--layout-d0=col",
         "--activation=relu", "--multi-d-point=before"},
        {"--m=7", "--n=5", "--k=3", "--batch=3", "--multi-d=add_mul", "--stride-d0=0", "--ldd1=9",
         "--layout-d1=col", "--type-a=bf16"},
        {"--m=7", "--n=5", "--k=3", "--batch=2", "--multi-d=mul_add", "--type-a=i8",
         "--type-d1=f32", "--stride-d1=0"},
    };
    for(const auto& c : cases)
    {
        const cktile_gemm_problem_t p = problem(c);
        const gemm_host_inputs in     = gemm_host_inputs::random(p, 5);
        const gemm_geometry g         = gemm_geometry::of(p);
        EXPECT_EQ(static_cast<std::int64_t>(in.d0.size()), g.d0.span() * type_bytes(p.d0_type));
        EXPECT_EQ(in.d1.empty(), g.extras < 2);
        const verify_result r = verify_gemm(p, in, correct_d(p, in));
        EXPECT_TRUE(r.passed) << c[3] << " " << r.summary();
        // The same D without the extra inputs is wrong.
        cktile_gemm_problem_t plain = p;
        plain.multi_d_op            = CKTILE_MULTI_D_NONE;
        EXPECT_FALSE(verify_gemm(p, in, correct_d(plain, in)).passed) << c[3];
    }
}

TEST(Verify, CatchesAWrongElementAndNamesIt)
{
    const cktile_gemm_problem_t p = problem({"--m=12", "--n=10", "--k=8", "--batch=2"});
    const gemm_host_inputs in     = gemm_host_inputs::random(p, 5);
    std::vector<unsigned char> d  = correct_d(p, in);
    const gemm_geometry g         = gemm_geometry::of(p);
    const std::int64_t off        = 1 * p.stride_d + 7 * g.d.row_step() + 3 * g.d.col_step();
    encode(p.d_type, decode_element(p.d_type, &d[off * 2]) + 0.5, &d[off * 2]);
    const verify_result r = verify_gemm(p, in, d);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.mismatches, 1);
    EXPECT_NE(r.first_problem.find("D[1](7, 3)"), std::string::npos) << r.first_problem;
    EXPECT_GT(r.max_error_over_tol, 1.0);
    EXPECT_NE(r.summary().find("FAIL"), std::string::npos);
}

TEST(Verify, CatchesUnwrittenElementsAndWrittenPadding)
{
    const cktile_gemm_problem_t p        = problem({"--m=6", "--n=5", "--k=4", "--ldd=8"});
    const gemm_host_inputs in            = gemm_host_inputs::random(p, 9);
    std::vector<unsigned char> d         = correct_d(p, in);
    std::vector<unsigned char> unwritten = d;
    unwritten[2 * (3 * 8 + 2)] = unwritten[2 * (3 * 8 + 2) + 1] = poison_byte;
    const verify_result u                                       = verify_gemm(p, in, unwritten);
    EXPECT_FALSE(u.passed);
    EXPECT_EQ(u.unwritten, 1);

    std::vector<unsigned char> padded = d;
    padded[2 * (1 * 8 + 6)]           = 0; // column 6 of row 1 lies in the padding
    const verify_result w             = verify_gemm(p, in, padded);
    EXPECT_FALSE(w.passed);
    EXPECT_EQ(w.overwritten, 1);
    EXPECT_EQ(w.mismatches, 0);
}

TEST(Verify, SamplesRowsOfLargeProblemsAndStillChecksThem)
{
    const cktile_gemm_problem_t p = problem({"--m=300", "--n=40", "--k=64", "--batch=5"});
    const gemm_host_inputs in     = gemm_host_inputs::random(p, 11);
    verify_options o;
    o.max_reference_macs = 2.0 * 40 * 64 * 30; // about ten rows per compared batch
    const gemm_reference ref(p, in, o);
    EXPECT_TRUE(ref.sampled());
    std::vector<unsigned char> d = correct_d(p, in);
    const verify_result r        = ref.check(d);
    EXPECT_TRUE(r.passed) << r.summary();
    EXPECT_TRUE(r.sampled);
    EXPECT_LT(r.checked, p.m * p.n * p.batch_count);
    EXPECT_GE(r.checked, 2 * p.n); // at least the first and last row of a batch
    // Row 0 of batch 0 is always compared.
    const gemm_geometry g = gemm_geometry::of(p);
    encode(p.d_type, 1000.0, &d[static_cast<std::size_t>(5 * g.d.col_step()) * 2]);
    EXPECT_FALSE(ref.check(d).passed);
}
