// SPDX-License-Identifier: MIT
// Tensor adaptors: a graph of coordinate transforms between a *top* index space (what the
// user addresses) and a *bottom* index space.
//
// Every dimension that appears anywhere in the graph has a *hidden dimension id*. Transform k
// reads its upper index from the hidden ids UpperDimensionHiddenIdss[k] and writes its lower
// index to LowerDimensionHiddenIdss[k]; the top and bottom spaces are the hidden ids
// TopDimensionHiddenIds and BottomDimensionHiddenIds. calculate_bottom_index() runs the
// transforms from the last to the first, so a transform appended later sits closer to the top.
//
// Numbering (it is what a hidden index prints): a single-stage adaptor with B bottom and T top
// dimensions uses ids 0..B-1 for the bottom and B..B+T-1 for the top. Chaining adaptor1 on top
// of adaptor0 keeps adaptor0's ids, glues adaptor1's bottom to adaptor0's top and numbers
// adaptor1's other dimensions after adaptor0's, in order. So a naive 2-D descriptor has hidden
// ids (offset=0, d0=1, d1=2), and transforming it with an unmerge of d0 and a pass-through of d1
// gives new ids 3, 4 (unmerge) and 5 (pass-through): the hidden index of seed 002.
// All of this bookkeeping is computed at compile time; an adaptor object holds only its
// transforms.
#pragma once

#include "ck_tile/core/algorithm/coordinate_transform.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/container_helper.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/print.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <cstdio>

namespace ck_tile {

namespace detail {
// Compile-time facts about a tuple of sequences of hidden ids.
template <typename Idss>
struct idss_info;
template <typename... Seqs>
struct idss_info<tuple<Seqs...>>
{
    static constexpr index_t num = sizeof...(Seqs);
    static constexpr index_t total_size() { return (Seqs::size() + ... + 0); }

    template <typename Seq>
    CK_TILE_HOST_DEVICE static constexpr index_t seq_max()
    {
        index_t m = -1;
        for(index_t j = 0; j < Seq::size(); ++j)
            m = Seq::at(j) > m ? Seq::at(j) : m;
        return m;
    }
    CK_TILE_HOST_DEVICE static constexpr index_t max_id()
    {
        index_t m = -1;
        ((m = seq_max<Seqs>() > m ? seq_max<Seqs>() : m), ...);
        return m;
    }
    // (k, j) such that the j-th id of the k-th sequence is h, or (-1, -1).
    CK_TILE_HOST_DEVICE static constexpr array<index_t, 2> find(index_t h)
    {
        array<index_t, 2> r{-1, -1};
        index_t k = 0;
        (
            [&] {
                for(index_t j = 0; j < Seqs::size(); ++j)
                    if(Seqs::at(j) == h && r.elems[0] < 0)
                        r = array<index_t, 2>{k, j};
                ++k;
            }(),
            ...);
        return r;
    }
    // All ids, concatenated in order.
    using all = sequence_merge_t<Seqs...>;
};
template <>
struct idss_info<tuple<>>
{
    static constexpr index_t num = 0;
    static constexpr index_t total_size() { return 0; }
    CK_TILE_HOST_DEVICE static constexpr index_t max_id() { return -1; }
    CK_TILE_HOST_DEVICE static constexpr array<index_t, 2> find(index_t) { return {-1, -1}; }
    using all = sequence<>;
};

template <typename Seq>
CK_TILE_HOST_DEVICE constexpr index_t sequence_max_or(index_t init)
{
    index_t m = init;
    for(index_t j = 0; j < Seq::size(); ++j)
        m = Seq::at(j) > m ? Seq::at(j) : m;
    return m;
}
} // namespace detail

template <typename Transforms, typename LowerDimensionHiddenIdss, typename UpperDimensionHiddenIdss,
          typename BottomDimensionHiddenIds, typename TopDimensionHiddenIds>
struct tensor_adaptor
{
    using LowerInfo = detail::idss_info<LowerDimensionHiddenIdss>;
    using UpperInfo = detail::idss_info<UpperDimensionHiddenIdss>;

    static_assert(Transforms::size() == LowerInfo::num && Transforms::size() == UpperInfo::num,
                  "tensor_adaptor: one lower and one upper id list per transform");

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_transform()
    {
        return Transforms::size();
    }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_hidden_dimension()
    {
        index_t m = LowerInfo::max_id();
        m         = UpperInfo::max_id() > m ? UpperInfo::max_id() : m;
        m         = detail::sequence_max_or<BottomDimensionHiddenIds>(m);
        m         = detail::sequence_max_or<TopDimensionHiddenIds>(m);
        return m + 1;
    }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_top_dimension()
    {
        return TopDimensionHiddenIds::size();
    }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_bottom_dimension()
    {
        return BottomDimensionHiddenIds::size();
    }

