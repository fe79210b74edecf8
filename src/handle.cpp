// SPDX-License-Identifier: MIT
#include "handle.hpp"

#include "api_error.hpp"

#include <cstdint>
#include <unordered_map>

namespace cktile::detail {

namespace {
struct live_handles
{
    // Every API call looks its handle up; only create and destroy write, so lookups share.
    std::shared_mutex mutex;
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

std::size_t selection_key_hash::operator()(const selection_key& k) const noexcept
{
    // Four independent multiply chains, so the words hash at about one a cycle; then a final
    // mix so the low bits the buckets use depend on every word.
    static_assert(selection_key::words % 4 == 0);
    std::uint64_t h[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,
                          0x082efa98ec4e6c89ull};
    for(std::size_t i = 0; i < selection_key::words; i += 4)
        for(std::size_t j = 0; j < 4; ++j)
            h[j] = (h[j] ^ k.w[i + j]) * 0x9e3779b97f4a7c15ull;
    std::uint64_t x =
        h[0] ^ (h[1] << 16 | h[1] >> 48) ^ (h[2] << 32 | h[2] >> 32) ^ (h[3] << 48 | h[3] >> 16);
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ull;
    x ^= x >> 32;
    return static_cast<std::size_t>(x);
}

const cktile_kernel_instance_t* selection_cache::find(const selection_key& k,
                                                      std::uint64_t& generation) const
{
    std::shared_lock<std::shared_mutex> lock(mutex_);
    generation    = generation_;
    const auto it = map_.find(k);
    return it == map_.end() ? nullptr : it->second;
}

void selection_cache::insert(const selection_key& k, const cktile_kernel_instance_t* r,
                             std::uint64_t generation)
{
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if(generation != generation_)
        return;
    if(map_.size() >= capacity)
        map_.clear();
    map_.insert_or_assign(k, r);
}

void selection_cache::invalidate()
{
    std::unique_lock<std::shared_mutex> lock(mutex_);
    ++generation_;
    map_.clear();
}

cktile_handle_t register_handle(std::shared_ptr<handle_state> state)
{
    auto& r = registry();
    std::unique_lock<std::shared_mutex> lock(r.mutex);
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
    {
        std::shared_lock<std::shared_mutex> lock(r.mutex);
        if(const auto it = r.map.find(key(h)); it != r.map.end())
            return it->second;
    }
    fail(CKTILE_STATUS_INVALID_HANDLE,
         "handle is not a live cktile handle (never created, or already destroyed)");
}

bool unregister_handle(cktile_handle_t h)
{
    auto& r = registry();
    std::shared_ptr<handle_state> last;
    {
        std::unique_lock<std::shared_mutex> lock(r.mutex);
        const auto it = r.map.find(key(h));
        if(it == r.map.end())
            return false;
        // The state may be freed here: do it after the lock, so lookups never wait on it.
        last = std::move(it->second);
        r.map.erase(it);
    }
    return true;
}

} // namespace cktile::detail
