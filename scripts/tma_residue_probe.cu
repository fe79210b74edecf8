// Can the copy engine read a K-major fp16 operand whose rows are not 16 bytes apart (an odd
// leading dimension) straight into the stages, without the padded staging copy? A tensor map
// needs a 16-byte aligned base and row strides of 16-byte multiples. With ld odd, rows 8 apart
// are 16 * ld bytes apart, so the rows of one residue p = row % 8 form a matrix a tensor map
// can describe: its base is row p's start rounded down to 16 bytes, e_p = (p * ld) % 8 elements
// earlier, and its K coordinates are shifted by e_p (the dimension is K + e_p long, so the
// zeros past K stay where they belong and no byte past the operand is read). Eight maps, one
// box (or several) per residue: a stage of BN rows would land as eight runs of BN / 8 rows,
// stage row j = p * BN / 8 + i holding operand row 8 i + p, and a wgmma over it would compute
// the tile's columns in that order for the epilogue to put back.
//
// The answer on an H200 (sm_90a, CUDA 13.0) is no: every map encodes, but a box whose K
// coordinate starts off 16 bytes is an illegal instruction, with the 128-byte swizzle or none.
// The residue maps work for p = 0 (e_0 = 0) and fail at p = 1; `offset` shows the rule on one
// plain map over an aligned operand: starts 0 and 8 elements in load exactly, 1, 2 and 4 fault.
// So rows off 16 bytes stay with the staging copy (or with loads through the registers).
//
// Modes (each ends at the first illegal instruction, which leaves the context unusable):
//   (none)     check, byte for byte through the swizzle against the operand and zeros past K,
//              a plain map on an aligned operand, then the residue maps of odd ld and K
//   offset N S one plain load whose K coordinates start N elements in, swizzled (S = 1) or not
//
//   nvcc -O3 -std=c++20 -DCK_TILE_RUNTIME_CUDA -DCK_TILE_PLATFORM_NVIDIA -Iinclude \
//        -gencode=arch=compute_90a,code=sm_90a -o tma_residue_probe scripts/tma_residue_probe.cu
//   ./tma_residue_probe; for n in 0 8 1 2 4; do ./tma_residue_probe offset $n 1; done
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/tma.hpp"
#include "ck_tile/host/tma_descriptor.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

using namespace ck_tile;

namespace {

constexpr int BN = 256, Stages = 4, stage_bytes = BN * 128;

/// Eight maps (residue maps) or one (maps[0], plain), their K shifts, and the walk.
struct probe_args
{
    tma_descriptor maps[8];
    int shift[8];
    int residue_maps; ///< 8: one map per residue; 1: maps[0] over all rows
    int box_rows;     ///< rows per box (per residue with residue maps)
    int strips, k_tiles;
    int k_offset;             ///< added to the plain map's K coordinates (the offset test)
    unsigned char* check_out; ///< check mode: every stage of every block, else null
};

/// The residue boxes of one stage, map by map at constant offsets into the kernel's parameters
/// (indexed at run time, the array may be copied out of parameter space, where a copy's map
/// must not be).
template <int P>
__device__ void load_residues(const probe_args& a, unsigned char* st, uint64_t* full, int k0,
                              int strip)
{
    constexpr int per_residue = BN / 8;
    for(int r = 0; r < per_residue; r += a.box_rows)
        arch::tma_load_3d(st + (P * per_residue + r) * 128, &a.maps[P], full, k0 + a.shift[P],
                          strip * per_residue + r, 0);
    if constexpr(P + 1 < 8)
        load_residues<P + 1>(a, st, full, k0, strip);
}

__global__ void __launch_bounds__(64, 1) feed(const __grid_constant__ probe_args a)
{
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char* base = smem_raw + (1024 - arch::shared_address(smem_raw) % 1024) % 1024;
    uint64_t* full      = reinterpret_cast<uint64_t*>(base + Stages * stage_bytes);
    uint64_t* empty     = full + Stages;
    if(threadIdx.x == 0)
    {
        for(int s = 0; s < Stages; ++s)
        {
            arch::mbarrier_init(&full[s], 1);
            arch::mbarrier_init(&empty[s], 1);
        }
        arch::fence_mbarrier_init();
    }
    __syncthreads();
    const int strip = int(blockIdx.x) % a.strips;
    if(threadIdx.x == 0)
    {
        for(int kt = 0; kt < a.k_tiles; ++kt)
        {
            const int s = kt % Stages;
            arch::mbarrier_wait_parity(&empty[s], ((kt / Stages) & 1) ^ 1);
            arch::mbarrier_arrive_expect_tx(&full[s], stage_bytes);
            unsigned char* st = base + s * stage_bytes;
            const int k0      = kt * 64;
            if(a.residue_maps == 8)
                load_residues<0>(a, st, &full[s], k0, strip);
            else
                for(int r = 0; r < BN; r += a.box_rows)
                    arch::tma_load_3d(st + r * 128, &a.maps[0], &full[s], k0 + a.k_offset,
                                      strip * BN + r, 0);
        }
    }
    else if(threadIdx.x >= 32)
    {
        for(int kt = 0; kt < a.k_tiles; ++kt)
        {
            const int s = kt % Stages;
            arch::mbarrier_wait_parity(&full[s], (kt / Stages) & 1);
            if(a.check_out != nullptr)
            {
                const uint4* from = reinterpret_cast<const uint4*>(base + s * stage_bytes);
                uint4* to         = reinterpret_cast<uint4*>(
                    a.check_out + (size_t(blockIdx.x) * a.k_tiles + kt) * stage_bytes);
                for(int i = int(threadIdx.x) - 32; i < stage_bytes / 16; i += 32)
                    to[i] = from[i];
                __syncwarp();
            }
            if(threadIdx.x == 32)
                arch::mbarrier_arrive(&empty[s]);
        }
    }
}

/// A K-major fp16 operand of `rows` rows, `k` elements each, `ld` apart, random halves.
struct operand
{
    int rows, k, ld;
    std::vector<uint16_t> host;
    uint16_t* dev = nullptr;

