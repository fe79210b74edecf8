// SPDX-License-Identifier: MIT
// A position in an adaptor, kept as the whole hidden index (top, bottom and every intermediate
// dimension). Keeping the intermediate values is what makes moves incremental: a move hands
// each transform its old lower index and the change of its upper index, and most transforms
// (embed, unmerge, pad, offset, ...) then update with one multiply-add instead of re-running
// the whole chain.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/container_helper.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/tensor/tensor_adaptor.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/print.hpp"

#include <cstdio>

namespace ck_tile {

template <index_t NDimHidden, typename BottomDimensionHiddenIds, typename TopDimensionHiddenIds>
struct tensor_adaptor_coordinate
{
    static constexpr index_t ndim_bottom = BottomDimensionHiddenIds::size();
    static constexpr index_t ndim_top    = TopDimensionHiddenIds::size();

    using HiddenIndex = multi_index<NDimHidden>;
    using BottomIndex = multi_index<ndim_bottom>;
    using TopIndex    = multi_index<ndim_top>;

    HiddenIndex idx_hidden_;

    CK_TILE_HOST_DEVICE constexpr tensor_adaptor_coordinate() = default;
    CK_TILE_HOST_DEVICE constexpr explicit tensor_adaptor_coordinate(const HiddenIndex& idx_hidden)
        : idx_hidden_(idx_hidden)
    {}

