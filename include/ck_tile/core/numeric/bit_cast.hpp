// SPDX-License-Identifier: MIT
// Reinterpreting an object's bytes as another type of the same size.
#pragma once

#include "ck_tile/core/config.hpp"

#include <type_traits>

namespace ck_tile {

/// The value of type `To` whose object representation is the one of `from`.
/// A builtin rather than std::bit_cast: the standard one is a host function to nvcc, and the
/// builtin is constexpr on g++, nvcc and clang (hipcc) alike, in host and device code.
/// @pre sizeof(To) == sizeof(From), both trivially copyable.
template <typename To, typename From>
CK_TILE_HOST_DEVICE constexpr To bit_cast(const From& from)
{
    static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of the same size");
    static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>,
                  "bit_cast needs trivially copyable types");
    return __builtin_bit_cast(To, from);
}

} // namespace ck_tile
