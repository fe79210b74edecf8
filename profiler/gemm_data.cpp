// SPDX-License-Identifier: MIT
#include "gemm_data.hpp"

#include "gemm_sweep.hpp"

#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/reference_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>

namespace cktile_profiler {

std::int64_t matrix_geometry::span() const
{
    const std::int64_t footprint = row_major ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
    return (batch > 1 ? (batch - 1) * stride : 0) + footprint;
}

gemm_geometry gemm_geometry::of(const cktile_gemm_problem_t& p)
{
    auto geo = [&](std::int64_t rows, std::int64_t cols, cktile_layout_t l, std::int64_t ld,
                   std::int64_t stride, cktile_datatype_t t) {
        matrix_geometry g;
        g.rows = rows, g.cols = cols, g.batch = p.batch_count;
        g.row_major = l == CKTILE_LAYOUT_ROW_MAJOR;
        g.ld = ld, g.stride = stride, g.element_bytes = type_bytes(t);
        return g;
    };
    gemm_geometry g;
    g.a            = geo(p.m, p.k, p.a_layout, p.lda, p.stride_a, p.a_type);
    g.b            = geo(p.k, p.n, p.b_layout, p.ldb, p.stride_b, p.b_type);
    g.c            = geo(p.m, p.n, p.c_layout, p.ldc, p.stride_c, p.c_type);
    g.d            = geo(p.m, p.n, p.d_layout, p.ldd, p.stride_d, p.d_type);
    const auto len = p.bias == CKTILE_BIAS_PER_ROW ? p.m : p.n;
    g.bias         = geo(1, len, CKTILE_LAYOUT_ROW_MAJOR, len, p.stride_bias, p.d_type);
    g.reads_c      = p.beta != 0.0;
    g.has_bias     = p.bias != CKTILE_BIAS_NONE;
    g.extras       = multi_d_inputs(p.multi_d_op);
    g.d0           = geo(p.m, p.n, p.d0_layout, p.ldd0, p.stride_d0, p.d0_type);
    g.d1           = geo(p.m, p.n, p.d1_layout, p.ldd1, p.stride_d1, p.d1_type);
    return g;
}

namespace {

/// splitmix64: a fast, well-mixed stream; inputs need variety, not cryptographic quality.
struct random_stream
{
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z               = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
};

/// A nonzero multiple of 1/8 in [-2, 2].
float random_eighths(std::uint64_t r)
{
    const int k = static_cast<int>(r % 32) + 1; // 1..32
    return static_cast<float>((r >> 8) & 1 ? k : -k) / 8.0f;
}

} // namespace

std::vector<unsigned char> random_elements(cktile_datatype_t t, std::int64_t count,
                                           std::uint64_t seed)
{
    const std::size_t eb = type_bytes(t);
    std::vector<unsigned char> out(static_cast<std::size_t>(count) * eb);
    random_stream rng{seed * 0x2545f4914f6cdd1dull + 1};
    for(std::int64_t i = 0; i < count; ++i)
    {
        const std::uint64_t r = rng.next();
        unsigned char* dst    = &out[static_cast<std::size_t>(i) * eb];
        switch(t)
        {
        case CKTILE_DATATYPE_FP8_E4M3:
        case CKTILE_DATATYPE_FP8_E5M2:
        {
            // Exponent fields for 1/8 .. 2; every mantissa; never a zero, NaN or infinity code.
            const bool e4       = t == CKTILE_DATATYPE_FP8_E4M3;
            const unsigned e    = static_cast<unsigned>((r >> 8) % 5) + (e4 ? 4u : 12u);
            const unsigned sign = (r >> 16) & 1 ? 0x80u : 0u;
            const unsigned m    = static_cast<unsigned>(r & (e4 ? 7u : 3u));
            *dst = static_cast<unsigned char>(sign | (e4 ? (e << 3) | m : (e << 2) | m));
            break;
        }
        case CKTILE_DATATYPE_INT8:
        {
            const int v      = static_cast<int>(r % 8) + 1;
            const auto value = static_cast<std::int8_t>((r >> 8) & 1 ? v : -v);
            std::memcpy(dst, &value, 1);
            break;
        }
        case CKTILE_DATATYPE_INT32:
        {
            const int v              = static_cast<int>(r % 8) + 1;
            const std::int32_t value = (r >> 8) & 1 ? 3 * v : -3 * v;
            std::memcpy(dst, &value, 4);
            break;
        }
        case CKTILE_DATATYPE_FP16:
        {
            const auto h = ck_tile::type_convert<ck_tile::half_t>(random_eighths(r));
            std::memcpy(dst, &h.data, 2);
            break;
        }
        case CKTILE_DATATYPE_BF16:
        {
            const auto h = ck_tile::type_convert<ck_tile::bf16_t>(random_eighths(r));
            std::memcpy(dst, &h.data, 2);
            break;
        }
        case CKTILE_DATATYPE_FP32:
        case CKTILE_DATATYPE_TF32: // a compute type only; never stored
        {
            const float f = random_eighths(r);
            std::memcpy(dst, &f, 4);
            break;
        }
        }
    }
    return out;
}

double decode_element(cktile_datatype_t t, const unsigned char* p)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
    {
        std::uint16_t b;
        std::memcpy(&b, p, 2);
        return ck_tile::type_convert<float>(ck_tile::half_t::from_bits(b));
    }
    case CKTILE_DATATYPE_BF16:
    {
        std::uint16_t b;
        std::memcpy(&b, p, 2);
        return ck_tile::type_convert<float>(ck_tile::bf16_t::from_bits(b));
    }
    case CKTILE_DATATYPE_FP32:
    case CKTILE_DATATYPE_TF32: // a compute type only; never stored
    {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    case CKTILE_DATATYPE_FP8_E4M3:
        return ck_tile::type_convert<float>(ck_tile::fp8_t::from_bits(*p));
    case CKTILE_DATATYPE_FP8_E5M2:
        return ck_tile::type_convert<float>(ck_tile::bf8_t::from_bits(*p));
    case CKTILE_DATATYPE_INT8:
        return static_cast<double>(static_cast<std::int8_t>(*p));
    case CKTILE_DATATYPE_INT32:
    {
        std::int32_t i;
        std::memcpy(&i, p, 4);
        return i;
    }
    }
    return std::nan("");
}

