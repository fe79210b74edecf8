// SPDX-License-Identifier: MIT
#include "gemm_sweep.hpp"

#include "sweep.hpp"

#include "ck_tile/ops/gemm/gemm_multi_d.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace cktile_profiler {

namespace {

// Accepted spellings, grouped by value; the first of each group is the one printed.
const std::vector<word>& type_words()
{
    static const std::vector<word> w = {
        {"f16", CKTILE_DATATYPE_FP16},          {"fp16", CKTILE_DATATYPE_FP16},
        {"half", CKTILE_DATATYPE_FP16},         {"bf16", CKTILE_DATATYPE_BF16},
        {"f32", CKTILE_DATATYPE_FP32},          {"fp32", CKTILE_DATATYPE_FP32},
        {"float", CKTILE_DATATYPE_FP32},        {"e4m3", CKTILE_DATATYPE_FP8_E4M3},
        {"fp8_e4m3", CKTILE_DATATYPE_FP8_E4M3}, {"f8_e4m3", CKTILE_DATATYPE_FP8_E4M3},
        {"e5m2", CKTILE_DATATYPE_FP8_E5M2},     {"fp8_e5m2", CKTILE_DATATYPE_FP8_E5M2},
        {"f8_e5m2", CKTILE_DATATYPE_FP8_E5M2},  {"i8", CKTILE_DATATYPE_INT8},
        {"int8", CKTILE_DATATYPE_INT8},         {"s8", CKTILE_DATATYPE_INT8},
        {"i32", CKTILE_DATATYPE_INT32},         {"int32", CKTILE_DATATYPE_INT32},
        {"s32", CKTILE_DATATYPE_INT32},         {"tf32", CKTILE_DATATYPE_TF32}};
    return w;
}

const std::vector<word>& layout_words()
{
    static const std::vector<word> w = {
        {"row", CKTILE_LAYOUT_ROW_MAJOR},       {"r", CKTILE_LAYOUT_ROW_MAJOR},
        {"row_major", CKTILE_LAYOUT_ROW_MAJOR}, {"col", CKTILE_LAYOUT_COL_MAJOR},
        {"c", CKTILE_LAYOUT_COL_MAJOR},         {"column", CKTILE_LAYOUT_COL_MAJOR},
        {"col_major", CKTILE_LAYOUT_COL_MAJOR}};
    return w;
}

const std::vector<word>& bias_words()
{
    static const std::vector<word> w = {
        {"none", CKTILE_BIAS_NONE},         {"row", CKTILE_BIAS_PER_ROW},
        {"per_row", CKTILE_BIAS_PER_ROW},   {"col", CKTILE_BIAS_PER_COLUMN},
        {"column", CKTILE_BIAS_PER_COLUMN}, {"per_column", CKTILE_BIAS_PER_COLUMN}};
    return w;
}

const std::vector<word>& activation_words()
{
    static const std::vector<word> w = {
        {"none", CKTILE_ACTIVATION_NONE},           {"relu", CKTILE_ACTIVATION_RELU},
        {"gelu_tanh", CKTILE_ACTIVATION_GELU_TANH}, {"gelu", CKTILE_ACTIVATION_GELU_TANH},
        {"gelu_erf", CKTILE_ACTIVATION_GELU_ERF},   {"silu", CKTILE_ACTIVATION_SILU},
        {"swish", CKTILE_ACTIVATION_SILU}};
    return w;
}

const std::vector<word>& multi_d_words()
{
    static const std::vector<word> w = {
        {"none", CKTILE_MULTI_D_NONE},       {"add", CKTILE_MULTI_D_ADD},
        {"mul", CKTILE_MULTI_D_MUL},         {"multiply", CKTILE_MULTI_D_MUL},
        {"add_mul", CKTILE_MULTI_D_ADD_MUL}, {"mul_add", CKTILE_MULTI_D_MUL_ADD}};
    return w;
}

const std::vector<word>& multi_d_point_words()
{
    static const std::vector<word> w = {{"after", CKTILE_MULTI_D_AFTER_ACTIVATION},
                                        {"after_activation", CKTILE_MULTI_D_AFTER_ACTIVATION},
                                        {"before", CKTILE_MULTI_D_BEFORE_ACTIVATION},
                                        {"before_activation", CKTILE_MULTI_D_BEFORE_ACTIVATION}};
    return w;
}

const char* first_spelling(const std::vector<word>& words, int value)
{
    for(const word& w : words)
        if(w.value == value)
            return w.spelling.c_str();
    return "?";
}

enum class value_kind
{
    integer,
    real,
    datatype,
    layout,
    bias,
    activation,
    multi_d,
    multi_d_point
};

value_kind kind_of(const std::string& option)
{
    if(option.rfind("type-", 0) == 0)
        return value_kind::datatype;
    if(option.rfind("layout-", 0) == 0)
        return value_kind::layout;
    if(option == "alpha" || option == "beta")
        return value_kind::real;
    if(option == "bias")
        return value_kind::bias;
    if(option == "activation")
        return value_kind::activation;
    if(option == "multi-d")
        return value_kind::multi_d;
    if(option == "multi-d-point")
        return value_kind::multi_d_point;
    return value_kind::integer;
}

bool is_int8(cktile_datatype_t t) { return t == CKTILE_DATATYPE_INT8; }
bool is_fp8(cktile_datatype_t t)
{
    return t == CKTILE_DATATYPE_FP8_E4M3 || t == CKTILE_DATATYPE_FP8_E5M2;
}

// The derivations make_gemm_problem applies; gemm_problem_options compares against them.
cktile_datatype_t derived_d_type(cktile_datatype_t a)
{
    return is_int8(a) ? CKTILE_DATATYPE_INT32 : is_fp8(a) ? CKTILE_DATATYPE_FP16 : a;
}
cktile_datatype_t derived_compute_type(cktile_datatype_t a)
{
    return is_int8(a) ? CKTILE_DATATYPE_INT32 : CKTILE_DATATYPE_FP32;
}
std::int64_t tight_ld(std::int64_t rows, std::int64_t cols, cktile_layout_t l)
{
    return l == CKTILE_LAYOUT_ROW_MAJOR ? cols : rows;
}
std::int64_t packed_stride(std::int64_t rows, std::int64_t cols, cktile_layout_t l, std::int64_t ld,
                           std::int64_t batch)
{
    return batch > 1 ? ld * (l == CKTILE_LAYOUT_ROW_MAJOR ? rows : cols) : 0;
}
std::int64_t derived_bias_stride(const cktile_gemm_problem_t& p)
{
    if(p.batch_count <= 1 || p.bias == CKTILE_BIAS_NONE)
        return 0;
    return p.bias == CKTILE_BIAS_PER_ROW ? p.m : p.n;
}

} // namespace

