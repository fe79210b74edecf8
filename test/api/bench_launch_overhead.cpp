// SPDX-License-Identifier: MIT
// Host time per call of a GEMM launch through the C API next to the runtime's own floor, in one
// process, on a non-blocking stream as `cktile-profiler gemm overhead` uses (batches of 256
// calls, the median batch; here the cases take turns batch by batch). The rows between the floor
// and cktile_gemm_run say where the C API's time goes: the kernel library's run function called
// straight from its table has no libcktile.so around it, and supports(id) is the library's checks
// without the launch. Prints microseconds per call; fails only when a call fails (no timing
// assertion).
//
//   bench_launch_overhead <kernel library> [calls]     (calls defaults to 20000)
#include "launch_floor.hpp"

#include "cktile.h"
#include "kernel_library_abi.h"

#include "ck_tile/host/hip_check.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int batch = 256; // fewer than the launch queue holds, as in the profiler

/// Times every case in rounds: one batch of `batch` calls of each case per round, so that
/// drift in the machine's speed (the figures move by tenths of a microsecond from one second
/// to the next) reaches every case alike. Returns each case's median microseconds per call,
/// or a negative value for a case whose call failed.
std::vector<double> time_interleaved(const std::vector<cktile_bench::timed_case>& cases, long calls)
{
    std::vector<std::vector<double>> per_call(cases.size());
    std::vector<bool> ok(cases.size(), true);
    for(std::size_t c = 0; c < cases.size(); ++c) // warm caches and lazily loaded kernels
        for(int i = 0; i < 2 * batch && ok[c]; ++i)
            ok[c] = cases[c].call();
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    for(long done = 0; done < calls; done += batch)
    {
        const long count = std::min<long>(batch, calls - done);
        for(std::size_t c = 0; c < cases.size(); ++c)
        {
            if(!ok[c])
                continue;
            bool good     = true;
            const auto t0 = std::chrono::steady_clock::now();
            for(long i = 0; i < count; ++i)
                good &= cases[c].call();
            const auto t1 = std::chrono::steady_clock::now();
            HIP_CHECK_ERROR(hipDeviceSynchronize());
            ok[c] = good;
            per_call[c].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() /
                                  static_cast<double>(count));
        }
    }
    std::vector<double> median(cases.size(), -1.0);
    for(std::size_t c = 0; c < cases.size(); ++c)
        if(ok[c] && !per_call[c].empty())
        {
            std::sort(per_call[c].begin(), per_call[c].end());
            median[c] = per_call[c][per_call[c].size() / 2];
        }
    return median;
}

