// The Hopper GEMM's ceiling without its memory traffic: how fast can consumer warpgroups issue
// wgmma from shared memory, per consumer layout, and what do the tile boundaries and the stage
// barriers of the warp-specialized pipeline cost on their own? One block per SM, 48 KiB stages
// that are never loaded (their contents do not matter to the rate). Modes:
//   smem:  every consumer streams `stages` stages through its MMAs (wait_group 1 per stage)
//   tiles: the same, cut into tiles of 64 stages: wait_group 0 and a zeroed accumulator start
//          between tiles, as the kernel's tile loop does (its epilogue left out)
//   ring:  tiles, plus the pipeline's barriers: a producer thread arrives on each stage's full
//          barrier once every consumer warp has released it (no copies), the consumers wait on
//          it and release the stage after the next stage's MMAs are issued
// Layouts: BlockM x BlockN with C consumers, each issuing S slabs of m64nN per K step. Each
// line also gives the SM clock over the run (block 0's clock64 against %globaltimer): the
// chip lowers it under load, by how much depending on the layout.
//
//   nvcc -O3 -std=c++20 -DCK_TILE_RUNTIME_CUDA -DCK_TILE_PLATFORM_NVIDIA -Iinclude \
//        -gencode=arch=compute_90a,code=sm_90a -o wgmma_rate_probe scripts/wgmma_rate_probe.cu
//   ./wgmma_rate_probe
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/wgmma.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_operand.hpp"

#include <cstdio>
#include <cuda_runtime.h>

using namespace ck_tile;

enum mode
{
    smem,
    tiles,
    ring
};
constexpr int ring_stages = 4, tile_stages = 64;

__device__ long long clock_pairs[4]; // block 0's globaltimer (ns) and clock64 at start, end

