// SPDX-License-Identifier: MIT
#include "gemm_problem.hpp"

#include "api_error.hpp"
#include "struct_init.hpp"

#include "ck_tile/ops/gemm/gemm_multi_d.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

namespace cktile::detail {

const char* datatype_name(cktile_datatype_t t)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
        return "fp16";
    case CKTILE_DATATYPE_BF16:
        return "bf16";
    case CKTILE_DATATYPE_FP32:
        return "fp32";
    case CKTILE_DATATYPE_FP8_E4M3:
        return "fp8_e4m3";
    case CKTILE_DATATYPE_FP8_E5M2:
        return "fp8_e5m2";
    case CKTILE_DATATYPE_INT8:
        return "int8";
    case CKTILE_DATATYPE_INT32:
        return "int32";
    case CKTILE_DATATYPE_TF32:
        return "tf32";
    }
    return "?";
}

std::size_t datatype_bytes(cktile_datatype_t t)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
    case CKTILE_DATATYPE_BF16:
        return 2;
    case CKTILE_DATATYPE_FP32:
    case CKTILE_DATATYPE_INT32:
    case CKTILE_DATATYPE_TF32:
        return 4;
    case CKTILE_DATATYPE_FP8_E4M3:
    case CKTILE_DATATYPE_FP8_E5M2:
    case CKTILE_DATATYPE_INT8:
        return 1;
    }
    return 0;
}

const char* layout_name(cktile_layout_t l)
{
    switch(l)
    {
    case CKTILE_LAYOUT_ROW_MAJOR:
        return "row";
    case CKTILE_LAYOUT_COL_MAJOR:
        return "col";
    case CKTILE_LAYOUT_ANY:
        return "any";
    }
    return "?";
}

const char* bias_name(cktile_bias_t b)
{
    switch(b)
    {
    case CKTILE_BIAS_NONE:
        return "none";
    case CKTILE_BIAS_PER_ROW:
        return "row";
    case CKTILE_BIAS_PER_COLUMN:
        return "column";
    }
    return "?";
}

const char* activation_name(cktile_activation_t a)
{
    switch(a)
    {
    case CKTILE_ACTIVATION_NONE:
        return "none";
    case CKTILE_ACTIVATION_RELU:
        return "relu";
    case CKTILE_ACTIVATION_GELU_TANH:
        return "gelu_tanh";
    case CKTILE_ACTIVATION_GELU_ERF:
        return "gelu_erf";
    case CKTILE_ACTIVATION_SILU:
        return "silu";
    }
    return "?";
}

const char* multi_d_op_name(cktile_multi_d_op_t op)
{
    switch(op)
    {
    case CKTILE_MULTI_D_NONE:
        return "none";
    case CKTILE_MULTI_D_ADD:
        return "add";
    case CKTILE_MULTI_D_MUL:
        return "mul";
    case CKTILE_MULTI_D_ADD_MUL:
        return "add_mul";
    case CKTILE_MULTI_D_MUL_ADD:
        return "mul_add";
    }
    return "?";
}

const char* multi_d_point_name(cktile_multi_d_point_t point)
{
    switch(point)
    {
    case CKTILE_MULTI_D_AFTER_ACTIVATION:
        return "after_activation";
    case CKTILE_MULTI_D_BEFORE_ACTIVATION:
        return "before_activation";
    }
    return "?";
}

int multi_d_inputs(cktile_multi_d_op_t op)
{
    // The kernels' own count (their functors' num_d); the enum values are the same.
    return ck_tile::multi_d_inputs(static_cast<ck_tile::gemm_multi_d_op>(op));
}

