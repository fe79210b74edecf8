// SPDX-License-Identifier: MIT
// Reduction over a non-contiguous axis: x seen as [outer, reduced, inner] with the inner axis
// contiguous, y[o, i] = finish(fold over r of x[o, r, i]) (column sums are outer = 1).
//
// A block owns TileI inner elements of one outer index and walks the whole reduced axis with a
// TileR x TileI window (column_tile.hpp): every load is coalesced along inner, every thread
// folds Vector columns in registers, and the ThreadsR partials of a column are combined once
// in shared memory. Rows past the end of the reduced axis are skipped, not read as zero.
//
// Kernel contract (why_unsupported): the column pattern of reduce_problem.hpp; a window's rows
// addressable with 32-bit offsets (TileR * reduced stride); a vectorized shape needs the inner
// length and both strides multiples of Vector and x 16-byte aligned.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/ops/reduce/column_tile.hpp"
#include "ck_tile/ops/reduce/reduce_problem.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_window.hpp"
#endif

#include <cstdint>

namespace ck_tile {

template <typename XDataType_, typename YDataType_, typename Shape_>
struct reduce_column_kernel
{
    using XDataType = XDataType_;
    using YDataType = YDataType_;
    using Shape     = Shape_;
    using Acc       = float;

    static constexpr index_t BlockSize = Shape::BlockSize;
    static constexpr index_t SharedMemoryBytes =
        static_cast<index_t>(sizeof(float)) * Shape::ThreadsR * Shape::TileI;

    /// The column pattern's three axes.
    struct geometry
    {
        long_index_t outer, reduced, inner;
        long_index_t x_outer_stride, x_reduced_stride;
        long_index_t y_outer_stride, y_inner_stride;
        long_index_t inner_tiles, tiles;
    };
    struct kargs
    {
        const void* x;
        void* y;
        reduce_op op;
        geometry g;
    };

    static geometry geometry_of(const reduce_host_args& h)
    {
        geometry g{};
        const bool has_outer = h.kept.rank == 2;
        g.outer              = has_outer ? h.kept.dims[0] : 1;
        g.x_outer_stride     = has_outer ? h.kept.x_strides[0] : 0;
        g.y_outer_stride     = has_outer ? h.kept.y_strides[0] : 0;
        g.inner              = h.kept.dims[h.kept.rank - 1];
        g.y_inner_stride     = h.kept.y_strides[h.kept.rank - 1];
        g.reduced            = h.reduced.dims[0];
        g.x_reduced_stride   = h.reduced.x_strides[0];
        g.inner_tiles        = (g.inner + Shape::TileI - 1) / Shape::TileI;
        g.tiles              = g.outer * g.inner_tiles;
        return g;
    }

    static const char* why_unsupported(const reduce_host_args& h)
    {
        if(h.pattern != reduce_pattern::column)
            return "not a reduction over a non-contiguous axis with a contiguous kept axis "
                   "(the column kernel's pattern)";
        const geometry g = geometry_of(h);
        if(static_cast<long_index_t>(Shape::TileR) * g.x_reduced_stride + g.inner >
           static_cast<long_index_t>(0x7fffffff))
            return "a window's rows span more than 2^31 elements (32-bit offsets in a window)";
        if constexpr(Shape::Vector > 1)
        {
            if(g.inner % Shape::Vector != 0)
                return "the contiguous kept length is not a multiple of the instance's vector "
                       "length";
            if(g.x_reduced_stride % Shape::Vector != 0 || g.x_outer_stride % Shape::Vector != 0)
                return "an input stride is not a multiple of the instance's vector length";
            if(h.x && reinterpret_cast<std::uintptr_t>(h.x) % (Shape::Vector * sizeof(XDataType)))
                return "x is not aligned to the instance's vector size (16 bytes)";
        }
        return nullptr;
    }
    static kargs make_kargs(const reduce_host_args& h) { return {h.x, h.y, h.op, geometry_of(h)}; }
    static unsigned grid_size(const kargs& k)
    {
        return static_cast<unsigned>(k.g.tiles < (1 << 20) ? k.g.tiles : (1 << 20));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        // One array for every op's body: a __shared__ inside each instantiation of run_tile
        // would be allocated once per op (4x the shared memory on AMD).
        __shared__ float smem[Shape::ThreadsR * Shape::TileI];
        dispatch_reduce_op(k.op, [&](auto fold) {
            for(long_index_t t = get_block_id(); t < k.g.tiles; t += get_grid_size())
                run_tile(k, t, fold, smem);
        });
    }

    template <typename Fold>
    CK_TILE_DEVICE static void run_tile(const kargs& k, long_index_t tile, Fold fold, float* smem)
    {
        using tile_f = decltype(make_static_distributed_tensor<Acc>(Shape::make_distribution()));
        const geometry& g      = k.g;
        const long_index_t o   = tile / g.inner_tiles;
        const index_t i0       = static_cast<index_t>((tile % g.inner_tiles) * Shape::TileI);
        const index_t inner    = static_cast<index_t>(g.inner);
        const index_t my_row   = Shape::first_row();
        const XDataType* x_o   = static_cast<const XDataType*>(k.x) + o * g.x_outer_stride;
        const index_t r_stride = static_cast<index_t>(g.x_reduced_stride);

        float acc[Shape::Vector];
        for(index_t v = 0; v < Shape::Vector; ++v)
            acc[v] = Fold::identity();
        for(long_index_t r0 = 0; r0 < g.reduced; r0 += Shape::TileR)
        {
            // A window per step, based at row r0 in 64 bits, keeps offsets inside it 32-bit.
            const long_index_t left = g.reduced - r0;
            const index_t rows = static_cast<index_t>(left < Shape::TileR ? left : Shape::TileR);
            auto view          = make_naive_tensor_view<address_space_enum::global>(
                x_o + r0 * g.x_reduced_stride, make_tuple(rows, inner), make_tuple(r_stride, 1),
                number<Shape::Vector>{}, number<1>{});
            auto win =
                make_tile_window(view, Shape::lengths(), {0, i0}, Shape::make_distribution());
            tile_f t;
            win.load(t);
            Shape::template for_each_element<tile_f>([&](auto i, index_t dr, index_t v) {
                if(my_row + dr < rows)
                    acc[v] = fold.fold(acc[v], t.get_thread_buffer()[i]);
            });
        }

        // Partials of one column meet in shared memory; a thread per column finishes it.
        for(index_t v = 0; v < Shape::Vector; ++v)
            smem[my_row * Shape::TileI + Shape::first_inner() + v] = acc[v];
        block_sync_lds();
        for(index_t c = get_thread_id(); c < Shape::TileI; c += BlockSize)
        {
            float r = smem[c];
            for(index_t t = 1; t < Shape::ThreadsR; ++t)
                r = fold(r, smem[t * Shape::TileI + c]);
            if(i0 + c < inner)
                static_cast<YDataType*>(k.y)[o * g.y_outer_stride + (i0 + c) * g.y_inner_stride] =
                    type_convert<YDataType>(reduce_finish(k.op, r, g.reduced));
        }
        // The next tile reuses smem.
        block_sync_lds();
    }
#endif
};

} // namespace ck_tile
