// SPDX-License-Identifier: MIT
// profile, tune and overhead: the modes that run kernels. Every launch goes through the C API
// (cktile_gemm_run, cktile_gemm_select_measured); the vendor row runs on the same buffers
// with the same timing, so ratios come from one process and one method.
#include "device_runner.hpp"
#include "progress.hpp"
#include "session.hpp"
#include "vendor.hpp"

#include "ck_tile/host/hip_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>

namespace cktile_profiler {

namespace {

/// A stream of our own: the legacy default stream would synchronise with other work.
class stream_guard
{
    public:
    stream_guard() { HIP_CHECK_ERROR(hipStreamCreateWithFlags(&s_, hipStreamNonBlocking)); }
    ~stream_guard() { (void)hipStreamDestroy(s_); }
    stream_guard(const stream_guard&)            = delete;
    stream_guard& operator=(const stream_guard&) = delete;
    hipStream_t get() const { return s_; }

    private:
    hipStream_t s_ = nullptr;
};

/// Workspace shared by every instance of a run; grows to the largest request.
class workspace
{
    public:
    void* reserve(std::size_t bytes)
    {
        if(bytes > mem_.GetBufferSize())
            mem_.Realloc(bytes);
        return bytes ? mem_.GetDeviceBuffer() : nullptr;
    }
    std::size_t size() const { return mem_.GetBufferSize(); }

