// How fast do the copy engine's stages land in each SM when every SM streams the operands of
// one output tile, alone or in clusters of two that share an operand through multicast? No
// MMAs: a consumer warp releases each stage as soon as it lands (in every CTA of the cluster,
// as the GEMM's consumers do), so the figure is the feed rate, in bytes per SM cycle, that
// bounds a GEMM's main loop. One tile per block, one wave: 132 tiles (22 x 6, one per SM of an
// H100) or 128 (16 x 8, so that clusters of four fit at once); K-major fp16 operands with the
// GEMM's boxes (64 K columns, 128-byte swizzle, 256-byte L2 promotion).
//
// Orders of the tiles over the blocks (tile BM x BN and stages in the table at the end):
//   none:        block b takes tile b, M fastest
//   grouped:     groups of 8 tile rows, M fastest within a group (the GEMM's order for pairs)
//   grouped4:    groups of 4 tile rows (the GEMM's order for single blocks)
//   tpc:         the two SMs of a TPC (%smid / 2) take neighbouring M tiles (same B)
//   pair_b:      clusters of two along M; each CTA loads its A and half of B's rows,
//                multicast to both (the GEMM's `_c2` tiles)
//   pair_b_own:  the same clusters, each CTA loading all of B itself (the coupling without the
//                multicast)
//   pair_a:      clusters of two along N; each CTA loads half of A's rows, multicast, and its B
//                (cuBLASLt's pairs for small tiles)
//   placed CMxCN: clusters of CM x CN tiles in groups of 8 tile rows, each CTA loading all of
//                its operands and releasing its stages alone: the cluster only places the
//                tiles on one GPC
//
//   nvcc -O3 -std=c++20 -DCK_TILE_RUNTIME_CUDA -DCK_TILE_PLATFORM_NVIDIA -Iinclude \
//        -gencode=arch=compute_90a,code=sm_90a -o tma_feed_probe scripts/tma_feed_probe.cu -lcuda
//   ./tma_feed_probe              the 132-tile configurations at K = 1024 and 8192, twice, timed
//   ./tma_feed_probe placed       the 128-tile configurations (grouped, grouped4, placed), then
//                                 grouped4 on the 132-tile grids
//   ./tma_feed_probe <index> [K]  one configuration, three launches (for ncu)
#include "ck_tile/core/arch/nvidia/cluster.hpp"
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/tma.hpp"
#include "ck_tile/host/tma_descriptor.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

using namespace ck_tile;

enum share
{
    none,
    pair_b,
    pair_b_own,
    pair_a,
    grouped,  ///< no clusters; groups of 8 tile rows, M fastest
    tpc,      ///< no clusters; the two SMs of a TPC (%smid / 2) take neighbouring M tiles
    grouped4, ///< no clusters; groups of 4 tile rows (the GEMM's order for single blocks)
    placed    ///< clusters of CM x CN tiles, each CTA loading its own operands: the cluster only
              ///< places the tiles on one GPC (no multicast, no barrier shared across CTAs)
};

template <share Share>
constexpr bool coupled = Share == pair_b || Share == pair_b_own || Share == pair_a;

__device__ int tpc_pair[128]; // per TPC: 1 + the pair index its first block drew
__device__ int tpc_arrivals[128];
__device__ int pairs_drawn;

constexpr int max_blocks = 256;
__device__ long long loop_cycles[max_blocks];

struct probe_maps
{
    tma_descriptor a, b;
    int m_tiles, n_tiles, k_tiles;
};

