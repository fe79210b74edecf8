// SPDX-License-Identifier: MIT
// Fixed-size vectors of any scalar type (built-in, narrow float, or custom), aligned so that a
// vector of 4, 8 or 16 bytes moves with a single memory instruction.
//
//   ext_vector_t<T, N>     N elements of T; a vector of vectors flattens: ext_vector_t<
//                          ext_vector_t<half_t, 2>, 4> is ext_vector<half_t, 8>
//   vector_type<T, N>      ::type is ext_vector_t<T, N>; vector_type_t<T, N> the same
//   vector_traits<X>       scalar_type and vector_size of a vector, or of a scalar (size 1)
//
// One representation on every compiler: an aligned array. g++ and nvcc have no clang
// ext_vector_type, and one type everywhere means host code, tests and kernels see the same
// layout and the same element access.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstddef>
#include <type_traits>

namespace ck_tile {

namespace detail {
/// The largest power of two dividing `bytes` (a vector of 3 floats is 4-aligned).
constexpr std::size_t pow2_part(std::size_t bytes) { return bytes & (~bytes + 1); }
} // namespace detail

/// @post alignof(ext_vector<T, N>) == sizeof(T) * N when that is a power of two (the size of the
///       widest load that moves it), else the largest power of two dividing it; never less than
///       alignof(T). sizeof(ext_vector<T, N>) == sizeof(T) * N.
template <typename T, index_t N>
inline constexpr std::size_t vector_alignment_v = detail::pow2_part(sizeof(T) * N) > alignof(T)
                                                      ? detail::pow2_part(sizeof(T) * N)
                                                      : alignof(T);

/// N elements of a scalar type T, contiguous, aligned to vector_alignment_v<T, N>.
/// An aggregate: `ext_vector<float, 2> v{1.0f, 2.0f}` and `ext_vector<float, 2> z{}` (zeros) work.
/// Prefer ext_vector_t, which flattens vectors of vectors.
template <typename T, index_t N>
struct alignas(vector_alignment_v<T, N>) ext_vector
{
    static_assert(N > 0, "ext_vector needs at least one element");

    using value_type = T;
    T elems[N];

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return N; }

    CK_TILE_HOST_DEVICE constexpr T& operator[](index_t i) { return elems[i]; }
    CK_TILE_HOST_DEVICE constexpr const T& operator[](index_t i) const { return elems[i]; }
    /// Element i (0 <= i < N).
    CK_TILE_HOST_DEVICE constexpr const T& get(index_t i) const { return elems[i]; }
    /// @post get(i) == v.
    CK_TILE_HOST_DEVICE constexpr void set(index_t i, const T& v) { elems[i] = v; }

    CK_TILE_HOST_DEVICE constexpr T* data() { return elems; }
    CK_TILE_HOST_DEVICE constexpr const T* data() const { return elems; }

    /// A one-element vector reads as its element: `float v = buf.get<float>(...)` then works
    /// alongside `.get(0)`.
    CK_TILE_HOST_DEVICE constexpr operator const T&() const requires(N == 1) { return elems[0]; }

    /// The same bytes seen as elements of Y (e.g. 16 fp8_t as 4 uint32_t, for packed moves).
    /// @pre sizeof(T) * N is a multiple of sizeof(Y).
    template <typename Y>
    CK_TILE_HOST_DEVICE constexpr auto get_as() const
    {
        static_assert((sizeof(T) * N) % sizeof(Y) == 0, "get_as: sizes do not divide");
        return bit_cast<ext_vector<Y, static_cast<index_t>(sizeof(T) * N / sizeof(Y))>>(*this);
    }

    /// Element-wise equality, with T's own ==.
    CK_TILE_HOST_DEVICE friend constexpr bool operator==(const ext_vector& a, const ext_vector& b)
    {
        for(index_t i = 0; i < N; ++i)
            if(!(a.elems[i] == b.elems[i]))
                return false;
        return true;
    }
    CK_TILE_HOST_DEVICE friend constexpr bool operator!=(const ext_vector& a, const ext_vector& b)
    {
        return !(a == b);
    }
};

/// scalar_type and vector_size of X: X itself and 1 for a scalar (including custom types).
template <typename X>
struct vector_traits
{
    using scalar_type                    = std::remove_cvref_t<X>;
    static constexpr index_t vector_size = 1;
};
template <typename T, index_t N>
struct vector_traits<ext_vector<T, N>>
{
    using scalar_type                    = T;
    static constexpr index_t vector_size = N;
};
template <typename X>
requires(!std::is_same_v<X, std::remove_cvref_t<X>>) struct vector_traits<X>
    : vector_traits<std::remove_cvref_t<X>>
{};

template <typename X>
inline constexpr bool is_ext_vector_v = false;
template <typename T, index_t N>
inline constexpr bool is_ext_vector_v<ext_vector<T, N>> = true;

namespace detail {
template <typename T, index_t N>
struct flat_vector
{
    using type = ext_vector<T, N>;
};
template <typename T, index_t M, index_t N>
struct flat_vector<ext_vector<T, M>, N>
{
    using type = ext_vector<T, M * N>;
};
} // namespace detail

/// N elements of T; when T is itself a vector of M scalars, M * N of those scalars.
/// @post vector_traits<ext_vector_t<T, N>>::scalar_type is never a vector.
template <typename T, index_t N>
using ext_vector_t = typename detail::flat_vector<std::remove_cv_t<T>, N>::type;

/// CK's spelling of the same: vector_type<float, 4>::type.
template <typename T, index_t N>
struct vector_type
{
    using type                           = ext_vector_t<T, N>;
    using scalar_type                    = typename vector_traits<type>::scalar_type;
    static constexpr index_t vector_size = vector_traits<type>::vector_size;
};
template <typename T, index_t N>
using vector_type_t = typename vector_type<T, N>::type;

} // namespace ck_tile
