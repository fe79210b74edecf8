// SPDX-License-Identifier: MIT
// Moving a register tile from one distribution to another without memory, where the two
// distributions allow it: shuffle_tile (same tile, another distribution) and transpose_tile
// (the transposed tile), plus the encoding of the transposed tile.
//
// When is it a register move? Only when every thread holds the same elements in both
// distributions; then each thread just reorders its own registers. X is the row-major
// combination of its H factors and every factor is indexed by one P or one Y, so the tile
// offset of a thread's element splits into two independent parts:
//
//   X(p, y) = X(p, 0) + X(0, y)        (X(0, 0) == 0)
//
// Every thread holds the same elements in both, through one reordering of buffer positions
// that is the same for all threads (the only kind that costs no instructions), exactly when
//   - the tiles have the same lengths and the P dimensions the same lengths (the same threads),
//   - every thread's first element is at the same place (X(p, 0) equal for all p; X(p, 0) is
//     itself a sum over the P dimensions, so checking each P alone covers all of them), and
//   - the per-thread offset sets {X(0, y)} are equal.
// (Necessary too: if out(p, y) == in(p, s(y)) for all p, then X_in(p, 0) - X_out(p, 0) does
// not depend on p and is zero at p = 0.) These cover Ys listed in another order, an H factor
// split into several Ys or several merged into one, and a transposed tile whose encoding
// swaps the X dimensions. They are checked at compile time from the encodings alone; what
// fails is named in a static_assert. Anything else moves elements between threads and goes
// through shared memory: store_tile with one distribution, block_sync_lds(), load_tile with
// the other (see the copy through LDS in the distribution tests).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <type_traits>

namespace ck_tile {

namespace detail {

// Tile offsets read off an encoding without building its adaptor (cheaper to evaluate at
// compile time for every element): each H factor adds its value times the product of the H
// lengths inside it in the same X; R factors add nothing.
template <typename Encoding>
struct encoding_offsets
{
    using E       = Encoding;
    using x_index = array<index_t, E::NDimX>;
    using pma     = seqs_table<typename E::Ps2RHssMajor>;
    using pmi     = seqs_table<typename E::Ps2RHssMinor>;
    using ys_len  = typename E::detail::ys_lengths;

    static constexpr index_t num_elements = ys_len::product();

    CK_TILE_HOST_DEVICE static constexpr index_t h_stride(index_t major, index_t minor)
    {
        index_t s = 1;
        for(index_t m = minor + 1; E::detail::rh_length(major, m) > 0; ++m)
            s *= E::detail::rh_length(major, m);
        return s;
    }
    CK_TILE_HOST_DEVICE static constexpr void add(x_index& x, index_t major, index_t minor,
                                                  index_t value)
    {
        if(major > 0)
            x[major - 1] += value * h_stride(major, minor);
    }
    /// X(0, y) for the Y index at buffer position d (the Y -> D map is row-major, last Y
    /// fastest).
    CK_TILE_HOST_DEVICE static constexpr x_index of_buffer_position(index_t d)
    {
        x_index x{};
        for(index_t y = E::NDimY - 1; y >= 0; --y)
        {
            const index_t len = ys_len::at(y);
            add(x, E::Ys2RHsMajor::at(y), E::Ys2RHsMinor::at(y), d % len);
            d /= len;
        }
        return x;
    }
    /// X(p, 0) for the partition index whose P dimension p is v and every other P is 0 (a P is
    /// the row-major merge of its factors, the last fastest).
    CK_TILE_HOST_DEVICE static constexpr x_index of_p(index_t p, index_t v)
    {
        x_index x{};
        for(index_t j = pma::size(p) - 1; j >= 0; --j)
        {
            const index_t len = E::detail::rh_length(pma::at(p, j), pmi::at(p, j));
            add(x, pma::at(p, j), pmi::at(p, j), v % len);
            v /= len;
        }
        return x;
    }
};

// Whether out's share of each thread is a reordering of in's share of the same thread, where
// out's X dimension i is in's X dimension XMap[i] (identity: the same tile; reversed: the
// transposed tile); and if so, which of in's buffer positions each of out's reads. Each check
// holds vacuously when an earlier one fails, so a failure gives exactly one message.
template <typename InEncoding, typename OutEncoding, typename XMap>
struct register_shuffle_plan
{
    using in_off  = encoding_offsets<InEncoding>;
    using out_off = encoding_offsets<OutEncoding>;
    using in_xs   = typename InEncoding::detail::xs_lengths;
    using out_xs  = typename OutEncoding::detail::xs_lengths;
    using in_ps   = typename InEncoding::detail::ps_lengths;
    using out_ps  = typename OutEncoding::detail::ps_lengths;

