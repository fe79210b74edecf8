// SPDX-License-Identifier: MIT
// The layout and its algebra: a layout is a function from coordinates to indices given by a
// hierarchical shape and a congruent stride, (4,(2,4)):(2,(1,8)). Everything else here is
// built from three operations on layouts seen as functions of one integer: coalesce (simplify
// without changing the function), composition (A o B: B picks, A maps) and complement (the
// layout of "the rest"). Divides and products are one line each on top of them.
//
// Integers keep their staticness: with number<>s in, the result is made of number<>s, so tile
// layouts cost nothing at run time. Strides are non-negative throughout.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"
#include "ck_tile/wrapper/utils/int_tuple.hpp"
#include "ck_tile/wrapper/utils/require.hpp"

#include <cstdio>
#include <ostream>
#include <string>

namespace ck_tile::wrapper {

/// A shape and a congruent stride. Callable with a natural, 1-D or partial coordinate.
template <typename Shape, typename Stride>
struct layout
{
    static_assert(is_int_tuple_v<Shape> && is_int_tuple_v<Stride>,
                  "layout: shape and stride must be int-tuples (integers, number<>s, tuples)");
    static_assert(is_congruent_v<Shape, Stride>,
                  "layout: shape and stride must have the same nesting");

    using shape_type  = Shape;
    using stride_type = Stride;

    Shape shape_;
    Stride stride_;

    CK_TILE_HOST_DEVICE constexpr layout() = default;
    CK_TILE_HOST_DEVICE constexpr layout(const Shape& s, const Stride& d) : shape_(s), stride_(d) {}

    CK_TILE_HOST_DEVICE constexpr const Shape& shape() const { return shape_; }
    CK_TILE_HOST_DEVICE constexpr const Stride& stride() const { return stride_; }

    CK_TILE_HOST_DEVICE static constexpr bool is_static()
    {
        return is_static_v<Shape> && is_static_v<Stride>;
    }

    /// Index of a coordinate; see crd2idx.
    template <typename Coord>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const Coord& c) const
    {
        return crd2idx(c, shape_, stride_);
    }
    /// l(c0, c1, ...) == l(make_tuple(c0, c1, ...)).
    template <typename C0, typename C1, typename... Cs>
    CK_TILE_HOST_DEVICE constexpr auto operator()(const C0& c0, const C1& c1, const Cs&... cs) const
    {
        return crd2idx(make_tuple(c0, c1, cs...), shape_, stride_);
    }

    /// Prints "shape:stride" with printf (host and device).
    CK_TILE_HOST_DEVICE void print() const
    {
        print_int_tuple(shape_);
        printf(":");
        print_int_tuple(stride_);
    }
};

template <typename T>
struct is_layout : std::false_type
{};
template <typename S, typename D>
struct is_layout<layout<S, D>> : std::true_type
{};
template <typename T>
inline constexpr bool is_layout_v = is_layout<remove_cvref_t<T>>::value;

// ---------------------------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------------------------
namespace detail {
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto make_layout_raw(const S& s, const D& d)
{
    return layout<remove_cvref_t<S>, remove_cvref_t<D>>(s, d);
}

// Column-major compact strides: returns (strides, product of the shape) starting at `cur`.
template <typename Shape, typename Cur>
CK_TILE_HOST_DEVICE constexpr auto compact_col_major(const Shape& s, const Cur& cur);

template <index_t I, typename... Ss, typename Cur, typename... Acc>
CK_TILE_HOST_DEVICE constexpr auto compact_col_major_fold(const tuple<Ss...>& s, const Cur& cur,
                                                          const Acc&... acc)
{
    if constexpr(I == sizeof...(Ss))
        return make_tuple(make_tuple(acc...), cur);
    else
    {
        const auto r = compact_col_major(s[number<I>{}], cur);
        return compact_col_major_fold<I + 1>(s, r[number<1>{}], acc..., r[number<0>{}]);
    }
}

template <typename Shape, typename Cur>
CK_TILE_HOST_DEVICE constexpr auto compact_col_major(const Shape& s, const Cur& cur)
{
    if constexpr(is_tuple_v<Shape>)
        return compact_col_major_fold<0>(s, cur);
    else
        return make_tuple(cur, cur * s);
}

// A list of modes (flat tuples of shapes and strides) as a layout: none is _1:_0, one is that
// mode itself (an integral layout), more are a tuple.
template <typename RS, typename RD>
CK_TILE_HOST_DEVICE constexpr auto modes_to_layout(const RS& rs, const RD& rd)
{
    if constexpr(RS::size() == 0)
        return layout<number<1>, number<0>>{};
    else if constexpr(RS::size() == 1)
        return make_layout_raw(rs[number<0>{}], rd[number<0>{}]);
    else
        return make_layout_raw(rs, rd);
}
} // namespace detail

