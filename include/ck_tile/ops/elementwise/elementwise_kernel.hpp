// SPDX-License-Identifier: MIT
// Elementwise operations over strided tensors of up to 6 axes with NumPy broadcasting:
// y = f(alpha * a) or y = f(alpha * a, beta * b), in fp32, converted to Y's type (round to
// nearest even, overflow to infinity, NaN kept).
//
// Two paths, chosen by the instance (Vectorized), both fed the coalesced iteration space
// (strided_space: tensor 0 = y, 1 = a, 2 = b):
// - Vectorized: the space is one contiguous axis or rows of contiguous elements (any row
//   strides, 0 included: a row vector broadcast over rows). Tiles of Shape (row_tile_shape:
//   RowsPerBlock x TileN) are moved through tile windows with 16-byte accesses of the widest
//   type; blocks walk the tiles with a grid-stride loop. A contiguous tensor whose length is
//   not a whole number of vectors ends with a scalar tail.
// - General: any space. Each thread walks linear output indices with a grid-stride loop and
//   finds every tensor's offset from the axes; one element per access, any alignment.
//
// In place (y identical to a or b: same pointer, type and strides) is allowed: each element
// is read before it is written, by the thread that writes it.
//
// The identity between equal types with alpha 1 (every permutation, every plain copy) moves
// the stored bits without going through fp32: NaN payloads survive (fp32 arithmetic on the
// GPU returns the canonical NaN) and no time goes to conversions.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_window.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/elementwise/elementwise_op.hpp"
#include "ck_tile/ops/elementwise/strided_space.hpp"
#include "ck_tile/ops/reduce/row_tile.hpp"

#include <cstdint>
#include <type_traits>

namespace ck_tile {

/// The "operation" of a bit copy (elementwise_kernel's identity between equal types).
struct elementwise_copy_fn
{};

struct elementwise_host_args
{
    const void* a     = nullptr;
    const void* b     = nullptr; ///< null for unary operations
    void* y           = nullptr;
    elementwise_op op = elementwise_op::identity;
    float alpha = 1.f, beta = 1.f;
    strided_space<3> space; ///< coalesced; tensor 0 = y, 1 = a, 2 = b (strides 0 when unary)
};

/// @tparam Shape a row_tile_shape of the widest of the three types (its vectors are 16 bytes
///         of that type when Vectorized, one element otherwise).
template <typename ADataType_, typename BDataType_, typename YDataType_, typename Shape_,
          bool Vectorized>
struct elementwise_kernel
{
    using ADataType = ADataType_;
    using BDataType = BDataType_;
    using YDataType = YDataType_;
    using Shape     = Shape_;

    static constexpr index_t BlockSize = Shape::BlockSize;
    static constexpr index_t Vector    = Shape::Vector;
    static_assert(!Vectorized || Vector > 1 || sizeof(ADataType) == 16,
                  "elementwise_kernel: a vectorized shape moves several elements per access");

    struct kargs
    {
        elementwise_host_args h;
        long_index_t rows, cols, body_cols; ///< vectorized path: the matrix and its vector part
        long_index_t row_groups, chunks;    ///< vectorized path: tiles = row_groups x chunks
        long_index_t total;                 ///< tiles (vectorized) or elements (general)
    };

    /// The vectorized path's view of the space: rows x cols, unit inner strides.
    /// @return false when the space is not of that form.
    static bool as_matrix(const strided_space<3>& s, bool binary, long_index_t& rows,
                          long_index_t& cols, long_index_t (&row_stride)[3])
    {
        if(s.rank > 2)
            return false;
        rows = s.rank == 2 ? s.lengths[0] : 1;
        cols = s.rank >= 1 ? s.lengths[s.rank - 1] : 1;
        for(index_t t = 0; t < 3; ++t)
        {
            if(t == 2 && !binary)
            {
                row_stride[t] = 0;
                continue;
            }
            if(s.rank >= 1 && s.strides[t][s.rank - 1] != 1)
                return false;
            row_stride[t] = s.rank == 2 ? s.strides[t][0] : 0;
        }
        return true;
    }

