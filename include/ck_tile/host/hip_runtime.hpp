// SPDX-License-Identifier: MIT
// The host runtime seam: host code says hipMalloc, hipStream_t, hipEvent_t, ... everywhere.
//
//   CK_TILE_RUNTIME_HIP   the names come from <hip/hip_runtime_api.h> (AMD, ROCm)
//   CK_TILE_RUNTIME_CUDA  the names are mapped onto the CUDA runtime below. Debian's HIP
//                         headers for NVIDIA do not compile against CUDA 13, so we map only
//                         the names we use, one inline function each.
//   CK_TILE_RUNTIME_NONE  a host-only build: every call reports hipErrorNoDevice, so code and
//                         tests compile everywhere and say at run time that there is no GPU.
// The build defines exactly one of them (cmake/CktilePlatform.cmake).
#pragma once

// clang-format off
#if defined(CK_TILE_RUNTIME_HIP) + defined(CK_TILE_RUNTIME_CUDA) + defined(CK_TILE_RUNTIME_NONE) != 1
#error "ck_tile: define exactly one of CK_TILE_RUNTIME_HIP, CK_TILE_RUNTIME_CUDA, CK_TILE_RUNTIME_NONE"
#endif
// clang-format on

#if defined(CK_TILE_RUNTIME_HIP)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#elif defined(CK_TILE_RUNTIME_CUDA)
#include "ck_tile/host/runtime/hip_on_cuda.hpp"
#else
#include "ck_tile/host/runtime/hip_on_none.hpp"
#endif
