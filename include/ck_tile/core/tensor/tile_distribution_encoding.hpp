// SPDX-License-Identifier: MIT
// `tile_distribution_encoding`: the compile-time description of how a tile of X dimensions is
// shared out among the threads of a block (P dimensions) and, within each thread, among the
// elements it holds (Y dimensions).
//
// Every X dimension i is split into hierarchical factors Hs[i] (row-major: the last factor is
// the fastest-varying part of X_i). Optional R factors describe replication: an R factor is
// indexed by a P dimension but by no X dimension, so the threads that differ only in it hold
// the same data. R and H factors together form the RH table, addressed by (major, minor):
// major 0 is R, major 1 + i is Hs[i]; minor is the position within that group.
//
// Each P dimension names a list of RH factors (its index is their row-major merge, the last
// one fastest); each Y dimension names exactly one H factor. A valid encoding uses every H
// factor exactly once (by a P or by a Y) and every R factor exactly once (by a P): then every
// X element is held by exactly prod(Rs) (thread, Y) pairs. Violations fail to compile with
// a message naming the rule.
//
// Example (seed 004, 7.5.6): a 4x4 tile, Hs = <2,2>, <2,2>; P0 -> H0[0], P1 -> H1[0];
// Y0 -> H0[1], Y1 -> H1[1]. Thread (p0, p1) holds the 2x2 block at rows 2*p0.., columns 2*p1..
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/container_helper.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <type_traits>

namespace ck_tile {

namespace detail {

template <typename T>
struct is_tuple_of_sequences : std::false_type
{};
template <typename... Seqs>
struct is_tuple_of_sequences<tuple<Seqs...>> : std::bool_constant<(is_sequence_v<Seqs> && ...)>
{};

// Read access to a tuple of sequences by runtime (k, j), for constexpr loops.
template <typename Tuple>
struct seqs_table;
template <typename... Seqs>
struct seqs_table<tuple<Seqs...>>
{
    static constexpr index_t num = sizeof...(Seqs);

    CK_TILE_HOST_DEVICE static constexpr index_t size(index_t k)
    {
        // The trailing 0 keeps the array non-empty for an empty tuple.
        constexpr index_t sizes[] = {Seqs::size()..., 0};
        return (k >= 0 && k < num) ? sizes[k] : 0;
    }
    /// The j-th value of the k-th sequence, or -1 where (k, j) is out of range.
    CK_TILE_HOST_DEVICE static constexpr index_t at(index_t k, index_t j)
    {
        index_t r = -1;
        index_t i = 0;
        ((r = (i == k && j >= 0 && j < Seqs::size()) ? Seqs::at(j) : r, ++i), ...);
        return r;
    }
};

// The R and H lengths of an encoding as one table addressed by (major, minor), and the
// position of each entry in the flattened order R..., Hs[0]..., Hs[1]..., which is also the
// order of the RH hidden dimensions of the distribution's adaptor.
template <typename RsLengths, typename HsLengthss>
struct rh_table;
template <typename RsLengths, typename... HsLengths>
struct rh_table<RsLengths, tuple<HsLengths...>>
{
    static constexpr index_t ndim_major = 1 + sizeof...(HsLengths);
    using flat_lengths                  = sequence_merge_t<RsLengths, HsLengths...>;
    static constexpr index_t ndim_flat  = flat_lengths::size();

    /// @post the size of group `major`, or -1 when there is no such group.
    CK_TILE_HOST_DEVICE static constexpr index_t ndim_minor(index_t major)
    {
        constexpr index_t sizes[] = {RsLengths::size(), HsLengths::size()...};
        return (major >= 0 && major < ndim_major) ? sizes[major] : -1;
    }
    CK_TILE_HOST_DEVICE static constexpr bool is_valid(index_t major, index_t minor)
    {
        return major >= 0 && major < ndim_major && minor >= 0 && minor < ndim_minor(major);
    }
    /// @post position of (major, minor) in the flattened order, -1 when out of range.
    CK_TILE_HOST_DEVICE static constexpr index_t flat(index_t major, index_t minor)
    {
        if(!is_valid(major, minor))
            return -1;
        index_t pos = 0;
        for(index_t m = 0; m < major; ++m)
            pos += ndim_minor(m);
        return pos + minor;
    }
    /// @post the length of (major, minor), -1 when out of range.
    CK_TILE_HOST_DEVICE static constexpr index_t length(index_t major, index_t minor)
    {
        const index_t f = flat(major, minor);
        return f < 0 ? -1 : flat_lengths::at(f);
    }
};

// A value generator (see sequence_from_values_t) from a constexpr function of the position.
template <index_t N, typename F>
struct index_gen
{
    static constexpr index_t n = N;
    CK_TILE_HOST_DEVICE static constexpr array<index_t, N> values()
    {
        array<index_t, N> r{};
        for(index_t i = 0; i < N; ++i)
            r.elems[i] = F::value(i);
        return r;
    }
};

// The validity rules of an encoding, as constexpr predicates (kept outside the encoding so
// that its static_asserts can call them while the encoding itself is still incomplete).
template <typename RsLengths, typename HsLengthss, typename Ps2RHssMajor, typename Ps2RHssMinor,
          typename Ys2RHsMajor, typename Ys2RHsMinor>
struct encoding_rules
{
    using rh                       = rh_table<RsLengths, HsLengthss>;
    using pma                      = seqs_table<Ps2RHssMajor>;
    using pmi                      = seqs_table<Ps2RHssMinor>;
    static constexpr index_t NDimP = Ps2RHssMajor::size();
    // Only the Ys named by both sequences are checked; a length mismatch is its own error.
    static constexpr index_t NDimY =
        Ys2RHsMajor::size() < Ys2RHsMinor::size() ? Ys2RHsMajor::size() : Ys2RHsMinor::size();