    static const char* why_unsupported(const elementwise_host_args& h)
    {
        if constexpr(!Vectorized)
            return nullptr;
        else
        {
            const bool binary = is_binary(h.op);
            long_index_t rows = 0, cols = 0, rs[3] = {};
            if(!as_matrix(h.space, binary, rows, cols, rs))
                return "the tensors do not reduce to rows of contiguous elements (after "
                       "merging axes); the general instance runs any strides";
            if(cols > 0x7fffffff - Shape::TileN)
                return "a row longer than 2^31 - 1 elements (less one tile)";
            // The grid-stride loop steps a 32-bit tile index by at most 2^16 blocks.
            if((rows + Shape::RowsPerBlock - 1) / Shape::RowsPerBlock *
                   ((cols + Shape::TileN - 1) / Shape::TileN) >
               0x7fffffff - (1 << 16))
                return "more than 2^31 - 2^16 tiles";
            if(rows > 1 && cols % Vector != 0)
                return "the row length is not a multiple of the vector length";
            const void* ptrs[3]     = {h.y, h.a, h.b};
            const std::size_t sz[3] = {sizeof(YDataType), sizeof(ADataType), sizeof(BDataType)};
            for(index_t t = 0; t < (binary ? 3 : 2); ++t)
            {
                if(rows > 1 && rs[t] % Vector != 0)
                    return "a row stride is not a multiple of the vector length";
                if(rs[t] * Shape::RowsPerBlock > 0x7fffffff / 2)
                    return "a row stride too large for 32-bit offsets within a tile";
                if(ptrs[t] && reinterpret_cast<std::uintptr_t>(ptrs[t]) % (sz[t] * Vector) != 0)
                    return "a pointer is not aligned to the vector size";
            }
            return nullptr;
        }
    }

    static kargs make_kargs(const elementwise_host_args& h)
    {
        kargs k{};
        k.h = h;
        if constexpr(Vectorized)
        {
            long_index_t rs[3];
            as_matrix(h.space, is_binary(h.op), k.rows, k.cols, rs);
            k.body_cols  = k.cols / Vector * Vector;
            k.row_groups = (k.rows + Shape::RowsPerBlock - 1) / Shape::RowsPerBlock;
            k.chunks     = (k.body_cols + Shape::TileN - 1) / Shape::TileN;
            k.total      = k.row_groups * k.chunks;
            if(k.total == 0 && k.cols > 0)
                k.total = 1; // shorter than one vector: the tail alone
        }
        else
            k.total = h.space.element_count();
        return k;
    }
    static unsigned grid_size(const kargs& k)
    {
        long_index_t blocks = Vectorized ? k.total : (k.total + BlockSize - 1) / BlockSize;
        // Enough blocks to fill any GPU many times over; the grid-stride loops do the rest.
        return static_cast<unsigned>(blocks < (1 << 16) ? blocks : (1 << 16));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        if constexpr(std::is_same_v<ADataType, YDataType>)
        {
            if(k.h.op == elementwise_op::identity && k.h.alpha == 1.f)
            {
                if constexpr(Vectorized)
                    run_tiles(k, elementwise_copy_fn{});
                else
                    run_general(k, elementwise_copy_fn{});
                return;
            }
        }
        // The operation is chosen once per launch; each branch is the whole loop for one
        // functor, so the inner loop carries no switch.
        dispatch_elementwise_op(k.h.op, [&](auto f) {
            if constexpr(Vectorized)
                run_tiles(k, f);
            else
                run_general(k, f);
        });
    }

    template <typename F>
    CK_TILE_DEVICE static float apply(const F& f, float a, float b, const elementwise_host_args& h)
    {
        return f(h.alpha * a, h.beta * b);
    }

    /// ta = f(alpha * ta, beta * tb), element by element (tb read only for binary ops).
    template <typename F, typename Tile>
    CK_TILE_DEVICE static void apply_tile(const F& f, Tile& ta, const Tile& tb, bool binary,
                                          const elementwise_host_args& h)
    {
        static_for<0, Tile::get_thread_buffer_size(), 1>{}([&](auto i) {
            ta.get_thread_buffer()[i] =
                apply(f, ta.get_thread_buffer()[i], binary ? tb.get_thread_buffer()[i] : 0.f, h);
        });
    }
    /// A copy leaves the tile as loaded.
    template <typename Tile>
    CK_TILE_DEVICE static void apply_tile(const elementwise_copy_fn&, Tile&, const Tile&, bool,
                                          const elementwise_host_args&)
    {}

    /// Stores a tile through a window of Y. A tile of another type is converted into a tile
    /// of Y first: converting inside the store makes the compiler split each 16-byte vector of
    /// a 2-byte type into 4-byte stores (seen in the PTX), converting first keeps one store.
    template <typename Window, typename Tile>
    CK_TILE_DEVICE static void store_as_y(Window& w, const Tile& t)
    {
        if constexpr(std::is_same_v<typename Tile::DataType, YDataType>)
            w.store(t);
        else
        {
            auto ty = make_static_distributed_tensor<YDataType>(Shape::make_distribution());
            static_for<0, Tile::get_thread_buffer_size(), 1>{}([&](auto i) {
                ty.get_thread_buffer()[i] = type_convert<YDataType>(t.get_thread_buffer()[i]);
            });
            w.store(ty);
        }
    }

