// Where the H100 places a launch's blocks, and which SMs share a GPC. Prints the SM of every
// block of a plain launch of one block per SM (three times), the SMs of a launch in clusters of
// 16, 8, 4 and 2 (the first of 20), and the groups of SMs that clusters of 8 or 16 put together
// (a cluster stays inside one GPC, so each group is a GPC or part of one). On the H100 the plain
// launch fills one GPC at a time in block order (the persistent GEMM's tile order relies on it;
// gemm_wgmma_policy.hpp) and clusters go to the GPCs in turn.
//
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o gpc_probe scripts/gpc_probe.cu
//   ./gpc_probe
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <map>
#include <vector>

namespace {

__device__ unsigned sm_id()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__global__ void plain(unsigned* out)
{
    if(threadIdx.x == 0)
        out[blockIdx.x] = sm_id();
}

__global__ void clustered(unsigned* out)
{
    if(threadIdx.x == 0)
        out[blockIdx.x] = sm_id();
    cooperative_groups::this_cluster().sync(); // the whole cluster is resident together
}

// Enough shared memory that two blocks never share an SM.
constexpr int shared_bytes = 200 * 1024;

int find(std::vector<int>& parent, int x)
{
    while(parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

} // namespace

int main()
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    unsigned* d = nullptr;
    cudaMalloc(&d, 4096 * sizeof(unsigned));
    std::vector<unsigned> h(4096);

    cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
    for(int rep = 0; rep < 3; ++rep)
    {
        plain<<<sms, 384, shared_bytes>>>(d);
        cudaMemcpy(h.data(), d, sms * sizeof(unsigned), cudaMemcpyDeviceToHost);
        std::printf("plain launch %d, SM of each block:", rep);
        for(int b = 0; b < sms; ++b)
            std::printf(" %u", h[b]);
        std::printf("\n");
    }

    std::vector<int> parent(4096);
    for(int i = 0; i < 4096; ++i)
        parent[i] = i;
    cudaFuncSetAttribute(clustered, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaFuncSetAttribute(clustered, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
    for(const int size : {16, 8, 4, 2})
        for(int rep = 0; rep < 20; ++rep)
        {
            cudaLaunchAttribute attribute[1];
            attribute[0].id               = cudaLaunchAttributeClusterDimension;
            attribute[0].val.clusterDim.x = size;
            attribute[0].val.clusterDim.y = 1;
            attribute[0].val.clusterDim.z = 1;
            cudaLaunchConfig_t config     = {};
            const int blocks              = sms / size * size;
            config.gridDim                = dim3(blocks);
            config.blockDim               = dim3(128);
            config.dynamicSmemBytes       = shared_bytes;
            config.attrs                  = attribute;
            config.numAttrs               = 1;
            cudaError_t e                 = cudaLaunchKernelEx(&config, clustered, d);
            if(e == cudaSuccess)
                e = cudaDeviceSynchronize();
            if(e != cudaSuccess)
            {
                std::printf("clusters of %d: %s\n", size, cudaGetErrorString(e));
                cudaGetLastError();
                break;
            }
            cudaMemcpy(h.data(), d, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost);
            if(rep == 0)
            {
                std::printf("clusters of %d, SMs of each:", size);
                for(int b = 0; b < blocks; ++b)
                    std::printf("%s%u", b % size ? "," : " | ", h[b]);
                std::printf("\n");
            }
            if(size >= 8)
                for(int b = 0; b < blocks; b += size)
                    for(int j = 1; j < size; ++j)
                        parent[find(parent, static_cast<int>(h[b + j]))] =
                            find(parent, static_cast<int>(h[b]));
        }

    std::map<int, std::vector<int>> groups;
    for(int s = 0; s < sms; ++s)
        groups[find(parent, s)].push_back(s);
    std::printf("SMs that clusters of 8 or 16 put together: %zu groups\n", groups.size());
    for(const auto& [root, members] : groups)
    {
        std::printf("  [%zu]", members.size());
        for(const int s : members)
            std::printf(" %d", s);
        std::printf("\n");
    }
    cudaFree(d);
    return 0;
}
