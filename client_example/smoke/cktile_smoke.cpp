// SPDX-License-Identifier: MIT
// cktile-smoke: checks that this machine can run cktile kernels. Prints the device, runs a
// 256 MiB vectorised copy through the platform seam, verifies it and reports its bandwidth.
// Exit codes: 0 verified, 1 wrong result or runtime error, 2 no GPU device present.
#include "smoke_kernels.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

int main()
{
    const ck_tile::gpu_availability gpu = ck_tile::query_gpu_availability();
    if(!gpu.present)
    {
        std::printf("cktile-smoke: %s; nothing to run.\n", gpu.reason.c_str());
        return 2;
    }
    try
    {
        hipDeviceProp_t prop{};
        HIP_CHECK_ERROR(hipGetDeviceProperties(&prop, 0));
        std::printf("cktile-smoke: device 0: %s (target %s, %d SMs/CUs)\n", prop.name,
                    ck_tile::get_device_target_name(0).c_str(), prop.multiProcessorCount);

        const std::size_t n = (256u << 20) / sizeof(uint32_t);
        std::vector<uint32_t> host(n), back(n);
        uint64_t state = 0x9e3779b97f4a7c15ull;
        for(auto& v : host)
        {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            v = static_cast<uint32_t>(state);
        }
        ck_tile::DeviceMem src(n * sizeof(uint32_t)), dst(n * sizeof(uint32_t));
        src.ToDevice(host.data());
        dst.SetValue(0xA5);

        hipEvent_t start, stop;
        HIP_CHECK_ERROR(hipEventCreate(&start));
        HIP_CHECK_ERROR(hipEventCreate(&stop));
        HIP_CHECK_ERROR(cktile_smoke::launch_vector_copy(src.GetDeviceBuffer(),
                                                         dst.GetDeviceBuffer(), n, 4, nullptr));
        const int reps = 20;
        HIP_CHECK_ERROR(hipEventRecord(start));
        for(int i = 0; i < reps; ++i)
            HIP_CHECK_ERROR(cktile_smoke::launch_vector_copy(src.GetDeviceBuffer(),
                                                             dst.GetDeviceBuffer(), n, 4, nullptr));
        HIP_CHECK_ERROR(hipEventRecord(stop));
        HIP_CHECK_ERROR(hipEventSynchronize(stop));
        float ms = 0;
        HIP_CHECK_ERROR(hipEventElapsedTime(&ms, start, stop));
        dst.FromDevice(back.data());
        if(std::memcmp(host.data(), back.data(), n * sizeof(uint32_t)) != 0)
        {
            std::printf("cktile-smoke: FAILED: the copied data differs from the source\n");
            return 1;
        }
        const double seconds = ms / 1e3 / reps;
        std::printf("cktile-smoke: copy of %zu MiB verified; %.0f GB/s (read + write)\n",
                    (n * sizeof(uint32_t)) >> 20, 2.0 * n * sizeof(uint32_t) / seconds / 1e9);
        (void)hipEventDestroy(start);
        (void)hipEventDestroy(stop);
        return 0;
    }
    catch(const std::exception& e)
    {
        std::printf("cktile-smoke: FAILED: %s\n", e.what());
        return 1;
    }
}
