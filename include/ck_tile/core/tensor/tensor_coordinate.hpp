// SPDX-License-Identifier: MIT
// A position in a tensor descriptor: an adaptor coordinate whose bottom is the offset.
// get_index() is the top index, get_offset() the element offset; moves are incremental.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/tensor/tensor_adaptor_coordinate.hpp"
#include "ck_tile/core/tensor/tensor_descriptor.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/print.hpp"

#include <cstdio>

namespace ck_tile {

template <index_t NDimHidden, typename TopDimensionHiddenIds>
struct tensor_coordinate : tensor_adaptor_coordinate<NDimHidden, sequence<0>, TopDimensionHiddenIds>
{
    using base = tensor_adaptor_coordinate<NDimHidden, sequence<0>, TopDimensionHiddenIds>;
    using base::base;

    CK_TILE_HOST_DEVICE constexpr auto get_index() const { return base::get_top_index(); }
    CK_TILE_HOST_DEVICE constexpr index_t get_offset() const
    {
        return this->idx_hidden_[number<0>{}];
    }

    CK_TILE_HOST_DEVICE void print() const
    {
        printf("tensor_coordinate{index: ");
        ck_tile::print(get_index());
        printf(", offset: %d, hidden: ", static_cast<int>(get_offset()));
        ck_tile::print(this->idx_hidden_);
        printf("}");
    }
};

/// The coordinate of top index `idx_top` in `desc` (a multi_index, a tuple, or a braced list).
/// @post get_index() == idx_top, get_offset() == desc.calculate_offset(idx_top).
template <typename Desc, typename TopIndex>
CK_TILE_HOST_DEVICE constexpr auto make_tensor_coordinate(const Desc& desc, const TopIndex& idx_top)
{
    return tensor_coordinate<Desc::get_num_of_hidden_dimension(),
                             remove_cvref_t<decltype(Desc::get_top_dimension_hidden_ids())>>{
        desc.calculate_hidden_index(to_multi_index(idx_top))};
}
template <typename Desc>
CK_TILE_HOST_DEVICE constexpr auto
make_tensor_coordinate(const Desc& desc,
                       const multi_index<Desc::get_num_of_top_dimension()>& idx_top)
{
    return make_tensor_coordinate<Desc, multi_index<Desc::get_num_of_top_dimension()>>(desc,
                                                                                       idx_top);
}

/// A move prepared once and applied many times: the top step plus, per transform, whether
/// the step reaches it at all. Transforms not reached are skipped by the move.
template <index_t NDimTop, index_t NTransform>
struct tensor_coordinate_step
{
    multi_index<NDimTop> idx_diff_top_;
    array<bool, NTransform> do_transforms_;

    CK_TILE_HOST_DEVICE constexpr const auto& get_index_diff() const { return idx_diff_top_; }
};

/// @post transform k is marked iff some upper dimension of k changes under the step.
template <typename Desc, typename TopDiff>
CK_TILE_HOST_DEVICE constexpr auto make_tensor_coordinate_step(const Desc&,
                                                               const TopDiff& idx_diff_top)
{
    constexpr index_t ndim_top    = Desc::get_num_of_top_dimension();
    constexpr index_t ntran       = Desc::get_num_of_transform();
    constexpr index_t ndim_hidden = Desc::get_num_of_hidden_dimension();
    using TopIds                  = remove_cvref_t<decltype(Desc::get_top_dimension_hidden_ids())>;
    using LowerIdss = remove_cvref_t<decltype(Desc::get_lower_dimension_hidden_idss())>;
    using UpperIdss = remove_cvref_t<decltype(Desc::get_upper_dimension_hidden_idss())>;

    tensor_coordinate_step<ndim_top, ntran> step{};
    step.idx_diff_top_ = to_multi_index(idx_diff_top);
    array<bool, ndim_hidden> moving{};
    moving.fill(false);
    static_for<0, ndim_top, 1>{}(
        [&](auto i) { moving(TopIds::at(i)) = step.idx_diff_top_[i] != 0; });
    step.do_transforms_.fill(false);
    static_for<ntran - 1, -1, -1>{}([&](auto itran) {
        constexpr auto dims_low = LowerIdss{}[itran];
        constexpr auto dims_up  = UpperIdss{}[itran];
        bool any                = false;
        static_for<0, dims_up.size(), 1>{}([&](auto j) { any = any || moving[dims_up.at(j)]; });
        step.do_transforms_(itran) = any;
        static_for<0, dims_low.size(), 1>{}([&](auto j) { moving(dims_low.at(j)) = any; });
    });
    return step;
}
template <typename Desc>
CK_TILE_HOST_DEVICE constexpr auto
make_tensor_coordinate_step(const Desc& desc,
                            const multi_index<Desc::get_num_of_top_dimension()>& idx_diff_top)
{
    return make_tensor_coordinate_step<Desc, multi_index<Desc::get_num_of_top_dimension()>>(
        desc, idx_diff_top);
}

/// Moves `coord` by a top step, incrementally.
/// @post coord == make_tensor_coordinate(desc, old index + step) (get_index, get_offset and
///       the whole hidden index).
template <typename Desc, typename Coord, typename TopDiff>
CK_TILE_HOST_DEVICE constexpr void move_tensor_coordinate(const Desc& desc, Coord& coord,
                                                          const TopDiff& idx_diff_top)
{
    static_assert(TopDiff::size() == Desc::get_num_of_top_dimension(), "step of the wrong size");
    detail::move_hidden_index(desc, coord.get_hidden_index(), idx_diff_top,
                              [](auto) { return true; });
}
template <typename Desc, typename Coord>
CK_TILE_HOST_DEVICE constexpr void
move_tensor_coordinate(const Desc& desc, Coord& coord,
                       const multi_index<Desc::get_num_of_top_dimension()>& idx_diff_top)
{
    detail::move_hidden_index(desc, coord.get_hidden_index(), idx_diff_top,
                              [](auto) { return true; });
}
template <typename Desc, typename Coord, index_t NDimTop, index_t NTransform>
CK_TILE_HOST_DEVICE constexpr void
move_tensor_coordinate(const Desc& desc, Coord& coord,
                       const tensor_coordinate_step<NDimTop, NTransform>& step)
{
    detail::move_hidden_index(desc, coord.get_hidden_index(), step.idx_diff_top_,
                              [&](auto itran) { return step.do_transforms_[itran]; });
}

/// Offset validity when the top index is known to be inside the lengths: false exactly when
/// some pad sees a padded index.
template <typename Desc, typename Coord>
CK_TILE_HOST_DEVICE constexpr bool
coordinate_has_valid_offset_assuming_top_index_is_valid(const Desc& desc, const Coord& coord)
{
    return adaptor_coordinate_is_valid_assuming_top_index_is_valid(desc, coord);
}

/// Offset validity: the top index is inside the lengths and no pad sees a padded index.
template <typename Desc, typename Coord>
CK_TILE_HOST_DEVICE constexpr bool coordinate_has_valid_offset(const Desc& desc, const Coord& coord)
{
    return adaptor_coordinate_is_valid(desc, coord);
}

} // namespace ck_tile
