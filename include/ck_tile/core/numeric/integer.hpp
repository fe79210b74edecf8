// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace ck_tile {
/// Index type of all coordinate arithmetic. 32 bits: GPU integer units are 32-bit and every
/// instance that uses it checks that the problem's index space fits (see the registry).
using index_t      = int32_t;
using long_index_t = int64_t;
using int8_t       = std::int8_t;
using uint8_t      = std::uint8_t;
using int16_t      = std::int16_t;
using uint16_t     = std::uint16_t;
using int32_t      = std::int32_t;
using uint32_t     = std::uint32_t;
using int64_t      = std::int64_t;
using uint64_t     = std::uint64_t;
} // namespace ck_tile
