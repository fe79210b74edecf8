// SPDX-License-Identifier: MIT
// A 4 x 4 matrix of bytes held as four 32-bit words, transposed in registers: what a copy that
// moves bytes a word at a time does between reading rows and writing columns.
#pragma once

#include "ck_tile/core/config.hpp"

#include <cstdint>

namespace ck_tile {

/// `w` transposed: byte i of w[j] (element (j, i), little-endian) becomes byte j of t[i].
/// @post for all i, j < 4: (t[j] >> 8 * i & 0xff) == (w[i] >> 8 * j & 0xff); applied twice
///       it is the identity.
CK_TILE_HOST_DEVICE void transpose_4x4_bytes(const std::uint32_t (&w)[4], std::uint32_t (&t)[4])
{
    for(int j = 0; j < 4; ++j)
        t[j] = (w[0] >> 8 * j & 0xffu) | (w[1] >> 8 * j & 0xffu) << 8 |
               (w[2] >> 8 * j & 0xffu) << 16 | (w[3] >> 8 * j & 0xffu) << 24;
}

} // namespace ck_tile
