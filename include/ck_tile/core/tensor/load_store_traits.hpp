// SPDX-License-Identifier: MIT
// load_store_traits: how a tile window moves one thread's share of a tile, decided at compile
// time from the distribution, the element type and what the memory allows.
//
// Vector dimension. In the last X dimension (the contiguous one of a row-major view) the
// innermost H factor has X stride 1; when a Y names it, that Y's consecutive values are
// consecutive elements in memory, so they can move as one vector. No other Y has stride 1 in
// the fastest X, so this is the only candidate. Without such a Y every access is scalar.
//
// Vector length. The largest power of two that divides the Y's length (a vector never spans
// two runs), fits in 16 bytes (the widest single load or store on both vendors) and divides
// MaxVectorLength, what the memory guarantees (a view's promised vector length along its last
// dimension; 1 where nothing is promised). Every other factor of the last X is a multiple of
// the run length, so a thread's vectors start at multiples of the vector length relative to
// the window origin: aligned whenever the origin and the row stride are.
//
// Access order. A snake space-filling curve over the Y lengths with the vector dimension
// innermost (so a vector is one access) and the other Ys in encoding order: consecutive
// accesses differ in one Y by one step, and the coordinate moves between them are small
// constants.
#pragma once

#include "ck_tile/core/algorithm/space_filling_curve.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

namespace ck_tile {

/// Bytes moved by the widest vector access we emit (one 128-bit load or store).
inline constexpr index_t max_vector_access_bytes = 16;

namespace detail {
// Y dimension naming the innermost H factor of the last X dimension, or -1.
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr index_t find_contiguous_y()
{
    constexpr index_t last_major = Encoding::NDimX; // RH major of X dimension NDimX - 1
    constexpr index_t inner_minor =
        remove_cvref_t<decltype(Encoding::hs_lengthss_[number<Encoding::NDimX - 1>{}])>::size() - 1;
    return Encoding::detail::rhs_major_minor_to_y(last_major, inner_minor);
}

// Largest power of two p with p | length, p * elem_bytes <= 16 and p | max_len.
CK_TILE_HOST_DEVICE constexpr index_t pick_vector_length(index_t length, index_t elem_bytes,
                                                         index_t max_len)
{
    index_t best = 1;
    for(index_t p = 2; p <= length && p * elem_bytes <= max_vector_access_bytes; p *= 2)
        if(length % p == 0 && max_len % p == 0)
            best = p;
    return best;
}

// Y order with `last` moved to the end (identity when last is -1 or already last).
template <index_t NDimY, index_t Last>
struct access_order_gen
{
    static constexpr index_t n = NDimY;
    CK_TILE_HOST_DEVICE static constexpr array<index_t, (NDimY > 0 ? NDimY : 1)> values()
    {
        array<index_t, (NDimY > 0 ? NDimY : 1)> r{};
        index_t k = 0;
        for(index_t y = 0; y < NDimY; ++y)
            if(y != Last)
                r[k++] = y;
        if(Last >= 0)
            r[k] = Last;
        return r;
    }
};
template <index_t NDimY, index_t VectorDim, index_t Length>
struct scalars_per_access_gen
{
    static constexpr index_t n = NDimY;
    CK_TILE_HOST_DEVICE static constexpr array<index_t, (NDimY > 0 ? NDimY : 1)> values()
    {
        array<index_t, (NDimY > 0 ? NDimY : 1)> r{};
        for(index_t y = 0; y < NDimY; ++y)
            r[y] = y == VectorDim ? Length : 1;
        return r;
    }
};
} // namespace detail

/// What a vectorized access looks like: its first Y index, the Y it runs along and its length.
template <index_t NDimY>
struct vectorized_access_info
{
    multi_index<NDimY> base_indices;
    index_t vector_dim;
    index_t vector_size;
};

template <typename TileDistribution_, typename DataType_,
          index_t MaxVectorLength = max_vector_access_bytes>
struct load_store_traits
{
    using TileDistribution = remove_cvref_t<TileDistribution_>;
    using DataType         = remove_cvref_t<DataType_>;
    using Encoding         = typename TileDistribution::DstrEncode;
    using ys_lengths       = typename Encoding::detail::ys_lengths;

    static_assert(MaxVectorLength >= 1, "load_store_traits: the memory's vector length is >= 1");

    static constexpr index_t ndim_x = TileDistribution::get_num_of_dimension_x();
    static constexpr index_t ndim_y = TileDistribution::get_num_of_dimension_y();

    /// The Y that a vector runs along (stride 1 in the last X), or -1 when there is none.
    static constexpr index_t contiguous_y = detail::find_contiguous_y<Encoding>();
    /// The Y a vector runs along; the last Y when every access is scalar.
    static constexpr index_t vector_dim_y =
        contiguous_y >= 0 ? contiguous_y : (ndim_y > 0 ? ndim_y - 1 : 0);
    /// Elements per access (1: scalar).
    /// @post a power of two; divides the length of vector_dim_y and MaxVectorLength;
    ///       scalar_per_vector * sizeof(DataType) <= 16.
    static constexpr index_t scalar_per_vector =
        contiguous_y >= 0
            ? detail::pick_vector_length(ys_lengths::at(contiguous_y),
                                         static_cast<index_t>(sizeof(DataType)), MaxVectorLength)
            : 1;
    static constexpr index_t scalars_per_access = scalar_per_vector;

    using vector_t = ext_vector_t<DataType, scalar_per_vector>;

    using dim_access_order = detail::sequence_from_values_t<
        detail::access_order_gen<ndim_y, (contiguous_y >= 0 ? contiguous_y : -1)>>;
    using scalars_per_access_seq = detail::sequence_from_values_t<
        detail::scalars_per_access_gen<ndim_y, vector_dim_y, scalar_per_vector>>;
    using sfc_type =
        space_filling_curve<ndim_y, ys_lengths, dim_access_order, scalars_per_access_seq, true>;
    static constexpr sfc_type sfc_ys = {};

    /// Accesses per thread.
    /// @post num_access * scalar_per_vector == elements per thread.
    static constexpr index_t num_access = sfc_type::get_num_of_access();
    static_assert(num_access * scalar_per_vector ==
                      TileDistribution::get_num_of_element_per_thread(),
                  "load_store_traits: accesses must cover the thread's elements exactly");

    /// First Y index of access i_access.
    CK_TILE_HOST_DEVICE static constexpr multi_index<ndim_y> get_y_indices(index_t i_access)
    {
        return sfc_type::get_index(i_access);
    }
    CK_TILE_HOST_DEVICE static constexpr vectorized_access_info<ndim_y>
    get_vectorized_access_info(index_t i_access)
    {
        return {get_y_indices(i_access), vector_dim_y, scalar_per_vector};
    }
};

/// The vector length a tensor descriptor guarantees along its last top dimension: the user's
/// promise from make_naive_tensor_descriptor (length and unit stride), 1 where none was made.
template <typename TensorDesc>
CK_TILE_HOST_DEVICE constexpr index_t get_guaranteed_last_dimension_vector_length()
{
    using desc            = remove_cvref_t<TensorDesc>;
    constexpr index_t top = decltype(desc::get_top_dimension_hidden_ids())::back();
    constexpr index_t len = decltype(desc::get_guaranteed_vector_lengths())::at(top);
    constexpr index_t str = decltype(desc::get_guaranteed_vector_strides())::at(top);
    return (len > 0 && str == 1) ? len : 1;
}

} // namespace ck_tile
