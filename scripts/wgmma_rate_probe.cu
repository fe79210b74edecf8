// The Hopper GEMM's main loop in isolation: how fast can consumer warpgroups issue wgmma from
// shared memory, per consumer layout; what do the tile boundaries, the stage barriers of the
// warp-specialized pipeline and the TMA loads cost on their own? One block per SM, 48 KiB
// stages (in the first three modes never loaded: their contents do not matter to the rate).
// Modes:
//   smem:  every consumer streams `stages` stages through its MMAs (wait_group 1 per stage)
//   tiles: the same, cut into tiles of 64 stages: wait_group 0 and a zeroed accumulator start
//          between tiles, as the kernel's tile loop does (its epilogue left out)
//   ring:  tiles, plus the pipeline's barriers: a producer thread arrives on each stage's full
//          barrier once every consumer warp has released it (no copies), the consumers wait on
//          it and release the stage after the next stage's MMAs are issued
//   copy:  ring, with the producer loading real tiles by TMA (the kernel's boxes, 128-byte
//          swizzle and L2 promotion) from K-major operands with K = 4096 and L2-resident or
//          4096-row A and B, block b taking tiles b, b + grid, ... (64 stages each)
//   feed:  copy without the MMAs: the consumers release each stage as soon as it lands, so
//          the line reports the rate at which stages arrive (bytes per clock per SM)
// `wgmma_rate_probe job` runs whole problems instead (size^3, leading dimension ld): every
// output tile once, in the GEMM's order (groups of 8 tile rows), in copy and feed modes, and
// prints each block's timeline (start, first tile, later tiles, end, in SM cycles): the main
// loop of the GEMM without its epilogue. `wgmma_rate_probe halves` compares, in such jobs,
// each 128x256 consumer's m64n256 MMAs with two m64n128 halves and a full wait between them.
// `wgmma_rate_probe mixed` compares the 192x192 consumers' m64n96 MMAs with an m64n64 and an
// m64n32 on the same A slab (what 96 columns taken as one 64-column and one 32-column group of
// B would need): does reading A twice from shared memory cost rate?
// Layouts: BlockM x BlockN with C consumers, each issuing S slabs of m64nN per K step. Each
// line also gives the SM clock over the run (block 0's clock64 against %globaltimer): the
// chip lowers it under load, by how much depending on the layout.
//
//   nvcc -O3 -std=c++20 -DCK_TILE_RUNTIME_CUDA -DCK_TILE_PLATFORM_NVIDIA -Iinclude \
//        -gencode=arch=compute_90a,code=sm_90a -o wgmma_rate_probe scripts/wgmma_rate_probe.cu
//   ./wgmma_rate_probe
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/wgmma.hpp"
#include "ck_tile/core/arch/nvidia/tma.hpp"
#include "ck_tile/host/tma_descriptor.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_operand.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>
#include <string>
#include <cuda_runtime.h>

using namespace ck_tile;

enum mode
{
    smem,
    tiles,
    ring,
    copy,
    feed
};
constexpr int ring_stages = 4, default_tile_stages = 64;

__device__ long long clock_pairs[4]; // block 0's globaltimer (ns) and clock64 at start, end
constexpr int max_blocks = 160, max_tiles = 20;
// Jobs: each block's %globaltimer at its start and at the end of each of its tiles.
__device__ long long stamps[max_blocks][max_tiles + 1];

