// SPDX-License-Identifier: MIT
// Batched transpose through shared memory: y[batch][p][q] = x[batch][q][p], where x is
// contiguous along p and y along q (the coalesced form of every permutation that swaps the
// two innermost groups of axes; up to 4 batch axes with any strides).
//
// A block moves Tile x Tile elements (Tile = 8 vectors of 16 bytes: 64 for 2-byte types, 32
// for fp32) per step: a tile window reads x's tile as 16-byte vectors along p, the thread
// stores them to shared memory, and after one barrier reads the transposed elements back so
// that a second tile window writes y's tile as 16-byte vectors along q. Both global accesses
// are coalesced: 8 lanes cover one 128-byte line.
//
// Bank conflicts: shared memory holds x's tile row-major (rows q, 8 vectors per 128-byte row).
// The transposed read has the lanes of a warp take one element each from rows q = V k + j
// (k = 0..7, the lanes' vectors along q, j the element of the vector being read) of one
// column: unswizzled, those eight rows start on the same bank. The vector column is XORed
// with (q / V) % 8, so the eight rows hit eight different 16-byte bank groups (conflict-free),
// while the eight lanes that write one row's 16-byte vectors still hit eight different
// groups. (lds_xor_swizzle.hpp's layout XORs with q % 8, which suits reads of consecutive
// rows; here the rows read together are V apart.) Two buffers alternate, so one barrier per
// tile suffices.
//
// TilesAhead > 0 (staged): a block moves TilesPerBlock consecutive tiles, and every thread
// copies its own vectors of the next TilesAhead tiles of x straight into their swizzled places
// in shared memory (cp.async on NVIDIA; arch/async_copy.hpp) while the block writes the current
// one, so reads stay in flight through the barrier and the stores instead of waiting for the
// registers a tile passes through. TilesAhead + 1 buffers, one barrier per tile. Staged tiles
// may be wider along p (WidthVectors 16-byte vectors instead of 8: x is read in longer runs per
// row) and follow each other along q, so that the blocks resident together write whole rows of
// y one after another: on the H100, fp16 32768 x 4096 went from 2602 GB/s (square 4-warp
// tiles) to 2769 with 64 x 128 tiles of 8 warps, two per block. The swizzle only touches the
// low three bits of a vector column, so the bank argument above holds for every 8-vector group
// of a wider row.
//
// Kernel contract (checked by why_unsupported): P, Q, x's q stride and y's p stride multiples
// of the vector; 16-byte aligned pointers; each batch's matrix addressable with 32-bit
// offsets.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/async_copy.hpp"
#include "ck_tile/core/arch/memory_word.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"
#include "ck_tile/core/tensor/tile_window.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/elementwise/strided_space.hpp"

#include <cstdint>

namespace ck_tile {

struct transpose_host_args
{
    const void* x = nullptr;
    void* y       = nullptr;
    strided_space<2> space; ///< coalesced; tensor 0 = y, 1 = x (axes in y's order)
};

/// The tile of transpose_kernel and its distributions: x's tile is Tile rows (q) of Width
/// elements (p, WidthVectors 16-byte vectors), y's tile Width rows of Tile. Square tiles
/// (WidthVectors 8) move x's tile with 8 lanes per row, a warp covering warp/8 rows, Warps warps
/// stacked, Repeat passes.
template <typename DataType, index_t Warps, index_t WidthVectors = 8>
struct transpose_tile_shape
{
    static constexpr index_t Vector    = 16 / static_cast<index_t>(sizeof(DataType));
    static constexpr index_t Tile      = 8 * Vector;
    static constexpr index_t Width     = WidthVectors * Vector;
    static constexpr index_t Warp      = get_warp_size();
    static constexpr index_t LanesC    = 8;
    static constexpr index_t LanesR    = Warp / LanesC;
    static constexpr index_t BlockSize = Warps * Warp;
    static_assert(Tile % (Warps * LanesR) == 0,
                  "transpose_tile_shape: the warps' rows must divide the tile");
    static constexpr index_t Repeat = Tile / (Warps * LanesR);

    // X0: rows = Repeat x Warps x LanesR; X1: columns = LanesC x Vector.
    // P0 (warp) -> warp row block; P1 (lane) -> (lane row, lane column); Y -> (repeat, element).
    using encoding = tile_distribution_encoding<
        sequence<>, tuple<sequence<Repeat, Warps, LanesR>, sequence<LanesC, Vector>>,
        tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>,
        sequence<0, 1>>;