    static constexpr index_t ndim_hidden = get_num_of_hidden_dimension();
    static constexpr index_t ndim_top    = get_num_of_top_dimension();
    static constexpr index_t ndim_bottom = get_num_of_bottom_dimension();

    using HiddenIndex = multi_index<ndim_hidden>;
    using TopIndex    = multi_index<ndim_top>;
    using BottomIndex = multi_index<ndim_bottom>;

    Transforms transforms_;

    CK_TILE_HOST_DEVICE constexpr tensor_adaptor() = default;
    CK_TILE_HOST_DEVICE constexpr tensor_adaptor(const Transforms& transforms)
        : transforms_(transforms)
    {}

    CK_TILE_HOST_DEVICE constexpr const auto& get_transforms() const { return transforms_; }
    CK_TILE_HOST_DEVICE static constexpr auto get_lower_dimension_hidden_idss()
    {
        return LowerDimensionHiddenIdss{};
    }
    CK_TILE_HOST_DEVICE static constexpr auto get_upper_dimension_hidden_idss()
    {
        return UpperDimensionHiddenIdss{};
    }
    CK_TILE_HOST_DEVICE static constexpr auto get_bottom_dimension_hidden_ids()
    {
        return BottomDimensionHiddenIds{};
    }
    CK_TILE_HOST_DEVICE static constexpr auto get_top_dimension_hidden_ids()
    {
        return TopDimensionHiddenIds{};
    }

    /// Length of hidden dimension H, taken from the transform that has it as an upper
    /// dimension (a static length stays a number<>).
    template <index_t H>
    CK_TILE_HOST_DEVICE constexpr auto get_hidden_dimension_length(number<H>) const
    {
        constexpr auto owner = UpperInfo::find(H);
        static_assert(owner.elems[0] >= 0,
                      "hidden dimension has no length: no transform produces it");
        return transforms_[number<owner.elems[0]>{}].get_upper_lengths()[number<owner.elems[1]>{}];
    }
    /// Length of top dimension I.
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr auto get_top_dimension_length(number<I>) const
    {
        return get_hidden_dimension_length(number<TopDimensionHiddenIds::at(I)>{});
    }
    CK_TILE_HOST_DEVICE constexpr auto get_top_dimension_lengths() const
    {
        return generate_tuple([&](auto i) { return get_top_dimension_length(i); },
                              number<ndim_top>{});
    }

    /// The whole hidden index of a top index: every transform applied, top to bottom.
    /// @post result[TopIds[i]] == idx_top[i]; for each transform k,
    ///       lower(k) == transform_k(upper(k)) read from the result.
    template <typename TopIdx>
    CK_TILE_HOST_DEVICE constexpr HiddenIndex calculate_hidden_index(const TopIdx& idx_top) const
    {
        static_assert(TopIdx::size() == ndim_top, "top index of the wrong size");
        HiddenIndex idx_hidden = make_zero_multi_index<ndim_hidden>();
        static_for<0, ndim_top, 1>{}(
            [&](auto i) { idx_hidden(number<TopDimensionHiddenIds::at(i)>{}) = idx_top[i]; });
        static_for<get_num_of_transform() - 1, -1, -1>{}([&](auto itran) {
            const auto& tran        = transforms_[itran];
            constexpr auto dims_low = LowerDimensionHiddenIdss{}[itran];
            constexpr auto dims_up  = UpperDimensionHiddenIdss{}[itran];
            const auto idx_up       = get_container_subset(idx_hidden, dims_up);
            auto idx_low            = make_zero_multi_index<dims_low.size()>();
            tran.calculate_lower_index(idx_low, idx_up);
            set_container_subset(idx_hidden, dims_low, idx_low);
        });
        return idx_hidden;
    }

    /// Bottom index of a top index (transforms applied in reverse order of addition).
    template <typename TopIdx>
    CK_TILE_HOST_DEVICE constexpr BottomIndex calculate_bottom_index(const TopIdx& idx_top) const
    {
        return get_container_subset(calculate_hidden_index(idx_top), BottomDimensionHiddenIds{});
    }
    CK_TILE_HOST_DEVICE constexpr BottomIndex calculate_bottom_index(const TopIndex& idx_top) const
    {
        return get_container_subset(calculate_hidden_index(idx_top), BottomDimensionHiddenIds{});
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<Transforms>;
    }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return is_known_at_compile_time(); }

