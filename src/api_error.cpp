// SPDX-License-Identifier: MIT
#include "api_error.hpp"

namespace cktile::detail {
namespace {
thread_local std::string t_last_error;
}

void set_last_error(const std::string& message) noexcept
{
    try
    {
        t_last_error = message;
    }
    catch(...)
    {
        t_last_error.clear();
    }
}

void clear_last_error() noexcept
{
    if(!t_last_error.empty())
        t_last_error.clear();
}

const char* last_error() noexcept { return t_last_error.c_str(); }

} // namespace cktile::detail