/// The layout with this shape and stride.
/// @post shape(result) == shape; stride(result) == stride
template <typename Shape, typename Stride>
requires(is_int_tuple_v<Shape>&& is_int_tuple_v<Stride>) CK_TILE_HOST_DEVICE
    constexpr auto make_layout(const Shape& shape, const Stride& stride)
{
    static_assert(is_congruent_v<Shape, Stride>,
                  "make_layout: shape and stride must have the same nesting");
    return layout<Shape, Stride>(shape, stride);
}

/// The compact column-major layout of a shape (first mode fastest), as CuTe's LayoutLeft.
/// @post cosize(result) == size(shape); result(i) == i for 0 <= i < size(shape)
template <typename Shape>
requires is_int_tuple_v<Shape> CK_TILE_HOST_DEVICE constexpr auto make_layout(const Shape& shape)
{
    return layout<Shape, remove_cvref_t<decltype(detail::compact_col_major(
                             shape, number<1>{})[number<0>{}])>>(
        shape, detail::compact_col_major(shape, number<1>{})[number<0>{}]);
}

/// Concatenation (L0, L1, ...): mode i of the result is Li.
/// @post rank(result) == number of arguments; get<i>(result) == Li
template <typename... Ls>
requires(sizeof...(Ls) >= 1 && (is_layout_v<Ls> && ...)) CK_TILE_HOST_DEVICE
    constexpr auto make_layout(const Ls&... ls)
{
    return detail::make_layout_raw(make_tuple(ls.shape()...), make_tuple(ls.stride()...));
}

/// A tiler: a tuple of layouts, shapes or tilers, applied mode by mode.
template <typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto make_tile(const Ts&... ts)
{
    return make_tuple(ts...);
}

// ---------------------------------------------------------------------------------------------
// Access
// ---------------------------------------------------------------------------------------------

/// The sub-layout at the nested mode Is... (get<1, 0>(l) == get<0>(get<1>(l))).
/// An integral layout has one mode, itself.
template <index_t I, index_t... Is, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto get(const layout<S, D>& l)
{
    return detail::make_layout_raw(detail::get_nested<I, Is...>(l.shape()),
                                   detail::get_nested<I, Is...>(l.stride()));
}

/// Shape of the sub-layout at Is... (of the layout itself without indices).
template <index_t... Is, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto shape(const layout<S, D>& l)
{
    if constexpr(sizeof...(Is) == 0)
        return l.shape();
    else
        return detail::get_nested<Is...>(l.shape());
}

/// Stride of the sub-layout at Is... (of the layout itself without indices).
template <index_t... Is, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto stride(const layout<S, D>& l)
{
    if constexpr(sizeof...(Is) == 0)
        return l.stride();
    else
        return detail::get_nested<Is...>(l.stride());
}

/// Size of the domain (of the sub-layout at Is...).
template <index_t... Is, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto size(const layout<S, D>& l)
{
    return wrapper::size(wrapper::shape<Is...>(l));
}

/// Number of top-level modes (of the sub-layout at Is...).
template <index_t... Is, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto rank(const layout<S, D>& l)
{
    return wrapper::rank(wrapper::shape<Is...>(l));
}

/// Nesting depth of the shape (of the sub-layout at Is...).
template <index_t... Is, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto depth(const layout<S, D>& l)
{
    return wrapper::depth(wrapper::shape<Is...>(l));
}

/// Size of the codomain: one past the largest index (strides are non-negative, so the largest
/// index is the image of the last coordinate).
/// @post cosize(l) == l(size(l) - 1) + 1
template <index_t... Is, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto cosize(const layout<S, D>& l)
{
    if constexpr(sizeof...(Is) != 0)
        return wrapper::cosize(wrapper::get<Is...>(l));
    else
        return l(wrapper::size(l) - number<1>{}) + number<1>{};
}

/// Layouts compare as (shape, stride) pairs; a static and a runtime 4 are equal.
template <typename S0, typename D0, typename S1, typename D1>
CK_TILE_HOST_DEVICE constexpr bool operator==(const layout<S0, D0>& a, const layout<S1, D1>& b)
{
    return int_tuple_equal(a.shape(), b.shape()) && int_tuple_equal(a.stride(), b.stride());
}
template <typename S0, typename D0, typename S1, typename D1>
CK_TILE_HOST_DEVICE constexpr bool operator!=(const layout<S0, D0>& a, const layout<S1, D1>& b)
{
    return !(a == b);
}

/// Every coordinate of layout a is a coordinate of layout b (compares shapes).
template <typename S0, typename D0, typename S1, typename D1>
CK_TILE_HOST_DEVICE constexpr bool compatible(const layout<S0, D0>& a, const layout<S1, D1>& b)
{
    return wrapper::compatible(a.shape(), b.shape());
}

