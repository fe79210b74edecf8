// SPDX-License-Identifier: MIT
// A __global__ function as the host launches it: its address, resolved once into what the
// runtime launches fastest, and a launch that returns its own status.
//
// On CUDA, `<<<>>>` compiles to cudaLaunchKernel(address, ...), which looks the address up in
// the runtime's tables (and its lazy-loading state) on every call. The kernel's
// context-independent handle (cudaGetKernel, a CUkernel) launched through the driver's
// cuLaunchKernel skips that look-up; the driver picks the current context's copy, as `<<<>>>`
// does. A driver launch that fails (no current context on this thread yet, say) is repeated
// through the runtime, which initialises what it must and reports the failure the way every
// other runtime call does. On HIP the launch is hipLaunchKernel, what `<<<>>>` compiles to.
//
// The launch status is the call's return value, so no hipGetLastError is needed after it; a
// failed launch's error is also taken off the runtime's last-error slot, as checking it would.
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

#if defined(CK_TILE_RUNTIME_NONE)
#error "ck_tile/host/kernel_entry.hpp launches kernels: it needs the CUDA or the HIP runtime"
#endif

#if defined(CK_TILE_RUNTIME_CUDA)
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#endif

namespace ck_tile {

#if defined(CK_TILE_RUNTIME_CUDA)
namespace detail {
/// The driver's cuLaunchKernel, found through the runtime (nothing links libcuda), or null.
inline PFN_cuLaunchKernel_v4000 driver_launch_kernel()
{
    static const PFN_cuLaunchKernel_v4000 fn = [] {
        void* p                              = nullptr;
        cudaDriverEntryPointQueryResult qres = cudaDriverEntryPointSymbolNotFound;
        // The stream argument means what it means to the runtime calls of this build (the
        // legacy or the per-thread default stream for a null stream).
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
        constexpr auto flags = cudaEnablePerThreadDefaultStream;
#else
        constexpr auto flags = cudaEnableLegacyStream;
#endif
        if(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 12000, flags, &qres) !=
               cudaSuccess ||
           qres != cudaDriverEntryPointSuccess)
        {
            (void)cudaGetLastError();
            return static_cast<PFN_cuLaunchKernel_v4000>(nullptr);
        }
        return reinterpret_cast<PFN_cuLaunchKernel_v4000>(p);
    }();
    return fn;
}
} // namespace detail
#endif

/// A __global__ function. Construct it once per function (a function-local static) and launch
/// it from any thread, on any device.
class kernel_entry
{
    public:
    /// `function`: the address of a __global__ function (what `<<<>>>` launches).
    explicit kernel_entry(const void* function) : function_(function)
    {
#if defined(CK_TILE_RUNTIME_CUDA)
        cudaKernel_t k = nullptr;
        if(detail::driver_launch_kernel() && cudaGetKernel(&k, function) == cudaSuccess)
            handle_ = reinterpret_cast<CUfunction>(k);
        else
            (void)cudaGetLastError(); // the runtime launch below is used instead
#endif
    }

    /// Launches with `args[i]` pointing at the i-th kernel parameter; returns the launch's status.
    hipError_t launch(dim3 grid, dim3 block, unsigned shared_bytes, hipStream_t stream,
                      void** args) const
    {
#if defined(CK_TILE_RUNTIME_CUDA)
        if(handle_ && detail::driver_launch_kernel()(handle_, grid.x, grid.y, grid.z, block.x,
                                                     block.y, block.z, shared_bytes, stream, args,
                                                     nullptr) == CUDA_SUCCESS)
            return cudaSuccess;
        const cudaError_t e = cudaLaunchKernel(function_, grid, block, args, shared_bytes, stream);
        if(e != cudaSuccess)
            (void)cudaGetLastError();
        return e;
#else
        const hipError_t e = hipLaunchKernel(function_, grid, block, args, shared_bytes, stream);
        if(e != hipSuccess)
            (void)hipGetLastError();
        return e;
#endif
    }

    private:
    const void* function_;
#if defined(CK_TILE_RUNTIME_CUDA)
    CUfunction handle_ = nullptr; // a CUkernel: cuLaunchKernel takes either
#endif
};

} // namespace ck_tile
