// SPDX-License-Identifier: MIT
// Empty kernels and the ways to launch them (launch_floor.hpp). Device compiler.
#include "launch_floor.hpp"

#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/kernel_launch.hpp"

#if defined(CK_TILE_RUNTIME_CUDA)
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#endif

#include <cstddef>

namespace cktile_bench {
namespace {

struct do_nothing
{
    template <typename... Args>
    __device__ void operator()(const Args&...) const
    {}
};

/// A by-value argument of `Bytes` bytes, aligned as the tensor maps in the GEMM arguments are.
template <int Bytes>
struct alignas(64) arg_block
{
    unsigned char bytes[Bytes];
};

constexpr int block_threads = 128;
using gemm_sized            = arg_block<448>;
using large                 = arg_block<4096>;

template <typename... Args>
const void* entry_address()
{
    return reinterpret_cast<const void*>(&ck_tile::kentry<block_threads, 1, do_nothing, Args...>);
}

/// What the Hopper GEMM instances ask for (their stages and epilogue staging).
constexpr unsigned gemm_shared_memory = 200 * 1024;

template <typename... Args>
bool seam_launch(hipStream_t stream, unsigned lds_bytes, const Args&... args)
{
    try
    {
        ck_tile::launch_kernel(ck_tile::stream_config{stream, false, 0, 0, 1},
                               ck_tile::make_kernel<block_threads, 1>(
                                   do_nothing{}, dim3(1), dim3(block_threads), lds_bytes, args...));
        return true;
    }
    catch(const ck_tile::hip_error&)
    {
        return false;
    }
}

template <typename... Args>
bool chevron_launch(hipStream_t stream, const Args&... args)
{
    ck_tile::kentry<block_threads, 1, do_nothing, Args...>
        <<<1, block_threads, 0, stream>>>(do_nothing{}, args...);
    return true;
}

#if defined(CK_TILE_RUNTIME_CUDA)
__global__ void __cluster_dims__(2, 1, 1) cluster_entry(const __grid_constant__ gemm_sized) {}

/// cuLaunchKernel from the driver, found through the runtime (no link against libcuda).
PFN_cuLaunchKernel_v4000 driver_launch()
{
    static const PFN_cuLaunchKernel_v4000 fn = [] {
        void* p                              = nullptr;
        cudaDriverEntryPointQueryResult qres = cudaDriverEntryPointSymbolNotFound;
        if(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 4000, cudaEnableDefault, &qres) !=
               cudaSuccess ||
           qres != cudaDriverEntryPointSuccess)
            return static_cast<PFN_cuLaunchKernel_v4000>(nullptr);
        return reinterpret_cast<PFN_cuLaunchKernel_v4000>(p);
    }();
    return fn;
}

template <typename... Args>
CUfunction resolved_function()
{
    static const CUfunction f = [] {
        cudaFunction_t fn = nullptr;
        if(cudaGetFuncBySymbol(&fn, entry_address<Args...>()) != cudaSuccess)
            return static_cast<CUfunction>(nullptr);
        return static_cast<CUfunction>(fn);
    }();
    return f;
}

template <typename... Args>
bool driver_case(hipStream_t stream, const Args&... args)
{
    const auto launch  = driver_launch();
    const CUfunction f = resolved_function<Args...>();
    if(!launch || !f)
        return false;
    do_nothing k{};
    void* params[] = {&k, const_cast<void*>(static_cast<const void*>(&args))...};
    return launch(f, 1, 1, 1, block_threads, 1, 1, 0, stream, params, nullptr) == CUDA_SUCCESS;
}

/// The context-independent handle of a kernel (a CUkernel): valid on every device.
template <typename... Args>
cudaKernel_t kernel_handle()
{
    static const cudaKernel_t handle = [] {
        cudaKernel_t k = nullptr;
        if(cudaGetKernel(&k, entry_address<Args...>()) != cudaSuccess)
            return static_cast<cudaKernel_t>(nullptr);
        return k;
    }();
    return handle;
}

template <typename... Args>
bool driver_kernel_handle_case(hipStream_t stream, const Args&... args)
{
    const auto launch         = driver_launch();
    const cudaKernel_t handle = kernel_handle<Args...>();
    if(!launch || !handle)
        return false;
    do_nothing k{};
    void* params[] = {&k, const_cast<void*>(static_cast<const void*>(&args))...};
    return launch(reinterpret_cast<CUfunction>(handle), 1, 1, 1, block_threads, 1, 1, 0, stream,
                  params, nullptr) == CUDA_SUCCESS;
}

template <typename... Args>
bool runtime_kernel_handle_case(hipStream_t stream, const Args&... args)
{
    const cudaKernel_t handle = kernel_handle<Args...>();
    if(!handle)
        return false;
    do_nothing k{};
    void* params[] = {&k, const_cast<void*>(static_cast<const void*>(&args))...};
    return cudaLaunchKernel(reinterpret_cast<const void*>(handle), dim3(1), dim3(block_threads),
                            params, 0, stream) == cudaSuccess;
}

template <typename... Args>
bool runtime_ex_case(hipStream_t stream, const Args&... args)
{
    cudaLaunchConfig_t config{};
    config.gridDim  = dim3(1);
    config.blockDim = dim3(block_threads);
    config.stream   = stream;
    do_nothing k{};
    void* params[] = {&k, const_cast<void*>(static_cast<const void*>(&args))...};
    return cudaLaunchKernelExC(&config, entry_address<Args...>(), params) == cudaSuccess;
}
#endif

} // namespace