const char* type_name(cktile_datatype_t t) { return first_spelling(type_words(), t); }
const char* layout_name(cktile_layout_t l) { return first_spelling(layout_words(), l); }
const char* bias_name(cktile_bias_t b) { return first_spelling(bias_words(), b); }
const char* activation_name(cktile_activation_t a) { return first_spelling(activation_words(), a); }
const char* multi_d_name(cktile_multi_d_op_t op) { return first_spelling(multi_d_words(), op); }
const char* multi_d_point_name(cktile_multi_d_point_t point)
{
    return first_spelling(multi_d_point_words(), point);
}
int multi_d_inputs(cktile_multi_d_op_t op)
{
    return ck_tile::multi_d_inputs(static_cast<ck_tile::gemm_multi_d_op>(op));
}

std::size_t type_bytes(cktile_datatype_t t)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
    case CKTILE_DATATYPE_BF16:
        return 2;
    case CKTILE_DATATYPE_FP32:
    case CKTILE_DATATYPE_INT32:
    case CKTILE_DATATYPE_TF32: // a compute type; counted as the fp32 it computes on
        return 4;
    case CKTILE_DATATYPE_FP8_E4M3:
    case CKTILE_DATATYPE_FP8_E5M2:
    case CKTILE_DATATYPE_INT8:
        return 1;
    }
    return 0;
}