    template <typename F>
    CK_TILE_DEVICE static void run_general(const kargs& k, const F& f)
    {
        const auto& h                      = k.h;
        [[maybe_unused]] const bool binary = is_binary(h.op);
        const auto* pa                     = static_cast<const ADataType*>(h.a);
        const auto* pb                     = static_cast<const BDataType*>(h.b);
        auto* py                           = static_cast<YDataType*>(h.y);
        const long_index_t step            = static_cast<long_index_t>(get_grid_size()) * BlockSize;
        for(long_index_t i =
                static_cast<long_index_t>(get_block_id()) * BlockSize + get_thread_id();
            i < k.total; i += step)
        {
            long_index_t off[3];
            h.space.offsets(i, off);
            if constexpr(std::is_same_v<F, elementwise_copy_fn>)
                py[off[0]] = pa[off[1]];
            else
            {
                const float a = type_convert<float>(pa[off[1]]);
                const float b = binary ? type_convert<float>(pb[off[2]]) : 0.f;
                py[off[0]]    = type_convert<YDataType>(apply(f, a, b, h));
            }
        }
    }

    template <typename T>
    CK_TILE_DEVICE static auto tile_view(T* p, long_index_t row_stride, index_t rows, index_t cols)
    {
        return make_naive_tensor_view<address_space_enum::global>(
            p, make_tuple(rows, cols), make_tuple(static_cast<index_t>(row_stride), 1),
            number<Vector>{}, number<1>{});
    }

    template <typename F>
    CK_TILE_DEVICE static void run_tiles(const kargs& k, const F& f)
    {
        const auto& h                      = k.h;
        [[maybe_unused]] const bool binary = is_binary(h.op);
        const auto& s                      = h.space;
        const long_index_t rs_y            = s.rank == 2 ? s.strides[0][0] : 0;
        const long_index_t rs_a            = s.rank == 2 ? s.strides[1][0] : 0;
        const long_index_t rs_b            = s.rank == 2 ? s.strides[2][0] : 0;
        const auto* pa                     = static_cast<const ADataType*>(h.a);
        const auto* pb                     = static_cast<const BDataType*>(h.b);
        auto* py                           = static_cast<YDataType*>(h.y);

        constexpr auto dstr    = Shape::make_distribution();
        constexpr auto lengths = Shape::lengths();
        constexpr bool copy    = std::is_same_v<F, elementwise_copy_fn>;
        // A copy keeps the stored type in registers; every operation computes in fp32.
        using compute_t = std::conditional_t<copy, ADataType, float>;
        using tile_f    = decltype(make_static_distributed_tensor<compute_t>(dstr));

        // 32-bit tile and column indices (why_unsupported bounds both): with 64-bit ones the
        // compiler splits the 16-byte stores of 2-byte types into 4-byte pieces (seen in PTX).
        const index_t tiles  = static_cast<index_t>(k.row_groups * k.chunks);
        const index_t chunks = static_cast<index_t>(k.chunks);
        for(index_t t = get_block_id(); t < tiles; t += get_grid_size())
        {
            const index_t rg        = t / chunks;
            const long_index_t row0 = static_cast<long_index_t>(rg) * Shape::RowsPerBlock;
            const index_t col0      = (t - rg * chunks) * Shape::TileN;
            const index_t nrows     = static_cast<index_t>(
                k.rows - row0 < Shape::RowsPerBlock ? k.rows - row0 : Shape::RowsPerBlock);
            const index_t ncols = static_cast<index_t>(
                k.body_cols - col0 < Shape::TileN ? k.body_cols - col0 : Shape::TileN);

            tile_f ta, tb;
            auto a_win = make_tile_window(tile_view(pa + row0 * rs_a + col0, rs_a, nrows, ncols),
                                          lengths, {0, 0}, dstr);
            a_win.load(ta);
            if(binary)
            {
                auto b_win = make_tile_window(
                    tile_view(pb + row0 * rs_b + col0, rs_b, nrows, ncols), lengths, {0, 0}, dstr);
                b_win.load(tb);
            }
            apply_tile(f, ta, tb, binary, h);
            auto y_win = make_tile_window(tile_view(py + row0 * rs_y + col0, rs_y, nrows, ncols),
                                          lengths, {0, 0}, dstr);
            store_as_y(y_win, ta);
        }

        // A single contiguous row whose length is not a whole number of vectors: the last
        // cols % Vector elements, one per thread of the last block.
        if(k.rows == 1 && k.body_cols < k.cols && get_block_id() == (k.total - 1) % get_grid_size())
        {
            const long_index_t j = k.body_cols + get_thread_id();
            if constexpr(copy)
            {
                if(j < k.cols)
                    py[j] = pa[j];
            }
            else if(j < k.cols)
            {
                const float a = type_convert<float>(pa[j]);
                const float b = binary ? type_convert<float>(pb[j]) : 0.f;
                py[j]         = type_convert<YDataType>(apply(f, a, b, h));
            }
        }
    }
#endif
};

} // namespace ck_tile