namespace {

[[noreturn]] void bad(const std::string& what) { fail(CKTILE_STATUS_INVALID_ARGUMENT, what); }

void check_type(const cktile_datatype_t& t, const char* field)
{
    const int v = raw_enum(t);
    if(v < CKTILE_DATATYPE_FP16 || v > CKTILE_DATATYPE_TF32)
        bad(std::string("problem->") + field + " = " + std::to_string(v) +
            " is not a cktile_datatype_t");
}

void check_layout(const cktile_layout_t& l, const char* field)
{
    const int v = raw_enum(l);
    if(v != CKTILE_LAYOUT_ROW_MAJOR && v != CKTILE_LAYOUT_COL_MAJOR)
        bad(std::string("problem->") + field + " = " + std::to_string(v) +
            " is not CKTILE_LAYOUT_ROW_MAJOR or CKTILE_LAYOUT_COL_MAJOR");
}

bool is_float_input(cktile_datatype_t t)
{
    return t == CKTILE_DATATYPE_FP16 || t == CKTILE_DATATYPE_BF16 || t == CKTILE_DATATYPE_FP32 ||
           t == CKTILE_DATATYPE_FP8_E4M3 || t == CKTILE_DATATYPE_FP8_E5M2;
}

// Sizes are checked in 128 bits so no product of two int64 values can overflow the check itself.
__extension__ typedef __int128 i128;
constexpr i128 int64_max = std::numeric_limits<std::int64_t>::max();

/// Checks one matrix: leading dimension covers the stored row/column, and the whole batched
/// index space (in bytes) fits in int64. Returns the footprint of one batch in elements.
i128 check_matrix(const char* name, std::int64_t rows, std::int64_t cols, cktile_layout_t layout,
                  std::int64_t ld, std::int64_t batch, std::int64_t stride, std::size_t bytes)
{
    std::string upper(name); // "D0" for "d0"
    for(char& ch : upper)
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const bool row          = layout == CKTILE_LAYOUT_ROW_MAJOR;
    const std::int64_t need = row ? cols : rows;
    if(ld < need)
        bad(std::string("problem->ld") + name + " = " + std::to_string(ld) + " is smaller than " +
            (row ? "the row length" : "the column length") + " " + std::to_string(need) +
            " of the " + (row ? "row-major " : "column-major ") + std::to_string(rows) + " x " +
            std::to_string(cols) + " matrix " + upper);
    const i128 footprint = i128(row ? rows - 1 : cols - 1) * ld + (row ? cols : rows);
    if(batch > 1 && stride < 0)
        bad(std::string("problem->stride_") + name + " = " + std::to_string(stride) +
            " is negative");
    const i128 span = i128(batch > 1 ? batch - 1 : 0) * (batch > 1 ? stride : 0) + footprint;
    if(span * i128(bytes) > int64_max)
        bad(std::string("the index space of ") + upper +
            " (batches x strides x leading dimension) overflows 64 bits");
    return footprint;
}

} // namespace

/// The extra inputs (multi-D). @pre the rest of the problem is valid.
void validate_multi_d(const cktile_gemm_problem_t& p)
{
    const int op = raw_enum(p.multi_d_op);
    if(op < CKTILE_MULTI_D_NONE || op > CKTILE_MULTI_D_MUL_ADD)
        bad("problem->multi_d_op = " + std::to_string(op) + " is not a cktile_multi_d_op_t");
    if(p.multi_d_op == CKTILE_MULTI_D_NONE)
        return;
    const int point = raw_enum(p.multi_d_point);
    if(point != CKTILE_MULTI_D_AFTER_ACTIVATION && point != CKTILE_MULTI_D_BEFORE_ACTIVATION)
        bad("problem->multi_d_point = " + std::to_string(point) +
            " is not a cktile_multi_d_point_t");
    struct extra
    {
        const char *name, *type_field, *layout_field;
        cktile_datatype_t type;
        cktile_layout_t layout;
        std::int64_t ld, stride;
    };
    const extra extras[] = {
        {"d0", "d0_type", "d0_layout", p.d0_type, p.d0_layout, p.ldd0, p.stride_d0},
        {"d1", "d1_type", "d1_layout", p.d1_type, p.d1_layout, p.ldd1, p.stride_d1}};
    for(int i = 0; i < multi_d_inputs(p.multi_d_op); ++i)
    {
        const extra& x = extras[i];
        check_type(x.type, x.type_field);
        check_layout(x.layout, x.layout_field);
        if(x.type != p.d_type && x.type != CKTILE_DATATYPE_FP32)
            fail(CKTILE_STATUS_NOT_SUPPORTED,
                 std::string("problem->") + x.type_field + " = " + datatype_name(x.type) +
                     ": an extra input (multi_d_op " + multi_d_op_name(p.multi_d_op) +
                     ") has D's type (" + datatype_name(p.d_type) + ") or fp32");
        check_matrix(x.name, p.m, p.n, x.layout, x.ld, p.batch_count, x.stride,
                     datatype_bytes(x.type));
    }
}