    CK_TILE_HOST_DEVICE void print() const
    {
        printf("tensor_adaptor{transforms: ");
        ck_tile::print(transforms_);
        print_ids();
        printf("}");
    }
    CK_TILE_HOST_DEVICE void print_ids() const
    {
        printf(", lower_dimension_hidden_idss: ");
        ck_tile::print(LowerDimensionHiddenIdss{});
        printf(", upper_dimension_hidden_idss: ");
        ck_tile::print(UpperDimensionHiddenIdss{});
        printf(", bottom_dimension_hidden_ids: ");
        ck_tile::print(BottomDimensionHiddenIds{});
        printf(", top_dimension_hidden_ids: ");
        ck_tile::print(TopDimensionHiddenIds{});
    }
};

template <typename T>
struct is_tensor_adaptor : std::false_type
{};
template <typename... Ts>
struct is_tensor_adaptor<tensor_adaptor<Ts...>> : std::true_type
{};

namespace detail {
template <typename Tuple, typename F, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto map_tuple_of_sequences(F, sequence<Is...>)
{
    return make_tuple(
        typename F::template apply<remove_cvref_t<decltype(Tuple{}[number<Is>{}])>>{}...);
}

// Shifts every id of a sequence by a constant.
template <index_t Shift>
struct shift_ids
{
    template <typename Seq>
    struct gen
    {
        static constexpr index_t n = Seq::size();
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
        {
            array<index_t, n> r{};
            for(index_t i = 0; i < n; ++i)
                r.elems[i] = Seq::at(i) + Shift;
            return r;
        }
    };
    template <typename Seq>
    using apply = sequence_from_values_t<gen<Seq>>;
};

// Renumbering of adaptor1's hidden ids when it is chained on top of adaptor0: its bottom ids
// become adaptor0's top ids, its other ids follow adaptor0's ids in their original order.
template <typename Bottom1, typename Top0, index_t NDimHidden0>
struct chain_ids
{
    CK_TILE_HOST_DEVICE static constexpr index_t map(index_t h)
    {
        for(index_t i = 0; i < Bottom1::size(); ++i)
            if(Bottom1::at(i) == h)
                return Top0::at(i);
        index_t rank = 0;
        for(index_t g = 0; g < h; ++g)
        {
            bool is_bottom = false;
            for(index_t i = 0; i < Bottom1::size(); ++i)
                is_bottom = is_bottom || Bottom1::at(i) == g;
            rank += is_bottom ? 0 : 1;
        }
        return NDimHidden0 + rank;
    }
    template <typename Seq>
    struct gen
    {
        static constexpr index_t n = Seq::size();
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
        {
            array<index_t, n> r{};
            for(index_t i = 0; i < n; ++i)
                r.elems[i] = map(Seq::at(i));
            return r;
        }
    };
    template <typename Seq>
    using apply = sequence_from_values_t<gen<Seq>>;
};
} // namespace detail

/// An adaptor of one stage: transform k reads the top dimensions NewUpperDimensionNewTopIdss[k]
/// and writes the bottom dimensions NewLowerDimensionOldTopIdss[k]. Both id lists, flattened,
/// must be permutations of 0..B-1 and 0..T-1.
template <typename Transforms, typename LowerDimensionOldTopIdss, typename UpperDimensionNewTopIdss>
CK_TILE_HOST_DEVICE constexpr auto make_single_stage_tensor_adaptor(const Transforms& transforms,
                                                                    LowerDimensionOldTopIdss,
                                                                    UpperDimensionNewTopIdss)
{
    using LowerAll = typename detail::idss_info<LowerDimensionOldTopIdss>::all;
    using UpperAll = typename detail::idss_info<UpperDimensionNewTopIdss>::all;
    static_assert(is_valid_sequence_map<LowerAll>::value,
                  "lower dimension ids must cover every bottom dimension exactly once");
    static_assert(is_valid_sequence_map<UpperAll>::value,
                  "upper dimension ids must cover every top dimension exactly once");
    constexpr index_t nb = LowerAll::size();
    constexpr index_t nt = UpperAll::size();

    using UpperHidden = decltype(detail::map_tuple_of_sequences<UpperDimensionNewTopIdss>(
        detail::shift_ids<nb>{}, make_index_sequence<UpperDimensionNewTopIdss::size()>{}));
    using Bottom      = make_index_sequence<nb>;
    using Top         = typename arithmetic_sequence_gen<nb, nb + nt, 1>::type;

    return tensor_adaptor<Transforms, LowerDimensionOldTopIdss, UpperHidden, Bottom, Top>{
        transforms};
}