    CK_TILE_HOST_DEVICE static constexpr bool ps_major_minor_same_shape()
    {
        if(Ps2RHssMajor::size() != Ps2RHssMinor::size())
            return false;
        for(index_t p = 0; p < NDimP; ++p)
            if(pma::size(p) != pmi::size(p))
                return false;
        return true;
    }
    CK_TILE_HOST_DEVICE static constexpr bool lengths_positive()
    {
        for(index_t f = 0; f < rh::ndim_flat; ++f)
            if(rh::flat_lengths::at(f) <= 0)
                return false;
        return true;
    }
    CK_TILE_HOST_DEVICE static constexpr bool ps_in_range()
    {
        for(index_t p = 0; p < NDimP; ++p)
            for(index_t j = 0; j < pma::size(p); ++j)
                if(!rh::is_valid(pma::at(p, j), pmi::at(p, j)))
                    return false;
        return true;
    }
    CK_TILE_HOST_DEVICE static constexpr bool ys_in_range()
    {
        for(index_t y = 0; y < NDimY; ++y)
            if(!rh::is_valid(Ys2RHsMajor::at(y), Ys2RHsMinor::at(y)))
                return false;
        return true;
    }
    CK_TILE_HOST_DEVICE static constexpr bool no_y_on_r()
    {
        for(index_t y = 0; y < NDimY; ++y)
            if(Ys2RHsMajor::at(y) == 0)
                return false;
        return true;
    }
    /// How many P and Y entries name the flattened RH factor f.
    CK_TILE_HOST_DEVICE static constexpr index_t uses_of(index_t f)
    {
        index_t n = 0;
        for(index_t p = 0; p < NDimP; ++p)
            for(index_t j = 0; j < pma::size(p); ++j)
                n += rh::flat(pma::at(p, j), pmi::at(p, j)) == f;
        for(index_t y = 0; y < NDimY; ++y)
            n += rh::flat(Ys2RHsMajor::at(y), Ys2RHsMinor::at(y)) == f;
        return n;
    }
    CK_TILE_HOST_DEVICE static constexpr bool every_rh_used_once()
    {
        for(index_t f = 0; f < rh::ndim_flat; ++f)
            if(uses_of(f) != 1)
                return false;
        return true;
    }
};
} // namespace detail

template <typename RsLengths_, typename HsLengthss_, typename Ps2RHssMajor_, typename Ps2RHssMinor_,
          typename Ys2RHsMajor_, typename Ys2RHsMinor_>
struct tile_distribution_encoding
{
    using RsLengths    = remove_cvref_t<RsLengths_>;
    using HsLengthss   = remove_cvref_t<HsLengthss_>;
    using Ps2RHssMajor = remove_cvref_t<Ps2RHssMajor_>;
    using Ps2RHssMinor = remove_cvref_t<Ps2RHssMinor_>;
    using Ys2RHsMajor  = remove_cvref_t<Ys2RHsMajor_>;
    using Ys2RHsMinor  = remove_cvref_t<Ys2RHsMinor_>;

    static_assert(is_sequence_v<RsLengths>, "tile_distribution_encoding: RsLengths must be a "
                                            "sequence<> (sequence<> for no replication)");
    static_assert(ck_tile::detail::is_tuple_of_sequences<HsLengthss>::value,
                  "tile_distribution_encoding: HsLengthss must be a tuple of sequences, one per "
                  "X dimension");
    static_assert(ck_tile::detail::is_tuple_of_sequences<Ps2RHssMajor>::value &&
                      ck_tile::detail::is_tuple_of_sequences<Ps2RHssMinor>::value,
                  "tile_distribution_encoding: Ps2RHssMajor/Minor must be tuples of sequences, "
                  "one per P dimension");
    static_assert(is_sequence_v<Ys2RHsMajor> && is_sequence_v<Ys2RHsMinor>,
                  "tile_distribution_encoding: Ys2RHsMajor/Minor must be sequences");