cktile_gemm_problem_t validate_gemm_problem(const cktile_gemm_problem_t* problem)
{
    // Callers built before the extra inputs existed pass a shorter struct: accepted, none.
    require_struct(problem, "problem", true, first_layout_size<cktile_gemm_problem_t>);
    cktile_gemm_problem_t full{};
    std::memcpy(&full, problem, problem->struct_size);
    full.struct_size               = sizeof(full);
    const cktile_gemm_problem_t* p = &full;
    check_type(p->a_type, "a_type");
    check_type(p->b_type, "b_type");
    check_type(p->c_type, "c_type");
    check_type(p->d_type, "d_type");
    check_type(p->compute_type, "compute_type");
    check_layout(p->a_layout, "a_layout");
    check_layout(p->b_layout, "b_layout");
    check_layout(p->c_layout, "c_layout");
    check_layout(p->d_layout, "d_layout");
    if(raw_enum(p->bias) < CKTILE_BIAS_NONE || raw_enum(p->bias) > CKTILE_BIAS_PER_COLUMN)
        bad("problem->bias = " + std::to_string(raw_enum(p->bias)) + " is not a cktile_bias_t");
    if(raw_enum(p->activation) < CKTILE_ACTIVATION_NONE ||
       raw_enum(p->activation) > CKTILE_ACTIVATION_SILU)
        bad("problem->activation = " + std::to_string(raw_enum(p->activation)) +
            " is not a cktile_activation_t");

    // Type combinations a GEMM can mean; which ones have instances is the registry's answer.
    const bool a_int = p->a_type == CKTILE_DATATYPE_INT8, b_int = p->b_type == CKTILE_DATATYPE_INT8;
    if(!(is_float_input(p->a_type) || a_int) || !(is_float_input(p->b_type) || b_int))
        fail(CKTILE_STATUS_NOT_SUPPORTED, std::string("a_type/b_type ") + datatype_name(p->a_type) +
                                              "/" + datatype_name(p->b_type) +
                                              ": inputs are fp16, bf16, fp32, fp8 or int8");
    if(a_int != b_int)
        fail(CKTILE_STATUS_NOT_SUPPORTED, "int8 inputs cannot be mixed with floating-point inputs");
    if(p->c_type != p->d_type)
        fail(CKTILE_STATUS_NOT_SUPPORTED, std::string("c_type ") + datatype_name(p->c_type) +
                                              " differs from d_type " + datatype_name(p->d_type) +
                                              " (C has D's type)");
    if(a_int)
    {
        if(p->compute_type != CKTILE_DATATYPE_INT32 ||
           (p->d_type != CKTILE_DATATYPE_INT32 && p->d_type != CKTILE_DATATYPE_INT8))
            fail(CKTILE_STATUS_NOT_SUPPORTED,
                 "int8 inputs need compute_type int32 and d_type int32 or int8");
    }
    else
    {
        const bool fp32_in = p->a_type == CKTILE_DATATYPE_FP32 && p->b_type == CKTILE_DATATYPE_FP32;
        if(p->compute_type == CKTILE_DATATYPE_TF32 && !fp32_in)
            fail(CKTILE_STATUS_NOT_SUPPORTED,
                 std::string("compute_type tf32 needs fp32 inputs (a_type/b_type are ") +
                     datatype_name(p->a_type) + "/" + datatype_name(p->b_type) + ")");
        if(p->compute_type != CKTILE_DATATYPE_FP32 && p->compute_type != CKTILE_DATATYPE_TF32)
            fail(CKTILE_STATUS_NOT_SUPPORTED,
                 std::string("compute_type ") + datatype_name(p->compute_type) +
                     ": floating-point inputs accumulate in fp32 (compute_type fp32, or tf32 "
                     "for fp32 inputs)");
        if(p->d_type != CKTILE_DATATYPE_FP16 && p->d_type != CKTILE_DATATYPE_BF16 &&
           p->d_type != CKTILE_DATATYPE_FP32)
            fail(CKTILE_STATUS_NOT_SUPPORTED,
                 std::string("d_type ") + datatype_name(p->d_type) +
                     ": floating-point inputs produce fp16, bf16 or fp32");
    }

    if(p->m < 1)
        bad("problem->m = " + std::to_string(p->m) + " must be at least 1");
    if(p->n < 1)
        bad("problem->n = " + std::to_string(p->n) + " must be at least 1");
    if(p->k < 1)
        bad("problem->k = " + std::to_string(p->k) + " must be at least 1");
    if(p->batch_count < 1)
        bad("problem->batch_count = " + std::to_string(p->batch_count) + " must be at least 1");
    if(!std::isfinite(p->alpha))
        bad("problem->alpha is not finite");
    if(!std::isfinite(p->beta))
        bad("problem->beta is not finite");

    const std::int64_t b = p->batch_count;
    check_matrix("a", p->m, p->k, p->a_layout, p->lda, b, p->stride_a, datatype_bytes(p->a_type));
    check_matrix("b", p->k, p->n, p->b_layout, p->ldb, b, p->stride_b, datatype_bytes(p->b_type));
    check_matrix("c", p->m, p->n, p->c_layout, p->ldc, b, p->stride_c, datatype_bytes(p->c_type));
    const i128 d_footprint = check_matrix("d", p->m, p->n, p->d_layout, p->ldd, b, p->stride_d,
                                          datatype_bytes(p->d_type));
    if(b > 1 && i128(p->stride_d) < d_footprint)
        bad("problem->stride_d = " + std::to_string(p->stride_d) +
            " makes D's batches overlap (one batch spans " +
            std::to_string(static_cast<long long>(d_footprint)) + " elements)");
    if(p->bias != CKTILE_BIAS_NONE && b > 1)
    {
        if(p->stride_bias < 0)
            bad("problem->stride_bias = " + std::to_string(p->stride_bias) + " is negative");
        if(i128(b - 1) * p->stride_bias + std::max(p->m, p->n) > int64_max / 8)
            bad("the bias's index space overflows 64 bits");
    }
    validate_multi_d(full);
    return full;
}