__device__ long long global_ns()
{
    long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

template <int BlockM, int BlockN, int Consumers, int Slabs, int N, mode Mode>
__global__ void __launch_bounds__(128 * (Consumers + 1), 1) rate(int stages, float* out)
{
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    using a_tile              = gemm_wgmma_operand_tile<half_t, BlockM, true>;
    using b_tile              = gemm_wgmma_operand_tile<half_t, BlockN, true>;
    using mma                 = arch::wgmma_ss<half_t, half_t, float, N>;
    constexpr int stage_bytes = a_tile::bytes + b_tile::bytes;
    uint64_t* full            = reinterpret_cast<uint64_t*>(smem_raw + ring_stages * stage_bytes);
    uint64_t* empty           = full + ring_stages;
    if(threadIdx.x == 0)
    {
        for(int s = 0; s < ring_stages; ++s)
        {
            arch::mbarrier_init(&full[s], 1);
            arch::mbarrier_init(&empty[s], 4 * Consumers);
        }
        arch::fence_mbarrier_init();
    }
    __syncthreads();
    const int role = threadIdx.x / 128;
    if(role == 0)
    {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if(Mode == ring && threadIdx.x == 0)
            for(int kt = 0; kt < stages; ++kt)
            {
                const int s = kt % ring_stages;
                arch::mbarrier_wait_parity(&empty[s], ((kt / ring_stages) & 1) ^ 1);
                arch::mbarrier_arrive(&full[s]);
            }
        return;
    }
    if constexpr(Consumers == 2)
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    else
        asm volatile("setmaxnreg.inc.sync.aligned.u32 152;");
    const bool timer = blockIdx.x == 0 && threadIdx.x == 128;
    if(timer)
    {
        clock_pairs[0] = global_ns();
        clock_pairs[1] = clock64();
    }
    const int c        = role - 1;
    const bool split_n = BlockN / N > 1;
    const int row0     = split_n ? 0 : 64 * Slabs * c;
    const int col0     = split_n ? N * c : 0;
    const bool leader  = threadIdx.x % 32 == 0;
    float acc[Slabs][N / 2];
    for(int s = 0; s < Slabs; ++s)
        for(int i = 0; i < N / 2; ++i)
            acc[s][i] = 0.f;
    int previous = 0;
    for(int kt = 0; kt < stages; ++kt)
    {
        const int s      = kt % ring_stages;
        const bool first = Mode != smem && kt % tile_stages == 0;
        if constexpr(Mode == ring)
            arch::mbarrier_wait_parity(&full[s], (kt / ring_stages) & 1);
        const uint32_t sa = arch::shared_address(smem_raw + s * stage_bytes);
        const uint32_t sb = sa + a_tile::bytes;
        for(int i = 0; i < Slabs; ++i)
            arch::wgmma_fence_operand(acc[i]);
        arch::wgmma_fence();
#pragma unroll
        for(int step = 0; step < a_tile::k_steps; ++step)
#pragma unroll
            for(int slab = 0; slab < Slabs; ++slab)
                mma::template fma<wgmma_major::k, wgmma_major::k>(
                    a_tile::descriptor(sa, row0 + 64 * slab, step),
                    b_tile::descriptor(sb, col0, step), acc[slab],
                    first && step == 0 ? wgmma_scale_d::zero : wgmma_scale_d::one);
        arch::wgmma_commit_group();
        for(int i = 0; i < Slabs; ++i)
            arch::wgmma_fence_operand(acc[i]);
        arch::wgmma_wait_group<1>();
        if(Mode == ring && kt % tile_stages != 0 && leader)
            arch::mbarrier_arrive(&empty[previous]);
        previous = s;
        if(Mode != smem && (kt + 1) % tile_stages == 0)
        {
            arch::wgmma_wait_group<0>();
            for(int i = 0; i < Slabs; ++i)
                arch::wgmma_fence_operand(acc[i]);
            if(Mode == ring && leader)
                arch::mbarrier_arrive(&empty[previous]);
        }
    }
    arch::wgmma_wait_group<0>();
    for(int i = 0; i < Slabs; ++i)
        arch::wgmma_fence_operand(acc[i]);
    if(timer)
    {
        clock_pairs[2] = global_ns();
        clock_pairs[3] = clock64();
    }
    float sum = 0;
    for(int s = 0; s < Slabs; ++s)
        for(int i = 0; i < N / 2; ++i)
            sum += acc[s][i];
    if(sum == 12345.f) // never: keeps the MMAs
        out[threadIdx.x] = sum;
}

template <int BlockM, int BlockN, int Consumers, int Slabs, int N, mode Mode>
void run(const char* name, float* out, int sms)
{
    auto kernel     = rate<BlockM, BlockN, Consumers, Slabs, N, Mode>;
    const int bytes = ring_stages * (BlockM + BlockN) * 128 + 2 * ring_stages * 8;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    const int stages = 64 * 64;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    kernel<<<sms, 128 * (Consumers + 1), bytes>>>(128, out);
    float best = 1e30f;
    for(int r = 0; r < 5; ++r)
    {
        cudaEventRecord(a);
        kernel<<<sms, 128 * (Consumers + 1), bytes>>>(stages, out);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        best = ms < best ? ms : best;
    }
    long long pairs[4] = {};
    cudaMemcpyFromSymbol(pairs, clock_pairs, sizeof(pairs));
    const double mhz    = 1e3 * double(pairs[3] - pairs[1]) / double(pairs[2] - pairs[0]);
    const double flops  = 2.0 * BlockM * BlockN * 64 * stages * sms;
    const char* modes[] = {"smem", "tiles", "ring"};
    std::printf("%-32s %-6s %8.3f ms %7.1f TFLOP/s %6.0f MHz %5.0f flop/clock/SM  %s\n", name,
                modes[Mode], best, flops / best / 1e9, mhz, flops / best / 1e-3 / (mhz * 1e6) / sms,
                cudaGetErrorString(cudaGetLastError()));
}

template <int BlockM, int BlockN, int Consumers, int Slabs, int N>
void layout(const char* name, float* out, int sms)
{
    run<BlockM, BlockN, Consumers, Slabs, N, smem>(name, out, sms);
    run<BlockM, BlockN, Consumers, Slabs, N, tiles>(name, out, sms);
    run<BlockM, BlockN, Consumers, Slabs, N, ring>(name, out, sms);
}

int main()
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float* out = nullptr;
    cudaMalloc(&out, 4096);
    layout<128, 256, 2, 1, 256>("128x256, 2 x m64n256", out, sms);
    layout<128, 192, 2, 1, 192>("128x192, 2 x m64n192", out, sms);
    layout<128, 128, 2, 1, 128>("128x128, 2 x m64n128", out, sms);
    layout<192, 192, 2, 3, 96>("192x192, 2 x 3 slabs m64n96", out, sms);
    layout<192, 192, 3, 1, 192>("192x192, 3 x m64n192", out, sms);
    layout<256, 128, 2, 2, 128>("256x128, 2 x 2 slabs m64n128", out, sms);
    cudaFree(out);
    return 0;
}
