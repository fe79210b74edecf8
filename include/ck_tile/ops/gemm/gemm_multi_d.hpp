// SPDX-License-Identifier: MIT
// Extra M x N inputs of the GEMM epilogue ("multi-D"): up to two tensors D0 and D1, read at
// the output element being written and folded into the epilogue value by a combine functor.
//
// A fusion is a functor, not a kernel: a struct with `num_d` (how many extra tensors it reads)
// and `E operator()(E v, E d0[, E d1]) const`. Every GEMM kernel family (simt, tile, wgmma and
// the split-K reduction) calls gemm_multi_d::apply from its one epilogue write, so a new
// functor plus its gemm_multi_d_op value (and its case in apply) reaches all of them.
//
// Where it applies (gemm_multi_d::before_activation):
//   after  (default): D = scale_d * combine(act(alpha * AB + beta * C + bias), D0, D1)
//   before:           D = scale_d * act(combine(alpha * AB + beta * C + bias, D0, D1))
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/ops/gemm/gemm_epilogue.hpp"

#include <cstdint>

namespace ck_tile {

/// Values equal cktile_multi_d_op_t of include/cktile.h (append-only).
enum class gemm_multi_d_op : int
{
    none         = 0,
    add          = 1, // v + D0: a residual
    multiply     = 2, // v * D0: gating
    add_multiply = 3, // (v + D0) * D1
    multiply_add = 4  // v * D0 + D1: an affine map per element
};

struct multi_d_add
{
    static constexpr int num_d = 1;
    template <typename E>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E operator()(E v, E d0) const
    {
        return v + d0;
    }
};

struct multi_d_multiply
{
    static constexpr int num_d = 1;
    template <typename E>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E operator()(E v, E d0) const
    {
        return v * d0;
    }
};

struct multi_d_add_multiply
{
    static constexpr int num_d = 2;
    template <typename E>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E operator()(E v, E d0, E d1) const
    {
        return (v + d0) * d1;
    }
};

struct multi_d_multiply_add
{
    static constexpr int num_d = 2;
    template <typename E>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E operator()(E v, E d0, E d1) const
    {
        return v * d0 + d1;
    }
};

/// How many extra tensors `op` reads (0 for none and for unknown values).
CK_TILE_HOST_DEVICE constexpr int multi_d_inputs(gemm_multi_d_op op)
{
    switch(op)
    {
    case gemm_multi_d_op::add:
        return multi_d_add::num_d;
    case gemm_multi_d_op::multiply:
        return multi_d_multiply::num_d;
    case gemm_multi_d_op::add_multiply:
        return multi_d_add_multiply::num_d;
    case gemm_multi_d_op::multiply_add:
        return multi_d_multiply_add::num_d;
    case gemm_multi_d_op::none:
    default:
        return 0;
    }
}

/// Calls f(functor) with the functor of `op` and returns its result; `v` when op is none.
template <typename E, typename F>
CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E visit_multi_d(gemm_multi_d_op op, E v, const F& f)
{
    switch(op)
    {
    case gemm_multi_d_op::add:
        return f(multi_d_add{});
    case gemm_multi_d_op::multiply:
        return f(multi_d_multiply{});
    case gemm_multi_d_op::add_multiply:
        return f(multi_d_add_multiply{});
    case gemm_multi_d_op::multiply_add:
        return f(multi_d_multiply_add{});
    case gemm_multi_d_op::none:
    default:
        return v;
    }
}

/// op(v, load0(), load1()): the extra values are read only as far as the functor needs them.
template <typename E, typename Load0, typename Load1>
CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E combine_multi_d(gemm_multi_d_op op, E v,
                                                           const Load0& load0, const Load1& load1)
{
    return visit_multi_d(op, v, [&](auto fn) CK_TILE_FORCE_INLINE {
        if constexpr(decltype(fn)::num_d == 1)
            return E(fn(v, load0()));
        else
            return E(fn(v, load0(), load1()));
    });
}

/// One extra input: X(r, c) = p[r * stride_m + c * stride_n] of D's type, or of fp32 when
/// `fp32` is set. Batch b starts batch_stride elements further (0: one tensor for every batch).
struct gemm_multi_d_tensor
{
    const void* p             = nullptr;
    std::int64_t stride_m     = 0;
    std::int64_t stride_n     = 0;
    std::int64_t batch_stride = 0;
    bool fp32                 = false;

    template <typename D, typename E>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E load(std::int64_t r, std::int64_t c) const
    {
        const std::int64_t i = r * stride_m + c * stride_n;
        if(fp32)
            return static_cast<E>(static_cast<const float*>(p)[i]);
        return load_output_type<E>(static_cast<const D*>(p)[i]);
    }

    template <typename D>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE void select_batch(std::int64_t b)
    {
        const std::int64_t bytes = fp32 ? std::int64_t(sizeof(float)) : std::int64_t(sizeof(D));
        if(p)
            p = static_cast<const char*>(p) + b * batch_stride * bytes;
    }
};

/// The extra inputs of one GEMM and how they combine with the epilogue value.
struct gemm_multi_d
{
    gemm_multi_d_op op     = gemm_multi_d_op::none;
    bool before_activation = false;
    gemm_multi_d_tensor d0, d1;

    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE bool active() const
    {
        return op != gemm_multi_d_op::none;
    }

    /// The extra values at (r, c) of the current batch that op reads (the others stay 0), so
    /// a caller can issue the loads of several elements before any of their stores.
    template <typename D, typename E>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE void load(std::int64_t r, std::int64_t c, E& x0,
                                                       E& x1) const
    {
        const int inputs = multi_d_inputs(op);
        if(inputs >= 1)
            x0 = d0.template load<D, E>(r, c);
        if(inputs >= 2)
            x1 = d1.template load<D, E>(r, c);
    }

    /// op(v, x0, x1) with values from load(). @pre active().
    template <typename E>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E apply(E v, E x0, E x1) const
    {
        return combine_multi_d(
            op, v, [&]() CK_TILE_FORCE_INLINE { return x0; },
            [&]() CK_TILE_FORCE_INLINE { return x1; });
    }

    template <typename D>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE void select_batch(std::int64_t b)
    {
        d0.template select_batch<D>(b);
        d1.template select_batch<D>(b);
    }
};

/// act(v) with the multi-D combine at its point, given the extra values (gemm_multi_d::load):
/// the epilogue's step after bias. No extra work per element when no extra input is used (one
/// uniform branch).
template <typename E>
CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E activate_and_combine_values(const gemm_multi_d& md,
                                                                       gemm_activation act, E v,
                                                                       E x0, E x1)
{
    if(md.active() && md.before_activation)
        v = md.apply(v, x0, x1);
    v = apply_activation(act, v);
    if(md.active() && !md.before_activation)
        v = md.apply(v, x0, x1);
    return v;
}

/// The same, reading the extra values at (r, c).
template <typename D, typename E>
CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE E activate_and_combine(const gemm_multi_d& md,
                                                                gemm_activation act, E v,
                                                                std::int64_t r, std::int64_t c)
{
    E x0 = E(0), x1 = E(0);
    if(md.active())
        md.template load<D>(r, c, x0, x1);
    return activate_and_combine_values(md, act, v, x0, x1);
}

} // namespace ck_tile