const cktile_kernel_instance_t* table_instance(const char* library, std::uint64_t id)
{
    void* lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if(!lib)
        return nullptr;
    const auto get = reinterpret_cast<cktile_kernel_library_get_table_fn>(
        dlsym(lib, CKTILE_KERNEL_LIBRARY_SYMBOL));
    const cktile_kernel_table_t* t = get ? get(CKTILE_KERNEL_ABI_VERSION) : nullptr;
    for(std::size_t i = 0; t && i < t->instance_count; ++i)
        if(t->instances[i]->info.id == id)
            return t->instances[i];
    return nullptr;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 2)
    {
        std::fprintf(stderr, "usage: bench_launch_overhead <kernel library> [calls]\n");
        return 2;
    }
    const long calls = argc > 2 ? std::atol(argv[2]) : 20000;
    int devices      = 0;
    if(hipGetDeviceCount(&devices) != hipSuccess || devices == 0)
    {
        std::printf("bench_launch_overhead: no GPU; nothing to time\n");
        return 0;
    }
    HIP_CHECK_ERROR(hipSetDevice(0));
    // The profiler's stream kind (non-blocking), and a blocking one for comparison: a launch
    // into a blocking stream also orders itself after the legacy default stream.
    hipStream_t stream = nullptr, blocking = nullptr;
    HIP_CHECK_ERROR(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
    HIP_CHECK_ERROR(hipStreamCreate(&blocking));
    cktile_handle_t h = nullptr;
    if(cktile_create(&h, 0) != CKTILE_STATUS_SUCCESS)
    {
        std::fprintf(stderr, "cktile_create: %s\n", cktile_get_last_error_message());
        return 1;
    }

    // The profiler's overhead problem: 64x64x64 fp16, row-major (contents do not matter).
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = p.n = p.k = 64;
    p.lda = p.ldb = p.ldc = p.ldd = 64;
    void* buffers                 = nullptr;
    const std::size_t matrix      = 64 * 64 * 2;
    HIP_CHECK_ERROR(hipMalloc(&buffers, 4 * matrix));
    HIP_CHECK_ERROR(hipMemset(buffers, 0, 4 * matrix));
    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    auto* base = static_cast<unsigned char*>(buffers);
    a.a        = base;
    a.b        = base + matrix;
    a.c        = base + 2 * matrix;
    a.d        = base + 3 * matrix;

    std::uint64_t id = 0;
    if(cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &id) != CKTILE_STATUS_SUCCESS)
    {
        std::fprintf(stderr, "cktile_gemm_select: %s\n", cktile_get_last_error_message());
        return 1;
    }
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    cktile_get_instance_info_by_id(h, id, &info);
    std::size_t need = 0;
    cktile_gemm_workspace_size(h, id, &p, &need);
    void* workspace = nullptr;
    if(need > 0)
        HIP_CHECK_ERROR(hipMalloc(&workspace, need));
    const cktile_kernel_instance_t* direct = table_instance(argv[1], id);
    std::printf("64x64x64 fp16 row-major, selected %s (workspace %zu bytes), %ld calls per row\n",
                info.name, need, calls);

    std::vector<cktile_bench::timed_case> cases     = cktile_bench::launch_floor_cases(stream);
    const std::vector<cktile_bench::timed_case> api = {
        {"cktile: select (cached)",
         [&] {
             std::uint64_t picked = 0;
             return cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &picked) ==
                    CKTILE_STATUS_SUCCESS;
         }},
        {"cktile: supports(id)",
         [&] { return cktile_gemm_supports(h, id, &p, &a, nullptr, 0) == CKTILE_STATUS_SUCCESS; }},
        {"cktile: instance run from the kernel table",
         [&] {
             char message[256];
             return direct &&
                    direct->run(&p, &a, workspace, need, stream, message, sizeof(message)) == 0;
         }},
        {"cktile: run(id)",
         [&] {
             return cktile_gemm_run(h, id, &p, &a, workspace, need, stream) ==
                    CKTILE_STATUS_SUCCESS;
         }},
        {"cktile: select + run(id)",
         [&] {
             std::uint64_t picked = 0;
             return cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &picked) ==
                        CKTILE_STATUS_SUCCESS &&
                    cktile_gemm_run(h, picked, &p, &a, workspace, need, stream) ==
                        CKTILE_STATUS_SUCCESS;
         }},
        {"blocking stream: cktile: select + run(id)",
         [&] {
             std::uint64_t picked = 0;
             return cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &picked) ==
                        CKTILE_STATUS_SUCCESS &&
                    cktile_gemm_run(h, picked, &p, &a, workspace, need, blocking) ==
                        CKTILE_STATUS_SUCCESS;
         }},
    };
    cases.insert(cases.end(), api.begin(), api.end());

    const std::vector<double> us = time_interleaved(cases, calls);
    bool ok                      = true;
    for(std::size_t c = 0; c < cases.size(); ++c)
    {
        if(us[c] < 0)
        {
            std::printf("%-70s failed: %s\n", cases[c].label.c_str(),
                        cktile_get_last_error_message());
            ok = false;
            continue;
        }
        std::printf("%-70s %7.3f us/call\n", cases[c].label.c_str(), us[c]);
    }
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    cktile_destroy(h);
    (void)hipFree(buffers);
    (void)hipFree(workspace);
    (void)hipStreamDestroy(stream);
    (void)hipStreamDestroy(blocking);
    return ok ? 0 : 1;
}
