// SPDX-License-Identifier: MIT
// Reduction of any strided tensor of up to 6 axes over any set of its axes: the general
// instance, correct for every problem the C API accepts (any strides, any alignment, every
// pattern of reduce_problem.hpp).
//
// A warp owns one output element: its lanes stride over the reduced elements (decoding each
// linear index into the reduced axes' offsets), fold them, and combine with shuffles. No
// window or vector access fits arbitrary strides, so loads are scalar; the row and column
// kernels cover the layouts that are worth reading in tiles.
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
    static constexpr index_t SharedMemoryBytes = 0;

    struct kargs
    {
        reduce_host_args h;
        long_index_t outputs, reduced;
    };

    static const char* why_unsupported(const reduce_host_args&) { return nullptr; }
    static kargs make_kargs(const reduce_host_args& h)
    {
        return {h, h.kept.count(), h.reduced.count()};
    }
    static unsigned grid_size(const kargs& k)
    {
        const long_index_t blocks = (k.outputs + Shape::Warps - 1) / Shape::Warps;
        return static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// The offsets of linear index `n` of `axes` (last axis fastest) in x and in y. The axes
    /// are read at compile-time indices: indexing the kernel's arguments at run time made nvcc
    /// copy them to a 352-byte local-memory frame.
    CK_TILE_DEVICE static void offsets(const reduce_axes& axes, long_index_t n, long_index_t& xo,
                                       long_index_t& yo)
    {
        xo = 0;
        yo = 0;
        static_for<0, reduce_max_rank, 1>{}([&](auto j) {
            constexpr index_t a = reduce_max_rank - 1 - decltype(j)::value;
            if(a < axes.rank)
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
        dispatch_reduce_op(k.h.op, [&](auto fold) { run(k, fold); });
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
            offsets(k.h.kept, out, xo, yo);
            float acc = Fold::identity();
            for(long_index_t j = get_lane_id(); j < k.reduced; j += Shape::Warp)
            {
                long_index_t ro = 0, unused = 0;
                offsets(k.h.reduced, j, ro, unused);
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
