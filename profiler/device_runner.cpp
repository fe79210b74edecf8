// SPDX-License-Identifier: MIT
#include "device_runner.hpp"

#include "clock_warmup.hpp"
#include "timing_rounds.hpp"

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
    return time_launches_in_rounds({launch}, sets, warmup, iters, 1, stream, steady_ms).front();
}

std::vector<timing> time_launches_in_rounds(const std::vector<launch_fn>& launches,
                                            std::size_t sets, int warmup, int iters, int rounds,
                                            hipStream_t stream, double steady_ms)
{
    const std::size_t rows = launches.size();
    std::vector<timing> t(rows);
    if(rows == 0)
        return t;
    sets = std::max<std::size_t>(sets, 1);
    // One count over every row's launches: consecutive launches, of one row or of two, use
    // different buffer sets, so that no row finds its operands in L2 from the row before.
    std::size_t launches_so_far = 0;
    const auto live             = [&](std::size_t r) { return t[r].error.empty(); };
    // Runs row r once; a failure is the row's and ends its measurement, not the others'.
    const auto run = [&](std::size_t r) {
        if(std::string e = launches[r](launches_so_far++ % sets, stream); !e.empty())
        {
            t[r].error = std::move(e);
            (void)hipStreamSynchronize(stream);
            return false;
        }
        return true;
    };
    const auto device_failed = [&](hipError_t e) {
        for(std::size_t r = 0; r < rows; ++r)
            if(live(r))
                t[r].error = std::string("the device reported an error while running: ") +
                             hipGetErrorString(e);
        return t;
    };

    // Events: per row of a round, a pair per timed run and the back-to-back pair; the last two
    // time the untimed stretches. Sized once: pointers into the pool stay valid.
    const int round_count = effective_rounds(iters, rounds);
    const std::size_t most_runs =
        static_cast<std::size_t>(round_runs(std::max(iters, 1), round_count, 0));
    const std::size_t events_per_row = 2 * most_runs + 2;
    auto& ev                         = event_pool(rows * events_per_row + 2);
    hipEvent_t* const busy_events    = &ev[rows * events_per_row];

    // Keeps the device busy with the rows in `who`, in turn, for busy_ms of device time.
    const auto keep_busy = [&](const std::vector<std::size_t>& who, double busy_ms) {
        warm_clocks(
            [&] {
                if(std::none_of(who.begin(), who.end(), live))
                    return -1.0;
                HIP_CHECK_ERROR(hipEventRecord(busy_events[0], stream));
                for(std::size_t i = 0; i < 8; ++i)
                    for(const std::size_t r : who)
                        if(live(r))
                            run(r);
                HIP_CHECK_ERROR(hipEventRecord(busy_events[1], stream));
                HIP_CHECK_ERROR(hipEventSynchronize(busy_events[1]));
                float ms = 0;
                HIP_CHECK_ERROR(hipEventElapsedTime(&ms, busy_events[0], busy_events[1]));
                return static_cast<double>(ms);
            },
            busy_ms,
            static_cast<int>(10000 * std::clamp(busy_ms / clock_warmup_busy_ms, 1.0, 1000.0)));
    };

    // The profiler measures one thing at a time, on one thread.
    static std::optional<std::chrono::steady_clock::time_point> last_end;
    if(const double busy_ms =
           warmup_busy_ms(0, needs_clock_warmup(last_end, std::chrono::steady_clock::now()));
       busy_ms > 0)
        keep_busy(round_order(rows, 0), busy_ms);
    for(int i = 0; i < warmup; ++i)
        for(std::size_t r = 0; r < rows; ++r)
            if(live(r))
                run(r);

    // Round by round, each row's runs bracketed by their own pairs of events, then as many
    // again back to back between one pair (no event between the kernels, so the gap between
    // two launches is the device's own). One synchronisation per round, and one per stretch of
    // steady_ms: the row itself, untimed, before each of its turns, so that a card whose clock
    // follows its power draw times each row in the state its own load holds and not in the
    // one the row before it left.
    std::vector<std::vector<double>> ms(rows);
    std::vector<double> back_to_back_total(rows, 0.0);
    for(int round = 0; round < round_count; ++round)
    {
        const std::size_t n =
            static_cast<std::size_t>(round_runs(std::max(iters, 1), round_count, round));
        const std::vector<std::size_t> order = round_order(rows, round);
        hipEvent_t last_event                = nullptr;
        for(std::size_t pos = 0; pos < rows; ++pos)
        {
            const std::size_t r = order[pos];
            if(steady_ms > 0)
                keep_busy({r}, steady_ms);
            if(!live(r))
                continue;
            hipEvent_t* const e = &ev[pos * events_per_row];
            bool ok             = true;
            for(std::size_t i = 0; ok && i < n; ++i)
            {
                HIP_CHECK_ERROR(hipEventRecord(e[2 * i], stream));
                ok = run(r);
                if(ok)
                    HIP_CHECK_ERROR(hipEventRecord(e[2 * i + 1], stream));
            }
            if(!ok)
                continue;
            HIP_CHECK_ERROR(hipEventRecord(e[2 * n], stream));
            for(std::size_t i = 0; ok && i < n; ++i)
                ok = run(r);
            if(!ok)
                continue;
            HIP_CHECK_ERROR(hipEventRecord(e[2 * n + 1], stream));
            last_event = e[2 * n + 1];
        }
        if(last_event == nullptr)
            break; // every row failed
        if(const hipError_t err = hipEventSynchronize(last_event); err != hipSuccess)
            return device_failed(err);
        for(std::size_t pos = 0; pos < rows; ++pos)
        {
            const std::size_t r = order[pos];
            if(!live(r))
                continue;
            const hipEvent_t* const e = &ev[pos * events_per_row];
            for(std::size_t i = 0; i < n; ++i)
            {
                float v = 0;
                HIP_CHECK_ERROR(hipEventElapsedTime(&v, e[2 * i], e[2 * i + 1]));
                ms[r].push_back(v);
            }
            float total = 0;
            HIP_CHECK_ERROR(hipEventElapsedTime(&total, e[2 * n], e[2 * n + 1]));
            back_to_back_total[r] += total;
        }
    }
    last_end = std::chrono::steady_clock::now();
    for(std::size_t r = 0; r < rows; ++r)
    {
        if(!live(r))
            continue;
        std::vector<double>& m = ms[r];
        std::sort(m.begin(), m.end());
        const std::size_t n  = m.size();
        t[r].runs            = static_cast<int>(n);
        t[r].min_ms          = m.front();
        t[r].max_ms          = m.back();
        t[r].median_ms       = n % 2 ? m[n / 2] : 0.5 * (m[n / 2 - 1] + m[n / 2]);
        t[r].back_to_back_ms = back_to_back_total[r] / static_cast<double>(n);
    }
    return t;
}

} // namespace cktile_profiler
