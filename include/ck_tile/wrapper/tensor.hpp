// SPDX-License-Identifier: MIT
// The wrapper tensor: an engine (a pointer into some memory) plus a layout. It owns nothing;
// copying it copies the view. Calling it with coordinates gives an element; calling it with
// slices (in place of coordinates, at any depth) gives a smaller tensor over the same memory.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/type_traits.hpp"
#include "ck_tile/wrapper/layout.hpp"
#include "ck_tile/wrapper/utils/int_tuple.hpp"
#include "ck_tile/wrapper/utils/require.hpp"

namespace ck_tile::wrapper {

/// Where a tensor's memory lives. The address is a plain pointer in every case; the tag lets
/// copy and GEMM building blocks pick the instructions for that memory (global loads, shared
/// memory / LDS accesses) without inspecting the pointer.
enum class MemoryTypeEnum
{
    Generic, ///< anywhere (host memory, or device memory through a generic address)
    Global,  ///< device global memory
    LDS,     ///< shared memory of a block (AMD's local data share)
    Shared = LDS,
};

/// A range of one dimension: [from, to). A negative `to` counts from the end, -1 meaning the
/// end itself, so slice() == slice(0, -1) is the whole dimension.
template <typename From, typename To>
struct slice_t
{
    From from;
    To to;
};

/// The whole dimension.
CK_TILE_HOST_DEVICE constexpr auto slice() { return slice_t<number<0>, number<-1>>{}; }
/// [0, to).
template <typename To>
requires is_integer_v<To> CK_TILE_HOST_DEVICE constexpr auto slice(const To& to)
{
    return slice_t<number<0>, To>{number<0>{}, to};
}
/// [from, to).
template <typename From, typename To>
requires(is_integer_v<From>&& is_integer_v<To>) CK_TILE_HOST_DEVICE
    constexpr auto slice(const From& from, const To& to)
{
    return slice_t<From, To>{from, to};
}

namespace detail {
template <typename T>
struct has_slice : std::false_type
{};
template <typename F, typename T>
struct has_slice<slice_t<F, T>> : std::true_type
{};
template <typename... Ts>
struct has_slice<tuple<Ts...>> : std::bool_constant<(has_slice<remove_cvref_t<Ts>>::value || ...)>
{};
template <typename T>
inline constexpr bool has_slice_v = has_slice<remove_cvref_t<T>>::value;

// Slicing one mode (shape s, stride d) with argument x. Returns (kept modes, offset): the kept
// modes are a tuple of layouts, empty when x fixes the coordinate.
template <typename X, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto slice_mode(const X& x, const S& s, const D& d)
{
    if constexpr(!has_slice_v<X>)
        return make_tuple(tuple<>{}, crd2idx(x, s, d));
    else if constexpr(is_tuple_v<X>)
    {
        static_assert(is_tuple_v<S> && X::size() == S::size(),
                      "slice: a tuple of slices needs a mode of the same rank");
        const auto parts = generate_tuple([&](auto i) { return slice_mode(x[i], s[i], d[i]); },
                                          number<X::size()>{});
        const auto kept =
            unpack([](const auto&... p) { return ck_tile::tuple_cat(p[number<0>{}]...); }, parts);
        const auto offset =
            unpack([](const auto&... p) { return (number<0>{} + ... + p[number<1>{}]); }, parts);
        using K = remove_cvref_t<decltype(kept)>;
        if constexpr(K::size() <= 1)
            return make_tuple(kept, offset);
        else
            return make_tuple(
                make_tuple(unpack([](const auto&... ms) { return make_layout(ms...); }, kept)),
                offset);
    }
    else if constexpr(is_static_eq_v<decltype(x.from), 0> && is_static_eq_v<decltype(x.to), -1>)
        return make_tuple(make_tuple(make_layout_raw(s, d)), number<0>{});
    else
    {
        const auto to = [&] {
            if constexpr(is_constant_v<decltype(x.to)>)
            {
                if constexpr((decltype(x.to)::value) < 0)
                    return wrapper::size(s) + x.to + number<1>{};
                else
                    return x.to;
            }
            else
                return static_cast<index_t>(x.to) < 0
                           ? static_cast<index_t>(wrapper::size(s) + x.to + 1)
                           : static_cast<index_t>(x.to);
        }();
        CK_TILE_WRAPPER_REQUIRE(number<0>{} <= x.from && x.from < to && to <= wrapper::size(s),
                                "slice: the range must satisfy 0 <= from < to <= dimension");
        if constexpr(is_tuple_v<S>)
        {
            // A part of a hierarchical mode is not a layout in general; only all of it is.
            CK_TILE_WRAPPER_REQUIRE(x.from == number<0>{} && to == wrapper::size(s),
                                    "slice: a nested dimension can only be taken whole (use a "
                                    "tuple of slices to slice its parts)");
            return make_tuple(make_tuple(make_layout_raw(s, d)), number<0>{});
        }
        else
            return make_tuple(make_tuple(make_layout_raw(to - x.from, d)), x.from * d);
    }
}
} // namespace detail

/// A view of memory of type T in memory `MemoryType` through a layout.
template <MemoryTypeEnum MemoryType, typename T, typename Layout>
struct tensor
{
    static_assert(is_layout_v<Layout>, "tensor: the second part must be a layout");

