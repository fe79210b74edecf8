// SPDX-License-Identifier: MIT
// A GEMM problem stated as its transpose, D^T = B^T A^T over the same memory, on the host:
// the transposed statement, read through the kernels' host mapping, computes the same D for
// every layout, bias, C and extra input; and an instance adapter that may transpose picks the
// statement it runs as documented (only the transpose fits, or D is column-major).
#include "gemm_instance_functions.hpp"
#include "gemm_transpose.hpp"

#include "ck_tile/host/reference_gemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using cktile::library::transposed_args;
using cktile::library::transposed_problem;

constexpr cktile_layout_t row = CKTILE_LAYOUT_ROW_MAJOR, col = CKTILE_LAYOUT_COL_MAJOR;

/// The reference's description of what the kernels would be asked to compute: the host
/// mapping's strides, with the pointers standing for arrays of doubles.
ck_tile::reference_gemm_desc describe(const ck_tile::gemm_simt_host_args& h)
{
    ck_tile::reference_gemm_desc g;
    g.m = h.m, g.n = h.n, g.k = h.k, g.batch = h.batch_count;
    g.a_row = h.a_stride_m, g.a_col = h.a_stride_k, g.a_batch = h.batch_stride_a;
    g.b_row = h.b_stride_k, g.b_col = h.b_stride_n, g.b_batch = h.batch_stride_b;
    g.c_row = h.c_stride_m, g.c_col = h.c_stride_n, g.c_batch = h.batch_stride_c;
    g.d_row = h.d_stride_m, g.d_col = h.d_stride_n, g.d_batch = h.batch_stride_d;
    g.bias_batch                = h.batch_stride_bias;
    g.alpha                     = h.alpha;
    g.beta                      = h.beta;
    g.bias_kind                 = h.bias_kind;
    g.activation                = h.activation;
    g.multi_d_op                = h.multi_d.op;
    g.multi_d_before_activation = h.multi_d.before_activation;
    g.d0                        = static_cast<const double*>(h.multi_d.d0.p);
    g.d1                        = static_cast<const double*>(h.multi_d.d1.p);
    g.d0_row = h.multi_d.d0.stride_m, g.d0_col = h.multi_d.d0.stride_n;
    g.d0_batch = h.multi_d.d0.batch_stride;
    g.d1_row = h.multi_d.d1.stride_m, g.d1_col = h.multi_d.d1.stride_n;
    g.d1_batch = h.multi_d.d1.batch_stride;
    return g;
}

/// Computes D for `p` into `d` (poisoned first) through the host mapping.
std::vector<double> compute(const cktile_gemm_problem_t& p, const cktile_gemm_args_t& args,
                            std::size_t d_elements)
{
    std::vector<double> d(d_elements, std::nan(""));
    const auto h = cktile::library::to_host_args(p, &args);
    ck_tile::reference_gemm(describe(h), static_cast<const double*>(h.a),
                            static_cast<const double*>(h.b), static_cast<const double*>(h.c),
                            static_cast<const double*>(h.bias), d.data(), 1);
    return d;
}

std::vector<double> random_values(std::size_t n, std::mt19937& rng)
{
    std::uniform_int_distribution<int> v(-16, 16);
    std::vector<double> x(n);
    for(double& e : x)
        e = v(rng) / 8.0 + 1.0 / 64.0; // never zero: a dropped term always shows
    return x;
}

std::int64_t ld_of(cktile_layout_t l, std::int64_t rows, std::int64_t cols, std::int64_t pad)
{
    return (l == row ? cols : rows) + pad;
}