gemm_host_inputs gemm_host_inputs::random(const cktile_gemm_problem_t& p, std::uint64_t seed)
{
    const gemm_geometry g = gemm_geometry::of(p);
    gemm_host_inputs in;
    in.a = random_elements(p.a_type, g.a.span(), seed * 4 + 0);
    in.b = random_elements(p.b_type, g.b.span(), seed * 4 + 1);
    if(g.reads_c)
        in.c = random_elements(p.c_type, g.c.span(), seed * 4 + 2);
    if(g.has_bias)
        in.bias = random_elements(p.d_type, g.bias.span(), seed * 4 + 3);
    if(g.extras >= 1)
        in.d0 = random_elements(p.d0_type, g.d0.span(), seed * 4 + 0x100);
    if(g.extras >= 2)
        in.d1 = random_elements(p.d1_type, g.d1.span(), seed * 4 + 0x101);
    return in;
}

std::string verify_result::summary() const
{
    std::ostringstream s;
    s << (passed ? "pass" : "FAIL") << ": " << checked << " elements"
      << (sampled ? " (sampled rows)" : "");
    if(mismatches)
        s << ", " << mismatches << " outside tolerance";
    if(unwritten)
        s << ", " << unwritten << " never written";
    if(overwritten)
        s << ", " << overwritten << " padding elements written";
    if(!first_problem.empty())
        s << "; first: " << first_problem;
    return s.str();
}

namespace {

bool is_float_output(cktile_datatype_t t)
{
    return t != CKTILE_DATATYPE_INT32 && t != CKTILE_DATATYPE_INT8;
}

bool is_poison(cktile_datatype_t t, const unsigned char* p)
{
    for(std::size_t i = 0; i < type_bytes(t); ++i)
        if(p[i] != poison_byte)
            return false;
    return true;
}

/// Output rounding and activation error, as the kernel tests allow.
double output_tolerance(cktile_datatype_t d, double want, bool activation, bool int_exact)
{
    const double a = std::fabs(want);
    switch(d)
    {
    case CKTILE_DATATYPE_FP16:
        return a * std::ldexp(1.0, -10) + 1e-6 + (activation ? 1e-3 : 0);
    case CKTILE_DATATYPE_BF16:
        return a * std::ldexp(1.0, -7) + 1e-6 + (activation ? 1e-2 : 0);
    case CKTILE_DATATYPE_FP32:
        return a * 1e-6 + 1e-6 + (activation ? 1e-5 * (1 + a) : 0);
    default:
        return activation || !int_exact ? 1.0 : 0.0;
    }
}

/// Rows of one batch to check: all, or first, last and a random sample.
std::vector<std::int64_t> pick_rows(std::int64_t m, std::int64_t want, std::uint64_t seed)
{
    std::vector<std::int64_t> rows;
    if(want >= m)
    {
        rows.resize(static_cast<std::size_t>(m));
        std::iota(rows.begin(), rows.end(), 0);
        return rows;
    }
    std::set<std::int64_t> chosen = {0, m - 1};
    random_stream rng{seed};
    while(static_cast<std::int64_t>(chosen.size()) < want)
        chosen.insert(static_cast<std::int64_t>(rng.next() % static_cast<std::uint64_t>(m)));
    return {chosen.begin(), chosen.end()};
}

} // namespace

