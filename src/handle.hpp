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

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace cktile::detail {

/// Everything a selection depends on, packed into words by the operation that selects: compared
/// exactly, hashed cheaply, so a repeated call finds its answer without building any text.
struct selection_key
{
    static constexpr std::size_t words = 20;
    std::array<std::uint64_t, words> w{};
    friend bool operator==(const selection_key&, const selection_key&) = default;
};

struct selection_key_hash
{
    std::size_t operator()(const selection_key& k) const noexcept;
};

/// Selections already made on a handle, read under a shared lock so concurrent callers of the
/// same problem do not serialise. Whatever a selection reads besides its key (the tuning data)
/// must call invalidate() after it changes; the generation keeps a selection computed from
/// the old data from being stored after that.
class selection_cache
{
    public:
    /// The cached instance, or nullptr; `generation` receives the value insert() needs.
    const cktile_kernel_instance_t* find(const selection_key& k, std::uint64_t& generation) const;
    /// Stores `r` unless invalidate() ran since the find() that returned `generation`.
    void insert(const selection_key& k, const cktile_kernel_instance_t* r,
                std::uint64_t generation);
    void invalidate();

    private:
    // A bound on host memory for callers that sweep many shapes; a full cache starts over.
    static constexpr std::size_t capacity = 4096;
    mutable std::shared_mutex mutex_;
    std::uint64_t generation_ = 0;
    std::unordered_map<selection_key, const cktile_kernel_instance_t*, selection_key_hash> map_;
};

struct handle_state
{
    std::shared_ptr<const kernel_library> library;
    std::string target;
    int device = -1; // -1: created for a target, no device
    machine_model machine;

    std::mutex mutex;                              // guards the two maps below
    std::map<std::string, tuning_entry> tuning;    // problem key -> entry (loaded or measured)
    std::map<std::string, std::uint64_t> measured; // problem key -> id chosen by measuring

    /// GEMM selections; invalidated whenever `tuning` or `measured` change.
    selection_cache gemm_selections;
    /// Normalization, softmax and reduction selections (the heuristic only reads the problem
    /// and the instances, so nothing invalidates them); the key's first word holds the op.
    selection_cache rowwise_selections;
};

/// Registers `state` and returns its new handle value.
cktile_handle_t register_handle(std::shared_ptr<handle_state> state);
/// Throws api_error(INVALID_HANDLE) for null, unknown or destroyed handles.
std::shared_ptr<handle_state> lookup_handle(cktile_handle_t h);
/// Removes the handle; false when it was not live.
bool unregister_handle(cktile_handle_t h);

} // namespace cktile::detail
