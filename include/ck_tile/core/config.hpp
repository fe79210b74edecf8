// SPDX-License-Identifier: MIT
// Compiler and platform configuration shared by every ck_tile header.
//
// Exactly one of these is true after this header:
//   CK_TILE_PLATFORM_NVIDIA  device code compiled by nvcc (or clang CUDA) for an sm_* target
//   CK_TILE_PLATFORM_AMD     device code compiled by hipcc/clang for a gfx* target
//   CK_TILE_PLATFORM_HOST    a plain host compiler (g++), no device code in this translation unit
// CK_TILE_DEVICE_COMPILE is 1 only in the device pass of a GPU compiler, where intrinsics exist.
#pragma once

#if defined(__HIPCC__) || defined(__HIP__)
#define CK_TILE_PLATFORM_AMD 1
#elif defined(__CUDACC__)
#define CK_TILE_PLATFORM_NVIDIA 1
#else
#define CK_TILE_PLATFORM_HOST 1
#endif

#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
#define CK_TILE_DEVICE_COMPILE 1
#else
#define CK_TILE_DEVICE_COMPILE 0
#endif

#if defined(CK_TILE_PLATFORM_HOST)
// A host compiler sees the qualifiers as nothing: everything is host code there.
#define CK_TILE_HOST inline
#define CK_TILE_DEVICE inline
#define CK_TILE_HOST_DEVICE inline
#define CK_TILE_GLOBAL
#define CK_TILE_DEVICE_EXTERN
#else
#define CK_TILE_HOST inline __host__
#define CK_TILE_DEVICE inline __device__
#define CK_TILE_HOST_DEVICE inline __host__ __device__
#define CK_TILE_GLOBAL __global__
#define CK_TILE_DEVICE_EXTERN __device__
#endif

// Forces inlining where the code generator would otherwise keep a call (index arithmetic
// must fold into the kernel for the compile-time machinery to pay off).
#if defined(_MSC_VER)
#define CK_TILE_FORCE_INLINE __forceinline
#else
#define CK_TILE_FORCE_INLINE __attribute__((always_inline))
#endif

// A by-value kernel argument read in place from the parameter space: nvcc otherwise copies it
// to local memory as soon as its address escapes (a member passed by reference to a function
// it does not inline), and the hardware reads a TMA tensor map by its parameter address.
#if defined(CK_TILE_PLATFORM_NVIDIA)
#define CK_TILE_GRID_CONSTANT __grid_constant__
#else
#define CK_TILE_GRID_CONSTANT
#endif

#if defined(__CUDACC__) && !defined(__clang__)
// nvcc warns about host/device annotations on defaulted and constexpr functions that are
// legal C++20; the annotations are required for hipcc, so the warning carries no signal.
#pragma nv_diag_suppress 20012
#endif
