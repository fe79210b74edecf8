// How fast can blocks stream a skinny GEMM's weight matrix, and how much would a dynamic split
// of the work buy? Streams 128 MiB (8192 columns of 16 KiB: B of an fp16 N = K = 8192 GEMM,
// column-major) through a ring of shared-memory stages filled by bulk copies, one block per SM,
// no math. Variants:
//   static:  block b takes units b, b + grid, ... (a unit is `cols` whole columns)
//   dynamic: blocks take the next unit from a global counter as they finish one
//   rotated: a static block starts `rot * b` stages into its unit and wraps around
//   cluster:  static, launched in clusters of 2 or 4 (placement only; nothing is shared)
// Per variant: median per-launch time between events, the kernel's span (first block's start to
// last block's end, %globaltimer), the spread of the blocks' end times, and for the 64-column
// static run the end time of every SM, which shows the SMs' unequal shares of DRAM.
//
//   nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o dram_stream_probe
//   scripts/dram_stream_probe.cu
//   ./dram_stream_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                   \
    do                                                                                             \
    {                                                                                              \
        const cudaError_t e = (x);                                                                 \
        if(e != cudaSuccess)                                                                       \
        {                                                                                          \
            std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));                 \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while(0)

namespace {

constexpr int columns = 8192, column_bytes = 16384;
constexpr int stages = 12, stage_bytes = 16384; // 192 KiB in flight per SM

__device__ unsigned smem(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ void barrier_init(uint64_t* b)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(b)));
}
__device__ void arrive_expect(uint64_t* b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(b)), "r"(bytes)
                 : "memory");
}
__device__ void arrive(uint64_t* b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(b)) : "memory");
}
__device__ void wait(uint64_t* b, unsigned parity)
{
    asm volatile("{\n .reg .pred p;\n W%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 " @!p bra W%=;\n}" ::"r"(smem(b)),
                 "r"(parity)
                 : "memory");
}
__device__ void bulk_copy(void* dst, const void* src, unsigned bytes, uint64_t* b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                 "%2, [%3];" ::"r"(smem(dst)),
                 "l"(src), "r"(bytes), "r"(smem(b))
                 : "memory");
}
__device__ uint64_t now()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ unsigned sm_id()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

struct probe_args
{
    const char* src;
    int* counter; // next unit (dynamic)
    int units, cols, rot;
    bool dynamic;
    uint64_t* stamps; // per block: start, end, smid
    int* sink;
};

// Thread 0 fills the ring; thread 32 waits for each stage and frees it (touching one byte).
__global__ void __launch_bounds__(64, 1) stream_probe(probe_args a)
{
    extern __shared__ __align__(1024) unsigned char ring[];
    auto* full          = reinterpret_cast<uint64_t*>(ring + stages * stage_bytes);
    auto* empty         = full + stages;
    auto* unit_of_stage = reinterpret_cast<int*>(empty + stages);
    if(threadIdx.x == 0)
    {
        for(int s = 0; s < stages; ++s)
        {
            barrier_init(&full[s]);
            barrier_init(&empty[s]);
        }
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    const uint64_t start = now();
    const int steps      = a.cols * column_bytes / stage_bytes;
    if(threadIdx.x == 0)
    {
        int stage = 0, issued = 0;
        unsigned parity = 0;
        for(int u = a.dynamic ? atomicAdd(a.counter, 1) : blockIdx.x;;
            u     = a.dynamic ? atomicAdd(a.counter, 1) : u + gridDim.x)
        {
            const bool done = u >= a.units;
            for(int i = 0; i < (done ? 1 : steps); ++i)
            {
                if(issued++ >= stages)
                    wait(&empty[stage], parity ^ 1);
                unit_of_stage[stage] = done ? -1 : u;
                if(done)
                    arrive(&full[stage]);
                else
                {
                    const int s = (i + a.rot * static_cast<int>(blockIdx.x)) % steps;
                    arrive_expect(&full[stage], stage_bytes);
                    bulk_copy(ring + stage * stage_bytes,
                              a.src + static_cast<size_t>(u) * a.cols * column_bytes +
                                  static_cast<size_t>(s) * stage_bytes,
                              stage_bytes, &full[stage]);
                }
                if(++stage == stages)
                {
                    stage = 0;
                    parity ^= 1;
                }
            }
            if(done)
                break;
        }
    }
    else if(threadIdx.x == 32)
    {
        int stage = 0, sum = 0;
        unsigned parity = 0;
        for(;;)
        {
            wait(&full[stage], parity);
            const int u = unit_of_stage[stage];
            if(u < 0)
                break;
            sum += ring[stage * stage_bytes + (u & 127)];
            arrive(&empty[stage]);
            if(++stage == stages)
            {
                stage = 0;
                parity ^= 1;
            }
        }
        a.sink[blockIdx.x] = sum;
    }
    __syncthreads();
    if(threadIdx.x == 0)
    {
        a.stamps[3 * blockIdx.x]     = start;
        a.stamps[3 * blockIdx.x + 1] = now();
        a.stamps[3 * blockIdx.x + 2] = sm_id();
    }
}

struct variant
{
    const char* name;
    int grid, cols;
    bool dynamic;
    int rot, cluster;
};

double median(std::vector<double> x)
{
    std::sort(x.begin(), x.end());
    return x[x.size() / 2];
}

} // namespace