template <int BM, int BN, int Stages, share Share, int CM = 1, int CN = 1>
__global__ void __launch_bounds__(64, 1) feed(const __grid_constant__ probe_maps maps)
{
    constexpr int cluster = coupled<Share> ? 2 : Share == placed ? CM * CN : 1;
    constexpr int a_bytes = BM * 128, b_bytes = BN * 128;
    constexpr int stage_bytes = a_bytes + b_bytes;
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char* base = smem_raw + (1024 - arch::shared_address(smem_raw) % 1024) % 1024;
    uint64_t* full      = reinterpret_cast<uint64_t*>(base + Stages * stage_bytes);
    uint64_t* empty     = full + Stages;
    if(threadIdx.x == 0)
    {
        for(int s = 0; s < Stages; ++s)
        {
            arch::mbarrier_init(&full[s], 1);
            arch::mbarrier_init(&empty[s], coupled<Share> ? cluster : 1);
        }
        arch::fence_mbarrier_init();
    }
    if constexpr(coupled<Share>)
        arch::cluster_sync();
    else
        __syncthreads();
    const int rank = cluster > 1 ? int(arch::cluster_cta_rank()) : 0;
    const int c    = int(blockIdx.x) / cluster;
    int tm, tn;
    if constexpr(Share == pair_a) // pairs along N
    {
        tn = c % (maps.n_tiles / 2) * 2 + rank;
        tm = c / (maps.n_tiles / 2);
    }
    else if constexpr(Share == placed)
    {
        // The clusters in the GEMM's order (groups of 8 tile rows), the tiles inside a
        // cluster M fastest.
        const int gm = maps.m_tiles / CM, gn = maps.n_tiles / CN;
        const int g = 8 / CM > 0 ? 8 / CM : 1, per_group = g * gn, first = c / per_group * g;
        const int rows = gm - first < g ? gm - first : g;
        tm             = (first + c % per_group % rows) * CM + rank % CM;
        tn             = c % per_group / rows * CN + rank / CM;
    }
    else if constexpr(cluster > 1) // pairs along M
    {
        tm = c % (maps.m_tiles / 2) * 2 + rank;
        tn = c / (maps.m_tiles / 2);
    }
    else if constexpr(Share == grouped || Share == grouped4)
    {
        constexpr int g     = Share == grouped ? 8 : 4;
        const int per_group = g * maps.n_tiles, first_m = c / per_group * g;
        const int rows = maps.m_tiles - first_m < g ? maps.m_tiles - first_m : g;
        tm             = first_m + c % per_group % rows;
        tn             = c % per_group / rows;
    }
    else if constexpr(Share == tpc)
    {
        // Every SM holds one block (grid = SMs), so each TPC holds two: the first to arrive
        // draws a pair index, the second reads it.
        __shared__ int pair_slot[2];
        if(threadIdx.x == 0)
        {
            uint32_t sm;
            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
            const int t    = int(sm / 2);
            const int slot = atomicAdd(&tpc_arrivals[t], 1);
            int pair;
            if(slot == 0)
            {
                pair = atomicAdd(&pairs_drawn, 1);
                atomicExch(&tpc_pair[t], pair + 1);
            }
            else
                while((pair = atomicAdd(&tpc_pair[t], 0) - 1) < 0)
                    ;
            pair_slot[0] = pair;
            pair_slot[1] = slot;
        }
        __syncthreads();
        tm = pair_slot[0] % (maps.m_tiles / 2) * 2 + pair_slot[1];
        tn = pair_slot[0] / (maps.m_tiles / 2);
    }
    else
    {
        tm = c % maps.m_tiles;
        tn = c / maps.m_tiles;
    }
    const long long start = clock64();
    if(threadIdx.x == 0)
    {
        for(int kt = 0; kt < maps.k_tiles; ++kt)
        {
            const int s = kt % Stages;
            arch::mbarrier_wait_parity(&empty[s], ((kt / Stages) & 1) ^ 1);
            arch::mbarrier_arrive_expect_tx(&full[s], stage_bytes);
            unsigned char* a = base + s * stage_bytes;
            unsigned char* b = a + a_bytes;
            const int k0     = kt * 64;
            if constexpr(Share == pair_a)
            {
                const int half = BM / 2;
                arch::tma_load_3d_multicast(a + rank * half * 128, &maps.a, &full[s], 3u, k0,
                                            tm * BM + rank * half, 0);
                arch::tma_load_3d(b, &maps.b, &full[s], k0, tn * BN, 0);
            }
            else if constexpr(Share == pair_b)
            {
                const int half = BN / 2;
                arch::tma_load_3d(a, &maps.a, &full[s], k0, tm * BM, 0);
                arch::tma_load_3d_multicast(b + rank * half * 128, &maps.b, &full[s], 3u, k0,
                                            tn * BN + rank * half, 0);
            }
            else
            {
                arch::tma_load_3d(a, &maps.a, &full[s], k0, tm * BM, 0);
                arch::tma_load_3d(b, &maps.b, &full[s], k0, tn * BN, 0);
            }
        }
    }
    else if(threadIdx.x == 32)
    {
        for(int kt = 0; kt < maps.k_tiles; ++kt)
        {
            const int s = kt % Stages;
            arch::mbarrier_wait_parity(&full[s], (kt / Stages) & 1);
            if constexpr(!coupled<Share>)
                arch::mbarrier_arrive(&empty[s]);
            else
            {
                const uint32_t local = arch::shared_address(&empty[s]);
                for(uint32_t cta = 0; cta < cluster; ++cta)
                    arch::mbarrier_arrive_cluster(arch::map_shared_to_cta(local, cta));
            }
        }
        if(blockIdx.x < max_blocks)
            loop_cycles[blockIdx.x] = clock64() - start;
    }
    if constexpr(coupled<Share>)
        arch::cluster_sync(); // peers may still arrive on this CTA's barriers
}

