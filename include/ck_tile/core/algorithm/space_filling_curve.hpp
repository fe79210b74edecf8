// SPDX-License-Identifier: MIT
// space_filling_curve: the order in which an N-dimensional box is visited, one access at a time.
//
// The box [0, Lengths) is cut into accesses of ScalarsPerAccess elements per dimension (a
// vector of 8 along the last dimension is ScalarsPerAccess = <1, ..., 8>); access lengths are
// the ceiling of Lengths / ScalarsPerAccess, so a box that is not a multiple still has every
// element inside some access (the last one per dimension then reaches past the box, and the
// caller masks it). DimAccessOrder lists dimensions from the slowest to the fastest varying.
//
// With IsSnakeCurved each dimension runs backwards whenever the (unreflected) linear index of
// the dimensions outside it is odd: consecutive accesses then differ by one access in exactly
// one dimension, so a coordinate walked along the curve never jumps back to a row start.
//
// Everything is constexpr: a tile window asks for get_index(number<i>) and the steps between
// consecutive accesses at compile time, and the index arithmetic vanishes from the kernel.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile {

namespace detail {
struct ceil_div_fn
{
    CK_TILE_HOST_DEVICE constexpr index_t operator()(index_t a, index_t b) const
    {
        return (a + b - 1) / b;
    }
};
} // namespace detail

template <index_t NDimSFC, typename SFCLengths, typename DimAccessOrder, typename ScalarsPerAccess,
          bool IsSnakeCurved = false>
struct space_filling_curve
{
    static_assert(is_sequence_v<SFCLengths> && is_sequence_v<DimAccessOrder> &&
                      is_sequence_v<ScalarsPerAccess>,
                  "space_filling_curve: lengths, access order and scalars per access are "
                  "sequences");
    static_assert(SFCLengths::size() == NDimSFC && DimAccessOrder::size() == NDimSFC &&
                      ScalarsPerAccess::size() == NDimSFC,
                  "space_filling_curve: one length, order entry and access size per dimension");
    static_assert(is_valid_sequence_map<DimAccessOrder>::value,
                  "space_filling_curve: the access order must be a permutation of the dimensions");
    static_assert(sequence_all_of(ScalarsPerAccess{}, [](index_t s) { return s > 0; }) &&
                      sequence_all_of(SFCLengths{}, [](index_t l) { return l > 0; }),
                  "space_filling_curve: lengths and scalars per access must be positive");

    static constexpr index_t ndim                        = NDimSFC;
    static constexpr SFCLengths tensor_lengths           = {};
    static constexpr DimAccessOrder dim_access_order     = {};
    static constexpr ScalarsPerAccess scalars_per_access = {};
    static constexpr bool snake_curved                   = IsSnakeCurved;
    using access_lengths_type =
        decltype(transform_sequences(detail::ceil_div_fn{}, SFCLengths{}, ScalarsPerAccess{}));
    /// Accesses per dimension: ceil(tensor_lengths[d] / scalars_per_access[d]).
    static constexpr access_lengths_type access_lengths = {};

    /// Elements moved by one access (the product of scalars_per_access).
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_scalar_per_access()
    {
        return ScalarsPerAccess::product();
    }
    /// @post == product of access_lengths.
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_access()
    {
        return access_lengths_type::product();
    }

    /// First element of access `i_access`.
    /// @pre 0 <= i_access < get_num_of_access().
    /// @post every result[d] is a multiple of scalars_per_access[d] below tensor_lengths[d];
    ///       i -> get_index(i) is a bijection onto those multiples; with snake_curved the
    ///       indices of consecutive accesses differ in one dimension by one access.
    CK_TILE_HOST_DEVICE static constexpr multi_index<ndim> get_index(index_t i_access)
    {
        multi_index<ndim> result{};
        if constexpr(ndim > 0)
        {
            // Position along each dimension in access order (outermost first), unreflected.
            multi_index<ndim> ordered{};
            index_t rest = i_access;
            for(index_t j = ndim - 1; j >= 0; --j)
            {
                const index_t len = access_lengths_type::at(DimAccessOrder::at(j));
                ordered[j]        = rest % len;
                rest /= len;
            }
            index_t outer = 0; // linear index of the dimensions outside j, unreflected
            for(index_t j = 0; j < ndim; ++j)
            {
                const index_t d   = DimAccessOrder::at(j);
                const index_t len = access_lengths_type::at(d);
                const bool back   = IsSnakeCurved && (outer % 2 != 0);
                result[d] = (back ? len - 1 - ordered[j] : ordered[j]) * ScalarsPerAccess::at(d);
                outer     = outer * len + ordered[j];
            }
        }
        else
            (void)i_access;
        return result;
    }

    /// Index difference from access `start` to access `end`.
    /// @post get_index(start) + get_step_between(start, end) == get_index(end).
    CK_TILE_HOST_DEVICE static constexpr multi_index<ndim> get_step_between(index_t start,
                                                                            index_t end)
    {
        const auto a = get_index(start);
        const auto b = get_index(end);
        multi_index<ndim> step{};
        if constexpr(ndim > 0)
            for(index_t d = 0; d < ndim; ++d)
                step[d] = b[d] - a[d];
        return step;
    }
    /// @post == get_step_between(i, i + 1).
    CK_TILE_HOST_DEVICE static constexpr multi_index<ndim> get_forward_step(index_t i_access)
    {
        return get_step_between(i_access, i_access + 1);
    }
    /// @post == get_step_between(i, i - 1).
    CK_TILE_HOST_DEVICE static constexpr multi_index<ndim> get_backward_step(index_t i_access)
    {
        return get_step_between(i_access, i_access - 1);
    }
};

} // namespace ck_tile