/// The layout with its shape and stride flattened to depth <= 1; the same function.
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto flatten(const layout<S, D>& l)
{
    return detail::make_layout_raw(wrapper::flatten(l.shape()), wrapper::flatten(l.stride()));
}

/// "(_5,(_2,_2)):(_16,(_80,_4))": CuTe notation, `_` marks a static integer.
template <typename S, typename D>
CK_TILE_HOST std::string to_string(const layout<S, D>& l)
{
    return wrapper::to_string(l.shape()) + ":" + wrapper::to_string(l.stride());
}

template <typename S, typename D>
CK_TILE_HOST std::ostream& operator<<(std::ostream& os, const layout<S, D>& l)
{
    return os << wrapper::to_string(l);
}

// ---------------------------------------------------------------------------------------------
// Coalesce
// ---------------------------------------------------------------------------------------------
namespace detail {
// Left fold over flat modes. A mode of static size 1 is dropped (its coordinate is always 0);
// a mode continuing the previous one (s1:d1 after s0:d0 with d1 == s0*d0) merges into it. The
// merge is only decided where the integers involved are static: the result's type (its rank)
// cannot depend on run-time values.
template <index_t I, typename FS, typename FD, typename RS, typename RD>
CK_TILE_HOST_DEVICE constexpr auto coalesce_fold(const FS& fs, const FD& fd, const RS& rs,
                                                 const RD& rd)
{
    if constexpr(I == FS::size())
        return modes_to_layout(rs, rd);
    else
    {
        const auto s = fs[number<I>{}];
        const auto d = fd[number<I>{}];
        using S      = remove_cvref_t<decltype(s)>;
        using D      = remove_cvref_t<decltype(d)>;
        if constexpr(is_static_eq_v<S, 1>)
            return coalesce_fold<I + 1>(fs, fd, rs, rd);
        else if constexpr(RS::size() == 0)
            return coalesce_fold<I + 1>(fs, fd, make_tuple(s), make_tuple(d));
        else
        {
            using LS = remove_cvref_t<decltype(rs[number<RS::size() - 1>{}])>;
            using LD = remove_cvref_t<decltype(rd[number<RS::size() - 1>{}])>;
            if constexpr(is_constant_v<LS> && is_constant_v<LD> && is_constant_v<D>)
            {
                if constexpr(LS::value * LD::value == D::value)
                    return coalesce_fold<I + 1>(fs, fd, tuple_replace_back(rs, LS{} * s), rd);
                else
                    return coalesce_fold<I + 1>(fs, fd, container_push_back(rs, s),
                                                container_push_back(rd, d));
            }
            else
                return coalesce_fold<I + 1>(fs, fd, container_push_back(rs, s),
                                            container_push_back(rd, d));
        }
    }
}
} // namespace detail

/// The simplest layout with the same function on 1-D coordinates.
/// @post size(result) == size(l)
/// @post depth(result) <= 1
/// @post for all i, 0 <= i < size(l): result(i) == l(i)
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto coalesce(const layout<S, D>& l)
{
    return detail::coalesce_fold<0>(detail::flatten_to_tuple(l.shape()),
                                    detail::flatten_to_tuple(l.stride()), tuple<>{}, tuple<>{});
}

/// By-mode coalesce: coalesces the sub-layouts found at the integers of `profile` (their
/// values are only flags) and keeps the modes past the profile's rank.
/// @post coalesce(l, make_tuple(1, 1)) == make_layout(coalesce(get<0>(l)), coalesce(get<1>(l)))
template <typename S, typename D, typename Profile>
requires is_int_tuple_v<Profile> CK_TILE_HOST_DEVICE constexpr auto coalesce(const layout<S, D>& l,
                                                                             const Profile& profile)
{
    if constexpr(!is_tuple_v<Profile>)
        return wrapper::coalesce(l);
    else
    {
        static_assert(is_tuple_v<S>, "coalesce: a tuple profile needs a layout with tuple shape");
        static_assert(Profile::size() <= S::size(),
                      "coalesce: profile has more modes than the layout");
        return unpack([&](const auto&... ms) { return make_layout(ms...); },
                      generate_tuple(
                          [&](auto i) {
                              if constexpr((decltype(i)::value) < Profile::size())
                                  return wrapper::coalesce(wrapper::get<decltype(i)::value>(l),
                                                           profile[i]);
                              else
                                  return wrapper::get<decltype(i)::value>(l);
                          },
                          number<S::size()>{}));
    }
}

