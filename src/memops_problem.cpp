// SPDX-License-Identifier: MIT
#include "memops_problem.hpp"

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

std::string field(const char* tensor, const char* member, int d = -1)
{
    return std::string("problem->") + tensor + "." + member +
           (d >= 0 ? "[" + std::to_string(d) + "]" : "");
}

/// A tensor description: fp16/bf16/fp32, rank 1..6, dims >= 1, strides >= 0, index space in
/// int64 bytes.
void check_tensor(const cktile_tensor_desc_t& t, const char* name)
{
    const int v = raw_enum(t.type);
    if(v < CKTILE_DATATYPE_FP16 || v > CKTILE_DATATYPE_INT32)
        bad(field(name, "type") + " = " + std::to_string(v) + " is not a cktile_datatype_t");
    if(t.type != CKTILE_DATATYPE_FP16 && t.type != CKTILE_DATATYPE_BF16 &&
       t.type != CKTILE_DATATYPE_FP32)
        fail(CKTILE_STATUS_NOT_SUPPORTED, field(name, "type") + " = " + datatype_name(t.type) +
                                              ": elementwise and permute operations read and "
                                              "write fp16, bf16 or fp32");
    if(t.rank < 1 || t.rank > CKTILE_MAX_TENSOR_RANK)
        bad(field(name, "rank") + " = " + std::to_string(t.rank) + " is not in 1.." +
            std::to_string(CKTILE_MAX_TENSOR_RANK));
    i128 extent = 1;
    for(int d = 0; d < t.rank; ++d)
    {
        if(t.dims[d] < 1)
            bad(field(name, "dims", d) + " = " + std::to_string(t.dims[d]) + " must be at least 1");
        if(t.strides[d] < 0)
            bad(field(name, "strides", d) + " = " + std::to_string(t.strides[d]) + " is negative");
        extent += i128(t.dims[d] - 1) * t.strides[d];
        if(extent * i128(datatype_bytes(t.type)) > int64_max || i128(t.dims[d]) > int64_max)
            bad(std::string("the index space of ") + name + " overflows 64 bits");
    }
    i128 count = 1;
    for(int d = 0; d < t.rank; ++d)
    {
        count *= t.dims[d];
        if(count > int64_max)
            bad(std::string("the element count of ") + name + " overflows 64 bits");
    }
}

/// No two indices of an output at one address: sorted by stride, each axis (of length > 1)
/// steps past everything the shorter-strided axes reach.
void check_no_self_overlap(const cktile_tensor_desc_t& t, const char* name)
{
    std::vector<int> axes;
    for(int d = 0; d < t.rank; ++d)
        if(t.dims[d] > 1)
            axes.push_back(d);
    std::sort(axes.begin(), axes.end(), [&](int x, int y) { return t.strides[x] < t.strides[y]; });
    i128 reach = 0; // largest offset the axes so far reach
    for(int d : axes)
    {
        if(i128(t.strides[d]) <= reach)
            bad(field(name, "strides", d) + " = " + std::to_string(t.strides[d]) + " makes " +
                name +
                " overlap itself (an output needs a distinct address per "
                "element; stride 0 broadcasts only inputs)");
        reach += i128(t.dims[d] - 1) * t.strides[d];
    }
}

/// Bytes [lo, hi) a tensor touches.
struct span
{
    std::uintptr_t lo, hi;
};
span span_of(const void* p, const cktile_tensor_desc_t& t)
{
    std::int64_t extent = 1;
    for(int d = 0; d < t.rank; ++d)
        extent += (t.dims[d] - 1) * t.strides[d];
    const auto lo = reinterpret_cast<std::uintptr_t>(p);
    return {lo, lo + static_cast<std::uintptr_t>(extent * std::int64_t(datatype_bytes(t.type)))};
}
bool overlap(span a, span b) { return a.lo < b.hi && b.lo < a.hi; }

bool same_tensor(const void* p, const cktile_tensor_desc_t& t, const void* q,
                 const cktile_tensor_desc_t& u)
{
    if(p != q || t.type != u.type || t.rank != u.rank)
        return false;
    for(int d = 0; d < t.rank; ++d)
        if(t.dims[d] != u.dims[d] || (t.dims[d] > 1 && t.strides[d] != u.strides[d]))
            return false;
    return true;
}

void check_pointer(const void* p, const char* name, cktile_datatype_t t)
{
    if(!p)
        bad(std::string("args->") + name + " is NULL");
    if(reinterpret_cast<std::uintptr_t>(p) % datatype_bytes(t) != 0)
        bad(std::string("args->") + name + " is not aligned to its element size (" +
            std::to_string(datatype_bytes(t)) + " bytes)");
}

