// SPDX-License-Identifier: MIT
// `array<T, N>`: a fixed-size aggregate usable on host and device.
//
// It is an aggregate so `array<index_t, 3> a{0, 1, 2}` works and copies are trivial. Elements
// are addressed either by a runtime index (`a[i]`) or by a `number<I>` (which converts to an
// index); `a(i)` is the writable access used throughout the transforms (`idx_low(i) = ...`).
// Like std::array, a default-constructed array is not initialised: register buffers built
// on it are filled by their users, and zero-filling them first would cost instructions.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <utility>

namespace ck_tile {

template <typename T, index_t N>
struct array
{
    using value_type = T;

    T elems[N];

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return N; }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return false; }

    CK_TILE_HOST_DEVICE constexpr const T& operator[](index_t i) const { return elems[i]; }
    CK_TILE_HOST_DEVICE constexpr T& operator[](index_t i) { return elems[i]; }
    CK_TILE_HOST_DEVICE constexpr T& operator()(index_t i) { return elems[i]; }
    CK_TILE_HOST_DEVICE constexpr const T& at(index_t i) const { return elems[i]; }
    CK_TILE_HOST_DEVICE constexpr T& at(index_t i) { return elems[i]; }

    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr const T& get() const
    {
        static_assert(I >= 0 && I < N, "array index out of range");
        return elems[I];
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr T& get()
    {
        static_assert(I >= 0 && I < N, "array index out of range");
        return elems[I];
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr const T& get(number<I>) const
    {
        return get<I>();
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr T& get(number<I>)
    {
        return get<I>();
    }

    CK_TILE_HOST_DEVICE constexpr T* data() { return elems; }
    CK_TILE_HOST_DEVICE constexpr const T* data() const { return elems; }
    CK_TILE_HOST_DEVICE constexpr T* begin() { return elems; }
    CK_TILE_HOST_DEVICE constexpr T* end() { return elems + N; }
    CK_TILE_HOST_DEVICE constexpr const T* begin() const { return elems; }
    CK_TILE_HOST_DEVICE constexpr const T* end() const { return elems + N; }

    /// Sets every element to `v`.
    CK_TILE_HOST_DEVICE constexpr void fill(const T& v)
    {
        for(index_t i = 0; i < N; ++i)
            elems[i] = v;
    }
};

// The empty array has no storage: an index into it is always a bug, caught at compile time
// where the index is a number<> and left undefined (like an out-of-range index) otherwise.
template <typename T>
struct array<T, 0>
{
    using value_type = T;

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return 0; }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }
    CK_TILE_HOST_DEVICE constexpr T* data() { return nullptr; }
    CK_TILE_HOST_DEVICE constexpr const T* data() const { return nullptr; }
    CK_TILE_HOST_DEVICE constexpr T* begin() { return nullptr; }
    CK_TILE_HOST_DEVICE constexpr T* end() { return nullptr; }
    CK_TILE_HOST_DEVICE constexpr const T* begin() const { return nullptr; }
    CK_TILE_HOST_DEVICE constexpr const T* end() const { return nullptr; }
    CK_TILE_HOST_DEVICE constexpr void fill(const T&) {}
};

template <typename T, typename... Ts>
array(T, Ts...) -> array<T, 1 + sizeof...(Ts)>;

template <typename T, index_t N>
CK_TILE_HOST_DEVICE constexpr bool operator==(const array<T, N>& a, const array<T, N>& b)
{
    if constexpr(N > 0)
    {
        for(index_t i = 0; i < N; ++i)
            if(!(a[i] == b[i]))
                return false;
    }
    return true;
}
template <typename T, index_t N>
CK_TILE_HOST_DEVICE constexpr bool operator!=(const array<T, N>& a, const array<T, N>& b)
{
    return !(a == b);
}

/// @post make_array<T>(xs...)[i] == T(xs_i).
template <typename T, typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto make_array(Xs&&... xs)
{
    return array<T, sizeof...(Xs)>{static_cast<T>(xs)...};
}
/// An array of N copies of v.
template <typename T, index_t N>
CK_TILE_HOST_DEVICE constexpr auto make_uniform_array(const T& v, number<N> = {})
{
    array<T, N> r{};
    r.fill(v);
    return r;
}

} // namespace ck_tile