// ---------------------------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------------------------
namespace detail {
// A (flat, coalesced, rank >= 2) o s:d. Walks A's modes keeping `rest_stride` (how many
// elements of A still to skip per step of B: shape_div) and `rest_shape` (how many of B's
// elements still to place: shape_mod). The last mode of A is taken as unbounded, so B may
// reach past size(A) along it. `nz` is 0 only for a runtime stride 0 (then every index is 0).
template <index_t I, typename FS, typename FD, typename RestShape, typename RestStride,
          typename Zero, typename NZ, typename RS, typename RD>
CK_TILE_HOST_DEVICE constexpr auto
compose_fold(const FS& fs, const FD& fd, const RestShape& rest_shape, const RestStride& rest_stride,
             const Zero& zero, const NZ& nz, const RS& rs, const RD& rd)
{
    constexpr index_t n = FS::size();
    if constexpr(I == n - 1)
    {
        if constexpr(is_static_eq_v<RestShape, 1>)
            return modes_to_layout(rs, rd);
        else
            return modes_to_layout(container_push_back(rs, rest_shape),
                                   container_push_back(rd, fd[number<I>{}] * rest_stride * nz));
    }
    else
    {
        const auto a = fs[number<I>{}];
        const auto b = fd[number<I>{}];
        // Every rest_stride-th element of mode I must land on a coordinate of this mode or on
        // the start of a later one: one of the two must divide the other.
        CK_TILE_WRAPPER_REQUIRE(
            zero || rest_shape == number<1>{} || a % rest_stride == number<0>{} ||
                rest_stride % a == number<0>{},
            "composition: stride divisibility condition violated (a shape of A and the stride "
            "of B must divide one another)");
        // For a runtime stride 0 the whole of B goes into the first mode (with stride 0);
        // the integers involved are all runtime ones on that path.
        const auto new_shape = [&] {
            if constexpr(std::is_same_v<Zero, bool>)
                return zero ? (I == 0 ? static_cast<index_t>(rest_shape) : index_t{1})
                            : static_cast<index_t>(ceil_div(a, rest_stride));
            else
                return ceil_div(a, rest_stride);
        }();
        const auto next_rest_stride = ceil_div(rest_stride, a);
        // The elements kept from this mode either end inside it or fill it completely.
        CK_TILE_WRAPPER_REQUIRE(
            zero || rest_shape <= new_shape || rest_shape % new_shape == number<0>{},
            "composition: shape divisibility condition violated (the shape of B must end "
            "inside a mode of A or fill it completely)");
        const auto kept            = int_min(new_shape, rest_shape);
        const auto next_rest_shape = ceil_div(rest_shape, new_shape);
        if constexpr(is_static_eq_v<decltype(kept), 1>)
            return compose_fold<I + 1>(fs, fd, next_rest_shape, next_rest_stride, zero, nz, rs, rd);
        else
            return compose_fold<I + 1>(fs, fd, next_rest_shape, next_rest_stride, zero, nz,
                                       container_push_back(rs, kept),
                                       container_push_back(rd, b * rest_stride * nz));
    }
}

// A coalesced, B = s:d integral.
template <typename LA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto compose_integral(const LA& a, const SB& s, const DB& d)
{
    if constexpr(is_static_eq_v<DB, 0>)
        return make_layout_raw(s, number<0>{});
    else if constexpr(!is_tuple_v<typename LA::shape_type>)
        return make_layout_raw(s, a.stride() * d);
    else if constexpr(is_constant_v<DB>)
        return compose_fold<0>(a.shape(), a.stride(), s, d, false_type{}, number<1>{}, tuple<>{},
                               tuple<>{});
    else
    {
        // A runtime stride 0 gives s:0 in disguise: walk with stride 1 and zero every stride.
        const bool zero = static_cast<index_t>(d) == 0;
        return compose_fold<0>(a.shape(), a.stride(), s,
                               zero ? index_t{1} : static_cast<index_t>(d), zero,
                               zero ? index_t{0} : index_t{1}, tuple<>{}, tuple<>{});
    }
}

// A coalesced; B any layout, distributed over B's modes.
template <typename LA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto compose_coalesced(const LA& a, const SB& s, const DB& d)
{
    if constexpr(is_tuple_v<SB>)
        return unpack([](const auto&... ms) { return make_layout(ms...); },
                      generate_tuple([&](auto i) { return compose_coalesced(a, s[i], d[i]); },
                                     number<SB::size()>{}));
    else
        return compose_integral(a, s, d);
}

// Applies f to the modes of `a` paired with the modes of a tiler tuple; modes of `a` past the
// tiler's rank are kept as they are.
template <typename S, typename D, typename... Ts, typename F>
CK_TILE_HOST_DEVICE constexpr auto by_mode(const layout<S, D>& a, const tuple<Ts...>& tiler, F f)
{
    constexpr index_t r = decltype(wrapper::rank(a))::value;
    static_assert(sizeof...(Ts) <= r, "tiler has more modes than the layout");
    return unpack([](const auto&... ms) { return make_layout(ms...); },
                  generate_tuple(
                      [&](auto i) {
                          if constexpr((decltype(i)::value) < sizeof...(Ts))
                              return f(wrapper::get<decltype(i)::value>(a), tiler[i]);
                          else
                              return wrapper::get<decltype(i)::value>(a);
                      },
                      number<r>{}));
}
} // namespace detail

