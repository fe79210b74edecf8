// SPDX-License-Identifier: MIT
#include "handle.hpp"

#include "api_error.hpp"

#include <cstdint>
#include <unordered_map>

namespace cktile::detail {

namespace {
struct live_handles
{
    std::mutex mutex;
    std::uint64_t next = 1;
    std::unordered_map<std::uint64_t, std::shared_ptr<handle_state>> map;
};
live_handles& registry()
{
    // Never destroyed: calls during static destruction (atexit handlers of the caller) must
    // still find a registry rather than a destroyed map.
    static live_handles* r = new live_handles;
    return *r;
}
std::uint64_t key(cktile_handle_t h)
{
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(h));
}
} // namespace

cktile_handle_t register_handle(std::shared_ptr<handle_state> state)
{
    auto& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    // Values step by 16 from 16 so they look like (and are never confused with) small ints.
    const std::uint64_t id = 16 * r.next++;
    r.map.emplace(id, std::move(state));
    return reinterpret_cast<cktile_handle_t>(static_cast<std::uintptr_t>(id));
}

std::shared_ptr<handle_state> lookup_handle(cktile_handle_t h)
{
    if(!h)
        fail(CKTILE_STATUS_INVALID_HANDLE, "handle is NULL");
    auto& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.map.find(key(h));
    if(it == r.map.end())
        fail(CKTILE_STATUS_INVALID_HANDLE,
             "handle is not a live cktile handle (never created, or already destroyed)");
    return it->second;
}

bool unregister_handle(cktile_handle_t h)
{
    auto& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.map.erase(key(h)) > 0;
}

} // namespace cktile::detail