cktile_gemm_args_t validate_gemm_args(const cktile_gemm_problem_t& p,
                                      const cktile_gemm_args_t* args)
{
    // Callers built before the scales existed pass a shorter struct: accepted, no scales.
    require_struct(args, "args", true, first_layout_size<cktile_gemm_args_t>);
    cktile_gemm_args_t full{};
    std::memcpy(&full, args, args->struct_size);
    full.struct_size = sizeof(full);
    auto check       = [](const void* ptr, const char* name, cktile_datatype_t t) {
        if(!ptr)
            bad(std::string("args->") + name + " is NULL");
        const std::size_t bytes = datatype_bytes(t);
        if(reinterpret_cast<std::uintptr_t>(ptr) % bytes != 0)
            bad(std::string("args->") + name + " is not aligned to its element size (" +
                      std::to_string(bytes) + " bytes)");
    };
    check(args->a, "a", p.a_type);
    check(args->b, "b", p.b_type);
    check(args->d, "d", p.d_type);
    if(p.beta != 0.0)
        check(args->c, "c (read because beta != 0)", p.c_type);
    if(p.bias != CKTILE_BIAS_NONE)
        check(args->bias, "bias (the problem has a bias)", p.d_type);
    auto check_scale = [](const float* s, const char* name) {
        if(s && reinterpret_cast<std::uintptr_t>(s) % alignof(float) != 0)
            bad(std::string("args->") + name + " is not aligned to a float (4 bytes)");
    };
    check_scale(full.scale_a, "scale_a");
    check_scale(full.scale_b, "scale_b");
    check_scale(full.scale_d, "scale_d");
    const bool short_struct = args->struct_size < offsetof(cktile_gemm_args_t, d1) + sizeof(void*);
    const int extras        = multi_d_inputs(p.multi_d_op);
    if(extras >= 1)
        check(full.d0,
              short_struct ? "d0 (multi_d_op reads it; args->struct_size ends before d0/d1)"
                           : "d0 (multi_d_op reads it)",
              p.d0_type);
    if(extras >= 2)
        check(full.d1,
              short_struct ? "d1 (multi_d_op reads it; args->struct_size ends before d0/d1)"
                           : "d1 (multi_d_op reads it)",
              p.d1_type);
    return full;
}