    using element_type                          = T;
    using layout_type                           = Layout;
    static constexpr MemoryTypeEnum memory_type = MemoryType;

    T* ptr_;
    Layout layout_;

    CK_TILE_HOST_DEVICE constexpr tensor(T* ptr, const Layout& l) : ptr_(ptr), layout_(l) {}

    CK_TILE_HOST_DEVICE constexpr T* data() const { return ptr_; }
    CK_TILE_HOST_DEVICE constexpr const Layout& get_layout() const { return layout_; }

    /// An element (coordinates only) or a sub-tensor (when any argument holds a slice). One
    /// argument per top-level mode, or a single 1-D/partial coordinate.
    template <typename... Cs>
    CK_TILE_HOST_DEVICE constexpr decltype(auto) operator()(const Cs&... cs) const
    {
        static_assert(sizeof...(Cs) >= 1, "tensor: give a coordinate");
        if constexpr((detail::has_slice_v<Cs> || ...))
            return slice_tensor(make_tuple(cs...));
        else if constexpr(sizeof...(Cs) == 1)
            return static_cast<T&>(ptr_[layout_(cs...)]);
        else
            return static_cast<T&>(ptr_[layout_(make_tuple(cs...))]);
    }

    /// The element at a 1-D (or any) coordinate.
    template <typename C>
    CK_TILE_HOST_DEVICE constexpr T& operator[](const C& c) const
    {
        return ptr_[layout_(c)];
    }

    private:
    template <typename Args>
    CK_TILE_HOST_DEVICE constexpr auto slice_tensor(const Args& args) const
    {
        const auto& s = layout_.shape();
        const auto& d = layout_.stride();
        // A single argument on a rank-1 layout addresses that one mode.
        const auto r    = detail::slice_mode(args, detail::wrap_tuple(s), detail::wrap_tuple(d));
        const auto kept = r[number<0>{}];
        const auto l    = [&] {
            if constexpr(remove_cvref_t<decltype(kept)>::size() == 1)
                return kept[number<0>{}];
            else
                return unpack([](const auto&... ms) { return make_layout(ms...); }, kept);
        }();
        return tensor<MemoryType, T, remove_cvref_t<decltype(l)>>(ptr_ + r[number<1>{}], l);
    }
};

template <typename T>
struct is_tensor : std::false_type
{};
template <MemoryTypeEnum M, typename T, typename L>
struct is_tensor<tensor<M, T, L>> : std::true_type
{};
template <typename T>
inline constexpr bool is_tensor_v = is_tensor<remove_cvref_t<T>>::value;

/// A tensor over `ptr` with layout `l`; ptr must point into MemoryType memory.
/// @post make_tensor<M>(p, l)(c) is p[l(c)]
template <MemoryTypeEnum MemoryType, typename T, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto make_tensor(T* ptr, const layout<S, D>& l)
{
    return tensor<MemoryType, T, layout<S, D>>(ptr, l);
}

/// The tensor's layout.
template <MemoryTypeEnum M, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr const L& get_layout(const tensor<M, T, L>& t)
{
    return t.get_layout();
}

/// Size of the tensor (of its mode at Is...).
template <index_t... Is, MemoryTypeEnum M, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto size(const tensor<M, T, L>& t)
{
    return wrapper::size<Is...>(t.get_layout());
}

/// Number of top-level modes (of the mode at Is...).
template <index_t... Is, MemoryTypeEnum M, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto rank(const tensor<M, T, L>& t)
{
    return wrapper::rank<Is...>(t.get_layout());
}

/// Nesting depth of the shape (of the mode at Is...).
template <index_t... Is, MemoryTypeEnum M, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto depth(const tensor<M, T, L>& t)
{
    return wrapper::depth<Is...>(t.get_layout());
}

/// Shape of the tensor (of the mode at Is...).
template <index_t... Is, MemoryTypeEnum M, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto shape(const tensor<M, T, L>& t)
{
    return wrapper::shape<Is...>(t.get_layout());
}

/// Strides of the tensor (of the mode at Is...).
template <index_t... Is, MemoryTypeEnum M, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto stride(const tensor<M, T, L>& t)
{
    return wrapper::stride<Is...>(t.get_layout());
}

/// Span of memory the tensor may touch, in elements.
template <MemoryTypeEnum M, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto cosize(const tensor<M, T, L>& t)
{
    return wrapper::cosize(t.get_layout());
}

} // namespace ck_tile::wrapper
