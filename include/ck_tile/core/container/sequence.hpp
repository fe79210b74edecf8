// SPDX-License-Identifier: MIT
// `sequence<Is...>`: a list of index_t values carried entirely by the type.
//
// Sequences describe everything that is fixed when a kernel is compiled: dimension ids of a
// transform, static lengths, reorder maps, loop orders. Every algorithm here returns a new
// sequence type. They are computed as constexpr loops over a value array that is then turned
// back into a pack, rather than by recursive template instantiation: a header included by
// every kernel must not make the compiler build O(N) nested types per call.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <utility>

namespace ck_tile {

template <index_t... Is>
struct sequence;

namespace detail {
// Turns a "value generator" (a type with `n` and a constexpr `values()` returning
// array<index_t, n>) into the sequence of those values.
template <typename Gen, typename = std::make_integer_sequence<index_t, Gen::n>>
struct sequence_from_values;
template <typename Gen, index_t... K>
struct sequence_from_values<Gen, std::integer_sequence<index_t, K...>>
{
    static constexpr array<index_t, Gen::n> v = Gen::values();
    using type                                = sequence<v.elems[K]...>;
};
template <typename Gen>
struct sequence_from_values<Gen, std::integer_sequence<index_t>>
{
    using type = sequence<>;
};
template <typename Gen>
using sequence_from_values_t = typename sequence_from_values<Gen>::type;

template <typename T>
struct to_sequence_from_integer_sequence;
template <index_t... Is>
struct to_sequence_from_integer_sequence<std::integer_sequence<index_t, Is...>>
{
    using type = sequence<Is...>;
};
} // namespace detail

/// 0, 1, ..., N-1.
template <index_t N>
using make_index_sequence = typename detail::to_sequence_from_integer_sequence<
    std::make_integer_sequence<index_t, N>>::type;

template <index_t... Is>
struct sequence
{
    using type       = sequence;
    using value_type = index_t;

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return sizeof...(Is); }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }

    /// The I-th value; a runtime index gives a runtime value.
    /// A chain of selects, not a lookup in a local array: nvcc materialises a local constexpr
    /// array indexed at run time in stack memory, once per call site.
    CK_TILE_HOST_DEVICE static constexpr index_t at(index_t i)
    {
        index_t value = 0, k = 0;
        ((value = (k++ == i ? Is : value)), ...);
        return value;
    }
    /// The I-th value as a number<>, so it stays usable as a template argument.
    template <index_t I>
    CK_TILE_HOST_DEVICE static constexpr auto at(number<I>)
    {
        static_assert(I >= 0 && I < size(), "sequence index out of range");
        return number<at(I)>{};
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE static constexpr auto get()
    {
        return at(number<I>{});
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE static constexpr auto get(number<I>)
    {
        return at(number<I>{});
    }
    CK_TILE_HOST_DEVICE constexpr index_t operator[](index_t i) const { return at(i); }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr auto operator[](number<I>) const
    {
        return at(number<I>{});
    }

    CK_TILE_HOST_DEVICE static constexpr auto front()
    {
        static_assert(size() > 0, "front() of an empty sequence");
        return at(number<0>{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto back()
    {
        static_assert(size() > 0, "back() of an empty sequence");
        return at(number<size() - 1>{});
    }

    /// @post reverse()[i] == at(size() - 1 - i).
    CK_TILE_HOST_DEVICE static constexpr auto reverse();

    template <index_t... Xs>
    CK_TILE_HOST_DEVICE static constexpr auto push_front(sequence<Xs...>)
    {
        return sequence<Xs..., Is...>{};
    }
    template <index_t... Xs>
    CK_TILE_HOST_DEVICE static constexpr auto push_front(number<Xs>...)
    {
        return sequence<Xs..., Is...>{};
    }
    template <index_t... Xs>
    CK_TILE_HOST_DEVICE static constexpr auto push_back(sequence<Xs...>)
    {
        return sequence<Is..., Xs...>{};
    }
    template <index_t... Xs>
    CK_TILE_HOST_DEVICE static constexpr auto push_back(number<Xs>...)
    {
        return sequence<Is..., Xs...>{};
    }
    CK_TILE_HOST_DEVICE static constexpr auto pop_front();
    CK_TILE_HOST_DEVICE static constexpr auto pop_back();

    /// Elements at the given positions, in that order (positions may repeat).
    /// @post extract(sequence<Ids...>)[k] == at(Ids_k).
    template <index_t... Ids>
    CK_TILE_HOST_DEVICE static constexpr auto extract(sequence<Ids...>)
    {
        return sequence<at(Ids)...>{};
    }
    template <index_t... Ids>
    CK_TILE_HOST_DEVICE static constexpr auto extract(number<Ids>...)
    {
        return sequence<at(Ids)...>{};
    }

    /// New order given as "new position k takes old position new2old[k]".
    template <index_t... Ids>
    CK_TILE_HOST_DEVICE static constexpr auto reorder_new2old(sequence<Ids...> new2old)
    {
        static_assert(sizeof...(Ids) == size(), "reorder map of the wrong size");
        return extract(new2old);
    }
    /// New order given as "old position k goes to new position old2new[k]".
    template <typename Map>
    CK_TILE_HOST_DEVICE static constexpr auto reorder_old2new(Map);

    /// The same sequence with position I set to X.
    template <index_t I, index_t X>
    CK_TILE_HOST_DEVICE static constexpr auto modify(number<I>, number<X>);

    /// sequence<f(Is)...>; `F` must be default-constructible and constexpr-callable.
    template <typename F>
    CK_TILE_HOST_DEVICE static constexpr auto transform(F)
    {
        return sequence<static_cast<index_t>(F{}(Is))...>{};
    }

    CK_TILE_HOST_DEVICE static constexpr index_t sum() { return (Is + ... + 0); }
    CK_TILE_HOST_DEVICE static constexpr index_t product() { return (Is * ... * 1); }
};

template <typename T>
struct is_sequence : std::false_type
{};
template <index_t... Is>
struct is_sequence<sequence<Is...>> : std::true_type
{};
template <typename T>
inline constexpr bool is_sequence_v = is_sequence<remove_cvref_t<T>>::value;

/// Begin, Begin+Inc, ... up to (excluding) End. Inc may be negative, never zero.
template <index_t Begin, index_t End, index_t Inc = 1>
struct arithmetic_sequence_gen
{
    static_assert(Inc != 0, "arithmetic_sequence_gen: zero increment");
    struct gen
    {
        static constexpr index_t n = Inc > 0 ? (End > Begin ? (End - Begin + Inc - 1) / Inc : 0)
                                             : (Begin > End ? (Begin - End - Inc - 1) / (-Inc) : 0);
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
        {
            array<index_t, n> r{};
            for(index_t i = 0; i < n; ++i)
                r.elems[i] = Begin + i * Inc;
            return r;
        }
    };
    using type = detail::sequence_from_values_t<gen>;
};

/// N copies of V.
template <index_t N, index_t V>
struct uniform_sequence_gen
{
    struct gen
    {
        static constexpr index_t n = N;
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
        {
            array<index_t, n> r{};
            for(index_t i = 0; i < n; ++i)
                r.elems[i] = V;
            return r;
        }
    };
    using type = detail::sequence_from_values_t<gen>;
};
template <index_t N, index_t V>
using uniform_sequence_gen_t = typename uniform_sequence_gen<N, V>::type;

// ---- concatenation ----
template <typename... Seqs>
struct sequence_merge;
template <>
struct sequence_merge<>
{
    using type = sequence<>;
};
template <index_t... Xs>
struct sequence_merge<sequence<Xs...>>
{
    using type = sequence<Xs...>;
};
template <index_t... Xs, index_t... Ys>
struct sequence_merge<sequence<Xs...>, sequence<Ys...>>
{
    using type = sequence<Xs..., Ys...>;
};
template <index_t... Xs, index_t... Ys, index_t... Zs, typename... Rest>
struct sequence_merge<sequence<Xs...>, sequence<Ys...>, sequence<Zs...>, Rest...>
{
    using type = typename sequence_merge<sequence<Xs..., Ys..., Zs...>, Rest...>::type;
};
template <typename... Seqs>
using sequence_merge_t = typename sequence_merge<Seqs...>::type;

/// Concatenation of the given sequences.
template <typename... Seqs>
CK_TILE_HOST_DEVICE constexpr auto merge_sequences(Seqs...)
{
    return sequence_merge_t<Seqs...>{};
}

template <typename Seq>
struct sequence_reverse
{
    struct gen
    {
        static constexpr index_t n = Seq::size();
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
        {
            array<index_t, n> r{};
            for(index_t i = 0; i < n; ++i)
                r.elems[i] = Seq::at(n - 1 - i);
            return r;
        }
    };
    using type = detail::sequence_from_values_t<gen>;
};

template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::reverse()
{
    return typename sequence_reverse<sequence>::type{};
}

/// Splits Seq at position I: left_type holds [0, I), right_type holds [I, size).
template <typename Seq, index_t I>
struct sequence_split
{
    static_assert(I >= 0 && I <= Seq::size(), "sequence_split position out of range");
    using left_type  = typename arithmetic_sequence_gen<0, I, 1>::type;
    using right_type = typename arithmetic_sequence_gen<I, Seq::size(), 1>::type;
    template <index_t... Ids>
    static constexpr auto pick(sequence<Ids...>)
    {
        return sequence<Seq::at(Ids)...>{};
    }
    using left  = decltype(pick(left_type{}));
    using right = decltype(pick(right_type{}));
};

template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::pop_front()
{
    static_assert(size() > 0, "pop_front() of an empty sequence");
    return typename sequence_split<sequence, 1>::right{};
}
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::pop_back()
{
    static_assert(size() > 0, "pop_back() of an empty sequence");
    return typename sequence_split<sequence, size() - 1>::left{};
}

namespace detail {
template <typename Seq, index_t I, index_t X>
struct modify_gen
{
    static constexpr index_t n = Seq::size();
    CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
    {
        array<index_t, n> r{};
        for(index_t i = 0; i < n; ++i)
            r.elems[i] = i == I ? X : Seq::at(i);
        return r;
    }
};
template <typename Seq, typename Mask>
struct mask_gen
{
    CK_TILE_HOST_DEVICE static constexpr index_t count()
    {
        index_t c = 0;
        for(index_t i = 0; i < Mask::size(); ++i)
            c += Mask::at(i) != 0;
        return c;
    }
    static constexpr index_t n = count();
    CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
    {
        array<index_t, n> r{};
        index_t c = 0;
        for(index_t i = 0; i < Mask::size(); ++i)
            if(Mask::at(i) != 0)
                r.elems[c++] = Seq::at(i);
        return r;
    }
};
template <typename Seq, typename Values, typename Ids>
struct modify_by_ids_gen
{
    static constexpr index_t n = Seq::size();
    CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
    {
        array<index_t, n> r{};
        for(index_t i = 0; i < n; ++i)
            r.elems[i] = Seq::at(i);
        for(index_t k = 0; k < Ids::size(); ++k)
            r.elems[Ids::at(k)] = Values::at(k);
        return r;
    }
};
} // namespace detail

template <index_t... Is>
template <index_t I, index_t X>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::modify(number<I>, number<X>)
{
    static_assert(I >= 0 && I < size(), "modify position out of range");
    return detail::sequence_from_values_t<detail::modify_gen<sequence, I, X>>{};
}

// ---- permutations ----

/// True when Seq is a permutation of 0..N-1.
template <typename Seq>
struct is_valid_sequence_map
{
    CK_TILE_HOST_DEVICE static constexpr bool check()
    {
        constexpr index_t n = Seq::size();
        array<bool, n + 1> seen{};
        for(index_t i = 0; i < n; ++i)
        {
            const index_t v = Seq::at(i);
            if(v < 0 || v >= n || seen.elems[v])
                return false;
            seen.elems[v] = true;
        }
        return true;
    }
    static constexpr bool value = check();
};
template <typename Seq>
inline constexpr bool is_valid_sequence_map_v = is_valid_sequence_map<Seq>::value;

/// Inverse permutation: result[Map[i]] == i.
template <typename Map>
struct sequence_map_inverse
{
    static_assert(is_valid_sequence_map<Map>::value, "sequence_map_inverse: not a permutation");
    struct gen
    {
        static constexpr index_t n = Map::size();
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
        {
            array<index_t, n> r{};
            for(index_t i = 0; i < n; ++i)
                r.elems[Map::at(i)] = i;
            return r;
        }
    };
    using type = detail::sequence_from_values_t<gen>;
};

template <index_t... Is>
template <typename Map>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::reorder_old2new(Map)
{
    static_assert(Map::size() == size(), "reorder map of the wrong size");
    return reorder_new2old(typename sequence_map_inverse<Map>::type{});
}

// ---- sorting ----

/// Stable sort by `Compare` (default less). `type` is the sorted sequence and
/// `sorted2unsorted_map` the original position of each sorted element.
template <typename Values, typename Compare = less>
struct sequence_sort
{
    static constexpr index_t n = Values::size();
    CK_TILE_HOST_DEVICE static constexpr array<index_t, n> order()
    {
        array<index_t, n> ids{};
        for(index_t i = 0; i < n; ++i)
            ids.elems[i] = i;
        // insertion sort: stable, and n is a handful of dimensions
        for(index_t i = 1; i < n; ++i)
        {
            const index_t cur = ids.elems[i];
            index_t j         = i;
            while(j > 0 && Compare{}(Values::at(cur), Values::at(ids.elems[j - 1])))
            {
                ids.elems[j] = ids.elems[j - 1];
                --j;
            }
            ids.elems[j] = cur;
        }
        return ids;
    }
    struct map_gen
    {
        static constexpr index_t n = Values::size();
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values() { return order(); }
    };
    using sorted2unsorted_map = detail::sequence_from_values_t<map_gen>;
    using type                = decltype(Values::extract(sorted2unsorted_map{}));
};

/// Sorted and deduplicated (by `Equal`); `sorted2unsorted_map` gives, for each kept value,
/// the position of its first occurrence in the stably sorted order.
template <typename Values, typename Less = less, typename Equal = equal>
struct sequence_unique_sort
{
    using sorter = sequence_sort<Values, Less>;
    struct gen
    {
        using Sorted = typename sorter::type;
        using Map    = typename sorter::sorted2unsorted_map;
        CK_TILE_HOST_DEVICE static constexpr index_t count()
        {
            index_t c = 0;
            for(index_t i = 0; i < Sorted::size(); ++i)
                if(i == 0 || !Equal{}(Sorted::at(i), Sorted::at(i - 1)))
                    ++c;
            return c;
        }
        static constexpr index_t n = count();
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> keep()
        {
            array<index_t, n> r{};
            index_t c = 0;
            for(index_t i = 0; i < Sorted::size(); ++i)
                if(i == 0 || !Equal{}(Sorted::at(i), Sorted::at(i - 1)))
                    r.elems[c++] = i;
            return r;
        }
        CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values() { return keep(); }
    };
    using kept_positions      = detail::sequence_from_values_t<gen>;
    using type                = decltype(sorter::type::extract(kept_positions{}));
    using sorted2unsorted_map = decltype(sorter::sorted2unsorted_map::extract(kept_positions{}));
};

// ---- scans and reductions ----

namespace detail {
enum class scan_kind
{
    reverse_inclusive,
    reverse_exclusive,
    inclusive,
    exclusive
};
template <typename Seq, typename Reduce, index_t Init, scan_kind Kind>
struct scan_gen
{
    static constexpr index_t n = Seq::size();
    CK_TILE_HOST_DEVICE static constexpr array<index_t, n> values()
    {
        array<index_t, n> r{};
        index_t acc = Init;
        if constexpr(Kind == scan_kind::reverse_inclusive || Kind == scan_kind::reverse_exclusive)
        {
            for(index_t i = n - 1; i >= 0; --i)
            {
                if constexpr(Kind == scan_kind::reverse_exclusive)
                    r.elems[i] = acc;
                acc = Reduce{}(Seq::at(i), acc);
                if constexpr(Kind == scan_kind::reverse_inclusive)
                    r.elems[i] = acc;
            }
        }
        else
        {
            for(index_t i = 0; i < n; ++i)
            {
                if constexpr(Kind == scan_kind::exclusive)
                    r.elems[i] = acc;
                acc = Reduce{}(acc, Seq::at(i));
                if constexpr(Kind == scan_kind::inclusive)
                    r.elems[i] = acc;
            }
        }
        return r;
    }
};
} // namespace detail

/// r[i] = f(s[i], f(s[i+1], ... f(s[n-1], init))).
/// @post reverse_inclusive_scan_sequence(sequence<2,3,4>{}, multiplies{}, number<1>{}) ==
///       sequence<24,12,4>.
template <typename Seq, typename Reduce, index_t Init>
CK_TILE_HOST_DEVICE constexpr auto reverse_inclusive_scan_sequence(Seq, Reduce, number<Init>)
{
    return detail::sequence_from_values_t<
        detail::scan_gen<Seq, Reduce, Init, detail::scan_kind::reverse_inclusive>>{};
}
/// r[n-1] = init, r[i] = f(s[i+1], r[i+1]): the strides of a packed row-major layout.
/// @post reverse_exclusive_scan_sequence(sequence<2,3,4>{}, multiplies{}, number<1>{}) ==
///       sequence<12,4,1>.
template <typename Seq, typename Reduce, index_t Init>
CK_TILE_HOST_DEVICE constexpr auto reverse_exclusive_scan_sequence(Seq, Reduce, number<Init>)
{
    return detail::sequence_from_values_t<
        detail::scan_gen<Seq, Reduce, Init, detail::scan_kind::reverse_exclusive>>{};
}
/// r[i] = f(... f(f(init, s[0]), s[1]) ..., s[i]).
template <typename Seq, typename Reduce, index_t Init>
CK_TILE_HOST_DEVICE constexpr auto inclusive_scan_sequence(Seq, Reduce, number<Init>)
{
    return detail::sequence_from_values_t<
        detail::scan_gen<Seq, Reduce, Init, detail::scan_kind::inclusive>>{};
}
/// r[0] = init, r[i] = f(r[i-1], s[i-1]).
template <typename Seq, typename Reduce, index_t Init>
CK_TILE_HOST_DEVICE constexpr auto exclusive_scan_sequence(Seq, Reduce, number<Init>)
{
    return detail::sequence_from_values_t<
        detail::scan_gen<Seq, Reduce, Init, detail::scan_kind::exclusive>>{};
}
/// Exclusive prefix sums followed by the total: size() + 1 elements.
/// @post prefix_sum_sequence(sequence<2,3,4>{}) == sequence<0,2,5,9>.
template <typename Seq>
CK_TILE_HOST_DEVICE constexpr auto prefix_sum_sequence(Seq)
{
    return exclusive_scan_sequence(Seq{}, plus{}, number<0>{}).push_back(number<Seq::sum()>{});
}

/// Left fold f(... f(f(init, s[0]), s[1]) ..., s[n-1]) as an index_t known at compile time.
/// @post reduce_on_sequence(sequence<2,3,4>{}, multiplies{}, number<1>{}) == 24.
template <typename Seq, typename Reduce, index_t Init>
CK_TILE_HOST_DEVICE constexpr index_t reduce_on_sequence(Seq, Reduce, number<Init>)
{
    index_t acc = Init;
    for(index_t i = 0; i < Seq::size(); ++i)
        acc = Reduce{}(acc, Seq::at(i));
    return acc;
}

/// True iff f(s[i]) holds for every element (vacuously true for sequence<>).
template <typename Seq, typename F>
CK_TILE_HOST_DEVICE constexpr bool sequence_all_of(Seq, F f)
{
    for(index_t i = 0; i < Seq::size(); ++i)
        if(!f(Seq::at(i)))
            return false;
    return true;
}
/// True iff f(s[i]) holds for some element.
template <typename Seq, typename F>
CK_TILE_HOST_DEVICE constexpr bool sequence_any_of(Seq, F f)
{
    for(index_t i = 0; i < Seq::size(); ++i)
        if(f(Seq::at(i)))
            return true;
    return false;
}

/// Position of the first element equal to `v`, or -1.
template <typename Seq>
CK_TILE_HOST_DEVICE constexpr index_t sequence_find(Seq, index_t v)
{
    for(index_t i = 0; i < Seq::size(); ++i)
        if(Seq::at(i) == v)
            return i;
    return -1;
}

/// sequence<f(x_i, y_i, ...)...>: elementwise combination of equally long sequences.
template <typename F, index_t... Xs>
CK_TILE_HOST_DEVICE constexpr auto transform_sequences(F, sequence<Xs...>)
{
    return sequence<static_cast<index_t>(F{}(Xs))...>{};
}
template <typename F, index_t... Xs, index_t... Ys>
CK_TILE_HOST_DEVICE constexpr auto transform_sequences(F, sequence<Xs...>, sequence<Ys...>)
{
    static_assert(sizeof...(Xs) == sizeof...(Ys), "transform_sequences: size mismatch");
    return sequence<static_cast<index_t>(F{}(Xs, Ys))...>{};
}
template <typename F, index_t... Xs, index_t... Ys, index_t... Zs>
CK_TILE_HOST_DEVICE constexpr auto transform_sequences(F, sequence<Xs...>, sequence<Ys...>,
                                                       sequence<Zs...>)
{
    static_assert(sizeof...(Xs) == sizeof...(Ys) && sizeof...(Ys) == sizeof...(Zs),
                  "transform_sequences: size mismatch");
    return sequence<static_cast<index_t>(F{}(Xs, Ys, Zs))...>{};
}

/// Elements of `seq` at the positions `ids`: the seeds' "pick".
template <typename Seq, index_t... Ids>
CK_TILE_HOST_DEVICE constexpr auto pick_sequence_elements_by_ids(Seq, sequence<Ids...>)
{
    return sequence<Seq::at(Ids)...>{};
}

/// Elements of `seq` whose mask entry is non-zero, in order.
template <typename Seq, typename Mask>
CK_TILE_HOST_DEVICE constexpr auto pick_sequence_elements_by_mask(Seq, Mask)
{
    static_assert(Seq::size() == Mask::size(), "mask of the wrong size");
    return detail::sequence_from_values_t<detail::mask_gen<Seq, Mask>>{};
}

/// `seq` with seq[ids[k]] replaced by values[k].
template <typename Seq, typename Values, typename Ids>
CK_TILE_HOST_DEVICE constexpr auto modify_sequence_elements_by_ids(Seq, Values, Ids)
{
    static_assert(Values::size() == Ids::size(), "values and ids differ in size");
    return detail::sequence_from_values_t<detail::modify_by_ids_gen<Seq, Values, Ids>>{};
}

// ---- arithmetic: elementwise between sequences, or with a number<> ----
#define CK_TILE_SEQUENCE_BINARY_OP(OP)                                                             \
    template <index_t... Xs, index_t... Ys>                                                        \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(sequence<Xs...>, sequence<Ys...>)               \
    {                                                                                              \
        static_assert(sizeof...(Xs) == sizeof...(Ys), "sequence sizes differ");                    \
        return sequence<(Xs OP Ys)...>{};                                                          \
    }                                                                                              \
    template <index_t... Xs, index_t Y>                                                            \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(sequence<Xs...>, number<Y>)                     \
    {                                                                                              \
        return sequence<(Xs OP Y)...>{};                                                           \
    }                                                                                              \
    template <index_t X, index_t... Ys>                                                            \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(number<X>, sequence<Ys...>)                     \
    {                                                                                              \
        return sequence<(X OP Ys)...>{};                                                           \
    }

CK_TILE_SEQUENCE_BINARY_OP(+)
CK_TILE_SEQUENCE_BINARY_OP(-)
CK_TILE_SEQUENCE_BINARY_OP(*)
CK_TILE_SEQUENCE_BINARY_OP(/)
CK_TILE_SEQUENCE_BINARY_OP(%)
#undef CK_TILE_SEQUENCE_BINARY_OP

/// Equality of two sequences as a compile-time bool.
template <index_t... Xs, index_t... Ys>
CK_TILE_HOST_DEVICE constexpr auto operator==(sequence<Xs...>, sequence<Ys...>)
{
    return bool_constant<std::is_same_v<sequence<Xs...>, sequence<Ys...>>>{};
}
template <index_t... Xs, index_t... Ys>
CK_TILE_HOST_DEVICE constexpr auto operator!=(sequence<Xs...>, sequence<Ys...>)
{
    return bool_constant<!std::is_same_v<sequence<Xs...>, sequence<Ys...>>>{};
}

} // namespace ck_tile