/// Functional composition R = A o B: R(c) = A(B(c)), with B's shape. B's modes are composed
/// one by one (left distributivity), which equals A o B when B is injective (stride-0 modes
/// aside), as CuTe requires too.
/// @post compatible(b, result)
/// @post for all i, 0 <= i < size(b): result(i) == a(b(i))
template <typename SA, typename DA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto composition(const layout<SA, DA>& a, const layout<SB, DB>& b)
{
    return detail::compose_coalesced(wrapper::coalesce(a), b.shape(), b.stride());
}

/// A shape used as a tiler: the integer n is the layout n:1.
template <typename SA, typename DA, typename N>
requires is_integer_v<N> CK_TILE_HOST_DEVICE constexpr auto composition(const layout<SA, DA>& a,
                                                                        const N& n)
{
    return wrapper::composition(a, detail::make_layout_raw(n, number<1>{}));
}

/// By-mode composition with a tiler <B0, B1, ...>: mode i of A is composed with Bi (a layout,
/// an integer n meaning n:1, or a nested tiler); modes of A past the tiler stay as they are.
/// @post get<i>(result) == composition(get<i>(a), get<i>(tiler)) for i < rank(tiler)
template <typename SA, typename DA, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto composition(const layout<SA, DA>& a, const tuple<Ts...>& tiler)
{
    return detail::by_mode(
        a, tiler, [](const auto& ai, const auto& ti) { return wrapper::composition(ai, ti); });
}

// ---------------------------------------------------------------------------------------------
// Complement
// ---------------------------------------------------------------------------------------------
namespace detail {
template <auto... vs>
CK_TILE_HOST_DEVICE constexpr auto static_values(tuple<constant<vs>...>)
{
    return array<index_t, sizeof...(vs) + 1>{static_cast<index_t>(vs)..., 0};
}

// Order in which the modes of a static flat layout enter its complement: by increasing
// stride, leaving out modes that cannot matter (size 1, stride 0).
template <typename FS, typename FD>
struct complement_order
{
    static constexpr index_t n = FS::size();
    struct result
    {
        index_t idx[n + 1];
        index_t count;
    };
    CK_TILE_HOST_DEVICE static constexpr result compute()
    {
        const auto s = static_values(FS{});
        const auto d = static_values(FD{});
        result r{};
        r.count = 0;
        for(index_t i = 0; i < n; ++i)
            if(s[i] != 1 && d[i] != 0)
                r.idx[r.count++] = i;
        // Insertion sort: stable, so equal strides (not injective) keep their order and fail
        // the divisibility check below rather than passing by accident.
        for(index_t i = 1; i < r.count; ++i)
            for(index_t j = i; j > 0 && d[r.idx[j - 1]] > d[r.idx[j]]; --j)
            {
                const index_t t = r.idx[j];
                r.idx[j]        = r.idx[j - 1];
                r.idx[j - 1]    = t;
            }
        return r;
    }
    static constexpr result value = compute();
};

// Each mode s:d of A (by increasing stride) leaves a gap of d / cur copies of what is built so
// far (cur = the extent covered so far); the gap becomes a mode (d/cur):cur of the complement.
template <index_t K, typename Order, typename FS, typename FD, typename M, typename Cur,
          typename RS, typename RD>
CK_TILE_HOST_DEVICE constexpr auto complement_fold(const FS& fs, const FD& fd, const M& m,
                                                   const Cur& cur, const RS& rs, const RD& rd)
{
    if constexpr(K == Order::value.count)
        return wrapper::coalesce(make_layout_raw(container_push_back(rs, ceil_div(m, cur)),
                                                 container_push_back(rd, cur)));
    else
    {
        constexpr index_t i = Order::value.idx[K];
        const auto s        = fs[number<i>{}];
        const auto d        = fd[number<i>{}];
        static_assert(decltype(d)::value % Cur::value == 0,
                      "complement: the layout is not injective, or its sorted strides do not "
                      "divide one another (each stride must be a multiple of the extent below it)");
        return complement_fold<K + 1, Order>(fs, fd, m, s * d, container_push_back(rs, d / cur),
                                             container_push_back(rd, cur));
    }
}

// The same with runtime integers: sort at run time, every result integer is runtime.
template <typename FS, typename FD, typename M>
CK_TILE_HOST_DEVICE constexpr auto complement_dynamic(const FS& fs, const FD& fd, const M& m)
{
    constexpr index_t n = FS::size();
    array<index_t, n> s{};
    array<index_t, n> d{};
    array<index_t, n> order{};
    static_for<0, n, 1>{}([&](auto i) {
        s[i]     = static_cast<index_t>(fs[i]);
        d[i]     = static_cast<index_t>(fd[i]);
        order[i] = i;
    });
    // Modes that cannot matter sort first (key 0) and become 1:1 placeholders.
    auto key = [&](index_t k) { return (s[k] == 1 || d[k] == 0) ? 0 : d[k]; };
    for(index_t i = 1; i < n; ++i)
        for(index_t j = i; j > 0 && key(order[j - 1]) > key(order[j]); --j)
        {
            const index_t t = order[j];
            order[j]        = order[j - 1];
            order[j - 1]    = t;
        }
    array<index_t, n + 1> rs{};
    array<index_t, n + 1> rd{};
    index_t cur = 1;
    for(index_t k = 0; k < n; ++k)
    {
        const index_t i = order[k];
        if(key(i) == 0)
        {
            rs[k] = 1;
            rd[k] = cur;
            continue;
        }
        detail::require(d[i] % cur == 0,
                        "complement: the layout is not injective, or its sorted strides do not "
                        "divide one another (each stride must be a multiple of the extent below "
                        "it)");
        rs[k] = d[i] / cur;
        rd[k] = cur;
        cur   = s[i] * d[i];
    }
    rs[n] = (static_cast<index_t>(m) + cur - 1) / cur;
    rd[n] = cur;
    return wrapper::coalesce(
        make_layout_raw(generate_tuple([&](auto i) { return rs[i]; }, number<n + 1>{}),
                        generate_tuple([&](auto i) { return rd[i]; }, number<n + 1>{})));
}
} // namespace detail

