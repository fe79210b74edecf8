// SPDX-License-Identifier: MIT
// Reduction of any strided tensor of up to 6 axes over any set of its axes: the general
// instance, correct for every problem the C API accepts (any strides, any alignment, every
// pattern of reduce_problem.hpp).
//
// A warp owns one output element: its lanes stride over the reduced elements (decoding each
// linear index into the reduced axes' offsets), fold them, and combine with shuffles. No
// window or vector access fits arbitrary strides, so loads are scalar; the row and column
// kernels cover the layouts that are worth reading in tiles.
//
// Where the innermost reduced axis is contiguous, at least RowsModeMinLength long, and the
// reduction at least 4 elements per thread of a block (the statistics of a batch norm: x
// [N, C, H x W] reduced over N and H x W), a block owns one output instead and sweeps the
// reduced space row by row: the row's offset is decoded once, and the block's threads read
// consecutive elements of it (coalesced), folding into independent partials so that several
// loads per thread are in flight. The warps' partials meet in shared memory. A warp per output
// left such problems (few outputs, long reductions) with a few dozen warps on the whole GPU.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/reduce/reduce_problem.hpp"

namespace ck_tile {

template <typename XDataType_, typename YDataType_, index_t Warps_>
struct reduce_strided_kernel
{
    using XDataType = XDataType_;
    using YDataType = YDataType_;
    /// The description of the instance, in the form of the row shapes (a warp per output).
    struct Shape
    {
        static constexpr index_t Warps     = Warps_;
        static constexpr index_t Warp      = get_warp_size();
        static constexpr index_t BlockSize = Warps * Warp;
        static constexpr index_t Vector    = 1;
    };
    static constexpr index_t BlockSize         = Shape::BlockSize;
    static constexpr index_t SharedMemoryBytes = static_cast<index_t>(sizeof(float)) * Shape::Warps;
    /// The shortest contiguous innermost reduced axis that the block-per-output form takes.
    static constexpr long_index_t RowsModeMinLength = 64;
    /// Independent partials per thread in the block-per-output form.
    static constexpr index_t Partials = 4;

    struct kargs
    {
        reduce_host_args h;
        long_index_t outputs, reduced;
        long_index_t row_length; ///< > 0: block per output, rows of this many contiguous elements
    };