gemm_reference::gemm_reference(const cktile_gemm_problem_t& p, const gemm_host_inputs& in,
                               const verify_options& o)
    : p_(p)
{
    const gemm_geometry g = gemm_geometry::of(p);
    // Which batches and rows the reference computes, within its budget of multiply-adds
    // (counted twice: it also sums |a*b| for the accumulation bound) and of stored elements.
    const double macs_per_row = 2.0 * double(p.n) * double(p.k);
    if(macs_per_row * double(p.m) * double(p.batch_count) <= o.max_reference_macs &&
       double(p.m) * double(p.n) * double(p.batch_count) <= double(o.max_reference_elements))
    {
        batches_.resize(static_cast<std::size_t>(p.batch_count));
        std::iota(batches_.begin(), batches_.end(), 0);
    }
    else
    {
        sampled_ = true;
        for(std::int64_t b : {std::int64_t(0), p.batch_count / 2, p.batch_count - 1})
            if(std::find(batches_.begin(), batches_.end(), b) == batches_.end())
                batches_.push_back(b);
    }
    const double nb_batches = double(batches_.size());
    const auto rows_wanted  = std::max<std::int64_t>(
        2, static_cast<std::int64_t>(
               std::min(o.max_reference_macs / (macs_per_row * nb_batches),
                         double(o.max_reference_elements) / (double(p.n) * nb_batches))));
    if(rows_wanted < p.m)
        sampled_ = true;

    const bool activation = p.activation != CKTILE_ACTIVATION_NONE;
    const bool int_exact  = std::floor(p.alpha) == p.alpha && std::floor(p.beta) == p.beta;
    const bool fp8_in =
        p.a_type == CKTILE_DATATYPE_FP8_E4M3 || p.a_type == CKTILE_DATATYPE_FP8_E5M2 ||
        p.b_type == CKTILE_DATATYPE_FP8_E4M3 || p.b_type == CKTILE_DATATYPE_FP8_E5M2;
    const bool float_acc =
        p.compute_type == CKTILE_DATATYPE_FP32 || p.compute_type == CKTILE_DATATYPE_TF32;
    const std::int64_t column_block = 256;
    auto el = [](const std::vector<unsigned char>& v, const matrix_geometry& m, cktile_datatype_t t,
                 std::int64_t b, std::int64_t i, std::int64_t j) {
        const std::int64_t off = b * m.stride + i * m.row_step() + j * m.col_step();
        return decode_element(t, &v[static_cast<std::size_t>(off) * m.element_bytes]);
    };

    for(std::int64_t bi : batches_)
    {
        rows_.push_back(
            pick_rows(p.m, rows_wanted, o.seed * 1000003u + static_cast<std::uint64_t>(bi)));
        const std::vector<std::int64_t>& rows = rows_.back();
        const auto ms                         = static_cast<std::int64_t>(rows.size());
        const std::size_t base                = want_.size();
        want_.resize(base + static_cast<std::size_t>(ms * p.n));
        tol_.resize(want_.size());
        // The compared rows of A, compact and row-major, and their magnitudes.
        std::vector<double> a(static_cast<std::size_t>(ms * p.k)), a_abs(a.size());
        for(std::int64_t r = 0; r < ms; ++r)
            for(std::int64_t kk = 0; kk < p.k; ++kk)
            {
                const std::size_t at = static_cast<std::size_t>(r * p.k + kk);
                a[at]                = el(in.a, g.a, p.a_type, bi, rows[r], kk);
                a_abs[at]            = std::fabs(a[at]);
            }
        for(std::int64_t j0 = 0; j0 < p.n; j0 += column_block)
        {
            const std::int64_t nb = std::min(column_block, p.n - j0);
            // B's columns j0.. as a column-major K x nb block: the reference's inner loop
            // over K then reads contiguous memory.
            std::vector<double> b(static_cast<std::size_t>(p.k * nb)), b_abs(b.size());
            for(std::int64_t j = 0; j < nb; ++j)
                for(std::int64_t kk = 0; kk < p.k; ++kk)
                {
                    const std::size_t at = static_cast<std::size_t>(j * p.k + kk);
                    b[at]                = el(in.b, g.b, p.b_type, bi, kk, j0 + j);
                    b_abs[at]            = std::fabs(b[at]);
                }
            std::vector<double> c(static_cast<std::size_t>(ms * nb), 0.0), bias;
            if(g.reads_c)
                for(std::int64_t r = 0; r < ms; ++r)
                    for(std::int64_t j = 0; j < nb; ++j)
                        c[static_cast<std::size_t>(r * nb + j)] =
                            el(in.c, g.c, p.c_type, bi, rows[r], j0 + j);
            if(p.bias == CKTILE_BIAS_PER_ROW)
                for(std::int64_t r = 0; r < ms; ++r)
                    bias.push_back(el(in.bias, g.bias, p.d_type, bi, 0, rows[r]));
            else if(p.bias == CKTILE_BIAS_PER_COLUMN)
                for(std::int64_t j = 0; j < nb; ++j)
                    bias.push_back(el(in.bias, g.bias, p.d_type, bi, 0, j0 + j));

            // The extra inputs of these rows and columns, compact and row-major.
            std::vector<double> x0, x1;
            auto extra = [&](std::vector<double>& x, const std::vector<unsigned char>& v,
                             const matrix_geometry& m, cktile_datatype_t t) {
                x.resize(static_cast<std::size_t>(ms * nb));
                for(std::int64_t r = 0; r < ms; ++r)
                    for(std::int64_t j = 0; j < nb; ++j)
                        x[static_cast<std::size_t>(r * nb + j)] = el(v, m, t, bi, rows[r], j0 + j);
            };
            if(g.extras >= 1)
                extra(x0, in.d0, g.d0, p.d0_type);
            if(g.extras >= 2)
                extra(x1, in.d1, g.d1, p.d1_type);

            ck_tile::reference_gemm_desc rd;
            rd.m = ms, rd.n = nb, rd.k = p.k, rd.batch = 1;
            rd.a_row = p.k, rd.a_col = 1, rd.b_row = 1, rd.b_col = p.k;
            rd.c_row = nb, rd.c_col = 1, rd.d_row = nb, rd.d_col = 1;
            rd.alpha = p.alpha, rd.beta = p.beta;
            rd.bias_kind                 = static_cast<ck_tile::gemm_bias>(p.bias);
            rd.activation                = static_cast<ck_tile::gemm_activation>(p.activation);
            rd.multi_d_op                = static_cast<ck_tile::gemm_multi_d_op>(p.multi_d_op);
            rd.multi_d_before_activation = p.multi_d_point == CKTILE_MULTI_D_BEFORE_ACTIVATION;
            rd.d0 = x0.data(), rd.d0_row = nb, rd.d0_col = 1;
            rd.d1 = x1.data(), rd.d1_row = nb, rd.d1_col = 1;
            std::vector<double> want(static_cast<std::size_t>(ms * nb)), mag(want.size());
            ck_tile::reference_gemm(rd, a.data(), b.data(), c.data(), bias.data(), want.data(),
                                    o.threads);
            ck_tile::reference_gemm_desc rm = rd;
            rm.multi_d_op                   = ck_tile::gemm_multi_d_op::none;
            rm.alpha = std::fabs(p.alpha), rm.beta = 0.0;
            rm.bias_kind  = ck_tile::gemm_bias::none;
            rm.activation = ck_tile::gemm_activation::none;
            ck_tile::reference_gemm(rm, a_abs.data(), b_abs.data(), nullptr, nullptr, mag.data(),
                                    o.threads);

            for(std::int64_t r = 0; r < ms; ++r)
                for(std::int64_t j = 0; j < nb; ++j)
                {
                    const std::size_t at = static_cast<std::size_t>(r * nb + j);
                    double w             = want[at];
                    if(p.d_type == CKTILE_DATATYPE_INT32)
                        w = ck_tile::convert_output<std::int32_t>(w);
                    if(p.d_type == CKTILE_DATATYPE_INT8) // the epilogue works in fp32 here
                        w = ck_tile::convert_output<std::int8_t>(static_cast<float>(w));
                    // fp32 accumulation in any order errs by at most K u sum|a b| (u = 2^-24);
                    // the epilogue's fp32 arithmetic adds a few u of the values it combines.
                    double tol = output_tolerance(p.d_type, w, activation, int_exact);
                    if(float_acc)
                        tol += 1.1 * (double(p.k) * std::ldexp(1.0, -24) * mag[at]) +
                               std::ldexp(1.0, -21) * (mag[at] + std::fabs(w));
                    // Hopper's tensor cores add fp8 products in steps of about 13 bits before
                    // the fp32 accumulator: up to 2^-12.4 of sum |a b| measured (H200, 2048 x
                    // 2048 x 1024, every layout alike).
                    if(fp8_in)
                        tol += std::ldexp(1.0, -11) * mag[at];
                    const std::size_t out = base + static_cast<std::size_t>(r * p.n + j0 + j);
                    want_[out]            = w;
                    tol_[out]             = tol;
                }
        }
    }
}

