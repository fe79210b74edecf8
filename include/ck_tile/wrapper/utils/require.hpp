// SPDX-License-Identifier: MIT
// Preconditions of the layout algebra (divisibility, injectivity, slice bounds).
//
// A condition built from static integers is a `bool_constant` and fails the build with its
// message; one built from runtime integers is checked when it runs: on the host it throws
// std::invalid_argument with the message, on the device it traps. Either way a violated
// precondition never turns into a silently wrong layout.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#if !CK_TILE_DEVICE_COMPILE
#include <stdexcept>
#endif

namespace ck_tile::wrapper::detail {

// Not constexpr: reaching it during constant evaluation is itself the compile-time error.
CK_TILE_HOST_DEVICE void require_failed(const char* msg)
{
#if CK_TILE_DEVICE_COMPILE
    // No exceptions on the device; a trap stops the kernel and surfaces as a launch error.
    (void)msg;
    ck_tile::trap();
#else
    throw std::invalid_argument(msg);
#endif
}

CK_TILE_HOST_DEVICE constexpr void require(bool ok, const char* msg)
{
    if(!ok)
        require_failed(msg);
}

} // namespace ck_tile::wrapper::detail

/// Checks `cond` at compile time when it is a static boolean, at run time otherwise.
/// Only for use inside templates, where the untaken branch is discarded.
#define CK_TILE_WRAPPER_REQUIRE(cond, msg)                                                         \
    do                                                                                             \
    {                                                                                              \
        using ck_tile_wrapper_cond_t_ = ::ck_tile::remove_cvref_t<decltype(cond)>;                 \
        if constexpr(::ck_tile::is_constant_v<ck_tile_wrapper_cond_t_>)                            \
        {                                                                                          \
            static_assert(static_cast<bool>(ck_tile_wrapper_cond_t_::value), msg);                 \
        }                                                                                          \
        else                                                                                       \
        {                                                                                          \
            ::ck_tile::wrapper::detail::require(static_cast<bool>(cond), msg);                     \
        }                                                                                          \
    } while(false)
