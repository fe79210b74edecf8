// SPDX-License-Identifier: MIT
// `tile_distribution`: an encoding turned into the two maps a kernel uses.
//
//   ps_ys_to_xs  (P..., Y...) -> X...   which tile element a thread's Y-th value is
//   ys_to_d      Y... -> D              where that value sits in the thread's register buffer
//
// The first is one tensor_adaptor over hidden dimensions numbered
//   [0, NDimX)                         X (the bottom)
//   NDimX + f, f < number of RH factors the R and H factors in the order R..., Hs[0]..., ...
//   after those                        P
// with a replicate transform producing the R factors (they index no X), one unmerge per X
// dimension (X_i = row-major combination of Hs[i]) and one merge per P dimension (a P is the
// row-major combination of the RH factors it names; a P that names none has length 1).
// The top is P... then Y..., each Y being directly the hidden id of the H factor it names.
//
// The second is packed row-major over the Y lengths: the last Y is the fastest in D.
#pragma once

#include "ck_tile/core/algorithm/coordinate_transform.hpp"
#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/container_helper.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/tensor_adaptor.hpp"
#include "ck_tile/core/tensor/tensor_descriptor.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/print.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <cstdio>

namespace ck_tile {

/// Hidden-dimension layout of a distribution's ps_ys_to_xs adaptor (see the file comment).
template <typename Encoding>
struct tile_distribution_detail
{
    using E                          = Encoding;
    static constexpr index_t ndim_x  = E::NDimX;
    static constexpr index_t ndim_rh = E::detail::ndim_rh_flat;

    /// Hidden id of RH factor (major, minor).
    CK_TILE_HOST_DEVICE static constexpr index_t rh_hidden_id(index_t major, index_t minor)
    {
        return ndim_x + E::detail::rh_flat_index(major, minor);
    }
    /// Hidden id of P dimension p.
    CK_TILE_HOST_DEVICE static constexpr index_t p_hidden_id(index_t p)
    {
        return ndim_x + ndim_rh + p;
    }

    struct rs_hidden_ids_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t r) { return rh_hidden_id(0, r); }
    };
    /// Hidden ids of the R factors, in R order.
    using rs_hidden_ids =
        detail::sequence_from_values_t<detail::index_gen<E::NDimR, rs_hidden_ids_fn>>;
};

/// The Y lengths of one X dimension, in H order: what a sweep over that dimension visits.
/// Every value is a compile-time constant; an X dimension that no Y names has an empty span
/// (one visit: the thread holds a single position along it).
template <index_t... PartialHsLengths>
struct tile_distributed_span
{
    using Impl = sequence<PartialHsLengths...>;
    static constexpr Impl impl_{};

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return Impl::size(); }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }
};

/// A position inside a tile_distributed_span: one value per Y of that X dimension, in H order.
template <index_t... PartialHsIndices>
struct tile_distributed_index
{
    using Impl = sequence<PartialHsIndices...>;
    static constexpr Impl impl_{};

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return Impl::size(); }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }
};

template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto make_tile_distributed_span(sequence<Is...>)
{
    return tile_distributed_span<Is...>{};
}
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto make_tile_distributed_index(sequence<Is...>)
{
    return tile_distributed_index<Is...>{};
}

template <typename T>
struct is_tile_distributed_index : std::false_type
{};
template <index_t... Is>
struct is_tile_distributed_index<tile_distributed_index<Is...>> : std::true_type
{};
template <typename T>
inline constexpr bool is_tile_distributed_index_v =
    is_tile_distributed_index<remove_cvref_t<T>>::value;

/// Threads per warp that an encoding's hardware partition index assumes: the length of its
/// last P dimension (the product of the lengths of the RH factors it names), which
/// get_partition_index() fills with the lane id, for (warp, lane) and (lane) encodings alike.
/// 0 for encodings with another number of P dimensions: they have no hardware partition index.
/// @post for NDimP in {1, 2}: == ps_lengths[NDimP - 1].
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr index_t get_encoding_lanes_per_warp()
{
    using ps = typename Encoding::detail::ps_lengths;
    if constexpr(Encoding::NDimP == 1 || Encoding::NDimP == 2)
        return ps::at(Encoding::NDimP - 1);
    else
        return 0;
}