    private:
    ck_tile::DeviceMem mem_;
};

std::string support_reason(cktile_handle_t h, std::uint64_t id, const cktile_gemm_problem_t& p,
                           const cktile_gemm_args_t* args)
{
    char reason[512]         = {};
    const cktile_status_t st = cktile_gemm_supports(h, id, &p, args, reason, sizeof(reason));
    if(st == CKTILE_STATUS_SUCCESS)
        return "";
    return reason[0] ? reason : cktile_get_last_error_message();
}

std::string run_error(cktile_status_t st)
{
    return std::string(cktile_status_string(st)) + ": " + cktile_get_last_error_message();
}

/// The device facts every device mode reports.
void add_device_context(report& rep, const device_info& dev)
{
    rep.context.emplace_back("device_name", dev.name);
    rep.context.emplace_back("device_target", dev.target);
    rep.context.emplace_back("l2_bytes", static_cast<std::int64_t>(dev.l2_bytes));
}

/// Fills time, throughput and verification fields of a row from its timing `t`; `launch`
/// runs it once more for the verification. Returns false when the row failed (a run error or
/// a failed verification).
bool record_measurement(record& r, const timing& t, const cktile_gemm_problem_t& p,
                        const launch_fn& launch, const gemm_buffers& buffers,
                        const gemm_reference* reference, hipStream_t stream)
{
    if(!t.error.empty())
    {
        r.set("status", std::string("error"));
        r.set("reason", t.error);
        return false;
    }
    r.set("status", std::string("ok"));
    r.set("time_ms", t.median_ms);
    r.set("min_ms", t.min_ms);
    r.set("max_ms", t.max_ms);
    r.set("back_to_back_ms", t.back_to_back_ms);
    r.set("tflops", gemm_flops(p) / (t.median_ms * 1e-3) / 1e12);
    r.set("gbps", gemm_min_bytes(p) / (t.median_ms * 1e-3) / 1e9);
    r.set("runs", static_cast<std::int64_t>(t.runs));
    r.set("buffer_sets", static_cast<std::int64_t>(buffers.sets()));
    if(!reference)
    {
        r.set("verify", std::string("-"));
        return true;
    }
    buffers.poison_d(0);
    if(const std::string e = launch(0, stream); !e.empty())
    {
        r.set("status", std::string("error"));
        r.set("reason", e);
        return false;
    }
    HIP_CHECK_ERROR(hipStreamSynchronize(stream));
    const verify_result v = reference->check(buffers.read_d(0));
    r.set("verify", std::string(v.passed ? "pass" : "FAIL"));
    r.set("verify_detail", v.summary());
    r.set("max_error_over_tolerance", v.max_error_over_tol);
    return v.passed;
}

const cell* field(const record& r, const char* key) { return r.get(key); }

double time_of(const record& r)
{
    const cell* c = field(r, "time_ms");
    return c && std::holds_alternative<double>(*c) ? std::get<double>(*c)
                                                   : std::numeric_limits<double>::infinity();
}

bool usable(const record& r)
{
    const cell* st = field(r, "status");
    const cell* v  = field(r, "verify");
    return st && std::get<std::string>(*st) == "ok" &&
           !(v && std::holds_alternative<std::string>(*v) && std::get<std::string>(*v) == "FAIL");
}

/// The conclusion for one problem: the fastest verified cktile instance, the heuristic's pick,
/// and the vendor's time.
record summarise(std::size_t pi, const cktile_gemm_problem_t& p, const std::vector<record>& rows,
                 const std::string& vendor)
{
    const record *best = nullptr, *pick = nullptr, *ven = nullptr;
    for(const record& r : rows)
    {
        if(!usable(r))
            continue;
        if(std::get<std::string>(*field(r, "provider")) != "cktile")
            ven = &r;
        else
        {
            if(!best || time_of(r) < time_of(*best))
                best = &r;
            if(const cell* hc = field(r, "heuristic"); hc && std::get<bool>(*hc))
                pick = &r;
        }
    }
    record sum;
    add_problem_fields(sum, pi, p);
    std::string text = "problem " + std::to_string(pi) + " " + shape_text(p) + " " + types_text(p) +
                       " " + layouts_text(p) + ": ";
    if(!best)
        text += "no cktile instance ran it successfully";
    else
    {
        const std::string name = std::get<std::string>(*field(*best, "instance"));
        sum.set("best_instance", name);
        sum.set("best_time_ms", time_of(*best));
        sum.set("best_tflops", *field(*best, "tflops"));
        sum.set("best_replay", *field(*best, "replay"));
        text += "best " + name + " " + table_text(time_of(*best)) + " ms " +
                table_text(*field(*best, "tflops")) + " TFLOP/s";
        if(pick)
        {
            sum.set("heuristic_instance", *field(*pick, "instance"));
            sum.set("heuristic_time_ms", time_of(*pick));
            sum.set("heuristic_vs_best", time_of(*best) / time_of(*pick));
            text +=
                "; heuristic pick at " + table_text(time_of(*best) / time_of(*pick)) + "x of best";
        }
    }
    if(ven)
    {
        sum.set("vendor", vendor);
        sum.set("vendor_time_ms", time_of(*ven));
        sum.set("vendor_tflops", *field(*ven, "tflops"));
        text += "; " + vendor + " " + table_text(time_of(*ven)) + " ms";
        if(best)
        {
            // Above 1: cktile is faster than the vendor on this problem.
            sum.set("speed_vs_vendor", time_of(*ven) / time_of(*best));
            text += " (cktile at " + table_text(time_of(*ven) / time_of(*best)) + "x its speed)";
        }
    }
    sum.set("text", text);
    return sum;
}

} // namespace

int run_profile(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
                cktile_handle_t h, report& rep, std::ostream& err)
{
    HIP_CHECK_ERROR(hipSetDevice(s.device));
    const device_info dev = device_info::query(s.device);
    add_device_context(rep, dev);
    bool vendor_named                               = false;
    const std::vector<cktile_instance_info_t> insts = chosen_instances(h, s, vendor_named);
    const bool want_vendor                          = s.instances.empty() ? s.vendor : vendor_named;
    std::unique_ptr<vendor_gemm> vendor;
    if(want_vendor)
    {
        std::string why;
        vendor = make_vendor_gemm(s.device, why);
        if(vendor)
            rep.context.emplace_back("vendor", vendor->version());
        else if(vendor_named || s.given("vendor"))
            rep.notes.push_back("no vendor row: " + why);
    }
    rep.table_columns = {"problem",  "shape",    "types",     "layouts", "epilogue",
                         "provider", "instance", "status",    "time_ms", "tflops",
                         "gbps",     "verify",   "heuristic", "replay"};
    stream_guard stream;
    workspace ws;
    progress_bar bar(err, problems.size() * (insts.size() + (vendor ? 1 : 0)), s.progress);
    int code = exit_ok;

    for(std::size_t pi = 0; pi < problems.size(); ++pi)
    {
        const cktile_gemm_problem_t& p = problems[pi];
        // Instances of other types cannot run the problem; enumerate lists them. Explicitly
        // named instances are always reported.
        std::vector<cktile_instance_info_t> mine;
        for(const auto& info : insts)
            if(!s.instances.empty() || gemm_types_match(info, p))
                mine.push_back(info);
        std::vector<record> rows;
        auto base_row = [&](const std::string& provider) {
            record r;
            add_problem_fields(r, pi, p);
            r.set("provider", provider);
            return r;
        };
        try
        {
            const gemm_host_inputs inputs = gemm_host_inputs::random(p, s.seed + pi);
            std::optional<gemm_reference> reference;
            if(s.verify)
            {
                verify_options vo;
                vo.seed = s.seed + pi;
                reference.emplace(p, inputs, vo);
            }
            const gemm_buffers buffers(p, inputs, dev.l2_bytes);
            const cktile_gemm_args_t args0 = buffers.args(0);
            std::uint64_t pick             = 0;
            cktile_gemm_select(h, &p, &args0, CKTILE_SELECT_HEURISTIC, &pick);

            // The rows that can run, timed together afterwards: one workspace, as large as the
            // largest request, serves them all.
            std::vector<std::size_t> timed_rows;
            std::vector<launch_fn> launches;
            std::vector<std::uint64_t> timed_ids;
            std::vector<std::string> timed_names;
            std::size_t most_workspace = 0;
            for(const cktile_instance_info_t& info : mine)
            {
                record r = base_row("cktile");
                add_instance_fields(r, info);
                r.set("heuristic", info.id == pick);
                r.set("replay", replay_command(s, p, info.name));
                const std::string why = support_reason(h, info.id, p, &args0);
                r.set("supported", why.empty());
                if(!why.empty())
                {
                    r.set("status", std::string("unsupported"));
                    r.set("reason", why);
                }
                else
                {
                    std::size_t need = 0;
                    cktile_gemm_workspace_size(h, info.id, &p, &need);
                    most_workspace = std::max(most_workspace, need);
                    timed_rows.push_back(rows.size());
                    timed_ids.push_back(info.id);
                    timed_names.push_back(info.name);
                }
                rows.push_back(std::move(r));
            }
            void* const wptr    = ws.reserve(most_workspace);
            const std::size_t n = ws.size();
            for(const std::uint64_t id : timed_ids)
                launches.push_back([&, id](std::size_t set, hipStream_t st) -> std::string {
                    const cktile_gemm_args_t a = buffers.args(set);
                    const cktile_status_t rs   = cktile_gemm_run(h, id, &p, &a, wptr, n, st);
                    return rs == CKTILE_STATUS_SUCCESS ? "" : run_error(rs);
                });
            if(vendor)
            {
                record r = base_row(vendor->name());
                r.set("instance", vendor->name());
                r.set("replay", replay_command(s, p, vendor->name()));
                const std::string why = vendor->prepare(p);
                r.set("supported", why.empty());
                if(!why.empty())
                {
                    r.set("status", std::string("unsupported"));
                    r.set("reason", why);
                }
                else
                {
                    r.set("algorithm", vendor->algorithm());
                    timed_rows.push_back(rows.size());
                    timed_names.push_back(vendor->name());
                    launches.push_back([&](std::size_t set, hipStream_t st) {
                        return vendor->run(buffers.args(set), st);
                    });
                }
                rows.push_back(std::move(r));
            }

            std::vector<timing> times(launches.size());
            try
            {
                times = time_launches_in_rounds(launches, buffers.sets(), s.warmup, s.iters,
                                                s.rounds, stream.get(), s.steady_ms);
            }
            catch(const std::exception& e)
            {
                for(timing& t : times)
                    t.error = e.what();
            }
            for(std::size_t k = 0; k < launches.size(); ++k)
            {
                record& r = rows[timed_rows[k]];
                bar.step(shape_text(p) + " " + timed_names[k]);
                try
                {
                    if(!record_measurement(r, times[k], p, launches[k], buffers,
                                           reference ? &*reference : nullptr, stream.get()))
                        code = exit_failed;
                }
                catch(const std::exception& e)
                {
                    r.set("status", std::string("error"));
                    r.set("reason", std::string(e.what()));
                    code = exit_failed;
                }
            }
            for(std::size_t k = launches.size(); k < rows.size(); ++k)
                bar.step(shape_text(p));
        }
        catch(const std::exception& e)
        {
            // Set-up of the problem failed (out of memory, a device error): one row says so.
            record r = base_row("cktile");
            r.set("status", std::string("error"));
            r.set("reason", std::string(e.what()));
            r.set("replay", replay_command(s, p, ""));
            rows.push_back(std::move(r));
            code = exit_failed;
        }
        rep.summary.push_back(summarise(pi, p, rows, vendor ? vendor->name() : ""));
        for(record& r : rows)
            rep.rows.push_back(std::move(r));
    }
    bar.finish();
    return code;
}

int run_tune(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
             cktile_handle_t h, report& rep, std::ostream& err)
{
    HIP_CHECK_ERROR(hipSetDevice(s.device));
    const device_info dev = device_info::query(s.device);
    add_device_context(rep, dev);
    // Keep what the database already holds: entries for other problems survive the rewrite.
    if(std::FILE* f = std::fopen(s.tuning_db.c_str(), "r"))
    {
        std::fclose(f);
        std::size_t loaded = 0;
        if(cktile_tuning_db_load(h, s.tuning_db.c_str(), &loaded) == CKTILE_STATUS_SUCCESS)
            rep.notes.push_back("kept " + std::to_string(loaded) + " entries of " + s.tuning_db);
        else
            rep.notes.push_back("ignored the existing " + s.tuning_db + ": " +
                                cktile_get_last_error_message());
    }
    rep.table_columns = {"problem",           "shape",    "types",   "layouts",
                         "epilogue",          "instance", "time_ms", "heuristic_instance",
                         "heuristic_time_ms", "status",   "replay"};
    stream_guard stream;
    workspace ws;
    progress_bar bar(err, problems.size(), s.progress);
    int code = exit_ok;
    for(std::size_t pi = 0; pi < problems.size(); ++pi)
    {
        const cktile_gemm_problem_t& p = problems[pi];
        bar.step(shape_text(p));
        record r;
        add_problem_fields(r, pi, p);
        r.set("provider", std::string("cktile"));
        r.set("replay", replay_command(s, p, ""));
        try
        {
            const gemm_host_inputs inputs = gemm_host_inputs::random(p, s.seed + pi);
            const gemm_buffers buffers(p, inputs, dev.l2_bytes);
            const cktile_gemm_args_t args0 = buffers.args(0);
            std::size_t need               = 0;
            for(const cktile_instance_info_t& info : list_instances(h))
            {
                std::size_t w = 0;
                if(support_reason(h, info.id, p, &args0).empty() &&
                   cktile_gemm_workspace_size(h, info.id, &p, &w) == CKTILE_STATUS_SUCCESS)
                    need = std::max(need, w);
            }
            void* wptr            = ws.reserve(need);
            std::uint64_t chosen  = 0;
            std::uint64_t guessed = 0;
            const cktile_status_t st =
                cktile_gemm_select_measured(h, &p, &args0, wptr, ws.size(), stream.get(), &chosen);
            if(st != CKTILE_STATUS_SUCCESS)
            {
                r.set("status", std::string("error"));
                r.set("reason", run_error(st));
                code = exit_failed;
                rep.rows.push_back(std::move(r));
                continue;
            }
            cktile_gemm_select(h, &p, &args0, CKTILE_SELECT_HEURISTIC, &guessed);
            // Both picks timed the profile way, so the gain of tuning is visible.
            auto timed = [&](std::uint64_t id) {
                const launch_fn launch = [&](std::size_t set, hipStream_t hs) -> std::string {
                    const cktile_gemm_args_t a = buffers.args(set);
                    const cktile_status_t rs = cktile_gemm_run(h, id, &p, &a, wptr, ws.size(), hs);
                    return rs == CKTILE_STATUS_SUCCESS ? "" : run_error(rs);
                };
                return time_launches(launch, buffers.sets(), s.warmup, s.iters, stream.get(),
                                     s.steady_ms);
            };
            cktile_instance_info_t ci{}, gi{};
            ci.struct_size = gi.struct_size = sizeof(ci);
            cktile_get_instance_info_by_id(h, chosen, &ci);
            cktile_get_instance_info_by_id(h, guessed, &gi);
            add_instance_fields(r, ci);
            r.set("heuristic_instance", std::string(gi.name));
            r.set("agrees_with_heuristic", chosen == guessed);
            const timing tc = timed(chosen);
            const timing tg = chosen == guessed ? tc : timed(guessed);
            if(!tc.error.empty() || !tg.error.empty())
            {
                r.set("status", std::string("error"));
                r.set("reason", tc.error.empty() ? tg.error : tc.error);
                code = exit_failed;
            }
            else
            {
                r.set("status", std::string("ok"));
                r.set("time_ms", tc.median_ms);
                r.set("tflops", gemm_flops(p) / (tc.median_ms * 1e-3) / 1e12);
                r.set("heuristic_time_ms", tg.median_ms);
            }
        }
        catch(const std::exception& e)
        {
            r.set("status", std::string("error"));
            r.set("reason", std::string(e.what()));
            code = exit_failed;
        }
        rep.rows.push_back(std::move(r));
    }
    bar.finish();
    if(cktile_tuning_db_save(h, s.tuning_db.c_str()) != CKTILE_STATUS_SUCCESS)
    {
        err << "cktile-profiler: cannot write the tuning database " << s.tuning_db << ": "
            << cktile_get_last_error_message() << "\n";
        return exit_setup;
    }
    rep.notes.push_back("wrote the tuning database " + s.tuning_db +
                        " (use it with CKTILE_TUNING_DB=" + s.tuning_db +
                        " or cktile_tuning_db_load)");
    return code;
}

int run_overhead(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
                 cktile_handle_t h, report& rep, std::ostream& err)
{
    HIP_CHECK_ERROR(hipSetDevice(s.device));
    const device_info dev = device_info::query(s.device);
    add_device_context(rep, dev);
    if(const char* lvl = std::getenv("CKTILE_LOG_LEVEL"); lvl && *lvl)
        rep.notes.push_back(std::string("CKTILE_LOG_LEVEL=") + lvl +
                            " is set: logging is part of the measured host time");
    rep.table_columns = {"problem",   "shape",     "types",        "variant",  "host_us_per_call",
                         "device_us", "target_us", "meets_target", "instance", "replay"};
    constexpr double target_us = 2.0;
    // Calls per timed batch: few enough that the launch queue (about a thousand entries)
    // never fills, so the host clock sees issue cost, not the device draining the queue.
    constexpr int batch = 256;
    stream_guard stream;
    workspace ws;
    progress_bar bar(err, problems.size(), s.progress);
    int code = exit_ok;
    for(std::size_t pi = 0; pi < problems.size(); ++pi)
    {
        const cktile_gemm_problem_t& p = problems[pi];
        bar.step(shape_text(p));
        const gemm_host_inputs inputs = gemm_host_inputs::random(p, s.seed + pi);
        const gemm_buffers buffers(p, inputs, 0, 1);
        const cktile_gemm_args_t a = buffers.args(0);
        std::uint64_t id           = 0;
        if(cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &id) != CKTILE_STATUS_SUCCESS)
        {
            err << "cktile-profiler: no instance runs problem " << pi << ": "
                << cktile_get_last_error_message() << "\n";
            code = exit_failed;
            continue;
        }
        std::size_t need = 0;
        cktile_gemm_workspace_size(h, id, &p, &need);
        void* wptr          = ws.reserve(need);
        const std::size_t n = ws.size();
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        cktile_get_instance_info_by_id(h, id, &info);

        const hipStream_t st = stream.get();
        using clock          = std::chrono::steady_clock;
        // One call of each variant; returns false when the C API reports a failure.
        const std::vector<std::pair<std::string, std::function<bool()>>> variants = {
            {"select+run",
             [&] {
                 std::uint64_t picked = 0;
                 return cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &picked) ==
                            CKTILE_STATUS_SUCCESS &&
                        cktile_gemm_run(h, picked, &p, &a, wptr, n, st) == CKTILE_STATUS_SUCCESS;
             }},
            {"run(auto)",
             [&] {
                 return cktile_gemm_run(h, CKTILE_INSTANCE_AUTO, &p, &a, wptr, n, st) ==
                        CKTILE_STATUS_SUCCESS;
             }},
            {"run(id)",
             [&] { return cktile_gemm_run(h, id, &p, &a, wptr, n, st) == CKTILE_STATUS_SUCCESS; }},
            {"select",
             [&] {
                 std::uint64_t picked = 0;
                 return cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &picked) ==
                        CKTILE_STATUS_SUCCESS;
             }},
            // The host work run(id) does before its launch (handle, validation, the instance's
            // support check): run(id) minus this is the device switch and the launch itself.
            {"supports(id)", [&] {
                 return cktile_gemm_supports(h, id, &p, &a, nullptr, 0) == CKTILE_STATUS_SUCCESS;
             }}};

        const launch_fn one = [&](std::size_t, hipStream_t hs) -> std::string {
            const cktile_status_t rs = cktile_gemm_run(h, id, &p, &a, wptr, n, hs);
            return rs == CKTILE_STATUS_SUCCESS ? "" : run_error(rs);
        };
        const timing device = time_launches(one, 1, 10, 50, st);

        for(const auto& [label, call] : variants)
        {
            record r;
            add_problem_fields(r, pi, p);
            r.set("provider", std::string("cktile"));
            r.set("variant", label);
            add_instance_fields(r, info);
            r.set("replay", replay_command(s, p, ""));
            bool ok = true;
            for(int i = 0; i < 2 * batch && ok; ++i) // warm caches and the handle's paths
                ok = call();
            HIP_CHECK_ERROR(hipStreamSynchronize(st));
            std::vector<double> per_call;
            for(int done = 0; done < s.calls && ok; done += batch)
            {
                const int count = std::min(batch, s.calls - done);
                const auto t0   = clock::now();
                for(int i = 0; i < count && ok; ++i)
                    ok = call();
                const auto t1 = clock::now();
                HIP_CHECK_ERROR(hipStreamSynchronize(st));
                per_call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() /
                                   count);
            }
            if(!ok)
            {
                r.set("status", std::string("error"));
                r.set("reason", std::string(cktile_get_last_error_message()));
                code = exit_failed;
                rep.rows.push_back(std::move(r));
                continue;
            }
            std::sort(per_call.begin(), per_call.end());
            const double median = per_call[per_call.size() / 2];
            r.set("status", std::string("ok"));
            r.set("host_us_per_call", median);
            r.set("calls", static_cast<std::int64_t>(s.calls));
            if(device.error.empty())
                r.set("device_us", device.median_ms * 1e3);
            r.set("target_us", target_us);
            r.set("meets_target", median < target_us);
            if(label == "select+run")
            {
                record sum;
                add_problem_fields(sum, pi, p);
                sum.set("host_us_per_call", median);
                sum.set("text", "host overhead of a cached selection + launch (" + shape_text(p) +
                                    " " + types_text(p) + "): " + table_text(median) +
                                    " us per call; target < 2 us: " +
                                    (median < target_us ? "met" : "NOT met"));
                rep.summary.push_back(std::move(sum));
            }
            rep.rows.push_back(std::move(r));
        }
    }
    bar.finish();
    return code;
}

} // namespace cktile_profiler
