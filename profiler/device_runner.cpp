// SPDX-License-Identifier: MIT
#include "device_runner.hpp"

#include "clock_warmup.hpp"

#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

namespace cktile_profiler {

device_info device_info::query(int ordinal)
{
    hipDeviceProp_t prop{};
    HIP_CHECK_ERROR(hipGetDeviceProperties(&prop, ordinal));
    device_info d;
    d.ordinal       = ordinal;
    d.name          = prop.name;
    d.target        = ck_tile::get_device_target_name(ordinal);
    d.compute_units = prop.multiProcessorCount;
    d.l2_bytes      = static_cast<std::size_t>(std::max(0, prop.l2CacheSize));
    d.total_memory  = prop.totalGlobalMem;
    return d;
}

gemm_buffers::gemm_buffers(const cktile_gemm_problem_t& p, const gemm_host_inputs& inputs,
                           std::size_t l2_bytes, std::size_t max_sets)
    : geo_(gemm_geometry::of(p))
{
    set_bytes_ = geo_.a.bytes() + geo_.b.bytes() + geo_.d.bytes() +
                 (geo_.reads_c ? geo_.c.bytes() : 0) + (geo_.has_bias ? geo_.bias.bytes() : 0) +
                 (geo_.extras >= 1 ? geo_.d0.bytes() : 0) +
                 (geo_.extras >= 2 ? geo_.d1.bytes() : 0);
    // Sets until their total exceeds 2 x L2: then the set a run reads was evicted by the
    // ones after it, as in an application that does not call the same GEMM back to back.
    std::size_t want       = 2 * l2_bytes / std::max<std::size_t>(set_bytes_, 1) + 1;
    std::size_t free_bytes = 0, total_bytes = 0;
    if(hipMemGetInfo(&free_bytes, &total_bytes) == hipSuccess && set_bytes_ > 0)
        want = std::min(want, std::max<std::size_t>(1, free_bytes / 2 / set_bytes_));
    want = std::max<std::size_t>(1, std::min(want, max_sets));

    sets_.resize(want);
    for(std::size_t s = 0; s < want; ++s)
    {
        set& x = sets_[s];
        x.a.Realloc(geo_.a.bytes());
        x.b.Realloc(geo_.b.bytes());
        if(geo_.reads_c)
            x.c.Realloc(geo_.c.bytes());
        if(geo_.has_bias)
            x.bias.Realloc(geo_.bias.bytes());
        if(geo_.extras >= 1)
            x.d0.Realloc(geo_.d0.bytes());
        if(geo_.extras >= 2)
            x.d1.Realloc(geo_.d1.bytes());
        x.d.Realloc(geo_.d.bytes());
        auto fill = [&](const ck_tile::DeviceMem& dst, const std::vector<unsigned char>& host,
                        const ck_tile::DeviceMem& first) {
            if(host.empty())
                return;
            if(s == 0)
                dst.ToDevice(host.data(), host.size());
            else
                HIP_CHECK_ERROR(hipMemcpy(dst.GetDeviceBuffer(), first.GetDeviceBuffer(),
                                          host.size(), hipMemcpyDeviceToDevice));
        };
        fill(x.a, inputs.a, sets_[0].a);
        fill(x.b, inputs.b, sets_[0].b);
        fill(x.c, inputs.c, sets_[0].c);
        fill(x.bias, inputs.bias, sets_[0].bias);
        fill(x.d0, inputs.d0, sets_[0].d0);
        fill(x.d1, inputs.d1, sets_[0].d1);
        x.d.SetValue(poison_byte);
    }
}

cktile_gemm_args_t gemm_buffers::args(std::size_t s) const
{
    const set& x = sets_.at(s);
    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    a.a    = x.a.GetDeviceBuffer();
    a.b    = x.b.GetDeviceBuffer();
    a.c    = geo_.reads_c ? x.c.GetDeviceBuffer() : nullptr;
    a.bias = geo_.has_bias ? x.bias.GetDeviceBuffer() : nullptr;
    a.d    = x.d.GetDeviceBuffer();
    a.d0   = geo_.extras >= 1 ? x.d0.GetDeviceBuffer() : nullptr;
    a.d1   = geo_.extras >= 2 ? x.d1.GetDeviceBuffer() : nullptr;
    return a;
}

void gemm_buffers::poison_d(std::size_t s) const { sets_.at(s).d.SetValue(poison_byte); }

std::vector<unsigned char> gemm_buffers::read_d(std::size_t s) const
{
    std::vector<unsigned char> host(sets_.at(s).d.GetBufferSize());
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    sets_.at(s).d.FromDevice(host.data());
    return host;
}

namespace {

/// Events created once per process and reused: creating them per measurement costs more
/// than a small GEMM.
std::vector<hipEvent_t>& event_pool(std::size_t n)
{
    static std::vector<hipEvent_t> pool;
    while(pool.size() < n)
    {
        hipEvent_t e = nullptr;
        HIP_CHECK_ERROR(hipEventCreate(&e));
        pool.push_back(e);
    }
    return pool;
}

} // namespace

timing time_launches(const launch_fn& launch, std::size_t sets, int warmup, int iters,
                     hipStream_t stream, double steady_ms)
{
    timing t;
    sets = std::max<std::size_t>(sets, 1);
    // The profiler measures one thing at a time, on one thread.
    static std::optional<std::chrono::steady_clock::time_point> last_end;
    if(const double busy_ms = warmup_busy_ms(
           steady_ms, needs_clock_warmup(last_end, std::chrono::steady_clock::now()));
       busy_ms > 0)
    {
        auto& ev = event_pool(2);
        std::string failure;
        const double elapsed = warm_clocks(
            [&] {
                HIP_CHECK_ERROR(hipEventRecord(ev[0], stream));
                for(std::size_t i = 0; i < 8; ++i)
                    if(std::string e = launch(i % sets, stream); !e.empty())
                    {
                        failure = e;
                        (void)hipStreamSynchronize(stream);
                        return -1.0;
                    }
                HIP_CHECK_ERROR(hipEventRecord(ev[1], stream));
                HIP_CHECK_ERROR(hipEventSynchronize(ev[1]));
                float ms = 0;
                HIP_CHECK_ERROR(hipEventElapsedTime(&ms, ev[0], ev[1]));
                return static_cast<double>(ms);
            },
            busy_ms,
            static_cast<int>(10000 * std::clamp(busy_ms / clock_warmup_busy_ms, 1.0, 1000.0)));
        if(elapsed < 0)
        {
            t.error = failure;
            return t;
        }
    }
    for(int i = 0; i < warmup; ++i)
        if(std::string e = launch(static_cast<std::size_t>(i) % sets, stream); !e.empty())
        {
            t.error = e;
            return t;
        }
    const std::size_t n = static_cast<std::size_t>(std::max(iters, 1));
    auto& ev            = event_pool(2 * n + 2); // the last two: the back-to-back pass
    for(std::size_t i = 0; i < n; ++i)
    {
        HIP_CHECK_ERROR(hipEventRecord(ev[2 * i], stream));
        if(std::string e = launch((static_cast<std::size_t>(warmup) + i) % sets, stream);
           !e.empty())
        {
            t.error = e;
            (void)hipStreamSynchronize(stream);
            return t;
        }
        HIP_CHECK_ERROR(hipEventRecord(ev[2 * i + 1], stream));
    }
    if(const hipError_t e = hipEventSynchronize(ev[2 * n - 1]); e != hipSuccess)
    {
        t.error =
            std::string("the device reported an error while running: ") + hipGetErrorString(e);
        return t;
    }
    // The back-to-back pass: no events between the kernels, so the gap between two launches
    // is the device's own and not the event's.
    HIP_CHECK_ERROR(hipEventRecord(ev[2 * n], stream));
    for(std::size_t i = 0; i < n; ++i)
        if(std::string e = launch((static_cast<std::size_t>(warmup) + n + i) % sets, stream);
           !e.empty())
        {
            t.error = e;
            (void)hipStreamSynchronize(stream);
            return t;
        }
    HIP_CHECK_ERROR(hipEventRecord(ev[2 * n + 1], stream));
    if(const hipError_t e = hipEventSynchronize(ev[2 * n + 1]); e != hipSuccess)
    {
        t.error =
            std::string("the device reported an error while running: ") + hipGetErrorString(e);
        return t;
    }
    last_end    = std::chrono::steady_clock::now();
    float total = 0;
    HIP_CHECK_ERROR(hipEventElapsedTime(&total, ev[2 * n], ev[2 * n + 1]));
    t.back_to_back_ms = total / static_cast<double>(n);
    std::vector<double> ms(n);
    for(std::size_t i = 0; i < n; ++i)
    {
        float v = 0;
        HIP_CHECK_ERROR(hipEventElapsedTime(&v, ev[2 * i], ev[2 * i + 1]));
        ms[i] = v;
    }
    std::sort(ms.begin(), ms.end());
    t.runs      = static_cast<int>(n);
    t.min_ms    = ms.front();
    t.max_ms    = ms.back();
    t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return t;
}

} // namespace cktile_profiler
