// SPDX-License-Identifier: MIT
// Launching a kernel functor: make_kernel packs the functor, launch shape and arguments;
// launch_kernel runs it on a stream and optionally times it with device events.
// Device-compiler only (it defines a __global__ entry point).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/kernel_entry.hpp"
#include "ck_tile/host/stream_config.hpp"

#if defined(CK_TILE_PLATFORM_HOST)
#error "ck_tile/host/kernel_launch.hpp defines kernels: compile this file with nvcc or hipcc"
#endif

#include <atomic>
#include <tuple>
#include <utility>

namespace ck_tile {

/// The one __global__ entry point: calls Kernel{}(args...) in every thread.
/// MinBlockPerCu is the occupancy the compiler must keep (register cap).
template <int MaxThreadPerBlock, int MinBlockPerCu, typename Kernel, typename... Args>
__global__ void __launch_bounds__(MaxThreadPerBlock, MinBlockPerCu)
    kentry(const CK_TILE_GRID_CONSTANT Kernel k, const CK_TILE_GRID_CONSTANT Args... args)
{
    k(args...);
}

template <int MaxThreadPerBlock, int MinBlockPerCu, typename Kernel, typename... Args>
struct kernel_invocation
{
    Kernel kernel;
    dim3 grid;
    dim3 block;
    unsigned lds_bytes;
    std::tuple<Args...> args;

    /// What a kernel may use without opting in (NVIDIA: 48 KiB; AMD allows its whole LDS).
    static constexpr unsigned default_dynamic_shared_memory = 48 * 1024;
    static constexpr int max_devices                        = 64;

    /// Opts this kernel in to lds_bytes of dynamic shared memory on the current device, once
    /// per device (the attribute belongs to the function in one device's context).
    void allow_dynamic_shared_memory() const
    {
        static std::atomic<unsigned> granted[max_devices] = {};
        int device                                        = 0;
        HIP_CHECK_ERROR(hipGetDevice(&device));
        if(device >= 0 && device < max_devices &&
           granted[device].load(std::memory_order_acquire) >= lds_bytes)
            return;
        HIP_CHECK_ERROR(hipFuncSetAttribute(
            reinterpret_cast<const void*>(
                &kentry<MaxThreadPerBlock, MinBlockPerCu, Kernel, Args...>),
            hipFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(lds_bytes)));
        if(device >= 0 && device < max_devices)
        {
            unsigned had = granted[device].load(std::memory_order_relaxed);
            while(had < lds_bytes && !granted[device].compare_exchange_weak(had, lds_bytes))
            {}
        }
    }

    /// Launches on `stream`; throws ck_tile::hip_error when the launch fails.
    void operator()(hipStream_t stream) const
    {
        if(lds_bytes > default_dynamic_shared_memory)
            allow_dynamic_shared_memory();
        static const kernel_entry entry(reinterpret_cast<const void*>(
            &kentry<MaxThreadPerBlock, MinBlockPerCu, Kernel, Args...>));
        std::apply(
            [&](const Args&... a) {
                void* params[] = {const_cast<Kernel*>(&kernel),
                                  const_cast<void*>(static_cast<const void*>(&a))...};
                HIP_CHECK_ERROR(entry.launch(grid, block, lds_bytes, stream, params));
            },
            args);
    }
};

/// Packs a kernel functor with its launch shape. `lds_bytes` is dynamic shared memory; above
/// 48 KiB the kernel is opted in (hipFuncSetAttribute) before its first launch on a device.
template <int MaxThreadPerBlock = 256, int MinBlockPerCu = 1, typename Kernel, typename... Args>
auto make_kernel(Kernel kernel, dim3 grid, dim3 block, unsigned lds_bytes, Args... args)
{
    return kernel_invocation<MaxThreadPerBlock, MinBlockPerCu, Kernel, Args...>{
        kernel, grid, block, lds_bytes, std::tuple<Args...>(args...)};
}

/// Runs each invocation once on s.stream_id_; with s.time_kernel_, first s.cold_niters_
/// untimed runs, then s.nrepeat_ timed runs, and returns the mean time per run in ms
/// (0 when not timing). Throws ck_tile::hip_error on a launch or runtime failure. Each launch
/// reports its own status, so no hipGetLastError follows them (it would also pick up an error
/// that an unrelated earlier call on this thread left behind).
template <typename... Invocations>
float launch_kernel(const stream_config& s, Invocations... invocations)
{
    auto run_all = [&] { (invocations(s.stream_id_), ...); };
    if(!s.time_kernel_)
    {
        run_all();
        return 0.f;
    }
    for(int i = 0; i < s.cold_niters_; ++i)
        run_all();
    hipEvent_t start, stop;
    HIP_CHECK_ERROR(hipEventCreate(&start));
    HIP_CHECK_ERROR(hipEventCreate(&stop));
    HIP_CHECK_ERROR(hipEventRecord(start, s.stream_id_));
    const int n = s.nrepeat_ > 0 ? s.nrepeat_ : 1;
    for(int i = 0; i < n; ++i)
        run_all();
    HIP_CHECK_ERROR(hipEventRecord(stop, s.stream_id_));
    HIP_CHECK_ERROR(hipEventSynchronize(stop));
    float ms = 0.f;
    HIP_CHECK_ERROR(hipEventElapsedTime(&ms, start, stop));
    (void)hipEventDestroy(start);
    (void)hipEventDestroy(stop);
    return ms / static_cast<float>(n);
}

} // namespace ck_tile