namespace detail {
// Instantiated by get_partition_index() with both numbers as template arguments, so that a
// compiler note names them even where no specific message below applies. A lane P shorter
// than the warp leaves lanes with an out-of-range P index, a longer one leaves part of the
// tile to no thread: either is silently wrong data, so it is a compile error on the target.
template <index_t AssumedLanes, index_t TargetWarpSize>
struct check_lanes_per_warp
{
    static constexpr bool known_pair = (AssumedLanes == 64 && TargetWarpSize == 32) ||
                                       (AssumedLanes == 32 && TargetWarpSize == 64);
    static_assert(!(AssumedLanes == 64 && TargetWarpSize == 32),
                  "tile_distribution: this distribution assumes 64 lanes per warp; this target "
                  "has 32 (NVIDIA). Derive the lane P length from get_warp_size(), or pass an "
                  "explicit partition index");
    static_assert(!(AssumedLanes == 32 && TargetWarpSize == 64),
                  "tile_distribution: this distribution assumes 32 lanes per warp; this target "
                  "has 64 (AMD wavefront). Derive the lane P length from get_warp_size(), or "
                  "pass an explicit partition index");
    static_assert(AssumedLanes == TargetWarpSize || known_pair,
                  "tile_distribution: the lanes per warp this distribution assumes (its last P "
                  "length, the first template argument) differ from this target's warp size "
                  "(the second). Derive the lane P length from get_warp_size(), or pass an "
                  "explicit partition index");
    // The asserts above carry the messages; the caller's assert only forces instantiation.
    static constexpr bool value = true;
};
} // namespace detail

template <typename PsYs2XsAdaptor_, typename Ys2DDescriptor_,
          typename StaticTileDistributionEncoding_, typename TileDistributionDetail_>
struct tile_distribution
{
    using PsYs2XsAdaptor = remove_cvref_t<PsYs2XsAdaptor_>;
    using Ys2DDescriptor = remove_cvref_t<Ys2DDescriptor_>;
    using DstrEncode     = remove_cvref_t<StaticTileDistributionEncoding_>;
    using DstrDetail     = remove_cvref_t<TileDistributionDetail_>;

    static_assert(PsYs2XsAdaptor::is_static() && Ys2DDescriptor::is_static(),
                  "tile_distribution: both maps must be known at compile time");

    static constexpr index_t NDimX = PsYs2XsAdaptor::get_num_of_bottom_dimension();
    static constexpr index_t NDimY = Ys2DDescriptor::get_num_of_dimension();
    static constexpr index_t NDimP = PsYs2XsAdaptor::get_num_of_top_dimension() - NDimY;
    static constexpr index_t NDimR = DstrEncode::NDimR;