    static const char* why_unsupported(const reduce_host_args&) { return nullptr; }
    static kargs make_kargs(const reduce_host_args& h)
    {
        const reduce_axes& r = h.reduced;
        const bool rows      = r.rank > 0 && r.x_strides[r.rank - 1] == 1 &&
                          r.dims[r.rank - 1] >= RowsModeMinLength && r.count() >= 4 * BlockSize;
        return {h, h.kept.count(), r.count(), rows ? r.dims[r.rank - 1] : 0};
    }
    static unsigned grid_size(const kargs& k)
    {
        const long_index_t per_block = k.row_length > 0 ? 1 : Shape::Warps;
        const long_index_t blocks    = (k.outputs + per_block - 1) / per_block;
        return static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// The offsets of linear index `n` of the first `rank` of `axes` (the last of them
    /// fastest) in x and in y. The axes are read at compile-time indices: indexing the kernel's
    /// arguments at run time made nvcc copy them to a 352-byte local-memory frame.
    CK_TILE_DEVICE static void offsets(const reduce_axes& axes, index_t rank, long_index_t n,
                                       long_index_t& xo, long_index_t& yo)
    {
        xo = 0;
        yo = 0;
        static_for<0, reduce_max_rank, 1>{}([&](auto j) {
            constexpr index_t a = reduce_max_rank - 1 - decltype(j)::value;
            if(a < rank)
            {
                const long_index_t q = n / axes.dims[a];
                const long_index_t i = n - q * axes.dims[a];
                n                    = q;
                xo += i * axes.x_strides[a];
                yo += i * axes.y_strides[a];
            }
        });
    }

    CK_TILE_DEVICE void operator()(kargs k) const
    {
        __shared__ float partials[Shape::Warps];
        dispatch_reduce_op(k.h.op, [&](auto fold) {
            if(k.row_length > 0)
                run_rows(k, fold, partials);
            else
                run(k, fold);
        });
    }

    /// Block per output: the reduced space as rows of row_length contiguous elements.
    template <typename Fold>
    CK_TILE_DEVICE static void run_rows(const kargs& k, Fold fold, float* partials)
    {
        const auto* x             = static_cast<const XDataType*>(k.h.x);
        const long_index_t len    = k.row_length;
        const long_index_t rows   = k.reduced / len;
        const index_t outer_rank  = k.h.reduced.rank - 1;
        const long_index_t thread = get_thread_id();
        for(long_index_t out = get_block_id(); out < k.outputs; out += get_grid_size())
        {
            long_index_t xo = 0, yo = 0;
            offsets(k.h.kept, k.h.kept.rank, out, xo, yo);
            float acc[Partials];
            for(index_t p = 0; p < Partials; ++p)
                acc[p] = Fold::identity();
            for(long_index_t r = 0; r < rows; ++r)
            {
                long_index_t ro = 0, unused = 0;
                offsets(k.h.reduced, outer_rank, r, ro, unused);
                const XDataType* row = x + xo + ro;
                long_index_t c       = thread;
                for(; c + (Partials - 1) * BlockSize < len; c += Partials * BlockSize)
                {
                    float v[Partials];
                    for(index_t p = 0; p < Partials; ++p)
                        v[p] = type_convert<float>(row[c + p * BlockSize]);
                    for(index_t p = 0; p < Partials; ++p)
                        acc[p] = fold.fold(acc[p], v[p]);
                }
                for(; c < len; c += BlockSize)
                    acc[0] = fold.fold(acc[0], type_convert<float>(row[c]));
            }
            float a = acc[0];
            for(index_t p = 1; p < Partials; ++p)
                a = fold(a, acc[p]);
            for(index_t mask = Shape::Warp / 2; mask > 0; mask /= 2)
                a = fold(a, warp_shuffle_xor(a, mask));
            if(get_lane_id() == 0)
                partials[get_warp_id()] = a;
            block_sync_lds();
            if(thread == 0)
            {
                for(index_t w = 1; w < Shape::Warps; ++w)
                    a = fold(a, partials[w]);
                static_cast<YDataType*>(k.h.y)[yo] =
                    type_convert<YDataType>(reduce_finish(k.h.op, a, k.reduced));
            }
            block_sync_lds(); // partials is reused by the next output
        }
    }

    template <typename Fold>
    CK_TILE_DEVICE static void run(const kargs& k, Fold fold)
    {
        const auto* x            = static_cast<const XDataType*>(k.h.x);
        const long_index_t first = static_cast<long_index_t>(get_block_id()) * Shape::Warps;
        const long_index_t step  = static_cast<long_index_t>(get_grid_size()) * Shape::Warps;
        for(long_index_t out = first + get_warp_id(); out < k.outputs; out += step)
        {
            long_index_t xo = 0, yo = 0;
            offsets(k.h.kept, k.h.kept.rank, out, xo, yo);
            float acc = Fold::identity();
            for(long_index_t j = get_lane_id(); j < k.reduced; j += Shape::Warp)
            {
                long_index_t ro = 0, unused = 0;
                offsets(k.h.reduced, k.h.reduced.rank, j, ro, unused);
                acc = fold.fold(acc, type_convert<float>(x[xo + ro]));
            }
            for(index_t mask = Shape::Warp / 2; mask > 0; mask /= 2)
                acc = fold(acc, warp_shuffle_xor(acc, mask));
            if(get_lane_id() == 0)
                static_cast<YDataType*>(k.h.y)[yo] =
                    type_convert<YDataType>(reduce_finish(k.h.op, acc, k.reduced));
        }
    }
#endif
};

} // namespace ck_tile
