// What a cluster barrier costs a GEMM's prologue: 132 blocks of 384 threads (one per SM, 200 KiB
// of shared memory), single or in clusters of two, each initializing one mbarrier and then
// synchronizing, timed per launch (back to back) and per block (clock64 around the barrier).
// Modes:
//   0: no cluster, __syncthreads            2: clusters of two, __syncthreads only
//   1: barrier.cluster arrive.release + wait.acquire (the GEMM's prologue before the split)
//   3: the second of two such barriers       4: arrive.relaxed + wait
//   5: arrive.release, 2,000 cycles of other work, then the wait alone (what a split barrier
//      costs where the setup runs between its halves)
//   6: as 1, after reading %cluster_ctarank
//
//   nvcc -O3 -std=c++20 -DCK_TILE_RUNTIME_CUDA -DCK_TILE_PLATFORM_NVIDIA -Iinclude \
//        -gencode=arch=compute_90a,code=sm_90a -o cluster_barrier_probe \
//        scripts/cluster_barrier_probe.cu && ./cluster_barrier_probe
#include "ck_tile/core/arch/nvidia/cluster.hpp"
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"

#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

using namespace ck_tile;

__device__ long long t_start[264], t_after[264];
__device__ __forceinline__ long long gns()
{
    long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
template <int Mode>
__global__ void __launch_bounds__(384, 1) k(int record)
{
    __shared__ uint64_t bar;
    long long s  = gns();
    long long c0 = clock64();
    if(threadIdx.x == 0)
    {
        arch::mbarrier_init(&bar, 1);
        arch::fence_mbarrier_init();
    }
    long long c1;
    if constexpr(Mode == 1)
    {
        arch::cluster_sync();
        c1 = clock64();
    }
    else if constexpr(Mode == 3) // the second of two barriers
    {
        arch::cluster_sync();
        c0 = clock64();
        arch::cluster_sync();
        c1 = clock64();
    }
    else if constexpr(Mode == 4) // relaxed arrive
    {
        arch::cluster_arrive_relaxed();
        asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
        c1 = clock64();
    }
    else if constexpr(Mode == 5) // arrive, 2000 cycles of other work, wait: how long the wait takes
    {
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
        long long w = clock64();
        while(clock64() - w < 2000)
        {}
        c0 = clock64();
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        c1 = clock64();
    }
    else if constexpr(Mode == 6) // the CTA's rank read first (%cluster_ctarank), then the barrier
    {
        c0 = clock64() + arch::cluster_cta_rank();
        arch::cluster_sync();
        c1 = clock64();
    }
    else
    {
        __syncthreads();
        c1 = clock64();
    }
    if(record && threadIdx.x == 0)
    {
        t_start[blockIdx.x] = s;
        t_after[blockIdx.x] = c1 - c0;
    }
}
template <int Mode>
float time_it(int blocks, int reps)
{
    cudaLaunchConfig_t cfg{};
    cudaLaunchAttribute at[1];
    cfg.gridDim          = dim3(blocks);
    cfg.blockDim         = dim3(384);
    cfg.dynamicSmemBytes = 200 * 1024;
    cudaFuncSetAttribute(k<Mode>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
    at[0].id               = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = Mode ? 2 : 1;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs              = at;
    cfg.numAttrs           = 1;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for(int i = 0; i < 20; ++i)
        cudaLaunchKernelEx(&cfg, k<Mode>, 0);
    cudaEventRecord(a);
    for(int i = 0; i < reps; ++i)
        cudaLaunchKernelEx(&cfg, k<Mode>, 0);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    cudaLaunchKernelEx(&cfg, k<Mode>, 1);
    cudaDeviceSynchronize();
    long long s[264], c[264];
    cudaMemcpyFromSymbol(s, t_start, sizeof(long long) * blocks);
    cudaMemcpyFromSymbol(c, t_after, sizeof(long long) * blocks);
    long long lo = s[0], hi = s[0], skew = 0;
    double cyc = 0;
    for(int i = 0; i < blocks; ++i)
    {
        lo = s[i] < lo ? s[i] : lo;
        hi = s[i] > hi ? s[i] : hi;
        cyc += c[i];
        if(Mode && i % 2)
        {
            long long d = s[i] - s[i - 1];
            d           = d < 0 ? -d : d;
            skew        = d > skew ? d : skew;
        }
    }
    std::printf("mode %d blocks %d: %.2f us per launch (back to back), start spread %lld ns, pair "
                "skew max %lld ns, barrier %.0f cycles mean; err %s\n",
                Mode, blocks, ms * 1000 / reps, hi - lo, skew, cyc / blocks,
                cudaGetErrorString(cudaGetLastError()));
    return ms;
}
int main()
{
    for(int r = 0; r < 2; ++r)
        for(int blocks : {132, 128})
        {
            time_it<0>(blocks, 2000);
            time_it<2>(blocks, 2000);
            time_it<1>(blocks, 2000);
            time_it<3>(blocks, 2000);
            time_it<4>(blocks, 2000);
            time_it<5>(blocks, 2000);
            time_it<6>(blocks, 2000);
        }
}