    operand(int rows_, int k_, int ld_) : rows(rows_), k(k_), ld(ld_)
    {
        host.assign(size_t(rows - 1) * ld + k, 0);
        uint32_t h = 12345u;
        for(auto& v : host)
        {
            h = h * 1664525u + 1013904223u;
            v = uint16_t((h >> 16 & 0x83ffu) | 0x3800u);
        }
        // Exactly the operand's bytes: a read past its last row would fault under
        // compute-sanitizer, and reads outside the residue's own rows show in check mode.
        cudaMalloc(&dev, host.size() * 2);
        cudaMemcpy(dev, host.data(), host.size() * 2, cudaMemcpyHostToDevice);
    }
    ~operand() { cudaFree(dev); }
};

bool swizzled = true; // the offset test also runs without the swizzle

tma_descriptor map_of(const uint16_t* base, uint64_t k, uint64_t rows, uint64_t row_bytes,
                      uint32_t box_rows)
{
    tma_tile_spec s{};
    s.element          = tma_element::f16;
    s.rank             = 3;
    s.global_address   = base;
    s.dims[0]          = k;
    s.dims[1]          = rows;
    s.dims[2]          = 1;
    s.strides_bytes[1] = row_bytes;
    s.strides_bytes[2] = row_bytes * rows;
    s.box[0]           = 64;
    s.box[1]           = box_rows;
    s.box[2]           = 1;
    s.swizzle          = swizzled ? smem_swizzle::b128 : smem_swizzle::none;
    s.l2               = tma_l2_promotion::b128;
    return make_tma_descriptor(s);
}

/// The eight residue maps of `op` (ld odd), or one plain map (ld a multiple of 8).
probe_args args_for(const operand& op, bool residues, int box_rows)
{
    probe_args a{};
    a.residue_maps = residues ? 8 : 1;
    a.box_rows     = box_rows;
    a.strips       = op.rows / BN;
    a.k_tiles      = (op.k + 63) / 64;
    if(!residues)
    {
        a.maps[0] = map_of(op.dev, op.k, op.rows, uint64_t(op.ld) * 2, box_rows);
        return a;
    }
    for(int p = 0; p < 8; ++p)
    {
        const int e = int((int64_t(p) * op.ld) % 8); // elements between the aligned base and row p
        const auto* b = op.dev + int64_t(p) * op.ld - e;
        a.shift[p]    = e;
        a.maps[p]     = map_of(b, uint64_t(op.k + e), uint64_t((op.rows - p + 7) / 8),
                               uint64_t(op.ld) * 16, box_rows);
    }
    return a;
}

void launch(const probe_args& a, int blocks)
{
    const int smem = Stages * stage_bytes + 2 * Stages * 8 + 1024;
    cudaFuncSetAttribute(feed, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaLaunchConfig_t cfg{};
    cudaLaunchAttribute attr{};
    attr.id               = cudaLaunchAttributeClusterDimension; // clusters of one, explicitly
    attr.val.clusterDim.x = 1;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.gridDim           = dim3(blocks);
    cfg.blockDim          = dim3(64);
    cfg.dynamicSmemBytes  = smem;
    cfg.attrs             = &attr;
    cfg.numAttrs          = 1;
    cudaLaunchKernelEx(&cfg, feed, a);
    if(const cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    {
        std::printf("error: %s (maps %d, box rows %d)\n", cudaGetErrorString(err), a.residue_maps,
                    a.box_rows);
        std::exit(1);
    }
}

/// Every byte of every stage of every strip against the operand: stage row j of a residue
/// stage is operand row 8 (j % (BN / 8)) + j / (BN / 8) of the strip; of a plain stage, row j.
bool check(const operand& op, bool residues, int box_rows, int k_offset = 0)
{
    probe_args a           = args_for(op, residues, box_rows);
    a.k_offset             = k_offset;
    const size_t out_bytes = size_t(a.strips) * a.k_tiles * stage_bytes;
    unsigned char* out     = nullptr;
    cudaMalloc(&out, out_bytes);
    cudaMemset(out, 0xa5, out_bytes); // poison: a stage byte the copy missed shows
    a.check_out = out;
    launch(a, a.strips);
    std::vector<uint16_t> got(out_bytes / 2);
    cudaMemcpy(got.data(), out, out_bytes, cudaMemcpyDeviceToHost);
    cudaFree(out);
    long long bad = 0;
    for(int strip = 0; strip < a.strips; ++strip)
        for(int kt = 0; kt < a.k_tiles; ++kt)
            for(int j = 0; j < BN; ++j)
            {
                const int row = strip * BN + (residues ? 8 * (j % (BN / 8)) + j / (BN / 8) : j);
                const uint16_t* st = got.data() + (size_t(strip) * a.k_tiles + kt) * BN * 64;
                for(int e = 0; e < 64; ++e)
                {
                    const int col  = kt * 64 + e + k_offset;
                    const int phys = swizzled ? ((e / 8) ^ (j % 8)) * 8 + e % 8 : e;
                    const uint16_t want =
                        row < op.rows && col < op.k ? op.host[size_t(row) * op.ld + col] : 0;
                    if(st[j * 64 + phys] != want && bad++ < 5)
                        std::printf("  mismatch strip %d k-tile %d stage row %d col %d: %04x, "
                                    "want %04x\n",
                                    strip, kt, j, col, st[j * 64 + phys], want);
                }
            }
    std::printf("check %-8s ld %5d box %3d: %s (%lld bad)\n", residues ? "residues" : "plain",
                op.ld, box_rows, bad ? "FAIL" : "exact", bad);
    std::fflush(stdout);
    return bad == 0;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc > 2 && std::strcmp(argv[1], "offset") == 0)
    {
        // One plain load whose K coordinates start `offset` elements in: is a box start off 16
        // bytes a legal copy? (An illegal instruction ends the process, hence one per run.)
        swizzled = argc > 3 && std::atoi(argv[3]) != 0;
        operand plain(BN, 200, 208);
        std::printf("offset %s, swizzle %s: ", argv[2], swizzled ? "128B" : "none");
        return check(plain, false, 64, std::atoi(argv[2])) ? 0 : 1;
    }
    bool ok = true;
    {
        // Small operands for the check: odd ld and K, every residue.
        operand odd(2 * BN, 200, 201), odd_k(BN, 131, 131), plain(BN, 200, 208);
        ok &= check(plain, false, 64);
        ok &= check(odd, true, BN / 8);
        ok &= check(odd, true, 8);
        ok &= check(odd_k, true, BN / 8);
    }
    return ok ? 0 : 1;
}