/// The layout of "the rest": the ordered layout R, disjoint from A, that repeats A until the
/// codomain reaches size(cotarget). Static when A is static (the last shape is
/// ceil(size(cotarget) / cosize-so-far), static when the cotarget is too).
/// @post for all i, 1 <= i < size(result): result(i-1) < result(i)
/// @post for all i, 1 <= i < size(result), all j < size(a): result(i) != a(j)
/// @post size(result) <= size(cotarget) when size(a) >= 1
/// @post cosize(make_layout(a, result)) >= size(cotarget)
template <typename S, typename D, typename CoTarget>
requires is_int_tuple_v<CoTarget> CK_TILE_HOST_DEVICE constexpr auto
complement(const layout<S, D>& a, const CoTarget& cotarget)
{
    const auto fs = detail::flatten_to_tuple(a.shape());
    const auto fd = detail::flatten_to_tuple(a.stride());
    const auto m  = wrapper::size(cotarget);
    if constexpr(is_static_v<S> && is_static_v<D>)
    {
        using order =
            detail::complement_order<remove_cvref_t<decltype(fs)>, remove_cvref_t<decltype(fd)>>;
        return detail::complement_fold<0, order>(fs, fd, m, number<1>{}, tuple<>{}, tuple<>{});
    }
    else
        return detail::complement_dynamic(fs, fd, m);
}

/// complement(a, cosize(a)): the holes of a's codomain.
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto complement(const layout<S, D>& a)
{
    return wrapper::complement(a, wrapper::cosize(a));
}

// ---------------------------------------------------------------------------------------------
// Divide
// ---------------------------------------------------------------------------------------------

/// A / B = A o (B, B*): mode 0 holds the elements B points to (the tile), mode 1 iterates
/// over the tiles (B* = complement(B, size(A))).
/// @post get<0>(result) == composition(a, b)
/// @post size(result) == size(a) when B and its complement tile size(a) exactly
template <typename SA, typename DA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto logical_divide(const layout<SA, DA>& a, const layout<SB, DB>& b)
{
    return wrapper::composition(a, make_layout(b, wrapper::complement(b, wrapper::size(a))));
}

/// An integer tile n is the layout n:1.
template <typename SA, typename DA, typename N>
requires is_integer_v<N> CK_TILE_HOST_DEVICE constexpr auto logical_divide(const layout<SA, DA>& a,
                                                                           const N& n)
{
    return wrapper::logical_divide(a, detail::make_layout_raw(n, number<1>{}));
}