__device__ long long global_ns()
{
    long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

struct operand_maps
{
    tma_descriptor a, b;
    int m_tiles, n_tiles;
    int total_tiles; ///< > 0: block b takes tiles b, b + grid, ... < total_tiles, in groups of
                     ///< group_m tile rows (the GEMM's order); 0: 64 tiles each, M fastest
    int group_m;
    int k_tiles; ///< stages per tile (0: default_tile_stages)
};

struct tile_coord
{
    int m, n;
};

// Tile `t` in the order the job gives: the GEMM's groups of 8 tile rows, or M fastest.
__device__ tile_coord tile_at(const operand_maps& maps, int t)
{
    if(maps.total_tiles == 0)
        return {t % maps.m_tiles, t / maps.m_tiles % maps.n_tiles};
    const int g = maps.group_m, per_group = g * maps.n_tiles, first_m = t / per_group * g;
    const int rows = maps.m_tiles - first_m < g ? maps.m_tiles - first_m : g;
    return {first_m + t % per_group % rows, t % per_group / rows};
}

template <int BlockM, int BlockN, int Consumers, int Slabs, int N, mode Mode, bool Halves,
          bool Mixed = false>
__global__ void __launch_bounds__(128 * (Consumers + 1), 1)
    rate(int stages, float* out, const __grid_constant__ operand_maps maps)
{
    constexpr bool waits  = Mode == ring || Mode == copy || Mode == feed;
    constexpr bool copies = Mode == copy || Mode == feed;
    const int tile_stages = maps.k_tiles > 0 ? maps.k_tiles : default_tile_stages;
    if(maps.total_tiles > 0) // this block's share of the job
        stages = (maps.total_tiles - int(blockIdx.x) + int(gridDim.x) - 1) / int(gridDim.x) *
                 tile_stages;
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
        if(waits && threadIdx.x == 0)
            for(int kt = 0; kt < stages; ++kt)
            {
                const int s = kt % ring_stages;
                arch::mbarrier_wait_parity(&empty[s], ((kt / ring_stages) & 1) ^ 1);
                if constexpr(copies)
                {
                    const tile_coord tile =
                        tile_at(maps, blockIdx.x + kt / tile_stages * gridDim.x);
                    const int tm = tile.m, tn = tile.n;
                    const int k0     = kt % tile_stages * a_tile::block_k;
                    unsigned char* a = smem_raw + s * stage_bytes;
                    arch::mbarrier_arrive_expect_tx(&full[s], stage_bytes);
                    arch::tma_load_2d(a, &maps.a, &full[s], k0, tm * BlockM);
                    arch::tma_load_2d(a + a_tile::bytes, &maps.b, &full[s], k0, tn * BlockN);
                }
                else
                    arch::mbarrier_arrive(&full[s]);
            }
        return;
    }
    if constexpr(Consumers == 2)
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    else
        asm volatile("setmaxnreg.inc.sync.aligned.u32 152;");
    const bool timer   = blockIdx.x == 0 && threadIdx.x == 128;
    const bool stamper = maps.total_tiles > 0 && threadIdx.x == 128 && blockIdx.x < max_blocks;
    if(stamper)
        stamps[blockIdx.x][0] = global_ns();
    if(timer)
    {
        clock_pairs[0] = global_ns();
        clock_pairs[1] = clock64();
    }
    const int c        = role - 1;
    const bool split_n = BlockN / N > 1;
    const int row0     = Halves ? 64 * c : split_n ? 0 : 64 * Slabs * c;
    const int col0     = Halves || !split_n ? 0 : N * c;
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
        if constexpr(waits)
            arch::mbarrier_wait_parity(&full[s], (kt / ring_stages) & 1);
        if constexpr(Mode == feed)
        {
            __syncwarp();
            if(leader)
                arch::mbarrier_arrive(&empty[s]);
            continue;
        }
        const uint32_t sa = arch::shared_address(smem_raw + s * stage_bytes);
        const uint32_t sb = sa + a_tile::bytes;
        for(int i = 0; i < Slabs; ++i)
            arch::wgmma_fence_operand(acc[i]);
        if constexpr(Halves)
        {
            // cuBLASLt's order: the stage's first column half, a wait for every MMA issued
            // (then the previous stage is free), the second half, no wait.
            static_assert(Slabs == 2, "two column halves");
            arch::wgmma_fence();
#pragma unroll
            for(int step = 0; step < a_tile::k_steps; ++step)
                mma::template fma<wgmma_major::k, wgmma_major::k>(
                    a_tile::descriptor(sa, row0, step), b_tile::descriptor(sb, 0, step), acc[0],
                    first && step == 0 ? wgmma_scale_d::zero : wgmma_scale_d::one);
            arch::wgmma_commit_group();
            arch::wgmma_fence_operand(acc[0]);
            arch::wgmma_wait_group<0>();
            arch::wgmma_fence_operand(acc[0]);
            arch::wgmma_fence_operand(acc[1]);
            if(waits && kt % tile_stages != 0 && leader)
                arch::mbarrier_arrive(&empty[previous]);
            arch::wgmma_fence();
#pragma unroll
            for(int step = 0; step < a_tile::k_steps; ++step)
                mma::template fma<wgmma_major::k, wgmma_major::k>(
                    a_tile::descriptor(sa, row0, step), b_tile::descriptor(sb, N, step), acc[1],
                    first && step == 0 ? wgmma_scale_d::zero : wgmma_scale_d::one);
            arch::wgmma_commit_group();
            arch::wgmma_fence_operand(acc[1]);
        }
        else
        {
            static_assert(!Mixed || N == 96, "one m64n64 and one m64n32 per slab");
            using wide   = arch::wgmma_ss<half_t, half_t, float, 64>;
            using narrow = arch::wgmma_ss<half_t, half_t, float, 32>;
            arch::wgmma_fence();
#pragma unroll
            for(int step = 0; step < a_tile::k_steps; ++step)
#pragma unroll
                for(int slab = 0; slab < Slabs; ++slab)
                {
                    const uint64_t da = a_tile::descriptor(sa, row0 + 64 * slab, step);
                    const uint64_t db = b_tile::descriptor(sb, col0, step);
                    const wgmma_scale_d scale =
                        first && step == 0 ? wgmma_scale_d::zero : wgmma_scale_d::one;
                    if constexpr(Mixed)
                    {
                        wide::template fma<wgmma_major::k, wgmma_major::k>(
                            da, db, *reinterpret_cast<float(*)[32]>(&acc[slab][0]), scale);
                        narrow::template fma<wgmma_major::k, wgmma_major::k>(
                            da, b_tile::descriptor(sb, col0 + 64, step),
                            *reinterpret_cast<float(*)[16]>(&acc[slab][32]), scale);
                    }
                    else
                        mma::template fma<wgmma_major::k, wgmma_major::k>(da, db, acc[slab], scale);
                }
            arch::wgmma_commit_group();
            for(int i = 0; i < Slabs; ++i)
                arch::wgmma_fence_operand(acc[i]);
            arch::wgmma_wait_group<1>();
            if(waits && kt % tile_stages != 0 && leader)
                arch::mbarrier_arrive(&empty[previous]);
        }
        previous = s;
        if(Mode != smem && (kt + 1) % tile_stages == 0)
        {
            arch::wgmma_wait_group<0>();
            for(int i = 0; i < Slabs; ++i)
                arch::wgmma_fence_operand(acc[i]);
            if(stamper && kt / tile_stages < max_tiles)
                stamps[blockIdx.x][kt / tile_stages + 1] = global_ns();
            if(waits && leader)
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

__global__ void fill_random_halves(uint16_t* p, size_t n)
{
    for(size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
        i += size_t(gridDim.x) * blockDim.x)
    {
        uint32_t h = uint32_t(i) * 2654435761u;
        h ^= h >> 15;
        p[i] = uint16_t((h & 0x83ffu) | 0x3800u); // +-[0.5, 1): the MMAs draw real power
    }
}

// A (m rows) and B (n rows), both K-major with k columns and leading dimension ld.
template <int BlockM, int BlockN>
operand_maps make_maps(int m, int n, int k, int ld, uint16_t*& a, uint16_t*& b)
{
    cudaMalloc(&a, size_t(m) * ld * 2);
    cudaMalloc(&b, size_t(n) * ld * 2);
    fill_random_halves<<<1024, 256>>>(a, size_t(m) * ld);
    fill_random_halves<<<1024, 256>>>(b, size_t(n) * ld);
    operand_maps maps{};
    auto spec = [&](const uint16_t* p, int rows, uint32_t box_rows) {
        tma_tile_spec s = make_tma_tile_spec_2d(reinterpret_cast<const half_t*>(p), rows, k, ld,
                                                box_rows, 64, smem_swizzle::b128);
        s.l2            = tma_l2_promotion_for_rows(uint64_t(ld) * 2); // as the GEMM's
        return s;
    };
    maps.a       = make_tma_descriptor(spec(a, m, BlockM));
    maps.b       = make_tma_descriptor(spec(b, n, BlockN));
    maps.m_tiles = (m + BlockM - 1) / BlockM;
    maps.n_tiles = (n + BlockN - 1) / BlockN;
    maps.k_tiles = (k + 63) / 64;
    return maps;
}

// The last launch's timeline in SM cycles from the first block's start: quartiles over the
// blocks of their start, their first tile, their later tiles and their end.
void print_timeline(int sms, int total_tiles, double mhz)
{
    static long long t[max_blocks][max_tiles + 1];
    cudaMemcpyFromSymbol(t, stamps, sizeof(t));
    const int blocks = sms < max_blocks ? sms : max_blocks;
    long long t0     = t[0][0];
    for(int b = 0; b < blocks; ++b)
        t0 = t[b][0] < t0 ? t[b][0] : t0;
    auto cycles = [&](long long ns) { return double(ns) * mhz * 1e-3; };
    std::vector<double> start, first, later, end;
    for(int b = 0; b < blocks; ++b)
    {
        const int n = (total_tiles - b + sms - 1) / sms;
        start.push_back(cycles(t[b][0] - t0));
        first.push_back(cycles(t[b][1] - t[b][0]));
        for(int i = 2; i <= n && i <= max_tiles; ++i)
            later.push_back(cycles(t[b][i] - t[b][i - 1]));
        end.push_back(cycles(t[b][n < max_tiles ? n : max_tiles] - t0));
    }
    auto quartiles = [](const char* what, std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const size_t n = v.size();
        std::printf("    %-11s min %8.0f  q1 %8.0f  median %8.0f  q3 %8.0f  max %8.0f cycles\n",
                    what, v[0], v[n / 4], v[n / 2], v[3 * n / 4], v[n - 1]);
    };
    quartiles("block start", start);
    quartiles("first tile", first);
    quartiles("later tiles", later);
    quartiles("block end", end);
}

template <int BlockM, int BlockN, int Consumers, int Slabs, int N, mode Mode, bool Halves = false,
          bool Mixed = false>
void run(const char* name, float* out, int sms, int size = 0, int ld = 0, int group_m = 0)
{
    const bool job  = group_m > 0;
    auto kernel     = rate<BlockM, BlockN, Consumers, Slabs, N, Mode, Halves, Mixed>;
    const int bytes = ring_stages * (BlockM + BlockN) * 128 + 2 * ring_stages * 8;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    uint16_t *a = nullptr, *b = nullptr;
    operand_maps maps{};
    if(Mode == copy || Mode == feed)
        maps = make_maps<BlockM, BlockN>(size, size, job ? size : 4096, ld, a, b);
    maps.total_tiles = job ? maps.m_tiles * maps.n_tiles : 0;
    maps.group_m     = group_m;
    const int stages = 64 * 64;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    operand_maps warm = maps;
    warm.total_tiles  = 0;
    kernel<<<sms, 128 * (Consumers + 1), bytes>>>(128, out, warm);
    float best = 1e30f;
    for(int r = 0; r < 5; ++r)
    {
        cudaEventRecord(e0);
        kernel<<<sms, 128 * (Consumers + 1), bytes>>>(stages, out, maps);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        best = ms < best ? ms : best;
    }
    long long pairs[4] = {};
    cudaMemcpyFromSymbol(pairs, clock_pairs, sizeof(pairs));
    const double mhz   = 1e3 * double(pairs[3] - pairs[1]) / double(pairs[2] - pairs[0]);
    const double flops = 2.0 * BlockM * BlockN * 64 *
                         (job ? double(maps.k_tiles) * maps.total_tiles : double(stages) * sms);
    const double clocks = best * 1e-3 * mhz * 1e6;
    const double per_sm =
        flops / (2.0 * BlockM * BlockN * 64) * (BlockM + BlockN) * 128.0 / sms / clocks;
    const char* modes[] = {"smem", "tiles", "ring", "copy", "feed"};
    char source[32]     = "";
    if(Mode == copy || Mode == feed)
        std::snprintf(source, sizeof(source), job ? "%d^3 ld %d g%d" : "%dx%d tiles",
                      job ? size : maps.m_tiles, job ? ld : maps.n_tiles, group_m);
    std::printf(
        "%-30s %-5s %-12s %8.3f ms %7.1f TFLOP/s %5.0f MHz %5.0f flop/clk/SM %5.1f B/clk/SM  %s\n",
        name, modes[Mode], source, best, Mode == feed ? 0.0 : flops / best / 1e9, mhz,
        Mode == feed ? 0.0 : flops / clocks / sms, per_sm, cudaGetErrorString(cudaGetLastError()));
    if(job && Mode == copy)
        print_timeline(sms, maps.total_tiles, mhz);
    cudaFree(a);
    cudaFree(b);
}

// K-major problems of K = 4096: `l2` output tiles that stay in L2 (12 MiB or less), and the
// 4096 x 4096 (or nearest) problem the GEMM benchmarks run.
template <int BlockM, int BlockN, int Consumers, int Slabs, int N>
void layout(const char* name, float* out, int sms)
{
    run<BlockM, BlockN, Consumers, Slabs, N, smem>(name, out, sms);
    run<BlockM, BlockN, Consumers, Slabs, N, tiles>(name, out, sms);
    run<BlockM, BlockN, Consumers, Slabs, N, ring>(name, out, sms);
    run<BlockM, BlockN, Consumers, Slabs, N, copy>(name, out, sms, 4 * BlockM, 4096);
    run<BlockM, BlockN, Consumers, Slabs, N, copy>(name, out, sms, 4096, 4096);
    run<BlockM, BlockN, Consumers, Slabs, N, feed>(name, out, sms, 4 * BlockM, 4096);
    run<BlockM, BlockN, Consumers, Slabs, N, feed>(name, out, sms, 4096, 4096);
}

// The 4096^3 job as the GEMM runs it: every tile once, in its order, with and without MMAs.
template <int BlockM, int BlockN, int Consumers, int Slabs, int N, bool Halves = false>
void job(const char* name, float* out, int sms, int size, int ld, int group_m = 8)
{
    run<BlockM, BlockN, Consumers, Slabs, N, copy, Halves>(name, out, sms, size, ld, group_m);
    if(!Halves)
        run<BlockM, BlockN, Consumers, Slabs, N, feed>(name, out, sms, size, ld, group_m);
}

int main(int argc, char** argv)
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float* out = nullptr;
    cudaMalloc(&out, 4096);
    if(argc > 1 && std::string(argv[1]) == "job") // ./wgmma_rate_probe job: the jobs only
    {
        for(int r = 0; r < 2; ++r)
        {
            job<128, 256, 2, 1, 256>("128x256, 2 x m64n256", out, sms, 4096, 4096);
            job<128, 256, 2, 1, 256>("128x256, 2 x m64n256", out, sms, 3000, 3000);
            job<128, 256, 2, 1, 256>("128x256, 2 x m64n256", out, sms, 3008, 3008);
            job<192, 192, 2, 3, 96>("192x192, 2 x 3 slabs m64n96", out, sms, 4096, 4096);
            job<192, 192, 2, 3, 96>("192x192, 2 x 3 slabs m64n96", out, sms, 3000, 3000);
            job<192, 192, 2, 3, 96>("192x192, 2 x 3 slabs m64n96", out, sms, 3000, 3008);
            job<192, 192, 2, 3, 96>("192x192, 2 x 3 slabs m64n96", out, sms, 3008, 3008);
        }
        cudaFree(out);
        return 0;
    }
    // ./wgmma_rate_probe halves: 128x256 with each consumer's 64 x 256 as two m64n128 halves
    // (a full wait after the first), against m64n256 (a wait for the previous stage)
    if(argc > 1 && std::string(argv[1]) == "mixed")
    {
        for(int r = 0; r < 2; ++r)
        {
            run<192, 192, 2, 3, 96, smem>("192x192, 3 slabs m64n96", out, sms);
            run<192, 192, 2, 3, 96, smem, false, true>("192x192, 3 slabs m64n64+n32", out, sms);
            run<192, 192, 2, 3, 96, ring>("192x192, 3 slabs m64n96", out, sms);
            run<192, 192, 2, 3, 96, ring, false, true>("192x192, 3 slabs m64n64+n32", out, sms);
            for(int size : {3008, 4096})
            {
                run<192, 192, 2, 3, 96, copy>("192x192, 3 slabs m64n96", out, sms, size, size, 8);
                run<192, 192, 2, 3, 96, copy, false, true>("192x192, 3 slabs m64n64+n32", out, sms,
                                                           size, size, 8);
            }
        }
        cudaFree(out);
        return 0;
    }
    if(argc > 1 && std::string(argv[1]) == "halves")
    {
        for(int r = 0; r < 3; ++r)
            for(int size : {4096, 8192, 3008})
            {
                job<128, 256, 2, 1, 256>("128x256, 2 x m64n256", out, sms, size, size);
                job<128, 256, 2, 2, 128, true>("128x256, 2 x halves m64n128", out, sms, size, size);
            }
        cudaFree(out);
        return 0;
    }
    layout<128, 256, 2, 1, 256>("128x256, 2 x m64n256", out, sms);
    layout<128, 192, 2, 1, 192>("128x192, 2 x m64n192", out, sms);
    layout<128, 128, 2, 1, 128>("128x128, 2 x m64n128", out, sms);
    layout<192, 192, 2, 3, 96>("192x192, 2 x 3 slabs m64n96", out, sms);
    layout<192, 192, 3, 1, 192>("192x192, 3 x m64n192", out, sms);
    layout<256, 128, 2, 2, 128>("256x128, 2 x 2 slabs m64n128", out, sms);
    cudaFree(out);
    return 0;
}
