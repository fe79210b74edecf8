// A CUPTI injection library that logs every kernel launch of a process: the kernel's name, its
// grid, block, cluster and dynamic shared memory, and the TMA tensor maps among its parameters,
// decoded. It shows what a vendor library's kernels run with (tile boxes, which operand a
// cluster multicasts, swizzle and L2 promotion) without its sources, next to ours.
//
//   g++ -O1 -shared -fPIC -I/usr/local/cuda/include scripts/cupti_launch_log.cpp
//       -o liblaunch_log.so -L/usr/local/cuda/lib64 -lcupti -lcuda
//   CUDA_INJECTION64_PATH=$PWD/liblaunch_log.so LAUNCH_LOG=launches.txt python3 app.py
//
// With LAUNCH_LOG_WORDS set it also prints every parameter word under the constant-bank offset
// the SASS reads it at (the divisors of a kernel's tile decode, for instance).
//
// The driver calls InitializeInjection() when the first CUDA context is made; the callbacks then
// see every driver call, including those a library makes through entry points it looked up
// itself. Kernels launched with a packed parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) and
// with an argument array are both read.
//
// The tensor map's 128 bytes are opaque. The fields decoded here were read off maps that
// cuTensorMapEncodeTiled built with one argument changed at a time (the H100's driver of CUDA
// 13.0): bytes 0-7 the global address; byte 8 bits 4-6 the rank less one, bit 7 the low bit of
// the element type; byte 9 bits 0-3 the rest of the type, bits 5-6 the swizzle (none, 32, 64,
// 128 bytes), bit 7 NaN fill; byte 10 bits 1-2 the L2 promotion (none, 64, 128, 256 bytes);
// from byte 12, 4 bytes per dimension after the first, its stride in 16-byte units; from byte
// 32, 4 bytes per dimension, its size less one; from byte 55, one byte per dimension, the box
// extent less one. A map is recognised by a plausible address (a 16-byte aligned device pointer
// above 4 GiB), rank (2 to 5), type, stride and box, so a parameter that merely looks like one
// can show up too.
#include <cuda.h>
#include <cupti.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

FILE* out                 = stderr;
thread_local bool in_call = false; // the parameter queries below are driver calls too