int main()
{
    const size_t bytes = static_cast<size_t>(columns) * column_bytes;
    char *src = nullptr, *flush = nullptr;
    int *counter = nullptr, *sink = nullptr;
    uint64_t* stamps = nullptr;
    CHECK(cudaMalloc(&src, bytes));
    CHECK(cudaMemset(src, 1, bytes));
    CHECK(cudaMalloc(&flush, 256 << 20));
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMalloc(&stamps, 3 * 1024 * sizeof(uint64_t)));
    CHECK(cudaMalloc(&sink, 1024 * sizeof(int)));
    const size_t shared = stages * stage_bytes + 2 * stages * sizeof(uint64_t) + stages * 4;
    CHECK(cudaFuncSetAttribute(stream_probe, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(shared)));
    const std::vector<variant> variants = {
        {"static, 128 units of 64 columns", 128, 64, false, 0, 1},
        {"dynamic, 128 units of 64 columns", 132, 64, true, 0, 1},
        {"dynamic, 512 units of 16 columns", 132, 16, true, 0, 1},
        {"dynamic, 2048 units of 4 columns", 132, 4, true, 0, 1},
        {"dynamic, 4096 units of 2 columns", 132, 2, true, 0, 1},
        {"dynamic, 8192 units of 1 column", 132, 1, true, 0, 1},
        {"static, 8192 units of 1 column", 132, 1, false, 0, 1},
        {"static, 64 columns, rotated by 1", 128, 64, false, 1, 1},
        {"static, 64 columns, rotated by 17", 128, 64, false, 17, 1},
        {"static, 64 columns, clusters of 2", 128, 64, false, 0, 2},
    };
    cudaEvent_t before, after;
    CHECK(cudaEventCreate(&before));
    CHECK(cudaEventCreate(&after));
    for(const variant& v : variants)
    {
        probe_args a{src, counter, columns / v.cols, v.cols, v.rot, v.dynamic, stamps, sink};
        std::vector<double> event_us, span_us, first_end;
        std::vector<uint64_t> h(3 * v.grid);
        cudaLaunchAttribute cluster[1];
        cluster[0].id               = cudaLaunchAttributeClusterDimension;
        cluster[0].val.clusterDim.x = v.cluster;
        cluster[0].val.clusterDim.y = 1;
        cluster[0].val.clusterDim.z = 1;
        cudaLaunchConfig_t config   = {};
        config.gridDim              = dim3(v.grid);
        config.blockDim             = dim3(64);
        config.dynamicSmemBytes     = shared;
        config.attrs                = cluster;
        config.numAttrs             = 1;
        uint64_t lo                 = 0; // the last run's first block start
        for(int r = 0; r < 25; ++r)
        {
            CHECK(cudaMemsetAsync(flush, r, 256 << 20)); // evict the previous run's lines
            CHECK(cudaMemsetAsync(counter, 0, sizeof(int)));
            CHECK(cudaEventRecord(before));
            CHECK(cudaLaunchKernelEx(&config, stream_probe, a));
            CHECK(cudaEventRecord(after));
            CHECK(cudaGetLastError());
            CHECK(cudaEventSynchronize(after));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, before, after));
            CHECK(
                cudaMemcpy(h.data(), stamps, h.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
            uint64_t hi = 0, first = ~0ull;
            lo = ~0ull;
            for(int b = 0; b < v.grid; ++b)
            {
                lo    = std::min(lo, h[3 * b]);
                hi    = std::max(hi, h[3 * b + 1]);
                first = std::min(first, h[3 * b + 1]);
            }
            if(r < 5) // warm-up
                continue;
            event_us.push_back(ms * 1e3);
            span_us.push_back((hi - lo) * 1e-3);
            first_end.push_back((first - lo) * 1e-3);
        }
        // The last block ends at the span.
        const double span = median(span_us);
        std::printf(
            "%-36s event %5.1f us  span %5.1f us (%4.0f GB/s)  blocks end %4.1f .. %4.1f us\n",
            v.name, median(event_us), span, bytes / span * 1e-3, median(first_end), span);
        if(!v.dynamic && v.cols == 64 && v.rot == 0 && v.cluster == 1)
        {
            std::vector<std::pair<uint64_t, double>> by_sm;
            for(int b = 0; b < v.grid; ++b)
                by_sm.push_back({h[3 * b + 2], (h[3 * b + 1] - lo) * 1e-3});
            std::sort(by_sm.begin(), by_sm.end());
            std::printf("  end by SM (last run):");
            for(const auto& [sm, t] : by_sm)
                std::printf(" %d:%.1f", static_cast<int>(sm), t);
            std::printf("\n");
        }
    }
    return 0;
}