gemm_sweep::gemm_sweep(const command_line& cl)
{
    for(const option_spec& s : gemm_options())
    {
        if(s.group != option_group::problem || !cl.has(s.name))
            continue;
        const std::string& text = cl.values.at(s.name);
        axis a;
        a.option = s.name;
        switch(kind_of(s.name))
        {
        case value_kind::integer:
            a.ints = parse_int_list(text, s.name);
            break;
        case value_kind::real:
            a.real  = true;
            a.reals = parse_real_list(text, s.name);
            break;
        case value_kind::datatype:
        case value_kind::layout:
        case value_kind::bias:
        case value_kind::activation:
        case value_kind::multi_d:
        case value_kind::multi_d_point:
        {
            const value_kind k = kind_of(s.name);
            const auto& words  = k == value_kind::datatype        ? type_words()
                                 : k == value_kind::layout        ? layout_words()
                                 : k == value_kind::bias          ? bias_words()
                                 : k == value_kind::multi_d       ? multi_d_words()
                                 : k == value_kind::multi_d_point ? multi_d_point_words()
                                                                  : activation_words();
            for(int v : parse_word_list(text, s.name, words))
                a.ints.push_back(v);
            break;
        }
        }
        axes_.push_back(std::move(a));
    }
    (void)size(); // rejects sweeps too large to run, now rather than later
}

std::size_t gemm_sweep::size() const
{
    std::vector<std::size_t> sizes;
    for(const axis& a : axes_)
        sizes.push_back(a.size());
    return cartesian_product(sizes).size();
}

gemm_point gemm_sweep::point(std::size_t i) const
{
    std::vector<std::size_t> sizes;
    for(const axis& a : axes_)
        sizes.push_back(a.size());
    const std::vector<std::size_t> idx = cartesian_product(sizes).indices(i);
    gemm_point p;
    for(std::size_t a = 0; a < axes_.size(); ++a)
    {
        if(axes_[a].real)
            p.reals[axes_[a].option] = axes_[a].reals[idx[a]];
        else
            p.ints[axes_[a].option] = axes_[a].ints[idx[a]];
    }
    return p;
}

std::vector<std::string> gemm_sweep::swept_options() const
{
    std::vector<std::string> out;
    for(const axis& a : axes_)
        if(a.size() > 1)
            out.push_back(a.option);
    return out;
}

cktile_gemm_problem_t make_gemm_problem(const gemm_point& pt, const gemm_defaults& d)
{
    auto get = [&](const char* name, std::int64_t fallback) {
        const auto it = pt.ints.find(name);
        return it == pt.ints.end() ? fallback : it->second;
    };
    auto real = [&](const char* name, double fallback) {
        const auto it = pt.reals.find(name);
        return it == pt.reals.end() ? fallback : it->second;
    };
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m           = get("m", d.m);
    p.n           = get("n", d.n);
    p.k           = get("k", d.k);
    p.batch_count = get("batch", 1);

    p.a_type = static_cast<cktile_datatype_t>(get("type-a", CKTILE_DATATYPE_FP16));
    p.b_type = static_cast<cktile_datatype_t>(get("type-b", p.a_type));
    p.d_type = static_cast<cktile_datatype_t>(get("type-d", derived_d_type(p.a_type)));
    p.c_type = static_cast<cktile_datatype_t>(get("type-c", p.d_type));
    p.compute_type =
        static_cast<cktile_datatype_t>(get("type-compute", derived_compute_type(p.a_type)));

    p.a_layout = static_cast<cktile_layout_t>(get("layout-a", CKTILE_LAYOUT_ROW_MAJOR));
    p.b_layout = static_cast<cktile_layout_t>(get("layout-b", CKTILE_LAYOUT_COL_MAJOR));
    p.d_layout = static_cast<cktile_layout_t>(get("layout-d", CKTILE_LAYOUT_ROW_MAJOR));
    p.c_layout = static_cast<cktile_layout_t>(get("layout-c", p.d_layout));

    p.lda                = get("lda", tight_ld(p.m, p.k, p.a_layout));
    p.ldb                = get("ldb", tight_ld(p.k, p.n, p.b_layout));
    p.ldc                = get("ldc", tight_ld(p.m, p.n, p.c_layout));
    p.ldd                = get("ldd", tight_ld(p.m, p.n, p.d_layout));
    const std::int64_t b = p.batch_count;
    p.stride_a           = get("stride-a", packed_stride(p.m, p.k, p.a_layout, p.lda, b));
    p.stride_b           = get("stride-b", packed_stride(p.k, p.n, p.b_layout, p.ldb, b));
    p.stride_c           = get("stride-c", packed_stride(p.m, p.n, p.c_layout, p.ldc, b));
    p.stride_d           = get("stride-d", packed_stride(p.m, p.n, p.d_layout, p.ldd, b));

    p.alpha       = real("alpha", 1.0);
    p.beta        = real("beta", 0.0);
    p.bias        = static_cast<cktile_bias_t>(get("bias", CKTILE_BIAS_NONE));
    p.activation  = static_cast<cktile_activation_t>(get("activation", CKTILE_ACTIVATION_NONE));
    p.stride_bias = get("stride-bias", derived_bias_stride(p));

    // Extra inputs: D's type and layout, tight and packed, unless given.
    p.multi_d_op = static_cast<cktile_multi_d_op_t>(get("multi-d", CKTILE_MULTI_D_NONE));
    p.multi_d_point =
        static_cast<cktile_multi_d_point_t>(get("multi-d-point", CKTILE_MULTI_D_AFTER_ACTIVATION));
    p.d0_type   = static_cast<cktile_datatype_t>(get("type-d0", p.d_type));
    p.d1_type   = static_cast<cktile_datatype_t>(get("type-d1", p.d_type));
    p.d0_layout = static_cast<cktile_layout_t>(get("layout-d0", p.d_layout));
    p.d1_layout = static_cast<cktile_layout_t>(get("layout-d1", p.d_layout));
    p.ldd0      = get("ldd0", tight_ld(p.m, p.n, p.d0_layout));
    p.ldd1      = get("ldd1", tight_ld(p.m, p.n, p.d1_layout));
    p.stride_d0 = get("stride-d0", packed_stride(p.m, p.n, p.d0_layout, p.ldd0, b));
    p.stride_d1 = get("stride-d1", packed_stride(p.m, p.n, p.d1_layout, p.ldd1, b));
    return p;
}