/// By-mode divide with a tiler: ((TileM,RestM), (TileN,RestN), L, ...).
template <typename SA, typename DA, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto logical_divide(const layout<SA, DA>& a,
                                                  const tuple<Ts...>& tiler)
{
    return detail::by_mode(
        a, tiler, [](const auto& ai, const auto& ti) { return wrapper::logical_divide(ai, ti); });
}

namespace detail {
// Splits a by-mode divided/multiplied layout into (tiles, rests): for a tiler tuple, mode i is
// (tile_i, rest_i); modes past the tiler are rests. A layout (1-D) tiler: already (tile, rest).
template <typename S, typename D, typename Tiler>
CK_TILE_HOST_DEVICE constexpr auto unzip_tiles(const layout<S, D>& l, const Tiler& tiler)
{
    if constexpr(!is_tuple_v<Tiler>)
    {
        (void)tiler;
        return make_tuple(wrapper::get<0>(l), wrapper::get<1>(l));
    }
    else
    {
        constexpr index_t r = decltype(wrapper::rank(l))::value;
        constexpr index_t t = Tiler::size();
        const auto parts    = generate_tuple(
            [&](auto i) { return unzip_tiles(wrapper::get<decltype(i)::value>(l), tiler[i]); },
            number<t>{});
        const auto tiles =
            unpack([](const auto&... p) { return make_layout(p[number<0>{}]...); }, parts);
        const auto rests = unpack(
            [](const auto&... ms) { return make_layout(ms...); },
            ck_tile::tuple_cat(
                generate_tuple([&](auto i) { return parts[i][number<1>{}]; }, number<t>{}),
                generate_tuple([&](auto i) { return wrapper::get<t + decltype(i)::value>(l); },
                               number<r - t>{})));
        return make_tuple(tiles, rests);
    }
}

// The top-level modes of a layout as a tuple of layouts (an integral layout is one mode).
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto modes_of(const layout<S, D>& l)
{
    return generate_tuple([&](auto i) { return wrapper::get<decltype(i)::value>(l); },
                          number<decltype(wrapper::rank(l))::value>{});
}

template <typename Parts>
CK_TILE_HOST_DEVICE constexpr auto zipped(const Parts& p)
{
    return make_layout(p[number<0>{}], p[number<1>{}]);
}
template <typename Parts>
CK_TILE_HOST_DEVICE constexpr auto tiled(const Parts& p)
{
    return unpack([](const auto&... ms) { return make_layout(ms...); },
                  ck_tile::tuple_cat(make_tuple(p[number<0>{}]), modes_of(p[number<1>{}])));
}
template <typename Parts>
CK_TILE_HOST_DEVICE constexpr auto flat(const Parts& p)
{
    return unpack([](const auto&... ms) { return make_layout(ms...); },
                  ck_tile::tuple_cat(modes_of(p[number<0>{}]), modes_of(p[number<1>{}])));
}
} // namespace detail

/// ((TileM,TileN,...), (RestM,RestN,...,L,...)): the tile in mode 0, the tiles in mode 1.
/// @post get<0>(result) == composition(a, tiler) when rank(tiler) == rank(a) (or a 1-D tiler)
template <typename SA, typename DA, typename Tiler>
CK_TILE_HOST_DEVICE constexpr auto zipped_divide(const layout<SA, DA>& a, const Tiler& tiler)
{
    return detail::zipped(detail::unzip_tiles(wrapper::logical_divide(a, tiler), tiler));
}

/// ((TileM,TileN,...), RestM, RestN, ..., L, ...).
/// @post get<0>(result) == get<0>(zipped_divide(a, tiler)); size(result) == size(zipped_divide)
template <typename SA, typename DA, typename Tiler>
CK_TILE_HOST_DEVICE constexpr auto tiled_divide(const layout<SA, DA>& a, const Tiler& tiler)
{
    return detail::tiled(detail::unzip_tiles(wrapper::logical_divide(a, tiler), tiler));
}

/// (TileM, TileN, ..., RestM, RestN, ..., L, ...).
/// @post size(result) == size(zipped_divide(a, tiler))
template <typename SA, typename DA, typename Tiler>
CK_TILE_HOST_DEVICE constexpr auto flat_divide(const layout<SA, DA>& a, const Tiler& tiler)
{
    return detail::flat(detail::unzip_tiles(wrapper::logical_divide(a, tiler), tiler));
}

// ---------------------------------------------------------------------------------------------
// Product
// ---------------------------------------------------------------------------------------------

/// A x B = (A, A* o B): mode 0 is A, mode 1 places copies of A as B orders them
/// (A* = complement(A, size(A) * cosize(B))).
/// @post get<0>(result) == a
/// @post compatible(b, get<1>(result))
/// @post size(result) == size(a) * size(b)
template <typename SA, typename DA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto logical_product(const layout<SA, DA>& a, const layout<SB, DB>& b)
{
    return make_layout(
        a, wrapper::composition(wrapper::complement(a, wrapper::size(a) * wrapper::cosize(b)), b));
}