std::uint32_t u32(const unsigned char* p)
{
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

const char* type_name(unsigned code)
{
    switch(code)
    {
    case 0:
        return "u8";
    case 6:
        return "f16";
    case 7:
        return "f32";
    case 10:
        return "bf16";
    default:
        return nullptr;
    }
}

/// Prints the map at `m` and returns true when its bytes look like one.
bool print_if_tensor_map(const unsigned char* m, std::size_t offset)
{
    std::uint64_t address;
    std::memcpy(&address, m, 8);
    const unsigned rank = ((m[8] >> 4) & 7u) + 1;
    const unsigned type = ((m[9] & 0xfu) << 1) | (m[8] >> 7);
    if(address >> 32 == 0 || address % 16 != 0 || address >> 57 || rank < 2 || rank > 5 ||
       !type_name(type) || u32(m + 12) == 0)
        return false;
    std::uint32_t dims[5], box[5];
    for(unsigned d = 0; d < rank; ++d)
    {
        dims[d] = u32(m + 32 + 4 * d) + 1;
        box[d]  = m[55 + d] + 1u;
        if(dims[d] == 0 || box[d] > 256)
            return false;
    }
    static const char* swizzle[] = {"none", "32B", "64B", "128B"};
    static const char* l2[]      = {"none", "64B", "128B", "256B"};
    std::fprintf(out, "    map @%zu: %s at 0x%llx rank %u dims", offset, type_name(type),
                 static_cast<unsigned long long>(address), rank);
    for(unsigned d = 0; d < rank; ++d)
        std::fprintf(out, "%s%u", d ? "x" : " ", dims[d]);
    std::fprintf(out, " strides(B)");
    for(unsigned d = 1; d < rank; ++d)
        std::fprintf(out, " %llu", 16ull * u32(m + 8 + 4 * d));
    std::fprintf(out, " box");
    for(unsigned d = 0; d < rank; ++d)
        std::fprintf(out, "%s%u", d ? "x" : " ", box[d]);
    std::fprintf(out, " swizzle %s l2 %s%s flag bytes %02x %02x %02x %02x\n",
                 swizzle[(m[9] >> 5) & 3u], l2[(m[10] >> 1) & 3u], m[9] & 0x80 ? " nan-fill" : "",
                 m[8], m[9], m[10], m[23]);
    return true;
}

void print_maps(const std::vector<unsigned char>& params)
{
    for(std::size_t o = 0; o + 64 <= params.size(); o += 16)
        if(print_if_tensor_map(params.data() + o, o))
            o += 48; // a map is 64 bytes of fields at least
}

/// Every 32-bit word of the parameters, eight to a line, each line headed by the constant-bank
/// offset of its first word as the kernel's SASS reads it (sm_90: c[0x0][0x210] is parameter
/// byte 0), so a constant the SASS divides by can be looked up.
void print_words(const std::vector<unsigned char>& params)
{
    for(std::size_t o = 0; o + 4 <= params.size(); o += 32)
    {
        std::fprintf(out, "  c[0x%zx]", 0x210 + o);
        for(std::size_t w = o; w < o + 32 && w + 4 <= params.size(); w += 4)
            std::fprintf(out, " %08x", u32(params.data() + w));
        std::fprintf(out, "\n");
    }
}

/// The launch's parameters as one buffer, laid out as the kernel sees them.
std::vector<unsigned char> parameters(CUfunction f, void** args, void** extra)
{
    std::vector<unsigned char> buffer;
    if(extra)
    {
        const void* data = nullptr;
        std::size_t size = 0;
        for(int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2)
            if(extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
                data = extra[i + 1];
            else if(extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
                size = *static_cast<std::size_t*>(extra[i + 1]);
        if(data)
            buffer.assign(static_cast<const unsigned char*>(data),
                          static_cast<const unsigned char*>(data) + size);
        return buffer;
    }
    for(unsigned i = 0; args; ++i)
    {
        std::size_t offset = 0, size = 0;
        if(cuFuncGetParamInfo(f, i, &offset, &size) != CUDA_SUCCESS &&
           cuKernelGetParamInfo(reinterpret_cast<CUkernel>(f), i, &offset, &size) != CUDA_SUCCESS)
            break;
        if(buffer.size() < offset + size)
            buffer.resize(offset + size);
        std::memcpy(buffer.data() + offset, args[i], size);
    }
    return buffer;
}

void log_launch(const char* name, CUfunction f, const CUlaunchConfig& c, void** args, void** extra)
{
    std::fprintf(out, "launch %s grid %ux%ux%u block %ux%ux%u smem %u", name ? name : "?",
                 c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX, c.blockDimY, c.blockDimZ,
                 c.sharedMemBytes);
    for(unsigned i = 0; i < c.numAttrs; ++i)
        if(c.attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
            std::fprintf(out, " cluster %ux%ux%u", c.attrs[i].value.clusterDim.x,
                         c.attrs[i].value.clusterDim.y, c.attrs[i].value.clusterDim.z);
    const std::vector<unsigned char> p = parameters(f, args, extra);
    std::fprintf(out, " params %zu bytes\n", p.size());
    print_maps(p);
    if(std::getenv("LAUNCH_LOG_WORDS"))
        print_words(p);
    std::fflush(out);
}

void CUPTIAPI on_driver_call(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                             const void* data)
{
    const auto* call = static_cast<const CUpti_CallbackData*>(data);
    if(domain != CUPTI_CB_DOMAIN_DRIVER_API || call->callbackSite != CUPTI_API_ENTER || in_call)
        return;
    in_call = true;
    if(id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
       id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz)
    {
        const auto* p = static_cast<const cuLaunchKernelEx_params*>(call->functionParams);
        log_launch(call->symbolName, p->f, *p->config, p->kernelParams, p->extra);
    }
    else if(id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
            id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz)
    {
        const auto* p = static_cast<const cuLaunchKernel_params*>(call->functionParams);
        CUlaunchConfig c{};
        c.gridDimX = p->gridDimX, c.gridDimY = p->gridDimY, c.gridDimZ = p->gridDimZ;
        c.blockDimX = p->blockDimX, c.blockDimY = p->blockDimY, c.blockDimZ = p->blockDimZ;
        c.sharedMemBytes = p->sharedMemBytes;
        log_launch(call->symbolName, p->f, c, p->kernelParams, p->extra);
    }
    in_call = false;
}

} // namespace

extern "C" int InitializeInjection()
{
    if(const char* path = std::getenv("LAUNCH_LOG"))
        if(FILE* f = std::fopen(path, "w"))
            out = f;
    CUpti_SubscriberHandle subscriber;
    if(cuptiSubscribe(&subscriber, on_driver_call, nullptr) != CUPTI_SUCCESS)
    {
        std::fprintf(stderr, "cupti_launch_log: cuptiSubscribe failed\n");
        return 0;
    }
    cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    return 1;
}