    static constexpr index_t ndim_x = OutEncoding::NDimX;
    static constexpr index_t n_out  = out_off::num_elements;
    static constexpr index_t n_in   = in_off::num_elements;

    CK_TILE_HOST_DEVICE static constexpr bool x_map_ok()
    {
        return InEncoding::NDimX == ndim_x && XMap::size() == ndim_x &&
               is_valid_sequence_map_v<XMap>;
    }
    CK_TILE_HOST_DEVICE static constexpr bool same_lengths_if_mapped()
    {
        if(!x_map_ok())
            return true;
        for(index_t i = 0; i < ndim_x; ++i)
            if(out_xs::at(i) != in_xs::at(XMap::at(i)))
                return false;
        return true;
    }
    CK_TILE_HOST_DEVICE static constexpr bool lengths_ok()
    {
        return x_map_ok() && same_lengths_if_mapped();
    }
    CK_TILE_HOST_DEVICE static constexpr bool same_partition_if_lengths()
    {
        if(!lengths_ok())
            return true;
        if(in_ps::size() != out_ps::size())
            return false;
        for(index_t p = 0; p < out_ps::size(); ++p)
            if(in_ps::at(p) != out_ps::at(p))
                return false;
        return true;
    }
    CK_TILE_HOST_DEVICE static constexpr bool partition_ok()
    {
        return lengths_ok() && same_partition_if_lengths();
    }
    CK_TILE_HOST_DEVICE static constexpr bool same_count_if_partition()
    {
        return !partition_ok() || n_in == n_out;
    }
    CK_TILE_HOST_DEVICE static constexpr bool count_ok()
    {
        return partition_ok() && same_count_if_partition();
    }

    // in's offset in out's X order.
    CK_TILE_HOST_DEVICE static constexpr typename out_off::x_index
    mapped(const typename in_off::x_index& x)
    {
        typename out_off::x_index r{};
        for(index_t i = 0; i < ndim_x; ++i)
            r[i] = x[XMap::at(i)];
        return r;
    }
    CK_TILE_HOST_DEVICE static constexpr bool equal(const typename out_off::x_index& a,
                                                    const typename out_off::x_index& b)
    {
        for(index_t i = 0; i < ndim_x; ++i)
            if(a[i] != b[i])
                return false;
        return true;
    }

    CK_TILE_HOST_DEVICE static constexpr bool same_origins_if_count()
    {
        if(!count_ok())
            return true;
        for(index_t p = 0; p < out_ps::size(); ++p)
            for(index_t v = 0; v < out_ps::at(p); ++v)
                if(!equal(out_off::of_p(p, v), mapped(in_off::of_p(p, v))))
                    return false;
        return true;
    }
    CK_TILE_HOST_DEVICE static constexpr bool origins_ok()
    {
        return count_ok() && same_origins_if_count();
    }

    /// sources()[d]: in's buffer position holding out's element at buffer position d; -1 for
    /// an element this thread does not hold in `in` (all -1 when an earlier check fails).
    CK_TILE_HOST_DEVICE static constexpr array<index_t, n_out> sources()
    {
        array<index_t, n_out> src{};
        for(index_t d = 0; d < n_out; ++d)
            src[d] = -1;
        if constexpr(n_in == n_out)
        {
            if(!origins_ok())
                return src;
            array<typename out_off::x_index, n_in> in_x{};
            for(index_t e = 0; e < n_in; ++e)
                in_x[e] = mapped(in_off::of_buffer_position(e));
            for(index_t d = 0; d < n_out; ++d)
            {
                const auto x = out_off::of_buffer_position(d);
                for(index_t e = 0; e < n_in && src[d] < 0; ++e)
                    if(equal(in_x[e], x))
                        src[d] = e;
            }
        }
        return src;
    }
    static constexpr array<index_t, n_out> source_table = sources();