std::string real_text(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, r.ptr);
}

std::string gemm_problem_options(const cktile_gemm_problem_t& p)
{
    std::ostringstream s;
    auto opt = [&](const char* name, const std::string& value) {
        s << " --" << name << "=" << value;
    };
    auto num = [&](const char* name, std::int64_t v, std::int64_t derived, bool always = false) {
        if(always || v != derived)
            opt(name, std::to_string(v));
    };
    num("m", p.m, 0, true);
    num("n", p.n, 0, true);
    num("k", p.k, 0, true);
    num("batch", p.batch_count, 1);
    opt("type-a", type_name(p.a_type));
    opt("type-b", type_name(p.b_type));
    if(p.c_type != p.d_type)
        opt("type-c", type_name(p.c_type));
    opt("type-d", type_name(p.d_type));
    if(p.compute_type != derived_compute_type(p.a_type))
        opt("type-compute", type_name(p.compute_type));
    opt("layout-a", layout_name(p.a_layout));
    opt("layout-b", layout_name(p.b_layout));
    if(p.c_layout != p.d_layout)
        opt("layout-c", layout_name(p.c_layout));
    opt("layout-d", layout_name(p.d_layout));
    num("lda", p.lda, tight_ld(p.m, p.k, p.a_layout));
    num("ldb", p.ldb, tight_ld(p.k, p.n, p.b_layout));
    num("ldc", p.ldc, tight_ld(p.m, p.n, p.c_layout));
    num("ldd", p.ldd, tight_ld(p.m, p.n, p.d_layout));
    const std::int64_t b = p.batch_count;
    num("stride-a", p.stride_a, packed_stride(p.m, p.k, p.a_layout, p.lda, b));
    num("stride-b", p.stride_b, packed_stride(p.k, p.n, p.b_layout, p.ldb, b));
    num("stride-c", p.stride_c, packed_stride(p.m, p.n, p.c_layout, p.ldc, b));
    num("stride-d", p.stride_d, packed_stride(p.m, p.n, p.d_layout, p.ldd, b));
    if(p.alpha != 1.0)
        opt("alpha", real_text(p.alpha));
    if(p.beta != 0.0)
        opt("beta", real_text(p.beta));
    if(p.bias != CKTILE_BIAS_NONE)
        opt("bias", bias_name(p.bias));
    if(p.activation != CKTILE_ACTIVATION_NONE)
        opt("activation", activation_name(p.activation));
    num("stride-bias", p.stride_bias, derived_bias_stride(p));
    const int extras = multi_d_inputs(p.multi_d_op);
    if(extras > 0)
    {
        opt("multi-d", multi_d_name(p.multi_d_op));
        if(p.multi_d_point != CKTILE_MULTI_D_AFTER_ACTIVATION)
            opt("multi-d-point", multi_d_point_name(p.multi_d_point));
    }
    struct extra
    {
        const char *type, *layout, *ld, *stride;
        cktile_datatype_t t;
        cktile_layout_t l;
        std::int64_t ldx, stridex;
    };
    const extra xs[] = {
        {"type-d0", "layout-d0", "ldd0", "stride-d0", p.d0_type, p.d0_layout, p.ldd0, p.stride_d0},
        {"type-d1", "layout-d1", "ldd1", "stride-d1", p.d1_type, p.d1_layout, p.ldd1, p.stride_d1}};
    for(int i = 0; i < extras; ++i)
    {
        const extra& x = xs[i];
        if(x.t != p.d_type)
            opt(x.type, type_name(x.t));
        if(x.l != p.d_layout)
            opt(x.layout, layout_name(x.l));
        num(x.ld, x.ldx, tight_ld(p.m, p.n, x.l));
        num(x.stride, x.stridex, packed_stride(p.m, p.n, x.l, x.ldx, b));
    }
    return s.str();
}

