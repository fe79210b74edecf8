// SPDX-License-Identifier: MIT
// Is there a GPU to run on, and if not, why not: the answer every gpu test and every client
// prints before skipping.
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

#include <string>

namespace ck_tile {

struct gpu_availability
{
    bool present     = false;
    int device_count = 0;
    /// Empty when present; otherwise a sentence a user can act on.
    std::string reason;
};

/// @post present == (device_count > 0) and reason is empty exactly when present.
inline gpu_availability query_gpu_availability()
{
    gpu_availability a;
#if defined(CK_TILE_RUNTIME_NONE)
    a.reason = "this build has no GPU platform (CKTILE_GPU_PLATFORM=none)";
    return a;
#else
    int n              = 0;
    const hipError_t e = hipGetDeviceCount(&n);
    if(e != hipSuccess)
    {
        a.reason =
            std::string("no GPU device present (the runtime says: ") + hipGetErrorString(e) + ")";
        // A failed query leaves a sticky last error on some runtimes; clear it.
        (void)hipGetLastError();
        return a;
    }
    if(n <= 0)
    {
        a.reason = "no GPU device present (the runtime reports 0 devices)";
        return a;
    }
    a.present      = true;
    a.device_count = n;
    return a;
#endif
}

/// Target name of a device in the spelling the build uses for GPU_TARGETS
/// ("sm_90a", "gfx90a"); empty if the device cannot be queried.
inline std::string get_device_target_name(int device)
{
    hipDeviceProp_t p{};
    if(hipGetDeviceProperties(&p, device) != hipSuccess)
        return {};
    std::string name = p.gcnArchName;
    // ROCm appends feature flags ("gfx90a:sramecc+:xnack-"); the target is the part before.
    const auto colon = name.find(':');
    return colon == std::string::npos ? name : name.substr(0, colon);
}

} // namespace ck_tile
