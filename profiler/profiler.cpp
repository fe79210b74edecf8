// SPDX-License-Identifier: MIT
// The invocation: command line -> settings and problems -> a handle (device or offline
// target) -> one mode -> the table, CSV and JSON.
#include "profiler.hpp"

#include "memops_profiler.hpp"
#include "progress.hpp"
#include "rowwise_profiler.hpp"
#include "session.hpp"
#include "vendor.hpp"

#include "ck_tile/host/device_query.hpp"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace cktile_profiler {

namespace {

int positive_int(const command_line& cl, const std::string& name, int fallback, int minimum)
{
    if(!cl.has(name))
        return fallback;
    const std::string& t = cl.values.at(name);
    int v                = 0;
    const auto r         = std::from_chars(t.data(), t.data() + t.size(), v);
    if(r.ec != std::errc() || r.ptr != t.data() + t.size() || v < minimum)
        throw usage_error("--" + name + "=" + t + ": expected an integer of at least " +
                          std::to_string(minimum));
    return v;
}

std::vector<std::string> split_list(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    for(std::string item; std::getline(in, item, ',');)
        if(!item.empty())
            out.push_back(item);
    return out;
}

bool equal_nocase(const std::string& a, const std::string& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

} // namespace

bool settings::given(const std::string& option) const { return cl.has(option); }

settings read_settings(const command_line& cl)
{
    settings s;
    s.cl        = cl;
    s.mode      = cl.mode;
    s.device    = positive_int(cl, "device", 0, 0);
    s.target    = cl.text("target");
    s.warmup    = positive_int(cl, "warmup", 10, 0);
    s.iters     = positive_int(cl, "iters", 50, 1);
    s.steady_ms = positive_int(cl, "steady-ms", 0, 0);
    s.rounds    = positive_int(cl, "rounds", 5, 1);
    s.calls     = positive_int(cl, "calls", 5000, 1);
    s.seed      = static_cast<std::uint64_t>(positive_int(cl, "seed", 1, 0));
    s.verify    = cl.flag("verify", false);
    s.vendor    = cl.flag("vendor", true);
    s.quiet     = cl.flag("quiet", false);
    s.csv       = cl.text("csv");
    s.json      = cl.text("json");
    if(s.csv == "-" && s.json == "-")
        throw usage_error("--csv=- and --json=- both want stdout; send one to a file");
    s.progress  = cl.flag("progress", stderr_is_terminal());
    s.tuning_db = cl.text("tuning-db", s.mode == "tune" ? "cktile-tuning-db.json" : "");
    s.instances = split_list(cl.text("instance"));
    if(cl.has("instance") && s.instances.empty())
        throw usage_error("--instance: expected a name, an id or a comma-separated list");
    if(!s.target.empty() && s.mode != "enumerate" && s.mode != "select")
    {
        // Running needs the device's own library; a target names it only offline.
        const auto gpu = ck_tile::query_gpu_availability();
        if(gpu.present)
        {
            const std::string dt = ck_tile::get_device_target_name(s.device);
            if(dt != s.target)
                throw usage_error("--target=" + s.target + " but device " +
                                  std::to_string(s.device) + " is " + dt + "; " + s.mode +
                                  " runs on the device (--target is for enumerate and select)");
        }
    }
    return s;
}

std::string shell_word(const std::string& s)
{
    if(!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789-_=.,:/+@%") == std::string::npos)
        return s;
    std::string q = "'";
    for(char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string replay_command(const settings& s, const cktile_gemm_problem_t& p,
                           const std::string& instance)
{
    std::string c = "cktile-profiler gemm " + s.mode + gemm_problem_options(p);
    if(!instance.empty())
        c += " " + shell_word("--instance=" + instance);
    if(s.device != 0)
        c += " --device=" + std::to_string(s.device);
    if(s.mode == "enumerate" || s.mode == "select")
    {
        if(!s.target.empty())
            c += " " + shell_word("--target=" + s.target);
        if(s.mode == "select" && !s.tuning_db.empty())
            c += " " + shell_word("--tuning-db=" + s.tuning_db);
    }
    if(s.mode == "profile")
    {
        if(s.warmup != 10)
            c += " --warmup=" + std::to_string(s.warmup);
        if(s.iters != 50)
            c += " --iters=" + std::to_string(s.iters);
        if(s.steady_ms != 0)
            c += " --steady-ms=" + std::to_string(s.steady_ms);
        if(s.rounds != 5)
            c += " --rounds=" + std::to_string(s.rounds);
        if(s.verify)
            c += " --verify";
    }
    if(s.mode == "tune")
        c += " " + shell_word("--tuning-db=" + s.tuning_db);
    if(s.mode == "overhead" && s.calls != 5000)
        c += " --calls=" + std::to_string(s.calls);
    if((s.mode == "profile" || s.mode == "tune") && s.seed != 1)
        c += " --seed=" + std::to_string(s.seed);
    return c;
}

void add_problem_fields(record& r, std::size_t index, const cktile_gemm_problem_t& p)
{
    r.set("problem", static_cast<std::int64_t>(index));
    r.set("shape", shape_text(p));
    r.set("types", types_text(p));
    r.set("layouts", layouts_text(p));
    r.set("epilogue", epilogue_text(p));
    r.set("m", p.m);
    r.set("n", p.n);
    r.set("k", p.k);
    r.set("batch", p.batch_count);
    r.set("type_a", std::string(type_name(p.a_type)));
    r.set("type_b", std::string(type_name(p.b_type)));
    r.set("type_c", std::string(type_name(p.c_type)));
    r.set("type_d", std::string(type_name(p.d_type)));
    r.set("type_compute", std::string(type_name(p.compute_type)));
    r.set("layout_a", std::string(layout_name(p.a_layout)));
    r.set("layout_b", std::string(layout_name(p.b_layout)));
    r.set("layout_c", std::string(layout_name(p.c_layout)));
    r.set("layout_d", std::string(layout_name(p.d_layout)));
    r.set("lda", p.lda);
    r.set("ldb", p.ldb);
    r.set("ldc", p.ldc);
    r.set("ldd", p.ldd);
    r.set("stride_a", p.stride_a);
    r.set("stride_b", p.stride_b);
    r.set("stride_c", p.stride_c);
    r.set("stride_d", p.stride_d);
    r.set("stride_bias", p.stride_bias);
    r.set("alpha", p.alpha);
    r.set("beta", p.beta);
    r.set("bias", std::string(bias_name(p.bias)));
    r.set("activation", std::string(activation_name(p.activation)));
}

std::string id_text(std::uint64_t id)
{
    char buf[24];
    std::snprintf(buf, sizeof(buf), "0x%016" PRIx64, id);
    return buf;
}

bool gemm_types_match(const cktile_instance_info_t& info, const cktile_gemm_problem_t& p)
{
    return info.d_type == p.d_type && ((info.a_type == p.a_type && info.b_type == p.b_type) ||
                                       (info.a_type == p.b_type && info.b_type == p.a_type));
}

std::string tile_text(const cktile_instance_info_t& info)
{
    return std::to_string(info.tile_m) + "x" + std::to_string(info.tile_n) + "x" +
           std::to_string(info.tile_k);
}

namespace {
/// The epilogue compiled in, in the instance lists' words (instances/gemm.json): fused, none,
/// alpha, bias, bias_<activation> for the instances compiled with that one activation, and
/// those two with _c where beta * C is compiled as well.
std::string epilogue_set(const cktile_instance_info_t& info)
{
    if(info.supports_bias && info.supports_multi_d)
        return "fused";
    if(info.supports_bias)
    {
        const std::string c = info.supports_beta ? "_c" : "";
        for(int a = CKTILE_ACTIVATION_RELU; a <= CKTILE_ACTIVATION_SILU; ++a)
            if(info.activations == 1u << a)
                return std::string("bias_") + activation_name(static_cast<cktile_activation_t>(a)) +
                       c;
        return "bias" + c;
    }
    return info.supports_beta ? "none" : "alpha";
}
} // namespace

void add_instance_fields(record& r, const cktile_instance_info_t& info)
{
    r.set("instance", std::string(info.name));
    r.set("id", id_text(info.id));
    r.set("tile", tile_text(info));
    r.set("threads", static_cast<std::int64_t>(info.block_threads));
    r.set("alignment", static_cast<std::int64_t>(info.alignment_elements));
    r.set("k_multiple", static_cast<std::int64_t>(info.k_multiple));
    r.set("index_bits", static_cast<std::int64_t>(info.index_bits));
    r.set("shared_memory", static_cast<std::int64_t>(info.shared_memory_bytes));
    r.set("general", info.is_general != 0);
    r.set("epilogue", epilogue_set(info));
}

std::vector<cktile_instance_info_t> list_instances(cktile_handle_t h)
{
    std::size_t n = 0;
    cktile_get_instance_count(h, &n);
    std::vector<cktile_instance_info_t> out;
    for(std::size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        // The kernel library holds every operation's instances; this profiler drives GEMMs.
        if(cktile_get_instance_info(h, i, &info) == CKTILE_STATUS_SUCCESS &&
           info.op_kind == CKTILE_OP_GEMM)
            out.push_back(info);
    }
    return out;
}

std::vector<cktile_instance_info_t> chosen_instances(cktile_handle_t h, const settings& s,
                                                     bool& vendor_named)
{
    vendor_named = false;
    if(s.instances.empty())
        return list_instances(h);
    std::vector<cktile_instance_info_t> out;
    cktile_handle_info_t hi{};
    hi.struct_size = sizeof(hi);
    cktile_get_handle_info(h, &hi);
    for(const std::string& item : s.instances)
    {
        if(equal_nocase(item, "cublasLt"))
        {
            vendor_named = true;
            continue;
        }
        std::uint64_t id = 0;
        const bool hex   = item.rfind("0x", 0) == 0 || item.rfind("0X", 0) == 0;
        const char* b    = item.data() + (hex ? 2 : 0);
        const auto r     = std::from_chars(b, item.data() + item.size(), id, hex ? 16 : 10);
        const bool is_id = r.ec == std::errc() && r.ptr == item.data() + item.size();
        if(!is_id && cktile_find_instance(h, item.c_str(), &id) != CKTILE_STATUS_SUCCESS)
            throw usage_error("--instance: no instance named '" + item + "' in the " + hi.target +
                              " kernel library (cktile-profiler gemm enumerate lists them)");
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        if(cktile_get_instance_info_by_id(h, id, &info) != CKTILE_STATUS_SUCCESS)
            throw usage_error("--instance: no instance with id " + item + " in the " + hi.target +
                              " kernel library");
        out.push_back(info);
    }
    return out;
}

void add_handle_context(report& rep, cktile_handle_t h)
{
    cktile_handle_info_t hi{};
    hi.struct_size = sizeof(hi);
    if(cktile_get_handle_info(h, &hi) != CKTILE_STATUS_SUCCESS)
        return;
    rep.context.emplace_back("target", std::string(hi.target));
    rep.context.emplace_back("device", static_cast<std::int64_t>(hi.device_ordinal));
    rep.context.emplace_back("compute_units", static_cast<std::int64_t>(hi.compute_unit_count));
    rep.context.emplace_back("instances", static_cast<std::int64_t>(hi.instance_count));
    rep.context.emplace_back("gemm_instances", static_cast<std::int64_t>(list_instances(h).size()));
}

std::string general_help()
{
    return "cktile-profiler: enumerate, select, time, verify and tune cktile's precompiled "
           "kernels through its C API.\n\n"
           "usage: cktile-profiler <op> [mode] [options]\n"
           "       cktile-profiler <op> --help\n\n"
           "ops:   gemm, norm, softmax, reduce, elementwise, permute (cktile-profiler <op> "
           "--help)\n"
           "modes: gemm: profile (default), enumerate, select, tune, overhead;\n"
           "       norm, softmax, reduce: profile; elementwise, permute: profile, enumerate\n\n"
           "example: cktile-profiler gemm --m=4096 --n=4096 --k=4096 --verify\n"
           "         cktile-profiler reduce --rows=32768 --cols=4096 --op=sum --verify\n";
}

std::string gemm_help()
{
    std::ostringstream s;
    s << "usage: cktile-profiler gemm [mode] [problem options] [options]\n\n"
         "D = activation(alpha * A * B + beta * C + bias), A: m x k, B: k x n, C and D: m x n.\n\n"
         "modes:\n"
         "  profile    run every instance that supports the problem (and cuBLASLt, where\n"
         "             built): median time, TFLOP/s, GB/s, --verify against the CPU reference\n"
         "  enumerate  every instance of the target and whether it supports the problem, why not\n"
         "  select     what selection picks (heuristic, tuning database) and from which "
         "candidates\n"
         "  tune       measured selection per problem, written as a tuning database (--tuning-db)\n"
         "  overhead   host time per call of a cached selection plus launch on a tiny problem\n"
         "enumerate and select work without a GPU for a named target (--target=sm_90a).\n\n";
    const char* headings[] = {"problem options (sweep: lists a,b,c and ranges start:stop:step, "
                              "inclusive; the cartesian product runs):",
                              "run options:", "output options:"};
    for(int g = 0; g < 3; ++g)
    {
        s << headings[g] << "\n";
        for(const option_spec& o : gemm_options())
        {
            if(static_cast<int>(o.group) != g)
                continue;
            std::string left = "  --" + o.name + (o.takes_value ? "=" + o.metavar : "");
            if(!o.takes_value)
                left += ", --no-" + o.name;
            if(left.size() < 34)
                left.resize(34, ' ');
            else
                left += "\n" + std::string(34, ' ');
            s << left << o.help << "\n";
        }
        s << "\n";
    }
    s << "Option names also accept the spellings of cktile's info-level log lines (--a_type=fp16,\n"
         "--batch_count, --stride_a, --bias=column), so a logged call replays as it is.\n"
         "Every result row carries a `replay` command that reruns just that row.\n\n"
         "exit codes:\n"
         "  0  success: everything ran and every verification passed\n"
         "  1  a run failed or a result did not verify\n"
         "  2  no GPU device present (profile, tune and overhead need one; enumerate and select\n"
         "     without --target do too)\n"
         "  3  bad command line, or a problem the C API rejects (the message says why)\n"
         "  4  set-up failure: no kernel library for the target, an output file that cannot be\n"
         "     written, a handle that cannot be created\n";
    return s.str();
}

namespace {

/// Opens the handle a mode needs, or says why not and returns the exit code in `code`.
cktile_handle_t open_handle(const settings& s, std::ostream& err, int& code)
{
    cktile_handle_t h     = nullptr;
    const bool offline_ok = s.mode == "enumerate" || s.mode == "select";
    if(offline_ok && !s.target.empty())
    {
        if(cktile_create_for_target(&h, s.target.c_str()) != CKTILE_STATUS_SUCCESS)
        {
            err << "cktile-profiler: cannot open target " << s.target << ": "
                << cktile_get_last_error_message() << "\n";
            code = exit_setup;
            return nullptr;
        }
        return h;
    }
    const ck_tile::gpu_availability gpu = ck_tile::query_gpu_availability();
    if(!gpu.present)
    {
        // One wording for every platform, so scripts and users can match it.
        std::string reason = gpu.reason;
        if(reason.rfind("no GPU device present", 0) != 0)
            reason = "no GPU device present (" + reason + ")";
        err << "cktile-profiler gemm " << s.mode << ": " << reason << "; ";
        if(offline_ok)
            err << s.mode
                << " works offline for a named target: add --target=<target> "
                   "(e.g. --target=sm_90a).\n";
        else
            err << s.mode
                << " runs kernels and needs a GPU (enumerate and select work "
                   "offline with --target=sm_90a).\n";
        code = exit_no_device;
        return nullptr;
    }
    const cktile_status_t st = cktile_create(&h, s.device);
    if(st != CKTILE_STATUS_SUCCESS)
    {
        err << "cktile-profiler: cannot open device " << s.device << ": "
            << cktile_get_last_error_message() << "\n";
        code = st == CKTILE_STATUS_NO_DEVICE ? exit_no_device : exit_setup;
        return nullptr;
    }
    return h;
}

int run_checked(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const command_line cl = parse_command_line(args);
    if(cl.version)
    {
        out << "cktile-profiler " << cktile_get_version_string() << "\n";
        return exit_ok;
    }
    if(cl.help || cl.op.empty())
    {
        out << (cl.op.empty() ? general_help() : gemm_help());
        return cl.help ? exit_ok : exit_usage;
    }
    const settings s = read_settings(cl);
    const gemm_sweep sweep(cl);
    gemm_defaults defaults;
    if(s.mode == "overhead")
        defaults.m = defaults.n = defaults.k = 64; // host cost shows only on tiny problems
    std::vector<cktile_gemm_problem_t> problems;
    for(std::size_t i = 0; i < sweep.size(); ++i)
    {
        problems.push_back(make_gemm_problem(sweep.point(i), defaults));
        if(cktile_gemm_validate(&problems.back()) != CKTILE_STATUS_SUCCESS)
            throw usage_error("problem " + std::to_string(i) + " (" +
                              gemm_problem_options(problems.back()).substr(1) +
                              "): " + cktile_get_last_error_message());
    }

    int code          = exit_ok;
    cktile_handle_t h = open_handle(s, err, code);
    if(!h)
        return code;
    report rep;
    rep.mode = s.mode;
    rep.context.emplace_back("version", std::string(cktile_get_version_string()));
    std::string command = "cktile-profiler";
    for(const std::string& a : args)
        command += " " + shell_word(a);
    rep.context.emplace_back("command", command);
    add_handle_context(rep, h);
    try
    {
        if(s.mode == "enumerate")
            code = run_enumerate(s, problems, h, rep, err);
        else if(s.mode == "select")
            code = run_select(s, problems, h, rep, err);
        else if(s.mode == "tune")
            code = run_tune(s, problems, h, rep, err);
        else if(s.mode == "overhead")
            code = run_overhead(s, problems, h, rep, err);
        else
            code = run_profile(s, problems, h, rep, err);
    }
    catch(...)
    {
        cktile_destroy(h);
        throw;
    }
    cktile_destroy(h);

    const bool stdout_taken = s.csv == "-" || s.json == "-";
    if(!s.quiet && !stdout_taken)
    {
        write_table(out, rep);
        for(const record& r : rep.summary)
            if(const cell* line = r.get("text"))
                out << table_text(*line) << "\n";
        for(const std::string& n : rep.notes)
            out << n << "\n";
    }
    if(!write_report_to(s.csv, rep, false, out, err) ||
       !write_report_to(s.json, rep, true, out, err))
        return exit_setup;
    return code;
}

} // namespace

int run_profiler(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    // Elementwise and permute have their own front end (profiler/memops_profiler.cpp).
    if(!args.empty() && is_memops_op(args[0]))
        return run_memops_profiler(args, out, err);
    try
    {
        // The memory-bound operations have their own options; GEMM's parsing stays as it is.
        if(is_rowwise_op(args))
            return run_rowwise_profiler(args, out, err);
        return run_checked(args, out, err);
    }
    catch(const usage_error& e)
    {
        err << "cktile-profiler: " << e.what() << "\n";
        return exit_usage;
    }
    catch(const std::exception& e)
    {
        err << "cktile-profiler: " << e.what() << "\n";
        return exit_failed;
    }
}

} // namespace cktile_profiler
