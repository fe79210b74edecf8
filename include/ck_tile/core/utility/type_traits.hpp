// SPDX-License-Identifier: MIT
// Type traits shared by the containers and the tensor machinery.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"

#include <type_traits>
#include <utility>

namespace ck_tile {

template <typename T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;

template <typename T>
using remove_reference_t = std::remove_reference_t<T>;

template <typename T>
using remove_pointer_t = std::remove_pointer_t<T>;

template <typename X, typename Y>
inline constexpr bool is_same_v = std::is_same_v<X, Y>;

namespace detail {
template <typename T, typename = void>
struct has_is_static : std::false_type
{};
template <typename T>
struct has_is_static<T, std::void_t<decltype(T::is_static())>> : std::true_type
{};
template <typename T, typename = void>
struct has_is_known_at_compile_time : std::false_type
{};
template <typename T>
struct has_is_known_at_compile_time<T, std::void_t<decltype(T::is_known_at_compile_time())>>
    : std::true_type
{};
} // namespace detail

/// A type is static when every value it can hold is fixed by the type itself: constants,
/// sequences, transforms and descriptors built only from number<>s, and containers whose
/// elements are all static. Types opt in through a static member `is_static()` (or
/// `is_known_at_compile_time()`, as transforms spell it); ints, arrays and pointers are dynamic.
template <typename T>
struct is_static
{
    static constexpr bool check()
    {
        using U = remove_cvref_t<T>;
        if constexpr(detail::has_is_static<U>::value)
            return U::is_static();
        else if constexpr(detail::has_is_known_at_compile_time<U>::value)
            return U::is_known_at_compile_time();
        else
            return false;
    }
    static constexpr bool value = check();
};
template <typename T>
inline constexpr bool is_static_v = is_static<remove_cvref_t<T>>::value;

/// Same question as is_static_v, spelled the way transforms and descriptors ask it.
template <typename T>
inline constexpr bool is_known_at_compile_time_v = is_static_v<T>;

/// Marks an unused argument without a warning; `ignore = x;` as in ck_tile.
struct ignore_t
{
    template <typename T>
    CK_TILE_HOST_DEVICE constexpr const ignore_t& operator=(T&&) const
    {
        return *this;
    }
};
inline constexpr ignore_t ignore{};

} // namespace ck_tile
