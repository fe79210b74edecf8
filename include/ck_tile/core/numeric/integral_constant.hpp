// SPDX-License-Identifier: MIT
// Compile-time integers: `number<N>`, `bool_constant<B>` and the arithmetic between them.
//
// A length, stride or index written as `number<N>{}` is a type, not a value: arithmetic between
// two constants yields another constant, so a product of static lengths is still known to the
// compiler three transforms later. Mixed with a runtime integer a constant converts to its
// value and the result is an ordinary runtime integer; both paths give the same number.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <type_traits>

namespace ck_tile {

/// A value carried by a type. Empty, trivially copyable, usable as a template argument via
/// its `value`.
/// @post constant<v>{} converts to v; constant<v>::value == v.
template <auto v>
struct constant
{
    using value_type = decltype(v);
    using type       = constant;

    static constexpr value_type value = v;

    CK_TILE_HOST_DEVICE constexpr operator value_type() const noexcept { return value; }
    CK_TILE_HOST_DEVICE constexpr value_type operator()() const noexcept { return value; }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }
};

template <typename T, T v>
using integral_constant = constant<v>;

template <index_t v>
using number = constant<v>;

template <long_index_t v>
using long_number = constant<v>;

template <bool b>
using bool_constant = constant<b>;

using true_type  = bool_constant<true>;
using false_type = bool_constant<false>;

template <typename T>
struct is_constant : std::false_type
{};
template <auto v>
struct is_constant<constant<v>> : std::true_type
{};
/// True for `constant<>` types (number, bool_constant, ...), with cv/ref stripped.
template <typename T>
inline constexpr bool is_constant_v = is_constant<std::remove_cvref_t<T>>::value;

// Arithmetic between two constants stays a constant. Each operator is constrained on the
// expression being valid so that e.g. `number<1>{} << number<40>{}` fails where it should.
#define CK_TILE_CONSTANT_BINARY_OP(OP)                                                             \
    template <auto x, auto y>                                                                      \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(constant<x>, constant<y>)                       \
    {                                                                                              \
        return constant<(x OP y)>{};                                                               \
    }

CK_TILE_CONSTANT_BINARY_OP(+)
CK_TILE_CONSTANT_BINARY_OP(-)
CK_TILE_CONSTANT_BINARY_OP(*)
CK_TILE_CONSTANT_BINARY_OP(/)
CK_TILE_CONSTANT_BINARY_OP(%)
CK_TILE_CONSTANT_BINARY_OP(&)
CK_TILE_CONSTANT_BINARY_OP(|)
CK_TILE_CONSTANT_BINARY_OP(^)
CK_TILE_CONSTANT_BINARY_OP(<<)
CK_TILE_CONSTANT_BINARY_OP(>>)
CK_TILE_CONSTANT_BINARY_OP(&&)
CK_TILE_CONSTANT_BINARY_OP(||)
CK_TILE_CONSTANT_BINARY_OP(==)
CK_TILE_CONSTANT_BINARY_OP(!=)
CK_TILE_CONSTANT_BINARY_OP(<)
CK_TILE_CONSTANT_BINARY_OP(>)
CK_TILE_CONSTANT_BINARY_OP(<=)
CK_TILE_CONSTANT_BINARY_OP(>=)
#undef CK_TILE_CONSTANT_BINARY_OP

#define CK_TILE_CONSTANT_UNARY_OP(OP)                                                              \
    template <auto x>                                                                              \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(constant<x>)                                    \
    {                                                                                              \
        return constant<(OP x)>{};                                                                 \
    }

CK_TILE_CONSTANT_UNARY_OP(+)
CK_TILE_CONSTANT_UNARY_OP(-)
CK_TILE_CONSTANT_UNARY_OP(~)
CK_TILE_CONSTANT_UNARY_OP(!)
#undef CK_TILE_CONSTANT_UNARY_OP

} // namespace ck_tile
