// SPDX-License-Identifier: MIT
// Division by a divisor fixed for a whole launch, as one widening multiply and a shift. A GPU
// has no integer divider: a 32-bit division is a dozen dependent instructions and a 64-bit one a
// call of about a hundred. Persistent kernels decode their next unit of work between two tiles,
// with the tensor cores idle; on the H100 the Hopper GEMM's decode (three 64-bit divisions)
// took about 1,000 SM cycles per tile.
//
// The method (Granlund and Montgomery): for a divisor 1 <= d < 2^31 let l = ceil(log2 d) and
// m = ceil(2^(31+l) / d). Then e = m d - 2^(31+l) satisfies 0 <= e < d <= 2^l, and for every
// 0 <= n < 2^31
//     n m / 2^(31+l) = n / d + n e / (d 2^(31+l)),
// where the second term is below 2^31 2^l / (d 2^(31+l)) = 1 / d. n / d is q + r / d with
// r <= d - 1, so adding less than 1 / d cannot reach q + 1: floor(n m / 2^(31+l)) = q. As
// d > 2^(l-1), m < 2^32, so m fits 32 bits and n m fits 64.
#pragma once

#include "ck_tile/core/config.hpp"

#include <cassert>
#include <cstdint>

namespace ck_tile {

struct magic_divisor
{
    std::uint32_t divisor    = 1;
    std::uint32_t multiplier = 1u << 31; // ceil(2^shift / divisor)
    std::uint32_t shift      = 31;       // 31 + ceil(log2(divisor))

    /// The largest numerator and divisor the multiply-and-shift divides exactly.
    static constexpr std::uint32_t max_value = 0x7fffffffu;

    /// @pre 1 <= d <= max_value.
    CK_TILE_HOST_DEVICE static constexpr magic_divisor of(std::uint32_t d)
    {
        assert(d >= 1 && d <= max_value);
        std::uint32_t l = 0;
        while((std::uint64_t{1} << l) < d)
            ++l;
        const std::uint64_t p = std::uint64_t{1} << (31 + l);
        return {d, static_cast<std::uint32_t>((p + d - 1) / d), 31 + l};
    }

    /// @pre n <= max_value. @post the result is n / divisor.
    CK_TILE_HOST_DEVICE constexpr std::uint32_t quotient(std::uint32_t n) const
    {
        return static_cast<std::uint32_t>((std::uint64_t{n} * multiplier) >> shift);
    }

    struct quotient_remainder
    {
        std::uint32_t quotient, remainder;
    };

    /// @pre n <= max_value. @post {n / divisor, n % divisor}.
    CK_TILE_HOST_DEVICE constexpr quotient_remainder divmod(std::uint32_t n) const
    {
        const std::uint32_t q = quotient(n);
        return {q, n - q * divisor};
    }
};

} // namespace ck_tile