    static constexpr index_t NDimX = HsLengthss::size();
    static constexpr index_t NDimP = Ps2RHssMajor::size();
    static constexpr index_t NDimY = Ys2RHsMajor::size();
    static constexpr index_t NDimR = RsLengths::size();

    static constexpr RsLengths rs_lengths_{};
    static constexpr HsLengthss hs_lengthss_{};
    static constexpr Ps2RHssMajor ps_to_rhss_major_{};
    static constexpr Ps2RHssMinor ps_to_rhss_minor_{};
    static constexpr Ys2RHsMajor ys_to_rhs_major_{};
    static constexpr Ys2RHsMinor ys_to_rhs_minor_{};

    CK_TILE_HOST_DEVICE static constexpr auto get_rs_lengths() { return RsLengths{}; }
    CK_TILE_HOST_DEVICE static constexpr auto get_hs_lengthss() { return HsLengthss{}; }
    CK_TILE_HOST_DEVICE static constexpr auto get_ps_to_rhss_major() { return Ps2RHssMajor{}; }
    CK_TILE_HOST_DEVICE static constexpr auto get_ps_to_rhss_minor() { return Ps2RHssMinor{}; }
    CK_TILE_HOST_DEVICE static constexpr auto get_ys_to_rhs_major() { return Ys2RHsMajor{}; }
    CK_TILE_HOST_DEVICE static constexpr auto get_ys_to_rhs_minor() { return Ys2RHsMinor{}; }

    private:
    using rules = ck_tile::detail::encoding_rules<RsLengths, HsLengthss, Ps2RHssMajor, Ps2RHssMinor,
                                                  Ys2RHsMajor, Ys2RHsMinor>;
    using rh    = typename rules::rh;
    using pma   = typename rules::pma;
    using pmi   = typename rules::pmi;

    static_assert(NDimX >= 1, "tile_distribution_encoding: at least one X dimension (Hs)");
    static_assert(rules::ps_major_minor_same_shape(),
                  "tile_distribution_encoding: Ps2RHssMajor and Ps2RHssMinor must have the same "
                  "number of P dimensions and the same length for each P");
    static_assert(Ys2RHsMajor::size() == Ys2RHsMinor::size(),
                  "tile_distribution_encoding: Ys2RHsMajor and Ys2RHsMinor differ in length");
    static_assert(rules::lengths_positive(),
                  "tile_distribution_encoding: every R and H length must be positive");
    static_assert(rules::ps_in_range(),
                  "tile_distribution_encoding: a P maps to an RH index out of range (major must "
                  "be in [0, NDimX], minor within that R/H group)");
    static_assert(rules::ys_in_range(),
                  "tile_distribution_encoding: a Y maps to an RH index out of range (major must "
                  "be in [1, NDimX], minor within that H group)");
    static_assert(rules::no_y_on_r(),
                  "tile_distribution_encoding: a Y maps to R (major 0); replication is indexed "
                  "by P dimensions only");
    static_assert(rules::every_rh_used_once(),
                  "tile_distribution_encoding: every R and H factor must be named exactly once "
                  "in total by the P and Y mappings (a factor named twice or never gives "
                  "overlapping or missing elements)");

