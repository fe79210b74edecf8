// SPDX-License-Identifier: MIT
// How many clusters of a kernel can be resident on the current device at once: what a
// persistent kernel launches. Thread-block clusters exist on NVIDIA sm_90 and later only; other
// builds answer 0 ("unknown"), and callers fall back to the SM count.
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

#if defined(CK_TILE_RUNTIME_CUDA)
#include <cuda_runtime.h>
#endif

namespace ck_tile {

/// Resident clusters of `cluster` CTAs of `kernel` (a __global__ function) with `block` threads
/// and `dynamic_smem` bytes each, or 0 when the runtime cannot say.
inline int max_resident_clusters([[maybe_unused]] const void* kernel, [[maybe_unused]] int block,
                                 [[maybe_unused]] std::size_t dynamic_smem,
                                 [[maybe_unused]] int cluster)
{
#if defined(CK_TILE_RUNTIME_CUDA)
    cudaLaunchConfig_t config{};
    config.gridDim          = dim3(static_cast<unsigned>(cluster), 1, 1);
    config.blockDim         = dim3(static_cast<unsigned>(block), 1, 1);
    config.dynamicSmemBytes = dynamic_smem;
    cudaLaunchAttribute attribute{};
    attribute.id               = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(cluster);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs               = &attribute;
    config.numAttrs            = 1;
    int clusters               = 0;
    if(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config) != cudaSuccess)
    {
        (void)cudaGetLastError();
        return 0;
    }
    return clusters;
#else
    return 0;
#endif
}

} // namespace ck_tile