verify_result gemm_reference::check(const std::vector<unsigned char>& d) const
{
    const cktile_gemm_problem_t& p = p_;
    const gemm_geometry g          = gemm_geometry::of(p);
    const std::size_t db           = g.d.element_bytes;
    verify_result r;
    r.sampled = sampled_;
    if(d.size() < g.d.bytes())
    {
        r.first_problem = "D holds " + std::to_string(d.size()) + " bytes, expected " +
                          std::to_string(g.d.bytes());
        return r;
    }
    std::size_t at = 0;
    for(std::size_t bx = 0; bx < batches_.size(); ++bx)
        for(std::int64_t row : rows_[bx])
            for(std::int64_t j = 0; j < p.n; ++j, ++at)
            {
                const std::int64_t off =
                    batches_[bx] * g.d.stride + row * g.d.row_step() + j * g.d.col_step();
                const double have =
                    decode_element(p.d_type, &d[static_cast<std::size_t>(off) * db]);
                const double err = std::fabs(have - want_[at]);
                ++r.checked;
                if(tol_[at] > 0)
                    r.max_error_over_tol = std::max(r.max_error_over_tol, err / tol_[at]);
                if(err <= tol_[at])
                    continue;
                if(std::isnan(err) || tol_[at] == 0)
                    r.max_error_over_tol = std::numeric_limits<double>::infinity();
                if(r.mismatches++ == 0)
                {
                    std::ostringstream s;
                    s << "D[" << batches_[bx] << "](" << row << ", " << j << ") = " << have
                      << ", expected " << want_[at] << " (tolerance " << tol_[at] << ")";
                    r.first_problem = s.str();
                }
            }

    // Every element of D: inside the problem it must have been written (floats: no longer
    // the NaN poison); between rows and batches (padding) it must still be poison.
    const std::int64_t span  = g.d.span();
    const std::int64_t outer = g.d.row_major ? p.m : p.n, inner = g.d.row_major ? p.n : p.m;
    const bool batched = p.batch_count > 1 && g.d.stride > 0;
    for(std::int64_t off = 0; off < span; ++off)
    {
        const std::int64_t bi  = batched ? off / g.d.stride : 0;
        const std::int64_t rel = off - bi * (batched ? g.d.stride : 0);
        const bool inside      = bi < p.batch_count && rel / g.d.ld < outer && rel % g.d.ld < inner;
        const bool poison      = is_poison(p.d_type, &d[static_cast<std::size_t>(off) * db]);
        if(inside && poison && is_float_output(p.d_type))
        {
            if(r.unwritten++ == 0 && r.first_problem.empty())
                r.first_problem = "D element " + std::to_string(off) + " was never written";
        }
        else if(!inside && !poison)
        {
            if(r.overwritten++ == 0 && r.first_problem.empty())
                r.first_problem = "padding element " + std::to_string(off) + " of D was written";
        }
    }
    r.passed = r.checked > 0 && r.mismatches == 0 && r.unwritten == 0 && r.overwritten == 0;
    return r;
}

verify_result verify_gemm(const cktile_gemm_problem_t& p, const gemm_host_inputs& in,
                          const std::vector<unsigned char>& d, const verify_options& o)
{
    return gemm_reference(p, in, o).check(d);
}

} // namespace cktile_profiler
