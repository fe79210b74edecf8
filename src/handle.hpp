// SPDX-License-Identifier: MIT
// What a cktile_handle_t stands for, and the registry of live handles. A handle value is a
// number that is never reused, looked up in the registry on every call: a null, forged or
// destroyed handle is reported, never dereferenced. Calls hold a shared_ptr, so a handle
// destroyed by one thread stays valid for calls already running in another.
#pragma once

#include "cktile.h"
#include "kernel_library.hpp"
#include "selection.hpp"
#include "tuning_db.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace cktile::detail {

struct handle_state
{
    std::shared_ptr<const kernel_library> library;
    std::string target;
    int device = -1; // -1: created for a target, no device
    machine_model machine;

    std::mutex mutex;                              // guards the two maps below
    std::map<std::string, tuning_entry> tuning;    // problem key -> entry (loaded or measured)
    std::map<std::string, std::uint64_t> measured; // problem key -> id chosen by measuring
};

/// Registers `state` and returns its new handle value.
cktile_handle_t register_handle(std::shared_ptr<handle_state> state);
/// Throws api_error(INVALID_HANDLE) for null, unknown or destroyed handles.
std::shared_ptr<handle_state> lookup_handle(cktile_handle_t h);
/// Removes the handle; false when it was not live.
bool unregister_handle(cktile_handle_t h);

} // namespace cktile::detail