std::string shape_text(const cktile_gemm_problem_t& p)
{
    std::string s = std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
    if(p.batch_count != 1)
        s += "x" + std::to_string(p.batch_count);
    return s;
}

std::string types_text(const cktile_gemm_problem_t& p)
{
    return std::string(type_name(p.a_type)) + "*" + type_name(p.b_type) + "->" +
           type_name(p.d_type);
}

std::string layouts_text(const cktile_gemm_problem_t& p)
{
    std::string s;
    for(cktile_layout_t l : {p.a_layout, p.b_layout, p.c_layout, p.d_layout})
        s += l == CKTILE_LAYOUT_ROW_MAJOR ? 'r' : 'c';
    return s;
}

std::string epilogue_text(const cktile_gemm_problem_t& p)
{
    std::string s;
    auto add = [&](const std::string& part) { s += (s.empty() ? "" : ",") + part; };
    if(p.alpha != 1.0)
        add("alpha=" + real_text(p.alpha));
    if(p.beta != 0.0)
        add("beta=" + real_text(p.beta));
    if(p.bias != CKTILE_BIAS_NONE)
        add(std::string("bias=") + bias_name(p.bias));
    if(p.activation != CKTILE_ACTIVATION_NONE)
        add(activation_name(p.activation));
    if(p.multi_d_op != CKTILE_MULTI_D_NONE)
        add(std::string("multi_d=") + multi_d_name(p.multi_d_op) +
            (p.multi_d_point == CKTILE_MULTI_D_BEFORE_ACTIVATION ? "@before" : ""));
    return s.empty() ? "-" : s;
}

double gemm_flops(const cktile_gemm_problem_t& p)
{
    return 2.0 * double(p.m) * double(p.n) * double(p.k) * double(p.batch_count);
}

double gemm_min_bytes(const cktile_gemm_problem_t& p)
{
    auto matrix = [&](std::int64_t rows, std::int64_t cols, std::int64_t stride,
                      cktile_datatype_t t) {
        const double batches = (p.batch_count > 1 && stride == 0) ? 1.0 : double(p.batch_count);
        return double(rows) * double(cols) * batches * double(type_bytes(t));
    };
    double bytes = matrix(p.m, p.k, p.stride_a, p.a_type) + matrix(p.k, p.n, p.stride_b, p.b_type) +
                   matrix(p.m, p.n, 1, p.d_type);
    if(p.beta != 0.0)
        bytes += matrix(p.m, p.n, p.stride_c, p.c_type);
    if(p.bias != CKTILE_BIAS_NONE)
        bytes += matrix(p.bias == CKTILE_BIAS_PER_ROW ? p.m : p.n, 1, p.stride_bias, p.d_type);
    const int extras = multi_d_inputs(p.multi_d_op);
    if(extras >= 1)
        bytes += matrix(p.m, p.n, p.stride_d0, p.d0_type);
    if(extras >= 2)
        bytes += matrix(p.m, p.n, p.stride_d1, p.d1_type);
    return bytes;
}

} // namespace cktile_profiler