TEST(GemmTranspose, TransposingTwiceGivesTheProblemBack)
{
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.a_type = CKTILE_DATATYPE_FP8_E4M3, p.b_type = CKTILE_DATATYPE_FP8_E5M2;
    p.a_layout = row, p.b_layout = col, p.c_layout = col, p.d_layout = row;
    p.d0_layout = col, p.d1_layout = row;
    p.m = 7, p.n = 5, p.k = 3, p.lda = 9, p.ldb = 11, p.ldc = 13, p.ldd = 15;
    p.stride_a = 100, p.stride_b = 200, p.bias = CKTILE_BIAS_PER_ROW;
    const cktile_gemm_problem_t t = transposed_problem(p);
    EXPECT_EQ(t.m, 5);
    EXPECT_EQ(t.n, 7);
    EXPECT_EQ(t.a_type, CKTILE_DATATYPE_FP8_E5M2);
    EXPECT_EQ(t.b_type, CKTILE_DATATYPE_FP8_E4M3);
    EXPECT_EQ(t.a_layout, row); // B column-major: B^T is row-major
    EXPECT_EQ(t.b_layout, col); // A row-major: A^T is column-major
    EXPECT_EQ(t.lda, 11);
    EXPECT_EQ(t.ldb, 9);
    EXPECT_EQ(t.stride_a, 200);
    EXPECT_EQ(t.stride_b, 100);
    EXPECT_EQ(t.c_layout, row);
    EXPECT_EQ(t.d_layout, col);
    EXPECT_EQ(t.bias, CKTILE_BIAS_PER_COLUMN);
    const cktile_gemm_problem_t back = transposed_problem(t);
    EXPECT_EQ(std::memcmp(&back, &p, sizeof(p)), 0);

    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    int x[5];
    float s[2];
    a.a = &x[0], a.b = &x[1], a.c = &x[2], a.d = &x[3], a.bias = &x[4];
    a.scale_a = &s[0], a.scale_b = &s[1];
    const cktile_gemm_args_t ta = transposed_args(a);
    EXPECT_EQ(ta.a, &x[1]);
    EXPECT_EQ(ta.b, &x[0]);
    EXPECT_EQ(ta.scale_a, &s[1]);
    EXPECT_EQ(ta.scale_b, &s[0]);
    EXPECT_EQ(ta.d, &x[3]);
    const cktile_gemm_args_t back_args = transposed_args(ta);
    EXPECT_EQ(std::memcmp(&back_args, &a, sizeof(a)), 0);
}

TEST(GemmTranspose, TheTransposedStatementComputesTheSameD)
{
    std::mt19937 rng(7);
    const std::int64_t m = 5, n = 3, k = 4, batch = 2;
    int cases = 0;
    for(int layouts = 0; layouts < 16; ++layouts)
        for(cktile_bias_t bias : {CKTILE_BIAS_NONE, CKTILE_BIAS_PER_ROW, CKTILE_BIAS_PER_COLUMN})
            for(bool extras : {false, true})
            {
                cktile_gemm_problem_t p;
                cktile_gemm_problem_init(&p);
                const auto pick = [&](int bit) { return (layouts >> bit) & 1 ? col : row; };
                p.a_layout = pick(0), p.b_layout = pick(1), p.c_layout = pick(2);
                p.d_layout = pick(3);
                p.m = m, p.n = n, p.k = k, p.batch_count = batch;
                p.lda = ld_of(p.a_layout, m, k, 2), p.ldb = ld_of(p.b_layout, k, n, 1);
                p.ldc = ld_of(p.c_layout, m, n, 3), p.ldd = ld_of(p.d_layout, m, n, 1);
                p.stride_a = 40, p.stride_b = 30, p.stride_c = 45, p.stride_d = 35;
                p.stride_bias = 6;
                p.alpha = 1.5, p.beta = 0.5, p.bias = bias;
                p.activation = CKTILE_ACTIVATION_RELU;
                if(extras)
                {
                    p.multi_d_op    = CKTILE_MULTI_D_ADD_MUL;
                    p.multi_d_point = CKTILE_MULTI_D_BEFORE_ACTIVATION;
                    p.d0_layout = col, p.d1_layout = row;
                    p.ldd0 = m + 2, p.ldd1 = n + 1, p.stride_d0 = 0, p.stride_d1 = 25;
                }
                const auto a = random_values(80, rng), b = random_values(60, rng),
                           c = random_values(90, rng), bias_v = random_values(12, rng),
                           d0 = random_values(25, rng), d1 = random_values(50, rng);
                cktile_gemm_args_t args;
                cktile_gemm_args_init(&args);
                args.a = a.data(), args.b = b.data(), args.c = c.data(), args.bias = bias_v.data();
                args.d0 = d0.data(), args.d1 = d1.data();
                const auto stated  = compute(p, args, 70);
                const auto flipped = compute(transposed_problem(p), transposed_args(args), 70);
                int written        = 0;
                for(std::size_t i = 0; i < stated.size(); ++i)
                {
                    written += !std::isnan(stated[i]);
                    // The same products in the same order of K: equal to the last bit, and
                    // the same elements left poisoned.
                    EXPECT_TRUE(std::isnan(stated[i]) ? std::isnan(flipped[i])
                                                      : stated[i] == flipped[i])
                        << "layouts " << layouts << " bias " << bias << " extras " << extras
                        << " element " << i << ": " << stated[i] << " vs " << flipped[i];
                }
                EXPECT_EQ(written, batch * m * n);
                ++cases;
            }
    EXPECT_EQ(cases, 96);
}

