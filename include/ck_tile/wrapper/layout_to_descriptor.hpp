// SPDX-License-Identifier: MIT
// A layout as a ck_tile tensor descriptor, so layouts built with the algebra can drive the
// tile machinery (tensor views, windows) directly.
//
// The flat modes of the layout become an embed (naive) descriptor, one dimension per integer;
// then each top-level mode with several integers is merged back into one dimension. A mode's
// 1-D coordinate is colexicographic (first integer fastest) while ck_tile's merge is row-major
// (last lower dimension fastest), so each merge takes its integers in reverse order.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/algorithm/coordinate_transform.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/tensor/tensor_descriptor.hpp"
#include "ck_tile/wrapper/layout.hpp"

namespace ck_tile::wrapper {

namespace detail {
// sequence<B + n - 1, ..., B + 1, B>
template <index_t B, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto reversed_range(sequence<Is...>)
{
    return sequence<(B + static_cast<index_t>(sizeof...(Is)) - 1 - Is)...>{};
}

// First flat position of each top-level mode of shape S.
template <typename Modes, index_t K>
CK_TILE_HOST_DEVICE constexpr index_t first_leaf()
{
    index_t r = 0;
    static_for<0, K, 1>{}(
        [&](auto k) { r += remove_cvref_t<decltype(flatten_to_tuple(Modes{}[k]))>::size(); });
    return r;
}
} // namespace detail

/// The descriptor whose top dimensions are the layout's top-level modes, each indexed by its
/// 1-D coordinate.
/// @post to_tensor_descriptor(l).calculate_offset(make_multi_index(c0, c1, ...))
///       == l(make_tuple(c0, c1, ...)) for every coordinate in range
/// @post get_num_of_top_dimension() == rank(l)
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto to_tensor_descriptor(const layout<S, D>& l)
{
    const auto naive      = make_naive_tensor_descriptor(detail::flatten_to_tuple(l.shape()),
                                                         detail::flatten_to_tuple(l.stride()));
    const auto modes      = detail::wrap_tuple(l.shape());
    using Modes           = remove_cvref_t<decltype(modes)>;
    constexpr index_t r   = Modes::size();
    const auto transforms = generate_tuple(
        [&](auto k) {
            const auto leaves   = detail::flatten_to_tuple(modes[k]);
            constexpr index_t n = remove_cvref_t<decltype(leaves)>::size();
            if constexpr(n == 1)
                return make_pass_through_transform(leaves[number<0>{}]);
            else
                return make_merge_transform(generate_tuple(
                    [&](auto j) { return leaves[number<n - 1 - decltype(j)::value>{}]; },
                    number<n>{}));
        },
        number<r>{});
    const auto lower = generate_tuple(
        [&](auto k) {
            constexpr index_t b = detail::first_leaf<Modes, decltype(k)::value>();
            constexpr index_t n =
                remove_cvref_t<decltype(detail::flatten_to_tuple(modes[k]))>::size();
            return detail::reversed_range<b>(make_index_sequence<n>{});
        },
        number<r>{});
    const auto upper =
        generate_tuple([](auto k) { return sequence<decltype(k)::value>{}; }, number<r>{});
    return transform_tensor_descriptor(naive, transforms, lower, upper);
}

} // namespace ck_tile::wrapper