    CK_TILE_HOST_DEVICE static constexpr bool same_elements_if_origins()
    {
        if(!origins_ok())
            return true;
        for(index_t d = 0; d < n_out; ++d)
            if(source_table[d] < 0)
                return false;
        return true;
    }
    static constexpr bool value = origins_ok() && same_elements_if_origins();
};

// The checks with their messages, then the register copy.
template <typename XMap, typename OutTensor, typename InTensor>
CK_TILE_HOST_DEVICE constexpr void register_shuffle(OutTensor& out, const InTensor& in)
{
    using out_t = remove_cvref_t<OutTensor>;
    using in_t  = remove_cvref_t<InTensor>;
    static_assert(is_static_distributed_tensor_v<out_t> && is_static_distributed_tensor_v<in_t>,
                  "shuffle_tile/transpose_tile: expects static_distributed_tensors");
    using plan = register_shuffle_plan<typename in_t::StaticTileDistribution::DstrEncode,
                                       typename out_t::StaticTileDistribution::DstrEncode, XMap>;
    static_assert(plan::x_map_ok(),
                  "shuffle_tile/transpose_tile: the tiles have different numbers of X dimensions");
    static_assert(plan::same_lengths_if_mapped(),
                  "shuffle_tile/transpose_tile: the tiles have different lengths (transpose_tile: "
                  "the output's lengths must be the input's reversed)");
    static_assert(plan::same_partition_if_lengths(),
                  "shuffle_tile/transpose_tile: the distributions have different P lengths, i.e. "
                  "they split the tile among different sets of threads; no register move exists. "
                  "Go through shared memory: store_tile with one distribution, block_sync_lds(), "
                  "load_tile with the other");
    static_assert(plan::same_count_if_partition(),
                  "shuffle_tile/transpose_tile: a thread holds a different number of elements in "
                  "the two distributions, so elements must move between threads. Go through "
                  "shared memory: store_tile with one distribution, block_sync_lds(), load_tile "
                  "with the other");
    static_assert(plan::same_origins_if_count(),
                  "shuffle_tile/transpose_tile: the P mappings differ (a thread's first element "
                  "is at different tile positions in the two distributions), so elements must "
                  "move between threads. Go through shared memory: store_tile with one "
                  "distribution, block_sync_lds(), load_tile with the other");
    static_assert(plan::same_elements_if_origins(),
                  "shuffle_tile/transpose_tile: a thread holds different elements in the two "
                  "distributions (their Ys name different parts of the tile), so elements must "
                  "move between threads. Go through shared memory: store_tile with one "
                  "distribution, block_sync_lds(), load_tile with the other");

    static_for<0, plan::n_out, 1>{}([&](auto d) {
        constexpr index_t s = plan::source_table[decltype(d)::value];
        out.get_thread_buffer()[d] =
            type_convert<typename out_t::DataType>(in.get_thread_buffer()[number<s>{}]);
    });
}

// X dimension order N-1, ..., 0.
template <index_t N>
using reversed_x_map = typename sequence_reverse<make_index_sequence<N>>::type;

// RH major of X dimension i (major 1 + i) after the X dimensions are reversed; R stays 0.
template <index_t NDimX>
struct reverse_rh_major_fn
{
    CK_TILE_HOST_DEVICE constexpr index_t operator()(index_t major) const
    {
        return major == 0 ? 0 : NDimX + 1 - major;
    }
};

template <index_t NDimX, typename PsMajor>
struct reversed_ps_major;
template <index_t NDimX, typename... Seqs>
struct reversed_ps_major<NDimX, tuple<Seqs...>>
{
    using type = tuple<decltype(Seqs::transform(reverse_rh_major_fn<NDimX>{}))...>;
};

template <typename Hs, typename Order>
struct reordered_hs;
template <typename Hs, index_t... Is>
struct reordered_hs<Hs, sequence<Is...>>
{
    using type = tuple<remove_cvref_t<decltype(Hs{}[number<Is>{}])>...>;
};

} // namespace detail

/// True when shuffle_tile can move a tile distributed as InDistribution into OutDistribution
/// inside each thread's registers (see the file comment); false means shared memory.
template <typename OutDistribution, typename InDistribution>
inline constexpr bool can_shuffle_tile_v =
    detail::register_shuffle_plan<typename InDistribution::DstrEncode,
                                  typename OutDistribution::DstrEncode,
                                  make_index_sequence<OutDistribution::NDimX>>::value;

/// out = in, redistributed: each thread reorders its own registers (no memory, no lane
/// exchange, no instructions beyond register moves, which the compiler usually folds away).
/// Converts elements to out's type. Fails to compile, naming the reason, when the two
/// distributions give a thread different elements.
/// @post for every thread p and every Y index y of out:
///       out(p, y) == in's element at tile index X_out(p, y).
template <typename OutTensor, typename InTensor>
CK_TILE_HOST_DEVICE constexpr void shuffle_tile(OutTensor& out, const InTensor& in)
{
    using out_t = remove_cvref_t<OutTensor>;
    detail::register_shuffle<make_index_sequence<out_t::NDimX>>(out, in);
}

/// The encoding of the transposed tile: X dimensions in reverse order (for a 2-D tile, rows
/// and columns swapped) and Ys in reverse order. Every thread holds the transposes of the
/// elements it held, so transpose_tile into it is a register move; reversing the Ys makes the
/// innermost register dimension the one along the new last X when it was along the old first
/// X, which is the point of transposing in registers: e.g. an M x K tile read with vectors
/// along K, with each thread holding a few consecutive rows, becomes a K x M tile whose
/// registers run along M.
/// @post make_transposed_encoding(make_transposed_encoding(e)) == e.
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr auto make_transposed_encoding(Encoding)
{
    using E = remove_cvref_t<Encoding>;
    static_assert(is_tile_distribution_encoding<E>::value,
                  "make_transposed_encoding: expects a tile_distribution_encoding");
    constexpr index_t n = E::NDimX;
    using major_fn      = detail::reverse_rh_major_fn<n>;
    using hs =
        typename detail::reordered_hs<typename E::HsLengthss, detail::reversed_x_map<n>>::type;
    using ps_major          = typename detail::reversed_ps_major<n, typename E::Ps2RHssMajor>::type;
    using ys_major_reversed = typename sequence_reverse<typename E::Ys2RHsMajor>::type;
    using ys_major          = decltype(ys_major_reversed::transform(major_fn{}));
    using ys_minor          = typename sequence_reverse<typename E::Ys2RHsMinor>::type;
    return tile_distribution_encoding<typename E::RsLengths, hs, ps_major, typename E::Ps2RHssMinor,
                                      ys_major, ys_minor>{};
}

/// The distribution of the transposed tile (see make_transposed_encoding); takes an encoding
/// or a distribution.
template <typename EncodingOrDistribution>
CK_TILE_HOST_DEVICE constexpr auto make_transposed_distribution(EncodingOrDistribution)
{
    using T = remove_cvref_t<EncodingOrDistribution>;
    if constexpr(is_tile_distribution<T>::value)
        return make_static_tile_distribution(make_transposed_encoding(typename T::DstrEncode{}));
    else
        return make_static_tile_distribution(make_transposed_encoding(T{}));
}

/// out = the transpose of in (X dimensions in reverse order), each thread reordering its own
/// registers. out may have any distribution under which every thread holds the transposes of
/// the elements it holds in in; make_transposed_distribution(in's distribution) is one.
/// @post for every thread p and every Y index y of out, with x = X_out(p, y):
///       out(p, y) == in's element at tile index (x[N-1], ..., x[0]).
template <typename OutTensor, typename InTensor>
CK_TILE_HOST_DEVICE constexpr void transpose_tile(OutTensor& out, const InTensor& in)
{
    using out_t = remove_cvref_t<OutTensor>;
    detail::register_shuffle<detail::reversed_x_map<out_t::NDimX>>(out, in);
}

/// The transpose of `in` in a new register tile distributed as
/// make_transposed_distribution(in's distribution).
template <typename InTensor>
CK_TILE_HOST_DEVICE constexpr auto transpose_tile(const InTensor& in)
{
    using in_t = remove_cvref_t<InTensor>;
    static_assert(is_static_distributed_tensor_v<in_t>,
                  "transpose_tile: expects a static_distributed_tensor");
    using dstr_t =
        decltype(make_transposed_distribution(typename in_t::StaticTileDistribution::DstrEncode{}));
    static_distributed_tensor<typename in_t::DataType, dstr_t> out;
    transpose_tile(out, in);
    return out;
}

} // namespace ck_tile