// An instance adapter over a stand-in kernel: a 16-row A tile, row-major A and column-major B.
struct short_a_kernel
{
    static const char* why_unsupported(const ck_tile::gemm_simt_host_args& h)
    {
        return h.m > 16 ? "M is above the tile's 16 rows" : nullptr;
    }
};

struct recording_launch
{
    static constexpr bool may_transpose = true;
    static inline ck_tile::gemm_simt_host_args last{};
    static inline int runs = 0;
    static std::size_t workspace_bytes(const ck_tile::gemm_simt_host_args& h)
    {
        return static_cast<std::size_t>(h.m); // tells which statement was asked
    }
    static std::size_t minimum_workspace_bytes(const ck_tile::gemm_simt_host_args&) { return 0; }
    static std::int64_t k_splits(const ck_tile::gemm_simt_host_args& h) { return h.n; }
    static std::int64_t tail_splits(const ck_tile::gemm_simt_host_args&) { return 1; }
    static void run(const ck_tile::gemm_simt_host_args& h, void*, std::size_t, hipStream_t)
    {
        last = h;
        ++runs;
    }
};

struct stated_only_launch : recording_launch
{
    static constexpr bool may_transpose = false;
};

using rc_signature =
    cktile::library::gemm_signature<CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP16,
                                    CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP32, row, col>;
using rr_signature =
    cktile::library::gemm_signature<CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP16,
                                    CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP32, row, row>;

struct accept_all_kernel
{
    static const char* why_unsupported(const ck_tile::gemm_simt_host_args&) { return nullptr; }
};

cktile_gemm_problem_t problem(std::int64_t m, std::int64_t n, std::int64_t k, cktile_layout_t a,
                              cktile_layout_t b, cktile_layout_t d)
{
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = m, p.n = n, p.k = k;
    p.a_layout = a, p.b_layout = b, p.c_layout = d, p.d_layout = d;
    p.lda = ld_of(a, m, k, 0), p.ldb = ld_of(b, k, n, 0);
    p.ldc = p.ldd = ld_of(d, m, n, 0);
    return p;
}

template <typename Inst>
std::string reason_of(const cktile_gemm_problem_t& p)
{
    char reason[128] = "";
    EXPECT_NE(Inst::supports(&p, nullptr, reason, sizeof(reason)), 0);
    return reason;
}

