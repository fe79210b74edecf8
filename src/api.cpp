// SPDX-License-Identifier: MIT
// The C entry points of include/cktile.h: status, handles and instance queries. Each one
// runs inside guarded(), which turns every exception into a status and a message.
#include "cktile.h"

#include "api_error.hpp"
#include "handle.hpp"
#include "logging.hpp"
#include "tuning_db.hpp"

#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_runtime.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace cktile::detail;

namespace {

void load_env_tuning_db(handle_state& s)
{
    const char* path = std::getenv("CKTILE_TUNING_DB");
    if(!path || !*path)
        return;
    try
    {
        auto entries = load_tuning_db(path, {s.target, s.machine.compute_units}, *s.library);
        logger().info("CKTILE_TUNING_DB {}: {} entries", path, entries.size());
        s.tuning = std::move(entries);
    }
    catch(const std::exception& e)
    {
        logger().warn("CKTILE_TUNING_DB ignored: {}", e.what());
    }
}

/// Callers built before supports_multi_d (or supports_beta) existed pass a shorter struct: they
/// get the fields their struct has.
constexpr std::size_t info_min_size = offsetof(cktile_instance_info_t, supports_multi_d);

void copy_info(const cktile_instance_info_t& src, cktile_instance_info_t* dst)
{
    const std::size_t keep = dst->struct_size;
    std::memcpy(dst, &src, std::min(keep, sizeof(src)));
    dst->struct_size = keep;
}

} // namespace