std::vector<timed_case> launch_floor_cases(hipStream_t stream)
{
    static const gemm_sized g{};
    static const large l{};
    std::vector<timed_case> cases = {
        {"seam launch_kernel: no arguments", [=] { return seam_launch(stream, 0); }},
        {"seam launch_kernel: 448-byte arguments", [=] { return seam_launch(stream, 0, g); }},
        {"seam launch_kernel: 448-byte arguments, 200 KiB shared",
         [=] { return seam_launch(stream, gemm_shared_memory, g); }},
        {"seam launch_kernel: 4096-byte arguments", [=] { return seam_launch(stream, 0, l); }},
        {"runtime: <<<>>> + hipGetLastError, no arguments",
         [=] { return chevron_launch(stream) && hipGetLastError() == hipSuccess; }},
        {"runtime: <<<>>> + hipGetLastError, 448-byte arguments",
         [=] { return chevron_launch(stream, g) && hipGetLastError() == hipSuccess; }},
        {"runtime: <<<>>> only, 448-byte arguments", [=] { return chevron_launch(stream, g); }},
        {"runtime: hipGetDevice",
         [] {
             int d = -1;
             return hipGetDevice(&d) == hipSuccess;
         }},
        {"runtime: hipGetDevice + hipSetDevice(it)",
         [] {
             int d = -1;
             return hipGetDevice(&d) == hipSuccess && hipSetDevice(d) == hipSuccess;
         }},
        {"runtime: hipGetLastError", [] { return hipGetLastError() == hipSuccess; }},
    };
#if defined(CK_TILE_RUNTIME_CUDA)
    const std::vector<timed_case> cuda_cases = {
        {"runtime: cudaLaunchKernelExC, 448-byte arguments",
         [=] { return runtime_ex_case(stream, g); }},
        {"runtime: cudaLaunchKernel(cudaKernel_t), 448-byte arguments",
         [=] { return runtime_kernel_handle_case(stream, g); }},
        {"driver: cuLaunchKernel(CUfunction), no arguments", [=] { return driver_case(stream); }},
        {"driver: cuLaunchKernel(CUfunction), 448-byte arguments",
         [=] { return driver_case(stream, g); }},
        {"driver: cuLaunchKernel(CUkernel), 448-byte arguments",
         [=] { return driver_kernel_handle_case(stream, g); }},
        {"runtime: <<<>>> cluster of 2, 448-byte arguments",
         [=] {
             cluster_entry<<<2, block_threads, 0, stream>>>(g);
             return true;
         }},
    };
    cases.insert(cases.end(), cuda_cases.begin(), cuda_cases.end());
#endif
    return cases;
}

} // namespace cktile_bench
