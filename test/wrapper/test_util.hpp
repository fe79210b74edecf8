// SPDX-License-Identifier: MIT
// Shared helpers of the wrapper tests.
#pragma once

#include "ck_tile/wrapper.hpp"

#include <string>

namespace wt {
using ck_tile::index_t;
template <index_t N>
using C = ck_tile::number<N>;

/// CuTe notation of a layout or an int-tuple.
template <typename T>
std::string str(const T& x)
{
    return ck_tile::wrapper::to_string(x);
}

/// True when two layouts are the same function on [0, n).
template <typename LA, typename LB>
bool same_function(const LA& a, const LB& b, index_t n)
{
    for(index_t i = 0; i < n; ++i)
        if(static_cast<index_t>(a(i)) != static_cast<index_t>(b(i)))
            return false;
    return true;
}
} // namespace wt
