// SPDX-License-Identifier: MIT
// How the C API reports failure: code inside the library throws api_error (a status and a
// sentence naming the argument or constraint); the entry point catches it (and every other
// exception), records the sentence as this thread's last error message and returns the status.
#pragma once

#include "cktile.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace cktile::detail {

class api_error : public std::runtime_error
{
    public:
    api_error(cktile_status_t status, const std::string& message)
        : std::runtime_error(message), status_(status)
    {}
    cktile_status_t status() const noexcept { return status_; }

    private:
    cktile_status_t status_;
};

[[noreturn]] inline void fail(cktile_status_t status, const std::string& message)
{
    throw api_error(status, message);
}

/// The integer a caller stored in an enum field. C callers may store any int there, and
/// loading an out-of-range value as the C++ enum type is undefined, so checks read the bits.
template <typename E>
int raw_enum(const E& e) noexcept
{
    static_assert(sizeof(E) == sizeof(int), "C enums are int-sized on our ABIs");
    int v;
    std::memcpy(&v, &e, sizeof(v));
    return v;
}

/// Sets this thread's last error message (empty on success).
void set_last_error(const std::string& message) noexcept;
/// Empties it: what every successful call does, so it touches the string only when it holds
/// a message.
void clear_last_error() noexcept;
const char* last_error() noexcept;

/// Runs `body` (returning cktile_status_t) with every exception converted to a status and a
/// message. `function` names the entry point in messages.
template <typename Body>
cktile_status_t guarded(const char* function, Body&& body) noexcept
{
    try
    {
        clear_last_error();
        return body();
    }
    catch(const api_error& e)
    {
        set_last_error(std::string(function) + ": " + e.what());
        return e.status();
    }
    catch(const std::bad_alloc&)
    {
        set_last_error(std::string(function) + ": out of host memory");
        return CKTILE_STATUS_OUT_OF_MEMORY;
    }
    catch(const std::exception& e)
    {
        set_last_error(std::string(function) + ": internal error: " + e.what());
        return CKTILE_STATUS_INTERNAL_ERROR;
    }
    catch(...)
    {
        set_last_error(std::string(function) + ": internal error: unknown exception");
        return CKTILE_STATUS_INTERNAL_ERROR;
    }
}

/// Throws INVALID_ARGUMENT naming `name` when `p` is null.
template <typename T>
void require_pointer(const T* p, const char* name)
{
    if(!p)
        fail(CKTILE_STATUS_INVALID_ARGUMENT, std::string(name) + " is NULL");
}

/// Checks the leading struct_size field of a public struct. Inputs: at least the first
/// version's size (`min_size`) and at most this library's, since fields a newer caller sets
/// would otherwise be silently ignored. Outputs: at least `min_size` (a larger caller struct
/// gets the fields this library knows about).
template <typename T>
void require_struct(const T* p, const char* name, bool input, std::size_t min_size = sizeof(T))
{
    require_pointer(p, name);
    if(p->struct_size < min_size)
        fail(CKTILE_STATUS_INVALID_ARGUMENT, std::string(name) + "->struct_size is " +
                                                 std::to_string(p->struct_size) +
                                                 ", expected at least " + std::to_string(min_size) +
                                                 " (set it to sizeof the struct)");
    if(input && p->struct_size > sizeof(T))
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             std::string(name) + "->struct_size is " + std::to_string(p->struct_size) +
                 ", larger than this library's " + std::to_string(sizeof(T)) +
                 " (the caller was built against a newer cktile.h)");
}

} // namespace cktile::detail