/// adaptor1 on top of adaptor0: adaptor1's bottom dimension i is adaptor0's top dimension i.
/// @post chain(a0, a1).calculate_bottom_index(x) ==
///       a0.calculate_bottom_index(a1.calculate_bottom_index(x)).
template <typename A0, typename A1>
CK_TILE_HOST_DEVICE constexpr auto chain_tensor_adaptors(const A0& adaptor0, const A1& adaptor1)
{
    static_assert(A1::get_num_of_bottom_dimension() == A0::get_num_of_top_dimension(),
                  "chain_tensor_adaptors: adaptor1's bottom must match adaptor0's top");
    using Ids = detail::chain_ids<remove_cvref_t<decltype(A1::get_bottom_dimension_hidden_ids())>,
                                  remove_cvref_t<decltype(A0::get_top_dimension_hidden_ids())>,
                                  A0::get_num_of_hidden_dimension()>;
    using Lower1    = remove_cvref_t<decltype(A1::get_lower_dimension_hidden_idss())>;
    using Upper1    = remove_cvref_t<decltype(A1::get_upper_dimension_hidden_idss())>;
    using NewLower1 = decltype(detail::map_tuple_of_sequences<Lower1>(
        Ids{}, make_index_sequence<Lower1::size()>{}));
    using NewUpper1 = decltype(detail::map_tuple_of_sequences<Upper1>(
        Ids{}, make_index_sequence<Upper1::size()>{}));
    using Lower     = decltype(tuple_cat(A0::get_lower_dimension_hidden_idss(), NewLower1{}));
    using Upper     = decltype(tuple_cat(A0::get_upper_dimension_hidden_idss(), NewUpper1{}));
    using Bottom    = remove_cvref_t<decltype(A0::get_bottom_dimension_hidden_ids())>;
    using Top =
        typename Ids::template apply<remove_cvref_t<decltype(A1::get_top_dimension_hidden_ids())>>;

    auto transforms = tuple_cat(adaptor0.get_transforms(), adaptor1.get_transforms());
    return tensor_adaptor<decltype(transforms), Lower, Upper, Bottom, Top>{transforms};
}
template <typename A0, typename A1, typename A2, typename... As>
CK_TILE_HOST_DEVICE constexpr auto chain_tensor_adaptors(const A0& a0, const A1& a1, const A2& a2,
                                                         const As&... as)
{
    return chain_tensor_adaptors(chain_tensor_adaptors(a0, a1), a2, as...);
}

/// A new stage on top of an adaptor: the new transforms consume all of its top dimensions
/// (NewLowerDimensionOldTopIdss) and produce the new top dimensions (NewUpperDimensionNewTopIdss).
template <typename Adaptor, typename NewTransforms, typename NewLowerIdss, typename NewUpperIdss>
CK_TILE_HOST_DEVICE constexpr auto transform_tensor_adaptor(const Adaptor& old_adaptor,
                                                            const NewTransforms& new_transforms,
                                                            NewLowerIdss, NewUpperIdss)
{
    static_assert(detail::idss_info<NewLowerIdss>::total_size() ==
                      Adaptor::get_num_of_top_dimension(),
                  "transform_tensor_adaptor: every old top dimension must be consumed once");
    return chain_tensor_adaptors(old_adaptor, make_single_stage_tensor_adaptor(
                                                  new_transforms, NewLowerIdss{}, NewUpperIdss{}));
}

/// N dimensions passed through unchanged (no transform at all: top == bottom).
template <index_t N>
CK_TILE_HOST_DEVICE constexpr auto make_identity_tensor_adaptor()
{
    return tensor_adaptor<tuple<>, tuple<>, tuple<>, make_index_sequence<N>,
                          make_index_sequence<N>>{};
}

/// Dimension permutation: top dimension j is bottom dimension Perm[j], i.e.
/// bottom[Perm[j]] == top[j]. With Perm = <2, 0, 1> the top dimensions are the bottom
/// dimensions 2, 0, 1, as in the seeds' transposed descriptor.
template <index_t N, index_t... Perm>
CK_TILE_HOST_DEVICE constexpr auto make_transpose_adaptor(sequence<Perm...>)
{
    static_assert(sizeof...(Perm) == N, "make_transpose_adaptor: permutation of the wrong size");
    static_assert(is_valid_sequence_map<sequence<Perm...>>::value,
                  "make_transpose_adaptor: not a permutation");
    return tensor_adaptor<tuple<>, tuple<>, tuple<>, make_index_sequence<N>, sequence<Perm...>>{};
}
template <index_t... Perm>
CK_TILE_HOST_DEVICE constexpr auto make_transpose_adaptor(sequence<Perm...> perm)
{
    return make_transpose_adaptor<sizeof...(Perm)>(perm);
}

} // namespace ck_tile