extern "C" {

const char* cktile_status_string(cktile_status_t s)
{
    switch(raw_enum(s))
    {
    case CKTILE_STATUS_SUCCESS:
        return "CKTILE_STATUS_SUCCESS";
    case CKTILE_STATUS_INVALID_ARGUMENT:
        return "CKTILE_STATUS_INVALID_ARGUMENT";
    case CKTILE_STATUS_INVALID_HANDLE:
        return "CKTILE_STATUS_INVALID_HANDLE";
    case CKTILE_STATUS_NOT_SUPPORTED:
        return "CKTILE_STATUS_NOT_SUPPORTED";
    case CKTILE_STATUS_NOT_FOUND:
        return "CKTILE_STATUS_NOT_FOUND";
    case CKTILE_STATUS_NO_DEVICE:
        return "CKTILE_STATUS_NO_DEVICE";
    case CKTILE_STATUS_KERNEL_LIBRARY_NOT_FOUND:
        return "CKTILE_STATUS_KERNEL_LIBRARY_NOT_FOUND";
    case CKTILE_STATUS_KERNEL_LIBRARY_INVALID:
        return "CKTILE_STATUS_KERNEL_LIBRARY_INVALID";
    case CKTILE_STATUS_RUNTIME_ERROR:
        return "CKTILE_STATUS_RUNTIME_ERROR";
    case CKTILE_STATUS_INSUFFICIENT_WORKSPACE:
        return "CKTILE_STATUS_INSUFFICIENT_WORKSPACE";
    case CKTILE_STATUS_BUFFER_TOO_SMALL:
        return "CKTILE_STATUS_BUFFER_TOO_SMALL";
    case CKTILE_STATUS_NOT_IMPLEMENTED:
        return "CKTILE_STATUS_NOT_IMPLEMENTED";
    case CKTILE_STATUS_INTERNAL_ERROR:
        return "CKTILE_STATUS_INTERNAL_ERROR";
    case CKTILE_STATUS_OUT_OF_MEMORY:
        return "CKTILE_STATUS_OUT_OF_MEMORY";
    }
    return "CKTILE_STATUS_<unknown>";
}

const char* cktile_get_last_error_message(void) { return last_error(); }

cktile_status_t cktile_create(cktile_handle_t* handle, int device_ordinal)
{
    return guarded("cktile_create", [&] {
        require_pointer(handle, "handle");
        *handle = nullptr;
        if(device_ordinal < 0)
            fail(CKTILE_STATUS_INVALID_ARGUMENT,
                 "device_ordinal = " + std::to_string(device_ordinal) + " is negative");
        const auto gpu = ck_tile::query_gpu_availability();
        if(!gpu.present)
            fail(CKTILE_STATUS_NO_DEVICE, gpu.reason);
        if(device_ordinal >= gpu.device_count)
            fail(CKTILE_STATUS_NO_DEVICE, "device_ordinal = " + std::to_string(device_ordinal) +
                                              " does not exist (" +
                                              std::to_string(gpu.device_count) + " devices)");
        hipDeviceProp_t props{};
        if(const hipError_t e = hipGetDeviceProperties(&props, device_ordinal); e != hipSuccess)
            fail(CKTILE_STATUS_RUNTIME_ERROR, std::string("cannot query device ") +
                                                  std::to_string(device_ordinal) + ": " +
                                                  hipGetErrorString(e));
        const std::string target = ck_tile::get_device_target_name(device_ordinal);
        auto s                   = std::make_shared<handle_state>();
        try
        {
            s->library = load_kernel_library(target);
        }
        catch(const api_error& e)
        {
            fail(e.status(), "device " + std::to_string(device_ordinal) + " (" + props.name +
                                 ", target " + target + "): " + e.what());
        }
        s->target  = target;
        s->device  = device_ordinal;
        s->machine = machine_for_target(target, props.multiProcessorCount);
        load_env_tuning_db(*s);
        *handle = register_handle(std::move(s));
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_create_for_target(cktile_handle_t* handle, const char* target)
{
    return guarded("cktile_create_for_target", [&] {
        require_pointer(handle, "handle");
        *handle = nullptr;
        require_pointer(target, "target");
        const std::string t(target, strnlen(target, 64));
        auto s     = std::make_shared<handle_state>();
        s->library = load_kernel_library(t);
        s->target  = t;
        s->machine = machine_for_target(t, 0);
        load_env_tuning_db(*s);
        *handle = register_handle(std::move(s));
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_destroy(cktile_handle_t handle)
{
    return guarded("cktile_destroy", [&] {
        if(!handle)
            fail(CKTILE_STATUS_INVALID_HANDLE, "handle is NULL");
        if(!unregister_handle(handle))
            fail(CKTILE_STATUS_INVALID_HANDLE,
                 "handle is not a live cktile handle (never created, or already destroyed)");
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_get_handle_info(cktile_handle_t handle, cktile_handle_info_t* info)
{
    return guarded("cktile_get_handle_info", [&] {
        const auto s = lookup_handle(handle);
        require_struct(info, "info", false);
        std::snprintf(info->target, sizeof(info->target), "%s", s->target.c_str());
        info->device_ordinal     = s->device;
        info->compute_unit_count = s->machine.compute_units;
        info->instance_count     = s->library->size();
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_get_instance_count(cktile_handle_t handle, size_t* count)
{
    return guarded("cktile_get_instance_count", [&] {
        const auto s = lookup_handle(handle);
        require_pointer(count, "count");
        *count = s->library->size();
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_get_instance_info(cktile_handle_t handle, size_t index,
                                         cktile_instance_info_t* info)
{
    return guarded("cktile_get_instance_info", [&] {
        const auto s = lookup_handle(handle);
        require_struct(info, "info", false, info_min_size);
        if(index >= s->library->size())
            fail(CKTILE_STATUS_NOT_FOUND, "index " + std::to_string(index) + " is past the " +
                                              std::to_string(s->library->size()) + " instances");
        copy_info(s->library->at(index).info, info);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_get_instance_info_by_id(cktile_handle_t handle, uint64_t id,
                                               cktile_instance_info_t* info)
{
    return guarded("cktile_get_instance_info_by_id", [&] {
        const auto s = lookup_handle(handle);
        require_struct(info, "info", false, info_min_size);
        const auto* r = s->library->find(id);
        if(!r)
            fail(CKTILE_STATUS_NOT_FOUND,
                 "no instance with id " + std::to_string(id) + " for " + s->target);
        copy_info(r->info, info);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_find_instance(cktile_handle_t handle, const char* name, uint64_t* id)
{
    return guarded("cktile_find_instance", [&] {
        const auto s = lookup_handle(handle);
        require_pointer(name, "name");
        require_pointer(id, "id");
        const std::string n(name, strnlen(name, 256));
        const auto* r = s->library->find(n);
        if(!r)
            fail(CKTILE_STATUS_NOT_FOUND, "no instance named '" + n + "' for " + s->target);
        *id = r->info.id;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_tuning_db_load(cktile_handle_t handle, const char* path, size_t* loaded)
{
    return guarded("cktile_tuning_db_load", [&] {
        const auto s = lookup_handle(handle);
        require_pointer(path, "path");
        auto entries = load_tuning_db(path, {s->target, s->machine.compute_units}, *s->library);
        if(loaded)
            *loaded = entries.size();
        std::lock_guard<std::mutex> lock(s->mutex);
        for(auto& [k, e] : entries)
            s->tuning[k] = std::move(e);
        s->gemm_selections.invalidate();
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_tuning_db_save(cktile_handle_t handle, const char* path)
{
    return guarded("cktile_tuning_db_save", [&] {
        const auto s = lookup_handle(handle);
        require_pointer(path, "path");
        std::map<std::string, tuning_entry> copy;
        {
            std::lock_guard<std::mutex> lock(s->mutex);
            copy = s->tuning;
        }
        save_tuning_db(path, {s->target, s->machine.compute_units}, copy);
        return CKTILE_STATUS_SUCCESS;
    });
}

} // extern "C"