    CK_TILE_HOST_DEVICE static constexpr auto make_distribution()
    {
        return make_static_tile_distribution(encoding{});
    }

    // 2-byte types: y's tile is written by threads that own two neighbouring rows p, p + 1 of
    // one 16-byte column vector, so each 4-byte shared-memory word read (x's elements (q, p)
    // and (q, p + 1)) feeds both rows: half the shared-memory loads of one element per load.
    // X0: rows (Width) = PairRepeat x Warps x LanesR x 2; X1 as above; Y -> (repeat, row of
    // the pair, element).
    static constexpr bool Paired = sizeof(DataType) == 2 && Width % (Warps * LanesR * 2) == 0;
    static constexpr index_t PairRepeat = Paired ? Width / (Warps * LanesR * 2) : 1;
    static_assert(WidthVectors % 8 == 0 && (WidthVectors == 8 || Paired),
                  "transpose_tile_shape: wider tiles are multiples of 8 vectors, 2-byte types");
    using paired_encoding = tile_distribution_encoding<
        sequence<>, tuple<sequence<PairRepeat, Warps, LanesR, 2>, sequence<LanesC, Vector>>,
        tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 1, 2>,
        sequence<0, 3, 1>>;
    CK_TILE_HOST_DEVICE static constexpr auto make_paired_distribution()
    {
        return make_static_tile_distribution(paired_encoding{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto x_lengths()
    {
        return make_tuple(number<Tile>{}, number<Width>{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto y_lengths()
    {
        return make_tuple(number<Width>{}, number<Tile>{});
    }
    /// Shared-memory element index of x's tile element (row q, col p): the vector column's low
    /// three bits XOR (row / V) % 8, so every 8-vector group of a row stays in place.
    CK_TILE_HOST_DEVICE static constexpr index_t lds_index(index_t row, index_t col)
    {
        return row * Width + (((col / Vector) ^ ((row / Vector) % 8)) * Vector) + col % Vector;
    }
};

template <typename DataType_, index_t Warps, index_t TilesAhead_ = 0, index_t WidthVectors = 8>
struct transpose_kernel
{
    using DataType                      = DataType_;
    static constexpr index_t TilesAhead = TilesAhead_;
    static constexpr bool Staged        = TilesAhead > 0;
    /// Consecutive tiles a staged block moves (neighbours along q: y's rows written on). Two
    /// per tile ahead: four ran 1.5% slower (fp16, 64 x 128 tiles, H100), the first tile of
    /// each run being the one whose copy nothing overlaps within the block.
    static constexpr index_t TilesPerBlock = Staged ? 2 * TilesAhead : 1;
    /// Shared-memory buffers of Tile x Width elements.
    static constexpr index_t Buffers = Staged ? TilesAhead + 1 : 2;
    static_assert(TilesAhead >= 0 && TilesAhead <= 4, "0 to 4 tiles ahead");
    static_assert(Staged || WidthVectors == 8, "unstaged tiles are square");
    using Shape                        = transpose_tile_shape<DataType, Warps, WidthVectors>;
    static constexpr index_t BlockSize = Shape::BlockSize;
    static constexpr index_t Vector    = Shape::Vector;
    static constexpr index_t Tile      = Shape::Tile;  ///< along q (x's rows, y's columns)
    static constexpr index_t Width     = Shape::Width; ///< along p (x's columns, y's rows)
    /// 16-byte copies per thread per staged tile.
    static constexpr index_t CopiesPerThread = Tile * WidthVectors / BlockSize;
    static_assert(!Staged || CopiesPerThread * BlockSize == Tile * WidthVectors,
                  "a staged tile's vectors are spread evenly over the threads");
    /// Blocks per compute unit the compiler must keep resident (__launch_bounds__): the tiles
    /// in flight are what a transpose's speed follows. Uncapped it took 48 registers (10
    /// blocks of 4 warps per H100 SM); capped at 40, 12 fit: 32768 x 4096 fp16 went from 2430
    /// to 2556 GB/s. A cap of 32 registers (16 blocks) spilled and ran at 2333.
    static constexpr index_t MinBlocksPerCu = Warps == 4 ? 12 : 6;

    struct kargs
    {
        transpose_host_args h;
        long_index_t P, Q, x_stride, y_stride; ///< x(q, p) at q * x_stride + p; y(p, q) likewise
        index_t batch_rank;
        long_index_t tiles_p, tiles_q, tiles;
    };

    /// True when the coalesced space is a (batched) transpose: y's last axis and x's
    /// second-to-last axis have unit stride, at most 4 batch axes in front.
    static bool is_transpose(const strided_space<2>& s)
    {
        return s.rank >= 2 && s.strides[0][s.rank - 1] == 1 && s.strides[1][s.rank - 2] == 1 &&
               s.strides[1][s.rank - 1] != 1 && s.rank - 2 <= 4;
    }

    static const char* why_unsupported(const transpose_host_args& h)
    {
        const auto& s = h.space;
        if(!is_transpose(s))
            return "not a transpose of the two innermost axis groups (after merging axes)";
        const long_index_t P = s.lengths[s.rank - 2], Q = s.lengths[s.rank - 1];
        const long_index_t xs = s.strides[1][s.rank - 1], ys = s.strides[0][s.rank - 2];
        if(P % Vector != 0 || Q % Vector != 0)
            return "the transposed extents are not multiples of the 16-byte vector";
        if(xs % Vector != 0 || ys % Vector != 0)
            return "a row stride of the transposed matrices is not a multiple of the vector";
        if((Q - 1) * xs + P > 0x7fffffff || (P - 1) * ys + Q > 0x7fffffff)
            return "a batch's matrix needs offsets beyond 32 bits";
        for(const void* p : {h.x, static_cast<const void*>(h.y)})
            if(p && reinterpret_cast<std::uintptr_t>(p) % 16 != 0)
                return "a pointer is not 16-byte aligned";
        return nullptr;
    }

    static kargs make_kargs(const transpose_host_args& h)
    {
        kargs k{};
        k.h                  = h;
        const auto& s        = h.space;
        k.P                  = s.lengths[s.rank - 2];
        k.Q                  = s.lengths[s.rank - 1];
        k.x_stride           = s.strides[1][s.rank - 1];
        k.y_stride           = s.strides[0][s.rank - 2];
        k.batch_rank         = s.rank - 2;
        k.tiles_p            = (k.P + Width - 1) / Width;
        k.tiles_q            = (k.Q + Tile - 1) / Tile;
        long_index_t batches = 1;
        for(index_t d = 0; d < k.batch_rank; ++d)
            batches *= s.lengths[d];
        k.tiles = batches * k.tiles_p * k.tiles_q;
        return k;
    }
    static unsigned grid_size(const kargs& k)
    {
        const long_index_t blocks = (k.tiles + TilesPerBlock - 1) / TilesPerBlock;
        return static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// Writes y's tile (tp, tq) from x's tile in shared memory `l`, two rows per thread.
    CK_TILE_DEVICE static void store_paired(const DataType* l, DataType* y, const kargs& k,
                                            index_t tp, index_t tq)
    {
        struct alignas(4) pair_t
        {
            DataType lo, hi;
        };
        constexpr auto dstr = Shape::make_paired_distribution();
        using tile_t        = decltype(make_static_distributed_tensor<DataType>(dstr));
        const index_t pair0 = get_warp_id() * Shape::LanesR + get_lane_id() / Shape::LanesC;
        const index_t col0  = (get_lane_id() % Shape::LanesC) * Vector;
        tile_t ty;
        static_for<0, Shape::PairRepeat, 1>{}([&](auto rep) {
            constexpr index_t r0 = decltype(rep)::value;
            // Rows p and p + 1 of y are columns p and p + 1 of x's tile: one 4-byte word of
            // each row q that lands in this thread's column vector (p is even, V too).
            const index_t p = (r0 * Shape::LanesR * Warps + pair0) * 2;
            static_for<0, Vector, 1>{}([&](auto e) {
                constexpr index_t ev = decltype(e)::value;
                const pair_t w =
                    *reinterpret_cast<const pair_t*>(l + Shape::lds_index(col0 + ev, p));
                constexpr index_t i0 = tile_t::calculate_offset_from_y(make_multi_index(r0, 0, ev));
                constexpr index_t i1 = tile_t::calculate_offset_from_y(make_multi_index(r0, 1, ev));
                ty.get_thread_buffer()[number<i0>{}] = w.lo;
                ty.get_thread_buffer()[number<i1>{}] = w.hi;
            });
        });
        const index_t P = static_cast<index_t>(k.P), Q = static_cast<index_t>(k.Q);
        auto y_win = make_tile_window(make_naive_tensor_view<address_space_enum::global>(
                                          y, make_tuple(P, Q),
                                          make_tuple(static_cast<index_t>(k.y_stride), 1),
                                          number<Vector>{}, number<1>{}),
                                      Shape::y_lengths(), {tp * Width, tq * Tile}, dstr);
        y_win.store(ty);
    }

    /// Where tile t lies: its tile coordinates in its batch's matrix and the batch's offsets
    /// into x and y. Unstaged, tiles follow each other along p (the blocks resident together
    /// read x's rows on); staged, along q (they write y's rows on, and x is read in runs of
    /// Width elements per row).
    struct place
    {
        index_t tp, tq;
        long_index_t xoff, yoff;
    };
    CK_TILE_DEVICE static place locate(const kargs& k, long_index_t t)
    {
        const auto& s        = k.h.space;
        long_index_t rest    = t / (k.tiles_p * k.tiles_q);
        const long_index_t r = t - rest * (k.tiles_p * k.tiles_q);
        place w;
        if constexpr(Staged)
        {
            w.tp = static_cast<index_t>(r / k.tiles_q);
            w.tq = static_cast<index_t>(r - static_cast<long_index_t>(w.tp) * k.tiles_q);
        }
        else
        {
            w.tq = static_cast<index_t>(r / k.tiles_p);
            w.tp = static_cast<index_t>(r - static_cast<long_index_t>(w.tq) * k.tiles_p);
        }
        w.xoff = 0, w.yoff = 0;
        // Batch axes innermost first, at compile-time indices: a run-time index into the
        // kernel's arguments would copy them to local memory.
        static_for<0, 4, 1>{}([&](auto j) {
            constexpr index_t d = 3 - decltype(j)::value;
            if(d < k.batch_rank)
            {
                const long_index_t len = s.lengths[d];
                const long_index_t q   = rest / len;
                const long_index_t idx = rest - q * len;
                rest                   = q;
                w.yoff += idx * s.strides[0][d];
                w.xoff += idx * s.strides[1][d];
            }
        });
        return w;
    }

    /// This thread's place in the distribution (the same for x's and y's tile).
    CK_TILE_DEVICE static index_t thread_row()
    {
        return get_warp_id() * Shape::LanesR + get_lane_id() / Shape::LanesC;
    }
    CK_TILE_DEVICE static index_t thread_col() { return (get_lane_id() % Shape::LanesC) * Vector; }

    /// Writes y's tile at `w` from x's tile in shared memory `l`.
    CK_TILE_DEVICE static void write_y(const DataType* l, const kargs& k, const place& w)
    {
        auto* py = static_cast<DataType*>(k.h.y);
        if constexpr(Shape::Paired)
            store_paired(l, py + w.yoff, k, w.tp, w.tq);
        else
        {
            constexpr auto dstr = Shape::make_distribution();
            using tile_t        = decltype(make_static_distributed_tensor<DataType>(dstr));
            const index_t P = static_cast<index_t>(k.P), Q = static_cast<index_t>(k.Q);
            const index_t row0 = thread_row(), col0 = thread_col();
            // y's tile: rows p, columns q; element (p, q) is x's tile element (q, p).
            tile_t ty;
            static_for<0, Shape::Repeat, 1>{}([&](auto rep) {
                constexpr index_t r0 = decltype(rep)::value;
                const index_t p      = r0 * Shape::LanesR * Warps + row0;
                static_for<0, Vector, 1>{}([&](auto e) {
                    constexpr index_t i =
                        tile_t::calculate_offset_from_y(make_multi_index(r0, decltype(e)::value));
                    ty.get_thread_buffer()[number<i>{}] =
                        l[Shape::lds_index(col0 + decltype(e)::value, p)];
                });
            });
            auto y_win = make_tile_window(make_naive_tensor_view<address_space_enum::global>(
                                              py + w.yoff, make_tuple(P, Q),
                                              make_tuple(static_cast<index_t>(k.y_stride), 1),
                                              number<Vector>{}, number<1>{}),
                                          Shape::y_lengths(), {w.tp * Width, w.tq * Tile}, dstr);
            y_win.store(ty);
        }
    }

    /// Staged: this thread's vectors of x's tile t into `l` (their swizzled places; edges
    /// zero-filled), then one commit group, also when t is past the block's last tile. Vector
    /// c = i * BlockSize + thread of the tile's Tile x WidthVectors: consecutive threads copy
    /// consecutive vectors of a row.
    CK_TILE_DEVICE static void copy_tile_async(DataType* l, const kargs& k, long_index_t t,
                                               long_index_t end)
    {
        if(t < end)
        {
            const place w   = locate(k, t);
            const auto* px  = static_cast<const DataType*>(k.h.x);
            const index_t P = static_cast<index_t>(k.P), Q = static_cast<index_t>(k.Q);
            const index_t tid = static_cast<index_t>(get_thread_id());
            const index_t col = (tid % WidthVectors) * Vector;
            const index_t p   = w.tp * Width + col;
            static_for<0, CopiesPerThread, 1>{}([&](auto i) {
                const index_t row = (decltype(i)::value * BlockSize + tid) / WidthVectors;
                const index_t q   = w.tq * Tile + row;
                const bool real   = q < Q && p < P;
                const DataType* src =
                    real ? px + w.xoff + static_cast<long_index_t>(q) * k.x_stride + p : px;
                arch::copy_16_bytes_async(l + Shape::lds_index(row, col), src, real ? 16u : 0u);
            });
        }
        arch::copy_async_commit();
    }

    CK_TILE_DEVICE void operator()(kargs k) const
    {
        struct alignas(16) vec_t
        {
            DataType v[Vector];
        };
        static_assert(sizeof(vec_t) == 16, "a vector is 16 bytes");
        // Declared as vectors so that it is 16-byte aligned on every compiler (every thread
        // stores whole 16-byte vectors); used as Tile x Width elements per buffer.
        __shared__ vec_t lds_vectors[Buffers][Tile * Width / Vector];

        if constexpr(Staged)
        {
            const long_index_t begin = static_cast<long_index_t>(get_block_id()) * TilesPerBlock;
            const long_index_t end =
                begin + TilesPerBlock < k.tiles ? begin + TilesPerBlock : k.tiles;
            static_for<0, TilesAhead, 1>{}([&](auto a) {
                copy_tile_async(lds_vectors[decltype(a)::value][0].v, k, begin + decltype(a)::value,
                                end);
            });
            for(index_t i = 0; begin + i < end; ++i)
            {
                arch::copy_async_wait<TilesAhead - 1>(); // this thread's part of tile i
                // Every part of tile i is in; every thread is done with the buffer read one
                // tile ago, which the next copy refills.
                block_sync_lds();
                copy_tile_async(lds_vectors[(i + TilesAhead) % Buffers][0].v, k,
                                begin + i + TilesAhead, end);
                write_y(lds_vectors[i % Buffers][0].v, k, locate(k, begin + i));
            }
            arch::copy_async_wait<0>();
        }
        else
        {
            constexpr auto dstr    = Shape::make_distribution();
            constexpr auto lengths = Shape::x_lengths();
            using tile_t           = decltype(make_static_distributed_tensor<DataType>(dstr));
            const auto* px         = static_cast<const DataType*>(k.h.x);
            const index_t P = static_cast<index_t>(k.P), Q = static_cast<index_t>(k.Q);
            const index_t row0 = thread_row(), col0 = thread_col();
            using word_t = arch::memory_word_t<16>;
            index_t buf  = 0;
            for(long_index_t t = get_block_id(); t < k.tiles; t += get_grid_size())
            {
                const place w    = locate(k, t);
                const index_t tp = w.tp, tq = w.tq;
                const long_index_t xoff = w.xoff;

                // x's tile: rows q (tq * Tile ...), columns p, 16-byte vectors along p.
                auto x_win = make_tile_window(make_naive_tensor_view<address_space_enum::global>(
                                                  px + xoff, make_tuple(Q, P),
                                                  make_tuple(static_cast<index_t>(k.x_stride), 1),
                                                  number<Vector>{}, number<1>{}),
                                              lengths, {tq * Tile, tp * Width}, dstr);
                tile_t tx;
                x_win.load(tx);

                DataType* l = lds_vectors[buf][0].v;
                static_for<0, Shape::Repeat, 1>{}([&](auto rep) {
                    constexpr index_t r0 = decltype(rep)::value;
                    vec_t v;
                    static_for<0, Vector, 1>{}([&](auto e) {
                        constexpr index_t i = tile_t::calculate_offset_from_y(
                            make_multi_index(r0, decltype(e)::value));
                        v.v[decltype(e)::value] = tx.get_thread_buffer()[number<i>{}];
                    });
                    // As one native word: copied as a struct of 2-byte elements, nvcc splits the
                    // 16-byte shared-memory store into 2-byte stores (seen in the PTX).
                    const index_t row = r0 * Shape::LanesR * Warps + row0;
                    arch::store_shared_word(
                        reinterpret_cast<word_t*>(l + Shape::lds_index(row, col0)),
                        __builtin_bit_cast(word_t, v));
                });
                block_sync_lds();
                write_y(l, k, w);
                buf ^= 1;
            }
        }
    }
#endif
};

} // namespace ck_tile