    PsYs2XsAdaptor ps_ys_to_xs_;
    Ys2DDescriptor ys_to_d_;

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension_x() { return NDimX; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension_y() { return NDimY; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension_p() { return NDimP; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension_r() { return NDimR; }

    /// Tile lengths, one number<> per X dimension.
    /// @post get_lengths()[i] == product of Hs[i].
    CK_TILE_HOST_DEVICE static constexpr auto get_lengths()
    {
        return to_tuple(typename DstrEncode::detail::xs_lengths{});
    }
    /// Range of each P dimension, one number<> each.
    CK_TILE_HOST_DEVICE static constexpr auto get_ps_lengths()
    {
        return to_tuple(typename DstrEncode::detail::ps_lengths{});
    }
    /// Number of values each thread holds.
    /// @post == product of the Y lengths == get_ys_to_d_descriptor().get_element_space_size().
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_element_per_thread()
    {
        return DstrEncode::detail::ys_lengths::product();
    }
    /// Threads per warp the hardware partition index assumes (get_encoding_lanes_per_warp).
    CK_TILE_HOST_DEVICE static constexpr index_t get_lanes_per_warp()
    {
        return get_encoding_lanes_per_warp<DstrEncode>();
    }

    CK_TILE_HOST_DEVICE constexpr const auto& get_ps_ys_to_xs_adaptor() const
    {
        return ps_ys_to_xs_;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_ys_to_d_descriptor() const { return ys_to_d_; }
    CK_TILE_HOST_DEVICE static constexpr auto get_static_tile_distribution_encoding()
    {
        return DstrEncode{};
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// This thread's partition index: (warp id, lane id) for two P dimensions, (lane id) for
    /// one, as the encodings are written (P0 indexes warps of the block, the last P lanes).
    CK_TILE_DEVICE static auto get_partition_index()
    {
        static_assert(NDimP == 1 || NDimP == 2,
                      "tile_distribution: the hardware partition index has one P (lane) or two "
                      "(warp, lane); give other encodings an explicit partition index");
        // (Other P counts already failed above; keep this check from adding a second error.)
        constexpr index_t lanes =
            (NDimP == 1 || NDimP == 2) ? get_lanes_per_warp() : get_warp_size();
        static_assert(detail::check_lanes_per_warp<lanes, get_warp_size()>::value);
        if constexpr(NDimP == 1)
            return multi_index<1>{get_lane_id()};
        else
            return multi_index<2>{get_warp_id(), get_lane_id()};
    }
    /// The seeds' spelling of get_partition_index().
    CK_TILE_DEVICE static auto _get_partition_index() { return get_partition_index(); }

    /// X index of this thread's first value (all Ys zero).
    CK_TILE_DEVICE auto calculate_index() const { return calculate_index(get_partition_index()); }
#endif

    /// X index of the value at Y index `ys_idx` of the thread with partition index `ps_idx`.
    /// @post == get_ps_ys_to_xs_adaptor().calculate_bottom_index(concat(ps_idx, ys_idx)).
    template <typename PsIdx, typename YsIdx>
    CK_TILE_HOST_DEVICE constexpr multi_index<NDimX> calculate_index(const PsIdx& ps_idx,
                                                                     const YsIdx& ys_idx) const
    {
        return ps_ys_to_xs_.calculate_bottom_index(concat_ps_ys(ps_idx, ys_idx));
    }
    /// X index of the first value (all Ys zero) of the thread with partition index `ps_idx`:
    /// the origin of its part of the tile.
    template <typename PsIdx>
    CK_TILE_HOST_DEVICE constexpr multi_index<NDimX> calculate_index(const PsIdx& ps_idx) const
    {
        return calculate_index(ps_idx, make_zero_multi_index<NDimY>());
    }

    /// R index of a partition index: which copy of the replicated data this thread holds.
    /// @post threads whose partition indices give the same R index and differ otherwise hold
    ///       disjoint elements; all prod(Rs) R indices together hold every element once each.
    template <typename PsIdx>
    CK_TILE_HOST_DEVICE constexpr multi_index<NDimR>
    calculate_rs_index_from_ps_index(const PsIdx& ps_idx) const
    {
        const auto hidden = ps_ys_to_xs_.calculate_hidden_index(
            concat_ps_ys(ps_idx, make_zero_multi_index<NDimY>()));
        return get_container_subset(hidden, typename DstrDetail::rs_hidden_ids{});
    }

    /// One tile_distributed_span per X dimension: the lengths of its Ys, in H order.
    /// @post the product of all span lengths == get_num_of_element_per_thread().
    CK_TILE_HOST_DEVICE static constexpr auto get_distributed_spans()
    {
        using spans_t = remove_cvref_t<decltype(DstrEncode::detail::distributed_spans_lengthss_)>;
        return generate_tuple(
            [](auto x) {
                return make_tile_distributed_span(remove_cvref_t<decltype(spans_t{}[x])>{});
            },
            number<NDimX>{});
    }

    /// The Y index of a distributed position: a tuple with one tile_distributed_index per X
    /// dimension (as sweeps produce them). Y y takes entry ys_to_span_minor[y] of the index of
    /// X dimension ys_to_span_major[y].
    /// @post a bijection from the positions of get_distributed_spans() onto the Y index box.
    /// A bare tile_distributed_index stands for the 1-tuple of it (1-D tiles).
    template <typename DistributedIndices>
    CK_TILE_HOST_DEVICE static constexpr multi_index<NDimY>
    get_y_indices_from_distributed_indices(DistributedIndices)
    {
        if constexpr(is_tile_distributed_index_v<DistributedIndices>)
            return get_y_indices_from_distributed_indices(make_tuple(DistributedIndices{}));
        else
            return y_indices_of_tuple(DistributedIndices{});
    }

    private:
    template <typename DistributedIndices>
    CK_TILE_HOST_DEVICE static constexpr multi_index<NDimY> y_indices_of_tuple(DistributedIndices)
    {
        static_assert(DistributedIndices::size() == NDimX,
                      "tile_distribution: one distributed index per X dimension");
        using major = typename DstrEncode::detail::ys_to_span_major;
        using minor = typename DstrEncode::detail::ys_to_span_minor;
        multi_index<NDimY> ys{};
        static_for<0, NDimY, 1>{}([&](auto y) {
            constexpr index_t Y = decltype(y)::value;
            using idx = remove_cvref_t<decltype(DistributedIndices{}[number<major::at(Y)>{}])>;
            ys(y)     = idx::Impl::at(minor::at(Y));
        });
        return ys;
    }

    public:
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }

    CK_TILE_HOST_DEVICE void print() const
    {
        printf("tile_distribution{ps_ys_to_xs: ");
        ps_ys_to_xs_.print();
        printf(", ys_to_d: ");
        ys_to_d_.print();
        printf("}");
    }

    private:
    template <typename PsIdx, typename YsIdx>
    CK_TILE_HOST_DEVICE static constexpr multi_index<NDimP + NDimY>
    concat_ps_ys(const PsIdx& ps_idx, const YsIdx& ys_idx)
    {
        static_assert(PsIdx::size() == NDimP, "tile_distribution: partition index of the wrong "
                                              "size (one entry per P dimension)");
        static_assert(YsIdx::size() == NDimY,
                      "tile_distribution: Y index of the wrong size (one entry per Y dimension)");
        multi_index<NDimP + NDimY> r{};
        static_for<0, NDimP, 1>{}([&](auto i) { r(i) = ps_idx[i]; });
        static_for<0, NDimY, 1>{}([&](auto i) { r(number<NDimP + i>{}) = ys_idx[i]; });
        return r;
    }
};

template <typename T>
struct is_tile_distribution : std::false_type
{};
template <typename... Ts>
struct is_tile_distribution<tile_distribution<Ts...>> : std::true_type
{};

namespace detail {
template <typename T, bool = is_tile_distribution<T>::value>
struct encoding_of
{
    using type = T;
};
template <typename T>
struct encoding_of<T, true>
{
    using type = typename T::DstrEncode;
};
} // namespace detail

/// Lanes per warp a distribution or an encoding assumes (see get_encoding_lanes_per_warp).
template <typename DistributionOrEncoding>
inline constexpr index_t lanes_per_warp_v = get_encoding_lanes_per_warp<
    typename detail::encoding_of<remove_cvref_t<DistributionOrEncoding>>::type>();

/// True when a distribution's (or an encoding's) hardware partition index fits the warp size
/// of the platform this translation unit targets (get_warp_size(); on the host, the build's
/// GPU platform); what get_partition_index() asserts.
template <typename DistributionOrEncoding>
inline constexpr bool matches_warp_size_v = lanes_per_warp_v<DistributionOrEncoding> ==
                                            get_warp_size();

namespace detail {

template <typename Encoding>
struct ps_ys_to_xs_layout
{
    using E   = Encoding;
    using DD  = tile_distribution_detail<E>;
    using pma = seqs_table<typename E::Ps2RHssMajor>;
    using pmi = seqs_table<typename E::Ps2RHssMinor>;

    // The H lengths of X dimension X.
    template <index_t X>
    using hs_of = remove_cvref_t<decltype(typename E::HsLengthss{}[number<X>{}])>;

    // Hidden ids of the H factors of X dimension X.
    template <index_t X>
    struct h_ids_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t m)
        {
            return DD::rh_hidden_id(1 + X, m);
        }
    };
    template <index_t X>
    using h_ids = sequence_from_values_t<index_gen<hs_of<X>::size(), h_ids_fn<X>>>;

    // Hidden ids of the RH factors P dimension P names, in its order.
    template <index_t P>
    struct p_lower_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t j)
        {
            return DD::rh_hidden_id(pma::at(P, j), pmi::at(P, j));
        }
    };
    template <index_t P>
    using p_lower_ids = sequence_from_values_t<index_gen<pma::size(P), p_lower_fn<P>>>;

    struct y_ids_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t y)
        {
            return DD::rh_hidden_id(E::Ys2RHsMajor::at(y), E::Ys2RHsMinor::at(y));
        }
    };
    struct p_ids_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t p) { return DD::p_hidden_id(p); }
    };
    using top_ids = sequence_merge_t<sequence_from_values_t<index_gen<E::NDimP, p_ids_fn>>,
                                     sequence_from_values_t<index_gen<E::NDimY, y_ids_fn>>>;

    /// The lengths of the RH factors P names, as number<>s.
    template <index_t P>
    CK_TILE_HOST_DEVICE static constexpr auto p_lengths()
    {
        return generate_tuple(
            [](auto j) {
                constexpr index_t J = decltype(j)::value;
                return number<
                    E::detail::rhs_lengthss_[number<pma::at(P, J)>{}][number<pmi::at(P, J)>{}]>{};
            },
            number<pma::size(P)>{});
    }
    /// P's transform: a merge of its RH factors; a P that names none is a length-1 dimension
    /// tied to nothing, which is a replicate of length 1.
    template <index_t P>
    CK_TILE_HOST_DEVICE static constexpr auto p_transform()
    {
        if constexpr(pma::size(P) == 0)
            return make_replicate_transform(make_tuple(number<1>{}));
        else
            return make_merge_transform(p_lengths<P>());
    }
    template <index_t P>
    using p_lower_ids_or_none = std::conditional_t<pma::size(P) == 0, sequence<>, p_lower_ids<P>>;

    template <index_t... Xs, index_t... Ps>
    CK_TILE_HOST_DEVICE static constexpr auto make(sequence<Xs...>, sequence<Ps...>)
    {
        const auto transforms =
            make_tuple(make_replicate_transform(to_tuple(typename E::RsLengths{})),
                       make_unmerge_transform(to_tuple(hs_of<Xs>{}))..., p_transform<Ps>()...);
        using Lower = tuple<sequence<>, sequence<Xs>..., p_lower_ids_or_none<Ps>...>;
        using Upper =
            tuple<typename DD::rs_hidden_ids, h_ids<Xs>..., sequence<DD::p_hidden_id(Ps)>...>;
        using Bottom = make_index_sequence<E::NDimX>;
        return tensor_adaptor<remove_cvref_t<decltype(transforms)>, Lower, Upper, Bottom, top_ids>{
            transforms};
    }
};

} // namespace detail

