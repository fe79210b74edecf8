// SPDX-License-Identifier: MIT
// Coordinate transforms: the building blocks of adaptors and descriptors.
//
// A transform maps an index of its *upper* space (what the user addresses) to an index of its
// *lower* space (closer to memory). Every transform provides
//   get_upper_lengths()                          lengths of its upper dimensions
//   calculate_lower_index(idx_low, idx_up)       lower index of an upper index
//   update_lower_index(diff_low, diff_up, idx_low, idx_up_new)
//                                                incremental form: given the upper index after a
//                                                move of diff_up, updates idx_low in place and
//                                                reports how far it moved in diff_low
//   is_valid_upper_index_always_mapped_to_valid_lower_index()
//   is_valid_upper_index_mapped_to_valid_lower_index(idx_up)
//                                                padding is the only source of invalid indices:
//                                                a padded upper index maps outside the data
// and, where the map is invertible, calculate_upper_index(idx_up, idx_low).
//
// Lengths, strides, pads and offsets are integers or number<>s, freely mixed; a transform
// whose parameters are all number<>s is static (is_known_at_compile_time()) and a default-
// constructed one equals the original. Indices are always multi_index (runtime values).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/container_helper.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/print.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <cstdio>
#include <type_traits>

namespace ck_tile {

enum struct coord_transform_enum
{
    undefined,
    pass_through,
    pad,
    embed,
    merge,
    unmerge,
    replicate,
    offset,
    slice,
    modulo,
    xor_t,
    freeze,
};

namespace detail {
// Lengths given as plain integers become index_t, number<>s stay number<>s (as index_t
// constants), sequences become tuples of number<>s: the seeds pass all three.
template <typename X>
CK_TILE_HOST_DEVICE constexpr auto to_index_like(const X& x)
{
    if constexpr(is_constant_v<X>)
        return number<static_cast<index_t>(remove_cvref_t<X>::value)>{};
    else
        return static_cast<index_t>(x);
}
template <typename X>
CK_TILE_HOST_DEVICE constexpr auto to_lengths(const X& x)
{
    if constexpr(is_sequence_v<X>)
        return to_tuple(x);
    else if constexpr(is_tuple_v<X>)
        return unpack([](const auto&... xs) { return make_tuple(to_index_like(xs)...); }, x);
    else
        return to_index_like(x);
}
template <typename X>
using to_lengths_t = remove_cvref_t<decltype(to_lengths(std::declval<X>()))>;

template <typename X>
struct is_static_zero : std::false_type
{};
template <auto v>
struct is_static_zero<constant<v>> : std::bool_constant<v == 0>
{};
template <typename X>
inline constexpr bool is_static_zero_v = is_static_zero<remove_cvref_t<X>>::value;
} // namespace detail

template <index_t NDimLow, index_t NDimUp>
struct base_transform
{
    using LowerIndex = multi_index<NDimLow>;
    using UpperIndex = multi_index<NDimUp>;

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_lower_dimension() { return NDimLow; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_upper_dimension() { return NDimUp; }

    CK_TILE_HOST_DEVICE static constexpr bool
    is_valid_upper_index_always_mapped_to_valid_lower_index()
    {
        return true;
    }
    template <typename UpIdx>
    CK_TILE_HOST_DEVICE static constexpr bool
    is_valid_upper_index_mapped_to_valid_lower_index(const UpIdx&)
    {
        return true;
    }
};

/// A one-to-one transform whose lower index is the upper index plus a constant (pass-through,
/// pad, offset, slice): a step of the upper index is the same step of the lower one.
struct unit_step_transform : base_transform<1, 1>
{
    /// @post idx_diff_low[0] == idx_diff_up[0] and idx_low[0] moved by it.
    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE static constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                                 const UpIdxDiff& idx_diff_up,
                                                                 LowIdx& idx_low, const UpIdx&)
    {
        idx_diff_low(number<0>{}) = idx_diff_up[number<0>{}];
        idx_low(number<0>{}) += idx_diff_up[number<0>{}];
    }
};

// -------------------------------------------------------------------------------------------
/// Identity on one dimension.
template <typename LowLength>
struct pass_through : unit_step_transform
{
    using UpLengths = tuple<LowLength>;
    UpLengths up_lengths_;

