// SPDX-License-Identifier: MIT
// What every instance entry point of a kernel library shares: writing a reason into the
// caller's buffer, and turning exceptions into a status, since nothing may propagate out of
// the library's C entry points.
#pragma once

#include "kernel_library_abi.h"

#include "ck_tile/host/hip_check.hpp"

#include <cstddef>
#include <cstdio>
#include <exception>

namespace cktile::library {

/// Copies `text` into out[0, n), truncated and NUL-terminated; does nothing without a buffer.
inline void write_text(char* out, std::size_t n, const char* text)
{
    if(out && n > 0)
        std::snprintf(out, n, "%s", text);
}

/// Returns f()'s status; a runtime failure becomes CKTILE_STATUS_RUNTIME_ERROR and any other
/// exception CKTILE_STATUS_INTERNAL_ERROR, with the exception's text in `message`.
template <typename F>
int guard_kernel_call(char* message, std::size_t message_size, F&& f) noexcept
{
    try
    {
        return f();
    }
    catch(const ck_tile::hip_error& e)
    {
        write_text(message, message_size, e.what());
        return CKTILE_STATUS_RUNTIME_ERROR;
    }
    catch(const std::exception& e)
    {
        write_text(message, message_size, e.what());
        return CKTILE_STATUS_INTERNAL_ERROR;
    }
    catch(...)
    {
        write_text(message, message_size, "unknown exception in a kernel library");
        return CKTILE_STATUS_INTERNAL_ERROR;
    }
}

} // namespace cktile::library