std::string gemm_problem_key(const cktile_gemm_problem_t& p)
{
    std::ostringstream s;
    s << "gemm/" << datatype_name(p.a_type) << "," << datatype_name(p.b_type) << ","
      << datatype_name(p.d_type) << "," << datatype_name(p.compute_type) << "/"
      << layout_name(p.a_layout) << layout_name(p.b_layout) << layout_name(p.c_layout)
      << layout_name(p.d_layout) << "/m=" << p.m << ",n=" << p.n << ",k=" << p.k
      << ",batch=" << p.batch_count << "/bias=" << bias_name(p.bias)
      << ",act=" << activation_name(p.activation) << ",c=" << (p.beta != 0.0 ? 1 : 0);
    if(p.multi_d_op != CKTILE_MULTI_D_NONE) // keys of problems without extra inputs unchanged
    {
        s << ",multi_d=" << multi_d_op_name(p.multi_d_op) << "@"
          << multi_d_point_name(p.multi_d_point) << ":" << datatype_name(p.d0_type)
          << layout_name(p.d0_layout);
        if(multi_d_inputs(p.multi_d_op) > 1)
            s << "," << datatype_name(p.d1_type) << layout_name(p.d1_layout);
    }
    return s.str();
}

std::string gemm_replay_command(const cktile_gemm_problem_t& p, const std::string& instance)
{
    std::ostringstream s;
    s.precision(17);
    s << "cktile-profiler gemm --a_type=" << datatype_name(p.a_type)
      << " --b_type=" << datatype_name(p.b_type) << " --c_type=" << datatype_name(p.c_type)
      << " --d_type=" << datatype_name(p.d_type)
      << " --compute_type=" << datatype_name(p.compute_type)
      << " --a_layout=" << layout_name(p.a_layout) << " --b_layout=" << layout_name(p.b_layout)
      << " --c_layout=" << layout_name(p.c_layout) << " --d_layout=" << layout_name(p.d_layout)
      << " --m=" << p.m << " --n=" << p.n << " --k=" << p.k << " --lda=" << p.lda
      << " --ldb=" << p.ldb << " --ldc=" << p.ldc << " --ldd=" << p.ldd
      << " --batch_count=" << p.batch_count << " --stride_a=" << p.stride_a
      << " --stride_b=" << p.stride_b << " --stride_c=" << p.stride_c
      << " --stride_d=" << p.stride_d << " --stride_bias=" << p.stride_bias
      << " --alpha=" << p.alpha << " --beta=" << p.beta << " --bias=" << bias_name(p.bias)
      << " --activation=" << activation_name(p.activation);
    if(p.multi_d_op != CKTILE_MULTI_D_NONE)
    {
        s << " --multi_d=" << multi_d_op_name(p.multi_d_op)
          << " --multi_d_point=" << multi_d_point_name(p.multi_d_point)
          << " --d0_type=" << datatype_name(p.d0_type)
          << " --d0_layout=" << layout_name(p.d0_layout) << " --ldd0=" << p.ldd0
          << " --stride_d0=" << p.stride_d0;
        if(multi_d_inputs(p.multi_d_op) > 1)
            s << " --d1_type=" << datatype_name(p.d1_type)
              << " --d1_layout=" << layout_name(p.d1_layout) << " --ldd1=" << p.ldd1
              << " --stride_d1=" << p.stride_d1;
    }
    if(!instance.empty())
        s << " --instance=" << instance;
    return s.str();
}

} // namespace cktile::detail
