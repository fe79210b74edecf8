// SPDX-License-Identifier: MIT
#include "rowwise_problem.hpp"

#include "api_error.hpp"
#include "gemm_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

namespace cktile::detail {

namespace {

[[noreturn]] void bad(const std::string& what) { fail(CKTILE_STATUS_INVALID_ARGUMENT, what); }

__extension__ typedef __int128 i128;
constexpr i128 int64_max = std::numeric_limits<std::int64_t>::max();

/// A known data type that row-wise ops can store (fp16, bf16, fp32).
void check_float_type(const cktile_datatype_t& t, const char* field)
{
    const int v = raw_enum(t);
    if(v < CKTILE_DATATYPE_FP16 || v > CKTILE_DATATYPE_INT32)
        bad(std::string("problem->") + field + " = " + std::to_string(v) +
            " is not a cktile_datatype_t");
    if(t != CKTILE_DATATYPE_FP16 && t != CKTILE_DATATYPE_BF16 && t != CKTILE_DATATYPE_FP32)
        fail(CKTILE_STATUS_NOT_SUPPORTED, std::string("problem->") + field + " = " +
                                              datatype_name(t) + ": row-wise operations read " +
                                              "and write fp16, bf16 or fp32");
}

void check_compute(const cktile_datatype_t& t)
{
    const int v = raw_enum(t);
    if(v != CKTILE_DATATYPE_FP32)
        fail(v < CKTILE_DATATYPE_FP16 || v > CKTILE_DATATYPE_INT32 ? CKTILE_STATUS_INVALID_ARGUMENT
                                                                   : CKTILE_STATUS_NOT_SUPPORTED,
             "problem->compute_type = " + std::to_string(v) +
                 ": row-wise operations compute in fp32 (CKTILE_DATATYPE_FP32)");
}

void check_shape(std::int64_t rows, std::int64_t cols)
{
    if(rows < 1)
        bad("problem->rows = " + std::to_string(rows) + " must be at least 1");
    if(cols < 1)
        bad("problem->cols = " + std::to_string(cols) + " must be at least 1");
    if(cols > 0x7fffffff)
        bad("problem->cols = " + std::to_string(cols) + " exceeds 2^31 - 1 elements per row");
}

/// A stride that covers a row, and an index space that fits in int64 bytes.
void check_rows(const char* field, const char* tensor, std::int64_t rows, std::int64_t cols,
                std::int64_t stride, std::size_t bytes)
{
    if(stride < cols)
        bad(std::string("problem->") + field + " = " + std::to_string(stride) +
            " is smaller than the row length cols = " + std::to_string(cols) + " of " + tensor);
    if((i128(rows - 1) * stride + cols) * i128(bytes) > int64_max)
        bad(std::string("the index space of ") + tensor + " (rows x " + field +
            ") overflows 64 bits");
}

struct span
{
    const char* name;
    const void* ptr;
    std::int64_t stride;   // elements between rows (0 for vectors)
    std::size_t elem;      // bytes per element
    std::uintptr_t lo, hi; // bytes [lo, hi)
};

span make_span(const char* name, const void* p, std::int64_t rows, std::int64_t cols,
               std::int64_t stride, std::size_t elem)
{
    const auto lo = reinterpret_cast<std::uintptr_t>(p);
    return {name,
            p,
            stride,
            elem,
            lo,
            lo + static_cast<std::uintptr_t>(((rows - 1) * stride + cols) * std::int64_t(elem))};
}

void check_pointer(const void* p, const char* name, std::size_t elem)
{
    if(!p)
        bad(std::string("args->") + name + " is NULL");
    if(reinterpret_cast<std::uintptr_t>(p) % elem != 0)
        bad(std::string("args->") + name + " is not aligned to its element size (" +
            std::to_string(elem) + " bytes)");
}

void check_absent(const void* p, const char* name, const char* because)
{
    if(p)
        bad(std::string("args->") + name + " is set but " + because);
}

/// Every output must not overlap any other tensor, except an allowed exact alias (same
/// pointer, stride and element size).
void check_overlaps(const std::vector<span>& outputs, const std::vector<span>& all,
                    bool (*allowed)(const char* out, const char* other))
{
    for(const auto& o : outputs)
        for(const auto& t : all)
        {
            if(std::string(o.name) == t.name || o.lo >= t.hi || t.lo >= o.hi)
                continue;
            const bool same = o.ptr == t.ptr && o.stride == t.stride && o.elem == t.elem;
            if(same && allowed(o.name, t.name))
                continue;
            bad(std::string("args->") + o.name + " overlaps args->" + t.name +
                (allowed(o.name, t.name)
                     ? " (it may only be the very same tensor: same pointer and stride)"
                     : " (an output may not share memory with it)"));
        }
}

} // namespace

void validate_norm_problem(const cktile_norm_problem_t* p)
{
    require_struct(p, "problem", true);
    const int kind = raw_enum(p->kind);
    if(kind != CKTILE_NORM_RMSNORM && kind != CKTILE_NORM_LAYERNORM)
        bad("problem->kind = " + std::to_string(kind) + " is not a cktile_norm_kind_t");
    check_float_type(p->x_type, "x_type");
    check_float_type(p->y_type, "y_type");
    check_float_type(p->weight_type, "weight_type");
    check_compute(p->compute_type);
    check_shape(p->rows, p->cols);
    if(!std::isfinite(p->epsilon))
        bad("problem->epsilon is not finite");
    if(p->epsilon < 0)
        bad("problem->epsilon = " + std::to_string(p->epsilon) + " is negative");
    check_rows("x_stride", "x", p->rows, p->cols, p->x_stride, datatype_bytes(p->x_type));
    check_rows("y_stride", "y", p->rows, p->cols, p->y_stride, datatype_bytes(p->y_type));
    if(p->fused_residual)
    {
        check_rows("residual_stride", "residual", p->rows, p->cols, p->residual_stride,
                   datatype_bytes(p->x_type));
        check_rows("residual_out_stride", "residual_out", p->rows, p->cols, p->residual_out_stride,
                   datatype_bytes(p->x_type));
    }
}

void validate_norm_args(const cktile_norm_problem_t& p, const cktile_norm_args_t* a)
{
    require_struct(a, "args", true);
    const std::size_t xb = datatype_bytes(p.x_type), yb = datatype_bytes(p.y_type),
                      wb = datatype_bytes(p.weight_type);
    check_pointer(a->x, "x", xb);
    check_pointer(a->weight, "weight", wb);
    check_pointer(a->y, "y", yb);
    if(p.fused_residual)
    {
        check_pointer(a->residual, "residual (problem->fused_residual is set)", xb);
        check_pointer(a->residual_out, "residual_out (problem->fused_residual is set)", xb);
    }
    else
    {
        check_absent(a->residual, "residual", "problem->fused_residual is 0");
        check_absent(a->residual_out, "residual_out", "problem->fused_residual is 0");
    }
    if(p.has_bias)
        check_pointer(a->bias, "bias (problem->has_bias is set)", wb);
    else
        check_absent(a->bias, "bias", "problem->has_bias is 0");
    const bool layer = p.kind == CKTILE_NORM_LAYERNORM;
    if(p.save_statistics)
    {
        check_pointer(a->rstd, "rstd (problem->save_statistics is set)", sizeof(float));
        if(layer)
            check_pointer(a->mean, "mean (problem->save_statistics is set)", sizeof(float));
        else
            check_absent(a->mean, "mean", "RMSNorm has no mean to save");
    }
    else
    {
        check_absent(a->rstd, "rstd", "problem->save_statistics is 0");
        check_absent(a->mean, "mean", "problem->save_statistics is 0");
    }

    std::vector<span> all;
    all.push_back(make_span("x", a->x, p.rows, p.cols, p.x_stride, xb));
    all.push_back(make_span("weight", a->weight, 1, p.cols, 0, wb));
    all.push_back(make_span("y", a->y, p.rows, p.cols, p.y_stride, yb));
    std::vector<span> outputs{all.back()};
    if(p.has_bias)
        all.push_back(make_span("bias", a->bias, 1, p.cols, 0, wb));
    if(p.fused_residual)
    {
        all.push_back(make_span("residual", a->residual, p.rows, p.cols, p.residual_stride, xb));
        all.push_back(
            make_span("residual_out", a->residual_out, p.rows, p.cols, p.residual_out_stride, xb));
        outputs.push_back(all.back());
    }
    if(p.save_statistics)
    {
        all.push_back(make_span("rstd", a->rstd, 1, p.rows, 0, sizeof(float)));
        outputs.push_back(all.back());
        if(layer)
        {
            all.push_back(make_span("mean", a->mean, 1, p.rows, 0, sizeof(float)));
            outputs.push_back(all.back());
        }
    }
    check_overlaps(outputs, all, [](const char* out, const char* other) {
        const std::string o(out), t(other);
        return (o == "y" || o == "residual_out") && (t == "x" || t == "residual");
    });
}

void validate_softmax_problem(const cktile_softmax_problem_t* p)
{
    require_struct(p, "problem", true);
    check_float_type(p->x_type, "x_type");
    check_float_type(p->y_type, "y_type");
    check_compute(p->compute_type);
    check_shape(p->rows, p->cols);
    check_rows("x_stride", "x", p->rows, p->cols, p->x_stride, datatype_bytes(p->x_type));
    check_rows("y_stride", "y", p->rows, p->cols, p->y_stride, datatype_bytes(p->y_type));
}

void validate_softmax_args(const cktile_softmax_problem_t& p, const cktile_softmax_args_t* a)
{
    require_struct(a, "args", true);
    const std::size_t xb = datatype_bytes(p.x_type), yb = datatype_bytes(p.y_type);
    check_pointer(a->x, "x", xb);
    check_pointer(a->y, "y", yb);
    const std::vector<span> all{make_span("x", a->x, p.rows, p.cols, p.x_stride, xb),
                                make_span("y", a->y, p.rows, p.cols, p.y_stride, yb)};
    check_overlaps({all[1]}, all,
                   [](const char*, const char* other) { return std::string(other) == "x"; });
}

void validate_reduce_problem(const cktile_reduce_problem_t* p)
{
    require_struct(p, "problem", true);
    const int op = raw_enum(p->op);
    if(op < CKTILE_REDUCE_SUM || op > CKTILE_REDUCE_SUM_SQUARES)
        bad("problem->op = " + std::to_string(op) + " is not a cktile_reduce_op_t");
    check_float_type(p->x_type, "x_type");
    check_float_type(p->y_type, "y_type");
    check_compute(p->compute_type);
    if(p->rank < 1 || p->rank > CKTILE_REDUCE_MAX_RANK)
        bad("problem->rank = " + std::to_string(p->rank) + " must be 1.." +
            std::to_string(CKTILE_REDUCE_MAX_RANK));
    const int rank = p->rank;
    if(p->reduce_mask == 0)
        bad("problem->reduce_mask is 0: an empty reduction (name at least one axis)");
    if(p->reduce_mask >> rank)
        bad("problem->reduce_mask = " + std::to_string(p->reduce_mask) + " names an axis >= rank " +
            std::to_string(rank));
    for(int a = 0; a < rank; ++a)
    {
        const std::string i = "[" + std::to_string(a) + "]";
        if(p->dims[a] == 0)
            bad("problem->dims" + i + " = 0: an empty " +
                ((p->reduce_mask >> a) & 1u ? "reduction" : "tensor") + " is not supported");
        if(p->dims[a] < 0)
            bad("problem->dims" + i + " = " + std::to_string(p->dims[a]) + " is negative");
        if(p->x_strides[a] < 0)
            bad("problem->x_strides" + i + " = " + std::to_string(p->x_strides[a]) +
                " is negative");
        if(!((p->reduce_mask >> a) & 1u) && p->y_strides[a] < 0)
            bad("problem->y_strides" + i + " = " + std::to_string(p->y_strides[a]) +
                " is negative");
    }
    // Index spaces: the last element's offset in bytes fits in int64, for x and for y.
    i128 x_end = 1, y_end = 1;
    for(int a = 0; a < rank; ++a)
    {
        x_end += i128(p->dims[a] - 1) * p->x_strides[a];
        if(!((p->reduce_mask >> a) & 1u))
            y_end += i128(p->dims[a] - 1) * p->y_strides[a];
        if(x_end * i128(datatype_bytes(p->x_type)) > int64_max)
            bad("the index space of x (dims x x_strides) overflows 64 bits");
        if(y_end * i128(datatype_bytes(p->y_type)) > int64_max)
            bad("the index space of y (kept dims x y_strides) overflows 64 bits");
    }
    // Distinct outputs must be distinct elements: kept axes (length > 1) sorted by stride, each
    // stride must step over everything the axes inside it span.
    std::vector<int> kept;
    for(int a = 0; a < rank; ++a)
        if(!((p->reduce_mask >> a) & 1u) && p->dims[a] > 1)
            kept.push_back(a);
    std::stable_sort(kept.begin(), kept.end(),
                     [&](int l, int r) { return p->y_strides[l] < p->y_strides[r]; });
    std::int64_t span = 1; // elements spanned by the axes inside the current one
    for(int a : kept)
    {
        if(p->y_strides[a] < span)
            bad("problem->y_strides[" + std::to_string(a) +
                "] = " + std::to_string(p->y_strides[a]) + " is too small: it must be at least " +
                std::to_string(span) + " so that distinct outputs do not share an element of y");
        span = p->y_strides[a] * (p->dims[a] - 1) + span;
    }
}

void validate_reduce_args(const cktile_reduce_problem_t& p, const cktile_reduce_args_t* a)
{
    require_struct(a, "args", true);
    const std::size_t xb = datatype_bytes(p.x_type), yb = datatype_bytes(p.y_type);
    check_pointer(a->x, "x", xb);
    check_pointer(a->y, "y", yb);
    std::int64_t x_end = 1, y_end = 1;
    for(int d = 0; d < p.rank; ++d)
    {
        x_end += (p.dims[d] - 1) * p.x_strides[d];
        if(!((p.reduce_mask >> d) & 1u))
            y_end += (p.dims[d] - 1) * p.y_strides[d];
    }
    const auto xl = reinterpret_cast<std::uintptr_t>(a->x);
    const auto yl = reinterpret_cast<std::uintptr_t>(a->y);
    const auto xh = xl + static_cast<std::uintptr_t>(x_end) * xb;
    const auto yh = yl + static_cast<std::uintptr_t>(y_end) * yb;
    if(xl < yh && yl < xh)
        bad("args->y overlaps args->x (a reduction cannot run in place)");
}

std::string norm_problem_key(const cktile_norm_problem_t& p)
{
    std::ostringstream s;
    s << "norm/" << (p.kind == CKTILE_NORM_LAYERNORM ? "layernorm" : "rmsnorm") << "/"
      << datatype_name(p.x_type) << "," << datatype_name(p.weight_type) << "->"
      << datatype_name(p.y_type) << "/rows=" << p.rows << ",cols=" << p.cols
      << "/bias=" << (p.has_bias ? 1 : 0) << ",residual=" << (p.fused_residual ? 1 : 0)
      << ",stats=" << (p.save_statistics ? 1 : 0);
    return s.str();
}

std::string softmax_problem_key(const cktile_softmax_problem_t& p)
{
    std::ostringstream s;
    s << "softmax/" << datatype_name(p.x_type) << "->" << datatype_name(p.y_type)
      << "/rows=" << p.rows << ",cols=" << p.cols;
    return s.str();
}

std::string reduce_problem_key(const cktile_reduce_problem_t& p)
{
    static const char* const ops[] = {"?", "sum", "max", "min", "mean", "sum_squares"};
    const int op                   = raw_enum(p.op);
    std::ostringstream s;
    s << "reduce/" << ops[op >= 1 && op <= 5 ? op : 0] << "/" << datatype_name(p.x_type) << "->"
      << datatype_name(p.y_type) << "/dims=";
    const int rank = std::clamp(p.rank, 1, CKTILE_REDUCE_MAX_RANK);
    auto list      = [&](const std::int64_t* v) {
        for(int a = 0; a < rank; ++a)
            s << (a ? "x" : "") << v[a];
    };
    list(p.dims);
    s << ",x_strides=";
    list(p.x_strides);
    s << ",mask=0x" << std::hex << p.reduce_mask << std::dec << ",y_strides=";
    list(p.y_strides);
    return s.str();
}

} // namespace cktile::detail