/// The (P..., Y...) -> X... adaptor of an encoding (see the file comment for its layout).
/// @post calculate_bottom_index(ps ++ ys)[i] == row-major combination of Hs[i], where each
///       H factor takes the value of the Y that names it or its share of the P that names it.
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr auto make_ps_ys_to_xs_adaptor(Encoding)
{
    return detail::ps_ys_to_xs_layout<Encoding>::make(make_index_sequence<Encoding::NDimX>{},
                                                      make_index_sequence<Encoding::NDimP>{});
}

/// The Y... -> D descriptor of an encoding: packed row-major over the Y lengths.
/// @post a bijection from the Y index space onto [0, prod(Y lengths)).
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr auto make_ys_to_d_descriptor(Encoding)
{
    return make_naive_tensor_descriptor_packed(to_tuple(typename Encoding::detail::ys_lengths{}));
}

/// The distribution of an encoding; every part of it is a compile-time constant.
template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr auto make_static_tile_distribution(Encoding)
{
    static_assert(is_tile_distribution_encoding<Encoding>::value,
                  "make_static_tile_distribution: expects a tile_distribution_encoding");
    const auto ps_ys_to_xs = make_ps_ys_to_xs_adaptor(Encoding{});
    const auto ys_to_d     = make_ys_to_d_descriptor(Encoding{});
    return tile_distribution<remove_cvref_t<decltype(ps_ys_to_xs)>,
                             remove_cvref_t<decltype(ys_to_d)>, Encoding,
                             tile_distribution_detail<Encoding>>{ps_ys_to_xs, ys_to_d};
}

} // namespace ck_tile