    CK_TILE_HOST_DEVICE constexpr pass_through() = default;
    CK_TILE_HOST_DEVICE constexpr pass_through(const LowLength& low_length)
        : up_lengths_(low_length)
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::pass_through;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    /// @post idx_low[0] == idx_up[0].
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE static constexpr void calculate_lower_index(LowIdx& idx_low,
                                                                    const UpIdx& idx_up)
    {
        idx_low(number<0>{}) = idx_up[number<0>{}];
    }
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE static constexpr void calculate_upper_index(UpIdx& idx_up,
                                                                    const LowIdx& idx_low)
    {
        idx_up(number<0>{}) = idx_low[number<0>{}];
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<UpLengths>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("pass_through{up_lengths: ");
        ck_tile::print(up_lengths_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// Padding on both sides of one dimension: upper length = left + low + right, and
/// lower = upper - left. Upper indices in the pads map outside [0, low) and are reported
/// invalid, unless SkipIsValidCheck says the caller never reads them.
/// A pad given as number<0> costs nothing: its bound is never checked.
template <typename LowLength, typename LeftPad, typename RightPad, bool SkipIsValidCheck = false>
struct pad : unit_step_transform
{
    using UpLengths =
        tuple<remove_cvref_t<decltype(std::declval<LowLength>() + std::declval<LeftPad>() +
                                      std::declval<RightPad>())>>;
    UpLengths up_lengths_;
    LeftPad left_pad_;
    RightPad right_pad_;

    CK_TILE_HOST_DEVICE constexpr pad() = default;
    CK_TILE_HOST_DEVICE constexpr pad(const LowLength& low_length, const LeftPad& left_pad,
                                      const RightPad& right_pad)
        : up_lengths_(low_length + left_pad + right_pad), left_pad_(left_pad), right_pad_(right_pad)
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum() { return coord_transform_enum::pad; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    /// @post idx_low[0] == idx_up[0] - left_pad (negative or >= low_length inside the pads).
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        idx_low(number<0>{}) = idx_up[number<0>{}] - left_pad_;
    }
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_upper_index(UpIdx& idx_up,
                                                             const LowIdx& idx_low) const
    {
        idx_up(number<0>{}) = idx_low[number<0>{}] + left_pad_;
    }

    CK_TILE_HOST_DEVICE static constexpr bool
    is_valid_upper_index_always_mapped_to_valid_lower_index()
    {
        return SkipIsValidCheck ||
               (detail::is_static_zero_v<LeftPad> && detail::is_static_zero_v<RightPad>);
    }
    /// @post true iff left_pad <= idx_up[0] < left_pad + low_length (or checks are skipped),
    ///       given that idx_up[0] is inside [0, upper length).
    template <typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr bool
    is_valid_upper_index_mapped_to_valid_lower_index(const UpIdx& idx_up) const
    {
        if constexpr(SkipIsValidCheck)
            return true;
        else
        {
            bool ok = true;
            if constexpr(!detail::is_static_zero_v<LeftPad>)
                ok = ok && idx_up[number<0>{}] >= left_pad_;
            if constexpr(!detail::is_static_zero_v<RightPad>)
                ok = ok && idx_up[number<0>{}] < up_lengths_[number<0>{}] - right_pad_;
            return ok;
        }
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<UpLengths> && is_static_v<LeftPad> && is_static_v<RightPad>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("pad{up_lengths: ");
        ck_tile::print(up_lengths_);
        printf(", left_pad: ");
        ck_tile::print(left_pad_);
        printf(", right_pad: ");
        ck_tile::print(right_pad_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// Strided view: lower = sum_i upper[i] * coefficients[i]. With packed row-major coefficients
/// this is the unmerge; with arbitrary strides it is how a naive descriptor addresses memory.
template <typename UpLengths, typename Coefficients>
struct embed : base_transform<1, UpLengths::size()>
{
    static constexpr index_t NDimUp = UpLengths::size();
    static_assert(Coefficients::size() == NDimUp, "embed: one coefficient per upper dimension");

    UpLengths up_lengths_;
    Coefficients coefficients_;

    CK_TILE_HOST_DEVICE constexpr embed() = default;
    CK_TILE_HOST_DEVICE constexpr embed(const UpLengths& up_lengths,
                                        const Coefficients& coefficients)
        : up_lengths_(up_lengths), coefficients_(coefficients)
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::embed;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_coefficients() const { return coefficients_; }

    /// @post idx_low[0] == sum_i idx_up[i] * coefficients[i].
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        index_t r = 0;
        static_for<0, NDimUp, 1>{}([&](auto i) { r += idx_up[i] * coefficients_[i]; });
        idx_low(number<0>{}) = r;
    }
    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                          const UpIdxDiff& idx_diff_up,
                                                          LowIdx& idx_low, const UpIdx&) const
    {
        index_t d = 0;
        static_for<0, NDimUp, 1>{}([&](auto i) { d += idx_diff_up[i] * coefficients_[i]; });
        idx_diff_low(number<0>{}) = d;
        idx_low(number<0>{}) += d;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<UpLengths> && is_static_v<Coefficients>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("embed{up_lengths: ");
        ck_tile::print(up_lengths_);
        printf(", coefficients: ");
        ck_tile::print(coefficients_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
namespace detail {
// Shared state of the merge variants: the lower lengths, their row-major strides and the
// single upper length (their product).
template <typename LowLengths>
struct merge_state : base_transform<LowLengths::size(), 1>
{
    static constexpr index_t NDimLow = LowLengths::size();
    using LowLengthsScan =
        decltype(container_reverse_exclusive_scan(LowLengths{}, multiplies{}, number<1>{}));
    using UpLengths =
        decltype(make_tuple(container_reduce(LowLengths{}, multiplies{}, number<1>{})));

    LowLengths low_lengths_;
    LowLengthsScan low_lengths_scan_;
    UpLengths up_lengths_;

    CK_TILE_HOST_DEVICE constexpr merge_state() = default;
    CK_TILE_HOST_DEVICE constexpr merge_state(const LowLengths& low_lengths)
        : low_lengths_(low_lengths), low_lengths_scan_(container_reverse_exclusive_scan(
                                         low_lengths, multiplies{}, number<1>{})),
          up_lengths_(make_tuple(container_reduce(low_lengths, multiplies{}, number<1>{})))
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::merge;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_lower_lengths() const { return low_lengths_; }

    /// Row-major decomposition of the single upper index.
    /// @post sum_i idx_low[i] * scan[i] == idx_up[0] and 0 <= idx_low[i] < low_lengths[i]
    ///       for i > 0 (for 0 <= idx_up[0] < upper length, also for i == 0).
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        index_t rest = idx_up[number<0>{}];
        static_for<0, NDimLow - 1, 1>{}([&](auto i) {
            const index_t q = rest / low_lengths_scan_[i];
            idx_low(i)      = q;
            rest -= q * low_lengths_scan_[i];
        });
        idx_low(number<NDimLow - 1>{}) = rest;
    }
    /// @post idx_up[0] == sum_i idx_low[i] * scan[i].
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_upper_index(UpIdx& idx_up,
                                                             const LowIdx& idx_low) const
    {
        index_t r = 0;
        static_for<0, NDimLow, 1>{}([&](auto i) { r += idx_low[i] * low_lengths_scan_[i]; });
        idx_up(number<0>{}) = r;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<LowLengths> && is_static_v<LowLengthsScan> && is_static_v<UpLengths>;
    }
    CK_TILE_HOST_DEVICE void print_state(const char* name) const
    {
        printf("%s{low_lengths: ", name);
        ck_tile::print(low_lengths_);
        printf(", low_lengths_scan: ");
        ck_tile::print(low_lengths_scan_);
        printf(", up_lengths: ");
        ck_tile::print(up_lengths_);
        printf("}");
    }
};
} // namespace detail

/// Merge of several lower dimensions into one upper dimension (row-major: the last lower
/// dimension varies fastest). An incremental move recomputes the lower index by division,
/// so moves of any size and sign are exact.
template <typename LowLengths>
struct merge_v3_division_mod : detail::merge_state<LowLengths>
{
    using base = detail::merge_state<LowLengths>;
    using base::base;

    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                          const UpIdxDiff&, LowIdx& idx_low,
                                                          const UpIdx& idx_up_new) const
    {
        const LowIdx idx_low_old = idx_low;
        this->calculate_lower_index(idx_low, idx_up_new);
        static_for<0, base::NDimLow, 1>{}(
            [&](auto i) { idx_diff_low(i) = idx_low[i] - idx_low_old[i]; });
    }
    CK_TILE_HOST_DEVICE void print() const { this->print_state("merge_v3_division_mod"); }
};

/// The carry-free merge: an incremental move is applied to the last (fastest) lower
/// dimension only, with no division. Exact only while moves never carry out of the last lower
/// dimension (0 <= idx_low[last] + diff < low_lengths[last]); that is the case it is for,
/// e.g. stepping within a row whose length divides the step pattern.
/// calculate_lower_index is the full division, as for merge_v3_division_mod.
template <typename LowLengths>
struct merge_v4_no_carry : detail::merge_state<LowLengths>
{
    using base = detail::merge_state<LowLengths>;
    using base::base;

    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                          const UpIdxDiff& idx_diff_up,
                                                          LowIdx& idx_low, const UpIdx&) const
    {
        constexpr auto last = number<base::NDimLow - 1>{};
        static_for<0, base::NDimLow - 1, 1>{}([&](auto i) { idx_diff_low(i) = 0; });
        idx_diff_low(last) = idx_diff_up[number<0>{}];
        idx_low(last) += idx_diff_up[number<0>{}];
    }
    CK_TILE_HOST_DEVICE void print() const { this->print_state("merge_v4_no_carry"); }
};

// -------------------------------------------------------------------------------------------
/// Split of one lower dimension into several upper dimensions (row-major):
/// lower = sum_i upper[i] * prod_{j>i} up_lengths[j].
template <typename UpLengths>
struct unmerge : base_transform<1, UpLengths::size()>
{
    static constexpr index_t NDimUp = UpLengths::size();
    using UpLengthsScan =
        decltype(container_reverse_exclusive_scan(UpLengths{}, multiplies{}, number<1>{}));

    UpLengths up_lengths_;
    UpLengthsScan up_lengths_scan_;

    CK_TILE_HOST_DEVICE constexpr unmerge() = default;
    CK_TILE_HOST_DEVICE constexpr unmerge(const UpLengths& up_lengths)
        : up_lengths_(up_lengths),
          up_lengths_scan_(container_reverse_exclusive_scan(up_lengths, multiplies{}, number<1>{}))
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::unmerge;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    /// @post idx_low[0] == sum_i idx_up[i] * scan[i].
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        index_t r = 0;
        static_for<0, NDimUp, 1>{}([&](auto i) { r += idx_up[i] * up_lengths_scan_[i]; });
        idx_low(number<0>{}) = r;
    }
    /// Row-major decomposition; inverse of calculate_lower_index on [0, product of lengths).
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_upper_index(UpIdx& idx_up,
                                                             const LowIdx& idx_low) const
    {
        index_t rest = idx_low[number<0>{}];
        static_for<0, NDimUp - 1, 1>{}([&](auto i) {
            const index_t q = rest / up_lengths_scan_[i];
            idx_up(i)       = q;
            rest -= q * up_lengths_scan_[i];
        });
        idx_up(number<NDimUp - 1>{}) = rest;
    }
    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                          const UpIdxDiff& idx_diff_up,
                                                          LowIdx& idx_low, const UpIdx&) const
    {
        index_t d = 0;
        static_for<0, NDimUp, 1>{}([&](auto i) { d += idx_diff_up[i] * up_lengths_scan_[i]; });
        idx_diff_low(number<0>{}) = d;
        idx_low(number<0>{}) += d;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<UpLengths> && is_static_v<UpLengthsScan>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("unmerge{up_lengths: ");
        ck_tile::print(up_lengths_);
        printf(", up_lengths_scan: ");
        ck_tile::print(up_lengths_scan_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// Broadcast: upper dimensions with no lower dimension at all. Every upper index maps to the
/// same (empty) lower index, so data below is seen at every upper position.
template <typename UpLengths>
struct replicate : base_transform<0, UpLengths::size()>
{
    static constexpr index_t NDimUp = UpLengths::size();
    UpLengths up_lengths_;

    CK_TILE_HOST_DEVICE constexpr replicate() = default;
    CK_TILE_HOST_DEVICE constexpr replicate(const UpLengths& up_lengths) : up_lengths_(up_lengths)
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::replicate;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE static constexpr void calculate_lower_index(LowIdx&, const UpIdx&)
    {
        static_assert(LowIdx::size() == 0, "replicate has no lower dimension");
    }
    /// The upper index of "the" lower index is not unique; the origin is returned.
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE static constexpr void calculate_upper_index(UpIdx& idx_up, const LowIdx&)
    {
        static_for<0, NDimUp, 1>{}([&](auto i) { idx_up(i) = 0; });
    }
    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE static constexpr void update_lower_index(LowIdxDiff&, const UpIdxDiff&,
                                                                 LowIdx&, const UpIdx&)
    {}

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<UpLengths>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("replicate{up_lengths: ");
        ck_tile::print(up_lengths_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// Translation: lower = upper + offset; the upper length is the first argument.
template <typename LowLength, typename OffsetLength>
struct offset : unit_step_transform
{
    using UpLengths = tuple<LowLength>;
    UpLengths up_lengths_;
    OffsetLength offset_length_;

    CK_TILE_HOST_DEVICE constexpr offset() = default;
    CK_TILE_HOST_DEVICE constexpr offset(const LowLength& low_length,
                                         const OffsetLength& offset_length)
        : up_lengths_(low_length), offset_length_(offset_length)
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::offset;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    /// @post idx_low[0] == idx_up[0] + offset.
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        idx_low(number<0>{}) = idx_up[number<0>{}] + offset_length_;
    }
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_upper_index(UpIdx& idx_up,
                                                             const LowIdx& idx_low) const
    {
        idx_up(number<0>{}) = idx_low[number<0>{}] - offset_length_;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<UpLengths> && is_static_v<OffsetLength>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("offset{up_lengths: ");
        ck_tile::print(up_lengths_);
        printf(", offset: ");
        ck_tile::print(offset_length_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// The window [begin, end) of one lower dimension: lower = upper + begin, upper length
/// end - begin.
template <typename LowLength, typename SliceBegin, typename SliceEnd>
struct slice : unit_step_transform
{
    using UpLengths =
        tuple<remove_cvref_t<decltype(std::declval<SliceEnd>() - std::declval<SliceBegin>())>>;
    LowLength low_length_;
    SliceBegin slice_begin_;
    SliceEnd slice_end_;
    UpLengths up_lengths_;

    CK_TILE_HOST_DEVICE constexpr slice() = default;
    CK_TILE_HOST_DEVICE constexpr slice(const LowLength& low_length, const SliceBegin& slice_begin,
                                        const SliceEnd& slice_end)
        : low_length_(low_length), slice_begin_(slice_begin), slice_end_(slice_end),
          up_lengths_(slice_end - slice_begin)
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::slice;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    /// @post idx_low[0] == idx_up[0] + slice_begin.
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        idx_low(number<0>{}) = idx_up[number<0>{}] + slice_begin_;
    }
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_upper_index(UpIdx& idx_up,
                                                             const LowIdx& idx_low) const
    {
        idx_up(number<0>{}) = idx_low[number<0>{}] - slice_begin_;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<LowLength> && is_static_v<SliceBegin> && is_static_v<SliceEnd>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("slice{low_length: ");
        ck_tile::print(low_length_);
        printf(", begin: ");
        ck_tile::print(slice_begin_);
        printf(", end: ");
        ck_tile::print(slice_end_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// Cyclic wrap: lower = upper % modulus, upper length given separately.
template <typename Modulus, typename UpLength>
struct modulo : base_transform<1, 1>
{
    using UpLengths = tuple<UpLength>;
    Modulus modulus_;
    UpLengths up_lengths_;

    CK_TILE_HOST_DEVICE constexpr modulo() = default;
    CK_TILE_HOST_DEVICE constexpr modulo(const Modulus& modulus, const UpLength& up_length)
        : modulus_(modulus), up_lengths_(up_length)
    {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::modulo;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    /// @post idx_low[0] == idx_up[0] % modulus.
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        idx_low(number<0>{}) = idx_up[number<0>{}] % modulus_;
    }
    /// Not invertible: returns the representative in [0, modulus).
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE static constexpr void calculate_upper_index(UpIdx& idx_up,
                                                                    const LowIdx& idx_low)
    {
        idx_up(number<0>{}) = idx_low[number<0>{}];
    }
    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                          const UpIdxDiff&, LowIdx& idx_low,
                                                          const UpIdx& idx_up_new) const
    {
        const index_t idx_low_new = idx_up_new[number<0>{}] % modulus_;
        idx_diff_low(number<0>{}) = idx_low_new - idx_low[number<0>{}];
        idx_low(number<0>{})      = idx_low_new;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<Modulus> && is_static_v<UpLengths>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("modulo{modulus: ");
        ck_tile::print(modulus_);
        printf(", up_lengths: ");
        ck_tile::print(up_lengths_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// 2-D XOR swizzle used against shared-memory bank conflicts:
/// lower = (upper[0], upper[1] ^ (upper[0] % lengths[1])). An involution; a bijection of the
/// box when lengths[1] is a power of two (the XOR then never leaves [0, lengths[1])).
template <typename LowLengths>
struct xor_t : base_transform<2, 2>
{
    static_assert(LowLengths::size() == 2, "xor transform is 2-dimensional");
    using UpLengths = LowLengths;
    UpLengths up_lengths_;

    CK_TILE_HOST_DEVICE constexpr xor_t() = default;
    CK_TILE_HOST_DEVICE constexpr xor_t(const LowLengths& low_lengths) : up_lengths_(low_lengths) {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::xor_t;
    }
    CK_TILE_HOST_DEVICE constexpr const auto& get_upper_lengths() const { return up_lengths_; }

    /// @post idx_low == (idx_up[0], idx_up[1] ^ (idx_up[0] % lengths[1])).
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low,
                                                             const UpIdx& idx_up) const
    {
        const index_t i0     = idx_up[number<0>{}];
        idx_low(number<0>{}) = i0;
        idx_low(number<1>{}) =
            idx_up[number<1>{}] ^ (i0 % static_cast<index_t>(up_lengths_[number<1>{}]));
    }
    /// The same formula: applying it twice is the identity.
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_upper_index(UpIdx& idx_up,
                                                             const LowIdx& idx_low) const
    {
        calculate_lower_index(idx_up, idx_low);
    }
    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                          const UpIdxDiff&, LowIdx& idx_low,
                                                          const UpIdx& idx_up_new) const
    {
        const LowIdx idx_low_old = idx_low;
        calculate_lower_index(idx_low, idx_up_new);
        idx_diff_low(number<0>{}) = idx_low[number<0>{}] - idx_low_old[number<0>{}];
        idx_diff_low(number<1>{}) = idx_low[number<1>{}] - idx_low_old[number<1>{}];
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<UpLengths>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("xor_t{lengths: ");
        ck_tile::print(up_lengths_);
        printf("}");
    }
};

// -------------------------------------------------------------------------------------------
/// Fixes one lower dimension at a given index; it has no upper dimension.
template <typename FrozenIndex>
struct freeze : base_transform<1, 0>
{
    FrozenIndex low_idx_;

    CK_TILE_HOST_DEVICE constexpr freeze() = default;
    CK_TILE_HOST_DEVICE constexpr freeze(const FrozenIndex& low_idx) : low_idx_(low_idx) {}

    CK_TILE_HOST_DEVICE static constexpr auto get_type_enum()
    {
        return coord_transform_enum::freeze;
    }
    CK_TILE_HOST_DEVICE static constexpr auto get_upper_lengths() { return tuple<>{}; }

    /// @post idx_low[0] == the frozen index.
    template <typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(LowIdx& idx_low, const UpIdx&) const
    {
        idx_low(number<0>{}) = low_idx_;
    }
    template <typename UpIdx, typename LowIdx>
    CK_TILE_HOST_DEVICE static constexpr void calculate_upper_index(UpIdx&, const LowIdx&)
    {}
    template <typename LowIdxDiff, typename UpIdxDiff, typename LowIdx, typename UpIdx>
    CK_TILE_HOST_DEVICE constexpr void update_lower_index(LowIdxDiff& idx_diff_low,
                                                          const UpIdxDiff&, LowIdx& idx_low,
                                                          const UpIdx&) const
    {
        idx_diff_low(number<0>{}) = 0;
        idx_low(number<0>{})      = low_idx_;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return is_static_v<FrozenIndex>;
    }
    CK_TILE_HOST_DEVICE void print() const
    {
        printf("freeze{low_idx: ");
        ck_tile::print(low_idx_);
        printf("}");
    }
};

// ------------------------------------ factories --------------------------------------------

template <typename LowLength>
CK_TILE_HOST_DEVICE constexpr auto make_pass_through_transform(const LowLength& low_length)
{
    using L = detail::to_lengths_t<LowLength>;
    return pass_through<L>{detail::to_lengths(low_length)};
}

/// Pads [0, low_length) with left_pad indices before and right_pad after.
template <typename LowLength, typename LeftPad, typename RightPad, bool SkipIsValidCheck = false>
CK_TILE_HOST_DEVICE constexpr auto
make_pad_transform(const LowLength& low_length, const LeftPad& left_pad, const RightPad& right_pad,
                   bool_constant<SkipIsValidCheck> = {})
{
    using L  = detail::to_lengths_t<LowLength>;
    using LP = detail::to_lengths_t<LeftPad>;
    using RP = detail::to_lengths_t<RightPad>;
    return pad<L, LP, RP, SkipIsValidCheck>{detail::to_lengths(low_length),
                                            detail::to_lengths(left_pad),
                                            detail::to_lengths(right_pad)};
}
template <typename LowLength, typename LeftPad, bool SkipIsValidCheck = false>
CK_TILE_HOST_DEVICE constexpr auto make_left_pad_transform(const LowLength& low_length,
                                                           const LeftPad& left_pad,
                                                           bool_constant<SkipIsValidCheck> = {})
{
    return make_pad_transform(low_length, left_pad, number<0>{}, bool_constant<SkipIsValidCheck>{});
}
template <typename LowLength, typename RightPad, bool SkipIsValidCheck = false>
CK_TILE_HOST_DEVICE constexpr auto make_right_pad_transform(const LowLength& low_length,
                                                            const RightPad& right_pad,
                                                            bool_constant<SkipIsValidCheck> = {})
{
    return make_pad_transform(low_length, number<0>{}, right_pad,
                              bool_constant<SkipIsValidCheck>{});
}

template <typename UpLengths, typename Coefficients>
CK_TILE_HOST_DEVICE constexpr auto make_embed_transform(const UpLengths& up_lengths,
                                                        const Coefficients& coefficients)
{
    using U = detail::to_lengths_t<UpLengths>;
    using C = detail::to_lengths_t<Coefficients>;
    return embed<U, C>{detail::to_lengths(up_lengths), detail::to_lengths(coefficients)};
}

template <typename LowLengths>
CK_TILE_HOST_DEVICE constexpr auto
make_merge_transform_v3_division_mod(const LowLengths& low_lengths)
{
    using L = detail::to_lengths_t<LowLengths>;
    return merge_v3_division_mod<L>{detail::to_lengths(low_lengths)};
}
/// The merge used by default: exact for any move (see merge_v3_division_mod).
template <typename LowLengths>
CK_TILE_HOST_DEVICE constexpr auto make_merge_transform(const LowLengths& low_lengths)
{
    return make_merge_transform_v3_division_mod(low_lengths);
}
/// Carry-free merge; see merge_v4_no_carry for the moves it supports.
template <typename LowLengths>
CK_TILE_HOST_DEVICE constexpr auto make_merge_transform_v4_no_carry(const LowLengths& low_lengths)
{
    using L = detail::to_lengths_t<LowLengths>;
    return merge_v4_no_carry<L>{detail::to_lengths(low_lengths)};
}

template <typename UpLengths, bool Use24BitIntegerCalculation = false>
CK_TILE_HOST_DEVICE constexpr auto
make_unmerge_transform(const UpLengths& up_lengths, bool_constant<Use24BitIntegerCalculation> = {})
{
    using U = detail::to_lengths_t<UpLengths>;
    return unmerge<U>{detail::to_lengths(up_lengths)};
}

template <typename UpLengths>
CK_TILE_HOST_DEVICE constexpr auto make_replicate_transform(const UpLengths& up_lengths)
{
    using U = detail::to_lengths_t<UpLengths>;
    return replicate<U>{detail::to_lengths(up_lengths)};
}

/// Upper length `low_length`, lower = upper + offset_length.
template <typename LowLength, typename OffsetLength>
CK_TILE_HOST_DEVICE constexpr auto make_offset_transform(const LowLength& low_length,
                                                         const OffsetLength& offset_length)
{
    using L = detail::to_lengths_t<LowLength>;
    using O = detail::to_lengths_t<OffsetLength>;
    return offset<L, O>{detail::to_lengths(low_length), detail::to_lengths(offset_length)};
}

template <typename LowLength, typename SliceBegin, typename SliceEnd>
CK_TILE_HOST_DEVICE constexpr auto make_slice_transform(const LowLength& low_length,
                                                        const SliceBegin& slice_begin,
                                                        const SliceEnd& slice_end)
{
    using L = detail::to_lengths_t<LowLength>;
    using B = detail::to_lengths_t<SliceBegin>;
    using E = detail::to_lengths_t<SliceEnd>;
    return slice<L, B, E>{detail::to_lengths(low_length), detail::to_lengths(slice_begin),
                          detail::to_lengths(slice_end)};
}

template <typename Modulus, typename UpLength>
CK_TILE_HOST_DEVICE constexpr auto make_modulo_transform(const Modulus& modulus,
                                                         const UpLength& up_length)
{
    using M = detail::to_lengths_t<Modulus>;
    using U = detail::to_lengths_t<UpLength>;
    return modulo<M, U>{detail::to_lengths(modulus), detail::to_lengths(up_length)};
}

template <typename LowLengths>
CK_TILE_HOST_DEVICE constexpr auto make_xor_transform(const LowLengths& low_lengths)
{
    using L = detail::to_lengths_t<LowLengths>;
    return xor_t<L>{detail::to_lengths(low_lengths)};
}

template <typename LowerIndex>
CK_TILE_HOST_DEVICE constexpr auto make_freeze_transform(const LowerIndex& low_idx)
{
    using L = detail::to_lengths_t<LowerIndex>;
    return freeze<L>{detail::to_lengths(low_idx)};
}

template <typename T, typename = void>
struct is_coordinate_transform : std::false_type
{};
template <typename T>
struct is_coordinate_transform<T, std::void_t<decltype(remove_cvref_t<T>::get_type_enum())>>
    : std::true_type
{};

} // namespace ck_tile
