// SPDX-License-Identifier: MIT
// A reduction of a strided tensor of up to 6 axes over any set of its axes, in the form the
// reduce kernels take: the kept axes (one output element per kept index) and the reduced axes
// (folded into that element), each with its strides, after
//   - dropping axes of length 1 (they change no address),
//   - sorting each group by decreasing input stride (the order of the kept axes does not change
//     which element goes where, and the sum order is not specified),
//   - merging neighbours of a group that address like one longer axis.
// Then one of three kernels fits:
//   row     one reduced axis of stride 1 and at most one kept axis: rows x cols
//           (reduce_row_kernel, the last axis);
//   column  one reduced axis, a kept axis of input stride 1 (inner) and at most one more kept
//           axis (outer): outer x reduced x inner, read coalesced along inner
//           (reduce_column_kernel, e.g. column sums);
//   strided anything (reduce_strided_kernel).
// Host code only decides; the kernels read the arrays.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile {

enum class reduce_op : int
{
    sum         = 1,
    max         = 2,
    min         = 3,
    mean        = 4,
    sum_squares = 5
};

enum class reduce_pattern : int
{
    row,
    column,
    strided
};

inline constexpr index_t reduce_max_rank = 6;

/// Axes of one group (kept or reduced) after canonicalization, outermost first.
struct reduce_axes
{
    index_t rank                            = 0;
    long_index_t dims[reduce_max_rank]      = {};
    long_index_t x_strides[reduce_max_rank] = {};
    long_index_t y_strides[reduce_max_rank] = {}; // kept axes only

    CK_TILE_HOST_DEVICE long_index_t count() const
    {
        long_index_t n = 1;
        for(index_t i = 0; i < rank; ++i)
            n *= dims[i];
        return n;
    }
};

struct reduce_host_args
{
    const void* x = nullptr;
    void* y       = nullptr;
    reduce_op op  = reduce_op::sum;
    reduce_axes kept, reduced;
    reduce_pattern pattern = reduce_pattern::strided;

    /// Row pattern: rows x cols, row stride in x and element stride of y.
    CK_TILE_HOST_DEVICE long_index_t rows() const { return kept.rank ? kept.dims[0] : 1; }
    CK_TILE_HOST_DEVICE long_index_t cols() const { return reduced.dims[0]; }
    CK_TILE_HOST_DEVICE long_index_t x_row_stride() const
    {
        return kept.rank ? kept.x_strides[0] : 0;
    }
    CK_TILE_HOST_DEVICE long_index_t y_row_stride() const
    {
        return kept.rank ? kept.y_strides[0] : 0;
    }
};

namespace detail {
inline void reduce_sort_by_stride(reduce_axes& a)
{
    for(index_t i = 1; i < a.rank; ++i)
        for(index_t j = i; j > 0 && a.x_strides[j - 1] < a.x_strides[j]; --j)
        {
            auto swap = [](long_index_t& p, long_index_t& q) {
                const long_index_t t = p;
                p                    = q;
                q                    = t;
            };
            swap(a.dims[j - 1], a.dims[j]);
            swap(a.x_strides[j - 1], a.x_strides[j]);
            swap(a.y_strides[j - 1], a.y_strides[j]);
        }
}
/// Merges axis i + 1 into axis i where (i, i + 1) walks like one axis in x (and y when kept).
inline void reduce_merge(reduce_axes& a, bool kept)
{
    index_t n = 0;
    for(index_t i = 0; i < a.rank; ++i)
    {
        if(n > 0 && a.x_strides[n - 1] == a.x_strides[i] * a.dims[i] &&
           (!kept || a.y_strides[n - 1] == a.y_strides[i] * a.dims[i]))
        {
            a.dims[n - 1] *= a.dims[i];
            a.x_strides[n - 1] = a.x_strides[i];
            a.y_strides[n - 1] = a.y_strides[i];
            continue;
        }
        a.dims[n]      = a.dims[i];
        a.x_strides[n] = a.x_strides[i];
        a.y_strides[n] = a.y_strides[i];
        ++n;
    }
    a.rank = n;
}
} // namespace detail

