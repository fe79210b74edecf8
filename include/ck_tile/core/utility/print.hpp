// SPDX-License-Identifier: MIT
// print(x): a readable dump of numbers, sequences, tuples, arrays and of anything with a
// `print()` member (transforms, adaptors, descriptors, coordinates). Uses printf, so it works
// in device code too; nothing is appended after the value (callers add their own newline).
//
// Static values are written as `number<4>`, runtime ones as `4`: seeing which lengths the
// compiler knows is usually why one prints a descriptor.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/functional.hpp"

#include <cstdio>
#include <type_traits>

namespace ck_tile {

CK_TILE_HOST_DEVICE void print(bool x) { printf("%s", x ? "true" : "false"); }
CK_TILE_HOST_DEVICE void print(int x) { printf("%d", x); }
CK_TILE_HOST_DEVICE void print(unsigned x) { printf("%u", x); }
CK_TILE_HOST_DEVICE void print(long x) { printf("%ld", x); }
CK_TILE_HOST_DEVICE void print(long long x) { printf("%lld", x); }
CK_TILE_HOST_DEVICE void print(unsigned long x) { printf("%lu", x); }
CK_TILE_HOST_DEVICE void print(unsigned long long x) { printf("%llu", x); }
CK_TILE_HOST_DEVICE void print(const char* s) { printf("%s", s); }

template <auto v>
CK_TILE_HOST_DEVICE void print(constant<v>)
{
    if constexpr(std::is_same_v<decltype(v), bool>)
        printf("bool_constant<%s>", v ? "true" : "false");
    else
        printf("number<%lld>", static_cast<long long>(v));
}

template <index_t... Is>
CK_TILE_HOST_DEVICE void print(sequence<Is...>)
{
    printf("sequence<");
    static_for<0, sizeof...(Is), 1>{}([&](auto i) {
        if constexpr(i > 0)
            printf(", ");
        printf("%d", static_cast<int>(sequence<Is...>::at(i)));
    });
    printf(">");
}

template <typename T, index_t N>
CK_TILE_HOST_DEVICE void print(const array<T, N>& a)
{
    printf("array{");
    static_for<0, N, 1>{}([&](auto i) {
        if constexpr(i > 0)
            printf(", ");
        print(a[i]);
    });
    printf("}");
}

template <typename T, typename = decltype(std::declval<const T&>().print())>
CK_TILE_HOST_DEVICE void print(const T& x)
{
    x.print();
}

template <typename... Ts>
CK_TILE_HOST_DEVICE void print(const tuple<Ts...>& t)
{
    printf("tuple<");
    static_for<0, sizeof...(Ts), 1>{}([&](auto i) {
        if constexpr(i > 0)
            printf(", ");
        print(t[i]);
    });
    printf(">");
}

} // namespace ck_tile