/// An integer n is the layout n:1.
template <typename SA, typename DA, typename N>
requires is_integer_v<N> CK_TILE_HOST_DEVICE constexpr auto logical_product(const layout<SA, DA>& a,
                                                                            const N& n)
{
    return wrapper::logical_product(a, detail::make_layout_raw(n, number<1>{}));
}

/// By-mode product with a tiler: ((M,TileM), (N,TileN), L, ...).
template <typename SA, typename DA, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto logical_product(const layout<SA, DA>& a,
                                                   const tuple<Ts...>& tiler)
{
    return detail::by_mode(
        a, tiler, [](const auto& ai, const auto& ti) { return wrapper::logical_product(ai, ti); });
}

namespace detail {
// l padded to rank R with _1:_0 modes (which change neither size nor function).
template <index_t R, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto append_rank(const layout<S, D>& l)
{
    constexpr index_t r = decltype(wrapper::rank(l))::value;
    static_assert(r <= R, "append_rank: layout already has more modes");
    if constexpr(r == R && is_tuple_v<S>)
        return l;
    else
        return unpack(
            [](const auto&... ms) { return make_layout(ms...); },
            ck_tile::tuple_cat(modes_of(l),
                               generate_tuple([](auto) { return layout<number<1>, number<0>>{}; },
                                              number<R - r>{})));
}

template <bool Raked, typename SA, typename DA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto rank_sensitive_product(const layout<SA, DA>& a,
                                                          const layout<SB, DB>& b)
{
    constexpr index_t ra = decltype(wrapper::rank(a))::value;
    constexpr index_t rb = decltype(wrapper::rank(b))::value;
    constexpr index_t r  = ra < rb ? rb : ra;
    const auto p         = wrapper::logical_product(append_rank<r>(a), append_rank<r>(b));
    const auto first     = wrapper::get<0>(p);
    const auto second    = wrapper::get<1>(p);
    const auto modes =
        unpack([](const auto&... ms) { return make_layout(ms...); },
               generate_tuple(
                   [&](auto i) {
                       constexpr index_t k = decltype(i)::value;
                       if constexpr(Raked)
                           return make_layout(wrapper::get<k>(second), wrapper::get<k>(first));
                       else
                           return make_layout(wrapper::get<k>(first), wrapper::get<k>(second));
                   },
                   number<r>{}));
    return wrapper::coalesce(modes, generate_tuple([](auto) { return number<1>{}; }, number<r>{}));
}
} // namespace detail

/// Rank-sensitive product: mode i is (A_i, B_i) (A's blocks laid out by B), each coalesced.
/// @post rank(result) == max(rank(a), rank(b))
/// @post size(result) == size(a) * size(b)
template <typename SA, typename DA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto blocked_product(const layout<SA, DA>& a, const layout<SB, DB>& b)
{
    return detail::rank_sensitive_product<false>(a, b);
}

/// Rank-sensitive product: mode i is (B_i, A_i), A's elements interleaved ("raked") with the
/// copies: a cyclic distribution.
/// @post rank(result) == max(rank(a), rank(b))
/// @post size(result) == size(a) * size(b)
template <typename SA, typename DA, typename SB, typename DB>
CK_TILE_HOST_DEVICE constexpr auto raked_product(const layout<SA, DA>& a, const layout<SB, DB>& b)
{
    return detail::rank_sensitive_product<true>(a, b);
}

/// ((M,N,...), (TileM,TileN,...,L,...)).
/// @post get<0>(result) == a when rank(tiler) == rank(a) (or a 1-D tiler)
template <typename SA, typename DA, typename Tiler>
CK_TILE_HOST_DEVICE constexpr auto zipped_product(const layout<SA, DA>& a, const Tiler& tiler)
{
    return detail::zipped(detail::unzip_tiles(wrapper::logical_product(a, tiler), tiler));
}

/// ((M,N,...), TileM, TileN, ..., L, ...).
template <typename SA, typename DA, typename Tiler>
CK_TILE_HOST_DEVICE constexpr auto tiled_product(const layout<SA, DA>& a, const Tiler& tiler)
{
    return detail::tiled(detail::unzip_tiles(wrapper::logical_product(a, tiler), tiler));
}

/// (M, N, ..., TileM, TileN, ..., L, ...).
template <typename SA, typename DA, typename Tiler>
CK_TILE_HOST_DEVICE constexpr auto flat_product(const layout<SA, DA>& a, const Tiler& tiler)
{
    return detail::flat(detail::unzip_tiles(wrapper::logical_product(a, tiler), tiler));
}

} // namespace ck_tile::wrapper