/// The canonical form of a reduction. `reduce_mask` bit i set: axis i is reduced.
/// `y_strides` are the output's strides per input axis (ignored for reduced axes).
/// @pre 1 <= rank <= 6, dims >= 1, at least one reduced axis (validated by the caller).
/// @post kept.count() * reduced.count() == product(dims); reduced.rank >= 1 (an all-ones
///       reduction keeps one axis of length 1).
inline reduce_host_args make_reduce_host_args(reduce_op op, index_t rank, const long_index_t* dims,
                                              const long_index_t* x_strides,
                                              const long_index_t* y_strides, unsigned reduce_mask)
{
    reduce_host_args h;
    h.op = op;
    for(index_t i = 0; i < rank; ++i)
    {
        if(dims[i] == 1)
            continue;
        reduce_axes& g      = (reduce_mask >> i) & 1u ? h.reduced : h.kept;
        g.dims[g.rank]      = dims[i];
        g.x_strides[g.rank] = x_strides[i];
        g.y_strides[g.rank] = (reduce_mask >> i) & 1u ? 0 : y_strides[i];
        ++g.rank;
    }
    if(h.reduced.rank == 0)
    {
        // Every reduced axis has length 1: reduce over one element.
        h.reduced.rank         = 1;
        h.reduced.dims[0]      = 1;
        h.reduced.x_strides[0] = 1;
    }
    detail::reduce_sort_by_stride(h.kept);
    detail::reduce_sort_by_stride(h.reduced);
    detail::reduce_merge(h.kept, true);
    detail::reduce_merge(h.reduced, false);
    if(h.reduced.rank == 1 && h.reduced.x_strides[0] == 1 && h.kept.rank <= 1)
        h.pattern = reduce_pattern::row;
    else if(h.reduced.rank == 1 && h.kept.rank >= 1 && h.kept.rank <= 2 &&
            h.kept.x_strides[h.kept.rank - 1] == 1)
        h.pattern = reduce_pattern::column;
    else
        h.pattern = reduce_pattern::strided;
    return h;
}

/// How one reduction combines values: the transform of an input, the combine of two partial
/// results (associative, commutative, propagating NaN), its identity, and the final scaling.
template <reduce_op Op>
struct reduce_fold
{
    static constexpr bool is_max = Op == reduce_op::max;
    static constexpr bool is_min = Op == reduce_op::min;

    CK_TILE_HOST_DEVICE static constexpr float identity()
    {
        return is_max ? -__builtin_huge_valf() : is_min ? __builtin_huge_valf() : 0.f;
    }
    CK_TILE_HOST_DEVICE static float transform(float v)
    {
        return Op == reduce_op::sum_squares ? v * v : v;
    }
    CK_TILE_HOST_DEVICE float operator()(float a, float b) const
    {
        if constexpr(is_max)
            return (a != a || b != b) ? a + b : (a > b ? a : b);
        else if constexpr(is_min)
            return (a != a || b != b) ? a + b : (a < b ? a : b);
        else
            return a + b;
    }
    /// Folds one input value into a partial result.
    CK_TILE_HOST_DEVICE float fold(float acc, float v) const { return (*this)(acc, transform(v)); }
};

/// The result of `op` from the combined partial result of `count` inputs.
CK_TILE_HOST_DEVICE float reduce_finish(reduce_op op, float r, long_index_t count)
{
    return op == reduce_op::mean ? r / static_cast<float>(count) : r;
}

/// Calls f(reduce_fold<...>{}) with the fold of `op` as a compile-time value; mean folds like
/// sum (reduce_finish divides), so each kernel has four bodies, not five.
template <typename F>
CK_TILE_HOST_DEVICE void dispatch_reduce_op(reduce_op op, const F& f)
{
    switch(op)
    {
    case reduce_op::max:
        f(reduce_fold<reduce_op::max>{});
        break;
    case reduce_op::min:
        f(reduce_fold<reduce_op::min>{});
        break;
    case reduce_op::sum_squares:
        f(reduce_fold<reduce_op::sum_squares>{});
        break;
    default:
        f(reduce_fold<reduce_op::sum>{});
        break;
    }
}

} // namespace ck_tile