/// `in` broadcasts to `y` (NumPy: right-aligned; each axis 1 or y's).
void check_broadcast(const cktile_tensor_desc_t& in, const char* name,
                     const cktile_tensor_desc_t& y)
{
    if(in.rank > y.rank)
        bad(field(name, "rank") + " = " + std::to_string(in.rank) + " exceeds problem->y.rank = " +
            std::to_string(y.rank) + " (y has the broadcast shape)");
    for(int d = 0; d < in.rank; ++d)
    {
        const int yd = y.rank - in.rank + d;
        if(in.dims[d] != 1 && in.dims[d] != y.dims[yd])
            bad(field(name, "dims", d) + " = " + std::to_string(in.dims[d]) +
                " does not broadcast to problem->y.dims[" + std::to_string(yd) +
                "] = " + std::to_string(y.dims[yd]) + " (it must be 1 or equal)");
    }
}

std::string desc_text(const cktile_tensor_desc_t& t)
{
    std::ostringstream s;
    s << "[";
    for(int d = 0; d < t.rank; ++d)
        s << (d ? "," : "") << t.dims[d];
    s << "]:[";
    for(int d = 0; d < t.rank; ++d)
        s << (d ? "," : "") << t.strides[d];
    s << "]";
    return s.str();
}

const char* op_name(cktile_elementwise_op_t op)
{
    switch(op)
    {
    case CKTILE_ELEMENTWISE_IDENTITY:
        return "identity";
    case CKTILE_ELEMENTWISE_RELU:
        return "relu";
    case CKTILE_ELEMENTWISE_GELU_TANH:
        return "gelu_tanh";
    case CKTILE_ELEMENTWISE_GELU_ERF:
        return "gelu_erf";
    case CKTILE_ELEMENTWISE_SILU:
        return "silu";
    case CKTILE_ELEMENTWISE_SIGMOID:
        return "sigmoid";
    case CKTILE_ELEMENTWISE_EXP:
        return "exp";
    case CKTILE_ELEMENTWISE_LOG:
        return "log";
    case CKTILE_ELEMENTWISE_NEG:
        return "neg";
    case CKTILE_ELEMENTWISE_ABS:
        return "abs";
    case CKTILE_ELEMENTWISE_SQRT:
        return "sqrt";
    case CKTILE_ELEMENTWISE_RSQRT:
        return "rsqrt";
    case CKTILE_ELEMENTWISE_TANH:
        return "tanh";
    case CKTILE_ELEMENTWISE_ADD:
        return "add";
    case CKTILE_ELEMENTWISE_SUB:
        return "sub";
    case CKTILE_ELEMENTWISE_MUL:
        return "mul";
    case CKTILE_ELEMENTWISE_DIV:
        return "div";
    case CKTILE_ELEMENTWISE_MAX:
        return "max";
    case CKTILE_ELEMENTWISE_MIN:
        return "min";
    }
    return nullptr;
}

bool is_binary_op(cktile_elementwise_op_t op) { return raw_enum(op) > 100; }

} // namespace

void validate_elementwise_problem(const cktile_elementwise_problem_t* p)
{
    require_struct(p, "problem", true);
    if(!op_name(p->op))
        bad("problem->op = " + std::to_string(raw_enum(p->op)) +
            " is not a cktile_elementwise_op_t");
    const int c = raw_enum(p->compute_type);
    if(c != CKTILE_DATATYPE_FP32)
        fail(c < CKTILE_DATATYPE_FP16 || c > CKTILE_DATATYPE_INT32 ? CKTILE_STATUS_INVALID_ARGUMENT
                                                                   : CKTILE_STATUS_NOT_SUPPORTED,
             "problem->compute_type = " + std::to_string(c) +
                 ": elementwise operations compute in fp32 (CKTILE_DATATYPE_FP32)");
    const bool binary = is_binary_op(p->op);
    check_tensor(p->a, "a");
    if(binary)
        check_tensor(p->b, "b");
    check_tensor(p->y, "y");
    if(binary && p->a.type != p->b.type)
        fail(CKTILE_STATUS_NOT_SUPPORTED, std::string("problem->a.type = ") +
                                              datatype_name(p->a.type) +
                                              " and problem->b.type = " + datatype_name(p->b.type) +
                                              " differ: a binary operation reads one input type");
    check_broadcast(p->a, "a", p->y);
    if(binary)
        check_broadcast(p->b, "b", p->y);
    // y has the broadcast shape: each axis is the length of some input's axis there (or 1).
    for(int d = 0; d < p->y.rank; ++d)
    {
        std::int64_t len                   = 1;
        const cktile_tensor_desc_t* ins[2] = {&p->a, binary ? &p->b : nullptr};
        for(const auto* in : ins)
        {
            const int id = in ? d - (p->y.rank - in->rank) : -1;
            if(in && id >= 0 && in->dims[id] != 1)
                len = in->dims[id];
        }
        if(p->y.dims[d] != len)
            bad("problem->y.dims[" + std::to_string(d) + "] = " + std::to_string(p->y.dims[d]) +
                " is not the broadcast length " + std::to_string(len) + " of the inputs there");
    }
    check_no_self_overlap(p->y, "y");
    if(!std::isfinite(p->alpha))
        bad("problem->alpha is not finite");
    if(!std::isfinite(p->beta))
        bad("problem->beta is not finite");
}

