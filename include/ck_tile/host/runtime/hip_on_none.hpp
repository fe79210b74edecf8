// SPDX-License-Identifier: MIT
// A host-only build has no GPU runtime. These stand-ins keep host code and tests compiling;
// every call that would need a device reports hipErrorNoDevice, so callers take their
// "no device present" path at run time instead of failing to build.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>

enum hipError_t
{
    hipSuccess                 = 0,
    hipErrorInvalidValue       = 1,
    hipErrorOutOfMemory        = 2,
    hipErrorInvalidDevice      = 101,
    hipErrorNoDevice           = 100,
    hipErrorNotReady           = 600,
    hipErrorInsufficientDriver = 35,
};
enum hipMemcpyKind
{
    hipMemcpyHostToHost,
    hipMemcpyHostToDevice,
    hipMemcpyDeviceToHost,
    hipMemcpyDeviceToDevice,
    hipMemcpyDefault
};
using hipStream_t = struct ihipStream_t*;
using hipEvent_t  = struct ihipEvent_t*;

/// A launch's grid or block extents, as the GPU runtimes spell them (host code that sizes a
/// grid compiles, and can be tested, in a host-only build).
struct dim3
{
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

inline constexpr unsigned hipStreamNonBlocking  = 1;
inline constexpr unsigned hipEventDefault       = 0;
inline constexpr unsigned hipEventDisableTiming = 2;

struct hipDeviceProp_t
{
    char name[256];
    char gcnArchName[256];
    int major, minor, multiProcessorCount, warpSize, maxThreadsPerBlock,
        maxThreadsPerMultiProcessor, clockRate, memoryClockRate, memoryBusWidth, l2CacheSize;
    std::size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin,
        sharedMemPerMultiprocessor;
    int regsPerBlock, pciBusID;
};

inline const char* hipGetErrorString(hipError_t e)
{
    switch(e)
    {
    case hipSuccess:
        return "no error";
    case hipErrorNoDevice:
        return "no GPU runtime in this build (CKTILE_GPU_PLATFORM=none)";
    case hipErrorInvalidValue:
        return "invalid argument";
    default:
        return "unavailable in a host-only build";
    }
}
inline const char* hipGetErrorName(hipError_t e)
{
    return e == hipSuccess ? "hipSuccess" : "hipErrorNoDevice";
}
inline hipError_t hipGetLastError() { return hipSuccess; }
inline hipError_t hipPeekAtLastError() { return hipSuccess; }
inline hipError_t hipGetDeviceCount(int* n)
{
    *n = 0;
    return hipErrorNoDevice;
}
inline hipError_t hipGetDevice(int*) { return hipErrorNoDevice; }
inline hipError_t hipSetDevice(int) { return hipErrorNoDevice; }
inline hipError_t hipDeviceSynchronize() { return hipErrorNoDevice; }
inline hipError_t hipDriverGetVersion(int* v)
{
    *v = 0;
    return hipErrorNoDevice;
}
inline hipError_t hipRuntimeGetVersion(int* v)
{
    *v = 0;
    return hipErrorNoDevice;
}
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t*, int) { return hipErrorNoDevice; }
inline hipError_t hipMalloc(void** p, std::size_t)
{
    *p = nullptr;
    return hipErrorNoDevice;
}
template <typename T>
inline hipError_t hipMalloc(T** p, std::size_t)
{
    *p = nullptr;
    return hipErrorNoDevice;
}
inline hipError_t hipFree(void* p) { return p ? hipErrorInvalidValue : hipSuccess; }
inline hipError_t hipHostMalloc(void** p, std::size_t n, unsigned = 0)
{
    *p = std::malloc(n);
    return *p ? hipSuccess : hipErrorOutOfMemory;
}
inline hipError_t hipHostFree(void* p)
{
    std::free(p);
    return hipSuccess;
}
inline hipError_t hipMemcpy(void*, const void*, std::size_t, hipMemcpyKind)
{
    return hipErrorNoDevice;
}
inline hipError_t hipMemcpyAsync(void*, const void*, std::size_t, hipMemcpyKind,
                                 hipStream_t = nullptr)
{
    return hipErrorNoDevice;
}
inline hipError_t hipMemset(void*, int, std::size_t) { return hipErrorNoDevice; }
inline hipError_t hipMemsetAsync(void*, int, std::size_t, hipStream_t = nullptr)
{
    return hipErrorNoDevice;
}
inline hipError_t hipMemGetInfo(std::size_t* f, std::size_t* t)
{
    *f = *t = 0;
    return hipErrorNoDevice;
}
inline hipError_t hipStreamCreate(hipStream_t*) { return hipErrorNoDevice; }
inline hipError_t hipStreamCreateWithFlags(hipStream_t*, unsigned) { return hipErrorNoDevice; }
inline hipError_t hipStreamDestroy(hipStream_t) { return hipErrorNoDevice; }
inline hipError_t hipStreamSynchronize(hipStream_t) { return hipErrorNoDevice; }
inline hipError_t hipEventCreate(hipEvent_t*) { return hipErrorNoDevice; }
inline hipError_t hipEventCreateWithFlags(hipEvent_t*, unsigned) { return hipErrorNoDevice; }
inline hipError_t hipEventDestroy(hipEvent_t) { return hipErrorNoDevice; }
inline hipError_t hipEventRecord(hipEvent_t, hipStream_t = nullptr) { return hipErrorNoDevice; }
inline hipError_t hipEventSynchronize(hipEvent_t) { return hipErrorNoDevice; }
inline hipError_t hipEventElapsedTime(float*, hipEvent_t, hipEvent_t) { return hipErrorNoDevice; }
