// SPDX-License-Identifier: MIT
// HIP runtime names used by cktile, mapped onto the CUDA runtime API. Add a name here when
// host code needs it; keep the HIP signature so the same code compiles against ROCm.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>

using hipError_t       = cudaError_t;
using hipStream_t      = cudaStream_t;
using hipEvent_t       = cudaEvent_t;
using hipMemcpyKind    = cudaMemcpyKind;
using hipFuncAttribute = cudaFuncAttribute;

inline constexpr hipError_t hipSuccess                 = cudaSuccess;
inline constexpr hipError_t hipErrorInvalidValue       = cudaErrorInvalidValue;
inline constexpr hipError_t hipErrorOutOfMemory        = cudaErrorMemoryAllocation;
inline constexpr hipError_t hipErrorNoDevice           = cudaErrorNoDevice;
inline constexpr hipError_t hipErrorInvalidDevice      = cudaErrorInvalidDevice;
inline constexpr hipError_t hipErrorNotReady           = cudaErrorNotReady;
inline constexpr hipError_t hipErrorInsufficientDriver = cudaErrorInsufficientDriver;

inline constexpr hipMemcpyKind hipMemcpyHostToHost     = cudaMemcpyHostToHost;
inline constexpr hipMemcpyKind hipMemcpyHostToDevice   = cudaMemcpyHostToDevice;
inline constexpr hipMemcpyKind hipMemcpyDeviceToHost   = cudaMemcpyDeviceToHost;
inline constexpr hipMemcpyKind hipMemcpyDeviceToDevice = cudaMemcpyDeviceToDevice;
inline constexpr hipMemcpyKind hipMemcpyDefault        = cudaMemcpyDefault;

inline constexpr hipFuncAttribute hipFuncAttributeMaxDynamicSharedMemorySize =
    cudaFuncAttributeMaxDynamicSharedMemorySize;

inline constexpr unsigned hipStreamNonBlocking  = cudaStreamNonBlocking;
inline constexpr unsigned hipEventDefault       = cudaEventDefault;
inline constexpr unsigned hipEventDisableTiming = cudaEventDisableTiming;

/// The subset of HIP's device properties that cktile reads. `gcnArchName` holds the target
/// name in our spelling ("sm_90a" style: sm_<major><minor>, with the "a" suffix for 9.0,
/// whose arch-specific instructions the kernels use).
struct hipDeviceProp_t
{
    char name[256];
    char gcnArchName[256];
    int major;
    int minor;
    int multiProcessorCount;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsPerMultiProcessor;
    int clockRate;       // kHz
    int memoryClockRate; // kHz
    int memoryBusWidth;  // bits
    int l2CacheSize;     // bytes
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    std::size_t sharedMemPerBlockOptin;
    std::size_t sharedMemPerMultiprocessor;
    int regsPerBlock;
    int pciBusID;
};

inline const char* hipGetErrorString(hipError_t e) { return cudaGetErrorString(e); }
inline const char* hipGetErrorName(hipError_t e) { return cudaGetErrorName(e); }
inline hipError_t hipGetLastError() { return cudaGetLastError(); }
inline hipError_t hipPeekAtLastError() { return cudaPeekAtLastError(); }

inline hipError_t hipGetDeviceCount(int* n) { return cudaGetDeviceCount(n); }
inline hipError_t hipGetDevice(int* d) { return cudaGetDevice(d); }
inline hipError_t hipSetDevice(int d) { return cudaSetDevice(d); }
inline hipError_t hipDeviceSynchronize() { return cudaDeviceSynchronize(); }
inline hipError_t hipDriverGetVersion(int* v) { return cudaDriverGetVersion(v); }
inline hipError_t hipRuntimeGetVersion(int* v) { return cudaRuntimeGetVersion(v); }

using hipDeviceAttribute_t = cudaDeviceAttr;
inline constexpr hipDeviceAttribute_t hipDeviceAttributeMultiprocessorCount =
    cudaDevAttrMultiProcessorCount;
inline constexpr hipDeviceAttribute_t hipDeviceAttributeL2CacheSize = cudaDevAttrL2CacheSize;
inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device)
{
    return cudaDeviceGetAttribute(value, attribute, device);
}

inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device)
{
    cudaDeviceProp c{};
    const cudaError_t e = cudaGetDeviceProperties(&c, device);
    if(e != cudaSuccess)
        return e;
    std::memset(p, 0, sizeof(*p));
    std::memcpy(p->name, c.name, sizeof(p->name) - 1);
    const bool arch_specific = (c.major == 9 && c.minor == 0);
    int n                    = 0;
    const char* suffix       = arch_specific ? "a" : "";
    // snprintf would pull <cstdio> into every includer; the name is short and fixed-format.
    p->gcnArchName[n++] = 's';
    p->gcnArchName[n++] = 'm';
    p->gcnArchName[n++] = '_';
    if(c.major >= 10)
        p->gcnArchName[n++] = static_cast<char>('0' + c.major / 10);
    p->gcnArchName[n++] = static_cast<char>('0' + c.major % 10);
    p->gcnArchName[n++] = static_cast<char>('0' + c.minor % 10);
    while(*suffix)
        p->gcnArchName[n++] = *suffix++;
    p->major                       = c.major;
    p->minor                       = c.minor;
    p->multiProcessorCount         = c.multiProcessorCount;
    p->warpSize                    = c.warpSize;
    p->maxThreadsPerBlock          = c.maxThreadsPerBlock;
    p->maxThreadsPerMultiProcessor = c.maxThreadsPerMultiProcessor;
    // CUDA 13 dropped clock fields from cudaDeviceProp; they are device attributes now.
    cudaDeviceGetAttribute(&p->clockRate, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&p->memoryClockRate, cudaDevAttrMemoryClockRate, device);
    p->memoryBusWidth             = c.memoryBusWidth;
    p->l2CacheSize                = c.l2CacheSize;
    p->totalGlobalMem             = c.totalGlobalMem;
    p->sharedMemPerBlock          = c.sharedMemPerBlock;
    p->sharedMemPerBlockOptin     = c.sharedMemPerBlockOptin;
    p->sharedMemPerMultiprocessor = c.sharedMemPerMultiprocessor;
    p->regsPerBlock               = c.regsPerBlock;
    p->pciBusID                   = c.pciBusID;
    return cudaSuccess;
}

inline hipError_t hipMalloc(void** p, std::size_t n) { return cudaMalloc(p, n); }
template <typename T>
inline hipError_t hipMalloc(T** p, std::size_t n)
{
    return cudaMalloc(reinterpret_cast<void**>(p), n);
}
inline hipError_t hipFree(void* p) { return cudaFree(p); }
inline hipError_t hipHostMalloc(void** p, std::size_t n, unsigned = 0)
{
    return cudaMallocHost(p, n);
}
inline hipError_t hipHostFree(void* p) { return cudaFreeHost(p); }
inline hipError_t hipMemcpy(void* d, const void* s, std::size_t n, hipMemcpyKind k)
{
    return cudaMemcpy(d, s, n, k);
}
inline hipError_t hipMemcpyAsync(void* d, const void* s, std::size_t n, hipMemcpyKind k,
                                 hipStream_t st = nullptr)
{
    return cudaMemcpyAsync(d, s, n, k, st);
}
inline hipError_t hipMemset(void* d, int v, std::size_t n) { return cudaMemset(d, v, n); }
inline hipError_t hipMemsetAsync(void* d, int v, std::size_t n, hipStream_t st = nullptr)
{
    return cudaMemsetAsync(d, v, n, st);
}
inline hipError_t hipMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes)
{
    return cudaMemGetInfo(free_bytes, total_bytes);
}

inline hipError_t hipStreamCreate(hipStream_t* s) { return cudaStreamCreate(s); }
inline hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned f)
{
    return cudaStreamCreateWithFlags(s, f);
}
inline hipError_t hipStreamDestroy(hipStream_t s) { return cudaStreamDestroy(s); }
inline hipError_t hipStreamSynchronize(hipStream_t s) { return cudaStreamSynchronize(s); }

inline hipError_t hipEventCreate(hipEvent_t* e) { return cudaEventCreate(e); }
inline hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned f)
{
    return cudaEventCreateWithFlags(e, f);
}
inline hipError_t hipEventDestroy(hipEvent_t e) { return cudaEventDestroy(e); }
inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t s = nullptr)
{
    return cudaEventRecord(e, s);
}
inline hipError_t hipEventSynchronize(hipEvent_t e) { return cudaEventSynchronize(e); }
inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t a, hipEvent_t b)
{
    return cudaEventElapsedTime(ms, a, b);
}

/// Per-function launch attributes (dynamic shared memory above the 48 KiB default).
inline hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value)
{
    return cudaFuncSetAttribute(func, attr, value);
}
