// SPDX-License-Identifier: MIT
// The transposed statement of a GEMM problem: D = A B is also D^T = B^T A^T. An instance whose
// layouts do not fit a problem may fit its transpose (a row-major/row-major instance runs a
// problem with both operands column-major), and one whose fast paths store row-major D serves
// a column-major D through it. Host-only and header-only: the kernel libraries decide with it
// and libcktile.so costs the decision with it, so both agree by construction.
#pragma once

#include "cktile.h"

namespace cktile::library {

/// The layout of the same storage read as the transposed matrix: a row-major M x N matrix is
/// a column-major N x M one with the same leading dimension.
constexpr cktile_layout_t transposed_layout(cktile_layout_t l)
{
    return l == CKTILE_LAYOUT_ROW_MAJOR ? CKTILE_LAYOUT_COL_MAJOR : CKTILE_LAYOUT_ROW_MAJOR;
}

constexpr cktile_bias_t transposed_bias(cktile_bias_t b)
{
    return b == CKTILE_BIAS_PER_ROW      ? CKTILE_BIAS_PER_COLUMN
           : b == CKTILE_BIAS_PER_COLUMN ? CKTILE_BIAS_PER_ROW
                                         : b;
}

/// D^T = B^T A^T over the same memory: M and N trade places, A' = B^T and B' = A^T (types,
/// leading dimensions and batch strides follow their matrices), and every M x N matrix (C, D,
/// D0, D1) keeps its storage under the other layout. A bias along D's rows runs along D^T's
/// columns. Everything else is unchanged.
/// @post transposed_problem(transposed_problem(p)) == p, field by field.
inline cktile_gemm_problem_t transposed_problem(const cktile_gemm_problem_t& p)
{
    cktile_gemm_problem_t t = p;
    t.m = p.n, t.n = p.m;
    t.a_type = p.b_type, t.b_type = p.a_type;
    t.a_layout = transposed_layout(p.b_layout), t.b_layout = transposed_layout(p.a_layout);
    t.lda = p.ldb, t.ldb = p.lda;
    t.stride_a = p.stride_b, t.stride_b = p.stride_a;
    t.c_layout  = transposed_layout(p.c_layout);
    t.d_layout  = transposed_layout(p.d_layout);
    t.d0_layout = transposed_layout(p.d0_layout);
    t.d1_layout = transposed_layout(p.d1_layout);
    t.bias      = transposed_bias(p.bias);
    return t;
}

/// The pointers of a run of transposed_problem(p): A's and B's (and their scales) trade places.
/// @post transposed_args(transposed_args(a)) == a.
inline cktile_gemm_args_t transposed_args(const cktile_gemm_args_t& a)
{
    cktile_gemm_args_t t = a;
    t.a = a.b, t.b = a.a;
    t.scale_a = a.scale_b, t.scale_b = a.scale_a;
    return t;
}

} // namespace cktile::library