TEST(GemmTranspose, AnInstanceRunsTheTransposeWhereOnlyItFitsOrDIsColumnMajor)
{
    using short_a = cktile::library::gemm_instance<short_a_kernel, rc_signature, recording_launch>;
    // Few rows: as stated.
    const auto few_rows = problem(16, 4096, 512, row, col, row);
    EXPECT_EQ(short_a::supports(&few_rows, nullptr, nullptr, 0), 0);
    EXPECT_EQ(short_a::runs_transposed(&few_rows), 0);
    EXPECT_EQ(short_a::workspace_size(&few_rows), 16u);
    // Few columns: only the transpose fits the 16-row tile.
    const auto few_cols = problem(4096, 16, 512, row, col, row);
    EXPECT_EQ(short_a::supports(&few_cols, nullptr, nullptr, 0), 0);
    EXPECT_EQ(short_a::runs_transposed(&few_cols), 1);
    EXPECT_EQ(short_a::workspace_size(&few_cols), 16u);
    EXPECT_EQ(short_a::k_splits(&few_cols), 4096);
    // Run: the kernel sees D^T = B^T A^T, with A's and B's pointers exchanged and D^T
    // column-major over D's row-major storage.
    int a = 0, b = 0, d = 0;
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = &a, args.b = &b, args.d = &d;
    char message[128] = "";
    EXPECT_EQ(short_a::run(&few_cols, &args, nullptr, 0, nullptr, message, sizeof(message)),
              CKTILE_STATUS_SUCCESS)
        << message;
    EXPECT_EQ(recording_launch::last.m, 16);
    EXPECT_EQ(recording_launch::last.n, 4096);
    EXPECT_EQ(recording_launch::last.a, &b);
    EXPECT_EQ(recording_launch::last.b, &a);
    EXPECT_EQ(recording_launch::last.a_stride_m, 512); // B^T row-major: ldb apart
    EXPECT_EQ(recording_launch::last.b_stride_n, 512); // A^T column-major: lda apart
    EXPECT_EQ(recording_launch::last.d_stride_m, 1);
    EXPECT_EQ(recording_launch::last.d_stride_n, 16);
    // Neither fits: the stated problem's reason, and run refuses with it.
    const auto neither = problem(4096, 32, 512, row, col, row);
    EXPECT_EQ(reason_of<short_a>(neither), "M is above the tile's 16 rows");
    const int runs = recording_launch::runs;
    EXPECT_EQ(short_a::run(&neither, &args, nullptr, 0, nullptr, message, sizeof(message)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(recording_launch::runs, runs);

    // Both fit: as stated while D is row-major, transposed where D is column-major.
    using any_rc =
        cktile::library::gemm_instance<accept_all_kernel, rc_signature, recording_launch>;
    const auto square_d_rows = problem(256, 128, 64, row, col, row);
    EXPECT_EQ(any_rc::runs_transposed(&square_d_rows), 0);
    const auto square_d_cols = problem(256, 128, 64, row, col, col);
    EXPECT_EQ(any_rc::runs_transposed(&square_d_cols), 1);
    EXPECT_EQ(any_rc::workspace_size(&square_d_cols), 128u);

    // Layouts: a row-major/row-major instance runs both operands column-major as the
    // transpose, and refuses one row-major and one column-major operand pair it cannot map.
    using any_rr =
        cktile::library::gemm_instance<accept_all_kernel, rr_signature, recording_launch>;
    const auto cc = problem(64, 32, 16, col, col, col);
    EXPECT_EQ(any_rr::supports(&cc, nullptr, nullptr, 0), 0);
    EXPECT_EQ(any_rr::runs_transposed(&cc), 1);
    const auto rc = problem(64, 32, 16, row, col, row);
    EXPECT_EQ(reason_of<any_rr>(rc), "the instance's B layout differs from the problem's");

    // A launch that may not transpose runs only what it was stated.
    using fixed = cktile::library::gemm_instance<short_a_kernel, rc_signature, stated_only_launch>;
    EXPECT_EQ(reason_of<fixed>(few_cols), "M is above the tile's 16 rows");
    EXPECT_EQ(fixed::runs_transposed(&few_cols), 0);
    using fixed_rr =
        cktile::library::gemm_instance<accept_all_kernel, rr_signature, stated_only_launch>;
    EXPECT_EQ(fixed_rr::runs_transposed(&cc), 0);
    EXPECT_NE(fixed_rr::supports(&cc, nullptr, nullptr, 0), 0);
}

} // namespace