void validate_elementwise_args(const cktile_elementwise_problem_t& p,
                               const cktile_elementwise_args_t* a)
{
    require_struct(a, "args", true);
    const bool binary = is_binary_op(p.op);
    check_pointer(a->a, "a", p.a.type);
    if(binary)
        check_pointer(a->b, "b", p.b.type);
    else if(a->b)
        bad("args->b is set but problem->op is unary");
    check_pointer(a->y, "y", p.y.type);
    const span ys = span_of(a->y, p.y);
    if(overlap(ys, span_of(a->a, p.a)) && !same_tensor(a->y, p.y, a->a, p.a))
        bad("args->y overlaps args->a (it may only be the very same tensor: same pointer, type, "
            "shape and strides)");
    if(binary && overlap(ys, span_of(a->b, p.b)) && !same_tensor(a->y, p.y, a->b, p.b))
        bad("args->y overlaps args->b (it may only be the very same tensor: same pointer, type, "
            "shape and strides)");
}

void validate_permute_problem(const cktile_permute_problem_t* p)
{
    require_struct(p, "problem", true);
    check_tensor(p->x, "x");
    check_tensor(p->y, "y");
    if(p->x.rank != p->y.rank)
        bad("problem->y.rank = " + std::to_string(p->y.rank) +
            " differs from problem->x.rank = " + std::to_string(p->x.rank));
    if(p->x.type != p->y.type)
        fail(CKTILE_STATUS_NOT_SUPPORTED,
             std::string("problem->y.type = ") + datatype_name(p->y.type) +
                 " differs from problem->x.type = " + datatype_name(p->x.type) +
                 ": a permutation copies (cast with an elementwise identity)");
    bool seen[CKTILE_MAX_TENSOR_RANK] = {};
    for(int d = 0; d < p->x.rank; ++d)
    {
        const int v = p->perm[d];
        if(v < 0 || v >= p->x.rank)
            bad("problem->perm[" + std::to_string(d) + "] = " + std::to_string(v) +
                " is not an axis of x (0.." + std::to_string(p->x.rank - 1) + ")");
        if(seen[v])
            bad("problem->perm[" + std::to_string(d) + "] = " + std::to_string(v) +
                " repeats an axis: perm must be a permutation");
        seen[v] = true;
        if(p->y.dims[d] != p->x.dims[v])
            bad("problem->y.dims[" + std::to_string(d) + "] = " + std::to_string(p->y.dims[d]) +
                " differs from problem->x.dims[perm[" + std::to_string(d) +
                "] = " + std::to_string(v) + "] = " + std::to_string(p->x.dims[v]));
    }
    check_no_self_overlap(p->y, "y");
}

void validate_permute_args(const cktile_permute_problem_t& p, const cktile_permute_args_t* a)
{
    require_struct(a, "args", true);
    check_pointer(a->x, "x", p.x.type);
    check_pointer(a->y, "y", p.y.type);
    if(overlap(span_of(a->x, p.x), span_of(a->y, p.y)))
        bad("args->y overlaps args->x (a permutation cannot run in place)");
}

std::string elementwise_problem_key(const cktile_elementwise_problem_t& p)
{
    std::ostringstream s;
    const bool binary = is_binary_op(p.op);
    const char* name  = op_name(p.op);
    s << "elementwise/" << (name ? name : "?") << "/" << datatype_name(p.a.type);
    if(binary)
        s << "," << datatype_name(p.b.type);
    s << "->" << datatype_name(p.y.type) << "/y=" << desc_text(p.y) << ",a=" << desc_text(p.a);
    if(binary)
        s << ",b=" << desc_text(p.b);
    s << "/alpha=" << p.alpha << ",beta=" << p.beta;
    return s.str();
}

std::string permute_problem_key(const cktile_permute_problem_t& p)
{
    std::ostringstream s;
    s << "permute/" << datatype_name(p.x.type) << "/x=" << desc_text(p.x) << "/perm=";
    for(int d = 0; d < p.x.rank; ++d)
        s << (d ? "," : "") << p.perm[d];
    s << "/y=" << desc_text(p.y);
    return s.str();
}

} // namespace cktile::detail