    struct y_length_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t y)
        {
            return rh::length(Ys2RHsMajor::at(y), Ys2RHsMinor::at(y));
        }
    };
    struct p_length_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t p)
        {
            index_t len = 1;
            for(index_t j = 0; j < pma::size(p); ++j)
                len *= rh::length(pma::at(p, j), pmi::at(p, j));
            return len;
        }
    };
    struct x_length_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t x)
        {
            index_t len = 1;
            for(index_t m = 0; m < rh::ndim_minor(1 + x); ++m)
                len *= rh::length(1 + x, m);
            return len;
        }
    };
    // A Y's span minor index: its rank among the Ys of the same X dimension, ordered by H
    // position (outer factors first), so spans list a thread's factors of X_i in X order.
    struct y_span_minor_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t y)
        {
            index_t rank = 0;
            for(index_t z = 0; z < NDimY; ++z)
                rank += Ys2RHsMajor::at(z) == Ys2RHsMajor::at(y) &&
                        Ys2RHsMinor::at(z) < Ys2RHsMinor::at(y);
            return rank;
        }
    };
    struct y_span_major_fn
    {
        CK_TILE_HOST_DEVICE static constexpr index_t value(index_t y)
        {
            return Ys2RHsMajor::at(y) - 1;
        }
    };
    template <index_t X>
    struct span_lengths_gen
    {
        CK_TILE_HOST_DEVICE static constexpr index_t count()
        {
            index_t c = 0;
            for(index_t y = 0; y < NDimY; ++y)
                c += Ys2RHsMajor::at(y) == 1 + X;
            return c;
        }
        static constexpr index_t n = count();
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
        {
            array<index_t, n> r{};
            for(index_t y = 0; y < NDimY; ++y)
                if(Ys2RHsMajor::at(y) == 1 + X)
                    r.elems[y_span_minor_fn::value(y)] = y_length_fn::value(y);
            return r;
        }
    };
    template <index_t... Xs>
    CK_TILE_HOST_DEVICE static constexpr auto make_spans(sequence<Xs...>)
    {
        return tuple<ck_tile::detail::sequence_from_values_t<span_lengths_gen<Xs>>...>{};
    }

    public:
    /// Facts derived from the encoding, all compile-time; the distribution is built from them.
    struct detail
    {
        static constexpr index_t ndim_rh_major   = NDimX + 1;
        static constexpr index_t ndim_span_major = NDimX;
        /// Number of R and H factors together: the RH hidden dimensions of the adaptor.
        static constexpr index_t ndim_rh_flat = rh::ndim_flat;

        /// rhs_lengthss_[major]: R lengths, then Hs[0], Hs[1], ...
        static constexpr auto rhs_lengthss_ =
            container_concat(make_tuple(RsLengths{}), HsLengthss{});
        /// Length of each Y dimension (the H factor it names).
        using ys_lengths =
            ck_tile::detail::sequence_from_values_t<ck_tile::detail::index_gen<NDimY, y_length_fn>>;
        static constexpr ys_lengths ys_lengths_{};
        /// Range of each P dimension: product of the lengths of the RH factors it names.
        using ps_lengths =
            ck_tile::detail::sequence_from_values_t<ck_tile::detail::index_gen<NDimP, p_length_fn>>;
        static constexpr ps_lengths ps_lengths_{};
        /// Tile length of each X dimension: product of its H factors.
        using xs_lengths =
            ck_tile::detail::sequence_from_values_t<ck_tile::detail::index_gen<NDimX, x_length_fn>>;
        static constexpr xs_lengths xs_lengths_{};

        /// Y -> distributed span: the X dimension it indexes (span major) and its rank among
        /// that X dimension's Ys in H order (span minor).
        using ys_to_span_major = ck_tile::detail::sequence_from_values_t<
            ck_tile::detail::index_gen<NDimY, y_span_major_fn>>;
        using ys_to_span_minor = ck_tile::detail::sequence_from_values_t<
            ck_tile::detail::index_gen<NDimY, y_span_minor_fn>>;
        static constexpr ys_to_span_major ys_to_span_major_{};
        static constexpr ys_to_span_minor ys_to_span_minor_{};
        /// distributed_spans_lengthss_[x]: lengths of the Ys of X dimension x, in H order.
        static constexpr auto distributed_spans_lengthss_ =
            make_spans(make_index_sequence<NDimX>{});

        /// Position of (major, minor) among the flattened R, H factors; -1 out of range.
        CK_TILE_HOST_DEVICE static constexpr index_t rh_flat_index(index_t major, index_t minor)
        {
            return rh::flat(major, minor);
        }
        /// Length of RH factor (major, minor); -1 out of range.
        CK_TILE_HOST_DEVICE static constexpr index_t rh_length(index_t major, index_t minor)
        {
            return rh::length(major, minor);
        }
        /// The Y dimension that names (major, minor), or -1 (a P names it).
        CK_TILE_HOST_DEVICE static constexpr index_t rhs_major_minor_to_y(index_t major,
                                                                          index_t minor)
        {
            for(index_t y = 0; y < NDimY; ++y)
                if(Ys2RHsMajor::at(y) == major && Ys2RHsMinor::at(y) == minor)
                    return y;
            return -1;
        }
        /// True when P dimension p indexes R factor r (p's threads then differ in r only by
        /// holding copies of the same data).
        CK_TILE_HOST_DEVICE static constexpr bool does_p_own_r(index_t p, index_t r)
        {
            for(index_t j = 0; j < pma::size(p); ++j)
                if(pma::at(p, j) == 0 && pmi::at(p, j) == r)
                    return true;
            return false;
        }
        /// Number of copies of each X element across the block: product of R lengths.
        static constexpr index_t num_replicas = RsLengths::product();
    };
};

template <typename T>
struct is_tile_distribution_encoding : std::false_type
{};
template <typename... Ts>
struct is_tile_distribution_encoding<tile_distribution_encoding<Ts...>> : std::true_type
{};

} // namespace ck_tile
