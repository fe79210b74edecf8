// SPDX-License-Identifier: MIT
// Turning HIP runtime status codes into exceptions for host-side utilities and tests.
// (The C API never lets an exception out; it catches and converts to a status.)
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

#include <stdexcept>
#include <string>

namespace ck_tile {

/// Thrown by host utilities when a runtime call fails; what() names the call and the place.
class hip_error : public std::runtime_error
{
    public:
    hip_error(hipError_t status, const std::string& what)
        : std::runtime_error(what), status_(status)
    {}
    hipError_t status() const noexcept { return status_; }

    private:
    hipError_t status_;
};

inline void hip_check(hipError_t status, const char* expr, const char* file, int line)
{
    if(status != hipSuccess)
        throw hip_error(status, std::string(expr) + " failed with '" + hipGetErrorString(status) +
                                    "' at " + file + ":" + std::to_string(line));
}

} // namespace ck_tile

#define HIP_CHECK_ERROR(expr) ::ck_tile::hip_check((expr), #expr, __FILE__, __LINE__)