    CK_TILE_HOST_DEVICE constexpr auto get_top_index() const
    {
        return get_container_subset(idx_hidden_, TopDimensionHiddenIds{});
    }
    CK_TILE_HOST_DEVICE constexpr auto get_bottom_index() const
    {
        return get_container_subset(idx_hidden_, BottomDimensionHiddenIds{});
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_hidden_index() const { return idx_hidden_; }
    CK_TILE_HOST_DEVICE constexpr auto& get_hidden_index() { return idx_hidden_; }
    CK_TILE_HOST_DEVICE static constexpr index_t ndim_hidden() { return NDimHidden; }

    CK_TILE_HOST_DEVICE void print() const
    {
        printf("tensor_adaptor_coordinate{top: ");
        ck_tile::print(get_top_index());
        printf(", bottom: ");
        ck_tile::print(get_bottom_index());
        printf(", hidden: ");
        ck_tile::print(idx_hidden_);
        printf("}");
    }
};

/// The coordinate of top index `idx_top` in `adaptor`.
/// @post get_top_index() == idx_top, get_bottom_index() == adaptor.calculate_bottom_index(idx_top).
template <typename Adaptor, typename TopIndex>
CK_TILE_HOST_DEVICE constexpr auto make_tensor_adaptor_coordinate(const Adaptor& adaptor,
                                                                  const TopIndex& idx_top)
{
    return tensor_adaptor_coordinate<
        Adaptor::get_num_of_hidden_dimension(),
        remove_cvref_t<decltype(Adaptor::get_bottom_dimension_hidden_ids())>,
        remove_cvref_t<decltype(Adaptor::get_top_dimension_hidden_ids())>>{
        adaptor.calculate_hidden_index(to_multi_index(idx_top))};
}
template <typename Adaptor>
CK_TILE_HOST_DEVICE constexpr auto
make_tensor_adaptor_coordinate(const Adaptor& adaptor,
                               const multi_index<Adaptor::get_num_of_top_dimension()>& idx_top)
{
    return make_tensor_adaptor_coordinate<Adaptor,
                                          multi_index<Adaptor::get_num_of_top_dimension()>>(
        adaptor, idx_top);
}

namespace detail {
// Moves the hidden index by `idx_diff_top` at the top; `do_transform(itran)` may skip a
// transform that is known not to move (its lower diff then stays 0).
// @post idx_hidden equals the hidden index recomputed from the new top index, for every
//       transform whose update is exact for this move (all but merge_v4_no_carry's carries).
template <typename Adaptor, typename HiddenIndex, typename TopDiff, typename DoTransform>
CK_TILE_HOST_DEVICE constexpr auto
move_hidden_index(const Adaptor& adaptor, HiddenIndex& idx_hidden, const TopDiff& idx_diff_top,
                  DoTransform do_transform)
{
    constexpr index_t ndim_hidden = Adaptor::get_num_of_hidden_dimension();
    using TopIds    = remove_cvref_t<decltype(Adaptor::get_top_dimension_hidden_ids())>;
    using BottomIds = remove_cvref_t<decltype(Adaptor::get_bottom_dimension_hidden_ids())>;
    using LowerIdss = remove_cvref_t<decltype(Adaptor::get_lower_dimension_hidden_idss())>;
    using UpperIdss = remove_cvref_t<decltype(Adaptor::get_upper_dimension_hidden_idss())>;

    auto idx_diff_hidden = make_zero_multi_index<ndim_hidden>();
    static_for<0, TopIds::size(), 1>{}([&](auto i) {
        constexpr auto h   = number<TopIds::at(i)>{};
        idx_diff_hidden(h) = idx_diff_top[i];
        idx_hidden(h) += idx_diff_top[i];
    });
    static_for<Adaptor::get_num_of_transform() - 1, -1, -1>{}([&](auto itran) {
        if(!do_transform(itran))
            return;
        const auto& tran        = adaptor.get_transforms()[itran];
        constexpr auto dims_low = LowerIdss{}[itran];
        constexpr auto dims_up  = UpperIdss{}[itran];
        const auto idx_up_new   = get_container_subset(idx_hidden, dims_up);
        const auto idx_diff_up  = get_container_subset(idx_diff_hidden, dims_up);
        auto idx_low            = get_container_subset(idx_hidden, dims_low);
        auto idx_diff_low       = make_zero_multi_index<dims_low.size()>();
        tran.update_lower_index(idx_diff_low, idx_diff_up, idx_low, idx_up_new);
        set_container_subset(idx_diff_hidden, dims_low, idx_diff_low);
        set_container_subset(idx_hidden, dims_low, idx_low);
    });
    return get_container_subset(idx_diff_hidden, BottomIds{});
}
} // namespace detail

/// Moves `coord` by `idx_diff_top` at the top, incrementally.
/// @post coord == make_tensor_adaptor_coordinate(adaptor, old top + idx_diff_top); returns
///       the change of the bottom index.
template <typename Adaptor, typename Coord, typename TopDiff>
CK_TILE_HOST_DEVICE constexpr auto
move_tensor_adaptor_coordinate(const Adaptor& adaptor, Coord& coord, const TopDiff& idx_diff_top)
{
    static_assert(TopDiff::size() == Adaptor::get_num_of_top_dimension(), "step of the wrong size");
    return detail::move_hidden_index(adaptor, coord.get_hidden_index(), idx_diff_top,
                                     [](auto) { return true; });
}
template <typename Adaptor, typename Coord>
CK_TILE_HOST_DEVICE constexpr auto
move_tensor_adaptor_coordinate(const Adaptor& adaptor, Coord& coord,
                               const multi_index<Adaptor::get_num_of_top_dimension()>& idx_diff_top)
{
    return detail::move_hidden_index(adaptor, coord.get_hidden_index(), idx_diff_top,
                                     [](auto) { return true; });
}

/// True when every transform that can produce an invalid lower index (a pad) sees a valid
/// upper index. Assumes the top index is inside the top lengths.
template <typename Adaptor, typename Coord>
CK_TILE_HOST_DEVICE constexpr bool
adaptor_coordinate_is_valid_assuming_top_index_is_valid(const Adaptor& adaptor, const Coord& coord)
{
    using UpperIdss = remove_cvref_t<decltype(Adaptor::get_upper_dimension_hidden_idss())>;
    bool valid      = true;
    static_for<0, Adaptor::get_num_of_transform(), 1>{}([&](auto itran) {
        const auto& tran = adaptor.get_transforms()[itran];
        using Tran       = remove_cvref_t<decltype(tran)>;
        if constexpr(!Tran::is_valid_upper_index_always_mapped_to_valid_lower_index())
        {
            const auto idx_up = get_container_subset(coord.get_hidden_index(), UpperIdss{}[itran]);
            valid = valid && tran.is_valid_upper_index_mapped_to_valid_lower_index(idx_up);
        }
    });
    return valid;
}

/// True when the top index is inside the top lengths and maps to a valid bottom index.
template <typename Adaptor, typename Coord>
CK_TILE_HOST_DEVICE constexpr bool adaptor_coordinate_is_valid(const Adaptor& adaptor,
                                                               const Coord& coord)
{
    bool valid     = true;
    const auto top = coord.get_top_index();
    static_for<0, Adaptor::get_num_of_top_dimension(), 1>{}([&](auto i) {
        valid = valid && top[i] >= 0 && top[i] < adaptor.get_top_dimension_length(i);
    });
    return valid && adaptor_coordinate_is_valid_assuming_top_index_is_valid(adaptor, coord);
}

} // namespace ck_tile