__global__ void fill_random_halves(uint16_t* p, size_t n)
{
    for(size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
        i += size_t(gridDim.x) * blockDim.x)
    {
        uint32_t h = uint32_t(i) * 2654435761u;
        h ^= h >> 15;
        p[i] = uint16_t((h & 0x83ffu) | 0x3800u);
    }
}

tma_descriptor k_major_map(const uint16_t* p, int rows, int k, uint32_t box_rows)
{
    tma_tile_spec s    = make_tma_tile_spec_2d(reinterpret_cast<const half_t*>(p), rows, k, k,
                                               box_rows, 64, smem_swizzle::b128);
    s.rank             = 3;
    s.dims[2]          = 1;
    s.strides_bytes[2] = uint64_t(rows) * k * 2;
    s.box[2]           = 1;
    s.l2               = tma_l2_promotion_for_rows(uint64_t(k) * 2);
    return make_tma_descriptor(s);
}

struct config
{
    int m, n; ///< the problem: A is m x K, B is n x K
    void (*run)(int m, int n, int k, int launches, bool print);
};

template <int BM, int BN, int Stages, share Share, int CM = 1, int CN = 1>
void run(int m, int n, int k, int launches, bool print)
{
    constexpr int cluster = coupled<Share> ? 2 : Share == placed ? CM * CN : 1;
    uint16_t *a, *b;
    cudaMalloc(&a, size_t(m) * k * 2);
    cudaMalloc(&b, size_t(n) * k * 2);
    fill_random_halves<<<1024, 256>>>(a, size_t(m) * k);
    fill_random_halves<<<1024, 256>>>(b, size_t(n) * k);
    probe_maps maps{};
    maps.a           = k_major_map(a, m, k, Share == pair_a ? BM / 2 : BM);
    maps.b           = k_major_map(b, n, k, Share == pair_b ? BN / 2 : BN);
    maps.m_tiles     = m / BM;
    maps.n_tiles     = n / BN;
    maps.k_tiles     = k / 64;
    const int blocks = maps.m_tiles * maps.n_tiles;
    const int smem   = Stages * (BM + BN) * 128 + 2 * Stages * 8 + 1024;
    auto kernel      = feed<BM, BN, Stages, Share, CM, CN>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaLaunchConfig_t cfg{};
    cudaLaunchAttribute attr{};
    attr.id               = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.gridDim           = dim3(blocks);
    cfg.blockDim          = dim3(64);
    cfg.dynamicSmemBytes  = smem;
    cfg.attrs             = &attr;
    cfg.numAttrs          = 1;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<float> ms;
    for(int i = 0; i < launches; ++i)
    {
        if constexpr(Share == tpc)
        {
            static int zeros[128] = {};
            cudaMemcpyToSymbol(tpc_pair, zeros, sizeof(zeros));
            cudaMemcpyToSymbol(tpc_arrivals, zeros, sizeof(zeros));
            cudaMemcpyToSymbol(pairs_drawn, zeros, sizeof(int));
        }
        cudaEventRecord(e0);
        cudaLaunchKernelEx(&cfg, kernel, maps);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float t = 0;
        cudaEventElapsedTime(&t, e0, e1);
        ms.push_back(t);
    }
    if(const cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    {
        std::printf("error: %s\n", cudaGetErrorString(err));
        std::exit(1);
    }
    if(print)
    {
        std::vector<long long> cyc(std::min(blocks, max_blocks));
        cudaMemcpyFromSymbol(cyc.data(), loop_cycles, cyc.size() * sizeof(long long));
        std::sort(cyc.begin(), cyc.end());
        std::sort(ms.begin(), ms.end());
        const double per_block = double(maps.k_tiles) * (BM + BN) * 128;
        const char* names[]    = {"none",    "pair_b", "pair_b_own", "pair_a",
                                  "grouped", "tpc",    "grouped4"};
        char name[16];
        std::snprintf(name, sizeof(name), "placed %dx%d", CM, CN);
        const size_t q = cyc.size();
        std::printf("  %5dx%-5d K=%5d %3dx%-3d s%d %-10s blocks %3d  launch %7.2f us  loop cycles "
                    "min %6lld q1 %6lld median %6lld q3 %6lld max %6lld  B/clk/SM at the max "
                    "%5.1f\n",
                    m, n, k, BM, BN, Stages, Share == placed ? name : names[Share], blocks,
                    ms[ms.size() / 2] * 1e3, cyc[0], cyc[q / 4], cyc[q / 2], cyc[3 * q / 4],
                    cyc[q - 1], per_block / double(cyc[q - 1]));
    }
    cudaFree(a);
    cudaFree(b);
}

int main(int argc, char** argv)
{
    // 132 tiles (one per SM of an H100): 1408 x 768 in 64x128 tiles, 768 x 1408 in 128x64,
    // 2816 x 1536 in 128x256 (22 x 6 tiles each).
    const config configs[] = {
        {1408, 768, run<64, 128, 8, none>},
        {1408, 768, run<64, 128, 8, grouped>},
        {1408, 768, run<64, 128, 8, tpc>},
        {1408, 768, run<64, 128, 8, pair_b>},
        {1408, 768, run<64, 128, 8, pair_b_own>},
        {768, 1408, run<128, 64, 8, pair_a>},
        {2816, 1536, run<128, 256, 4, none>},
        {2816, 1536, run<128, 256, 4, grouped>},
        {2816, 1536, run<128, 256, 4, tpc>},
        {2816, 1536, run<128, 256, 4, pair_b>},
        // 128 tiles (16 x 8), so that clusters of four fit at once: the GEMM's order against
        // clusters that only place neighbouring tiles on one GPC.
        {1024, 1024, run<64, 128, 8, grouped>},
        {1024, 1024, run<64, 128, 8, placed, 2, 1>},
        {1024, 1024, run<64, 128, 8, placed, 2, 2>},
        {1024, 1024, run<64, 128, 8, placed, 4, 1>},
        {1024, 1024, run<64, 128, 8, placed, 4, 2>},
        {2048, 2048, run<128, 256, 4, grouped>},
        {2048, 2048, run<128, 256, 4, placed, 2, 1>},
        {2048, 2048, run<128, 256, 4, placed, 2, 2>},
        {2048, 2048, run<128, 256, 4, placed, 4, 1>},
        {2048, 2048, run<128, 256, 4, placed, 4, 2>},
        {1024, 1024, run<64, 128, 8, grouped4>},
        {2048, 2048, run<128, 256, 4, grouped4>},
        {1408, 768, run<64, 128, 8, grouped4>},
        {2816, 1536, run<128, 256, 4, grouped4>},
    };
    const int count = int(sizeof(configs) / sizeof(configs[0]));
    if(argc > 1 && std::string(argv[1]) != "placed")
    {
        const int i = std::atoi(argv[1]);
        const int k = argc > 2 ? std::atoi(argv[2]) : 8192;
        if(i < 0 || i >= count)
            return 1;
        configs[i].run(configs[i].m, configs[i].n, k, 3, true);
        return 0;
    }
    const int grid_132 = 10; // configs[0 .. 9] run the 132-tile grids, the rest `placed`
    const int first    = argc > 1 && std::string(argv[1]) == "placed" ? grid_132 : 0;
    for(int k : {1024, 8192})
        for(int round = 0; round < 2; ++round)
            for(int i = first; i < (first == 0 ? grid_132 : count); ++i)
                configs[i].run(configs[i].m, configs[i].n, k, 20, true);
    return 0;
}
