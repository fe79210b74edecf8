// SPDX-License-Identifier: MIT
#include "memops_profiler.hpp"

#include "command_line.hpp"
#include "device_runner.hpp"
#include "gemm_data.hpp"
#include "report.hpp"

#include "cktile.h"

#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/reference_elementwise.hpp"
#include "ck_tile/host/reference_permute.hpp"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <set>
#include <sstream>

namespace cktile_profiler {

namespace {

std::size_t bytes_of(cktile_datatype_t t) { return t == CKTILE_DATATYPE_FP32 ? 4 : 2; }

/// v rounded to `t` as the kernels round their fp32 results (nearest even, overflow to inf).
double round_to(cktile_datatype_t t, double v)
{
    const float f = static_cast<float>(v);
    if(t == CKTILE_DATATYPE_FP16)
        return ck_tile::type_convert<float>(ck_tile::type_convert<ck_tile::half_t>(f));
    if(t == CKTILE_DATATYPE_BF16)
        return ck_tile::type_convert<float>(ck_tile::type_convert<ck_tile::bf16_t>(f));
    return f;
}

/// Within rel (absolute floor 1e-5), NaN where the reference is NaN, equal infinities.
bool matches(double got, double want, double rel)
{
    if(std::isnan(want) || std::isnan(got))
        return std::isnan(want) && std::isnan(got);
    if(std::isinf(want) || std::isinf(got))
        return got == want;
    return std::fabs(got - want) <= 1e-5 + rel * std::fabs(want);
}

struct op_name_value
{
    const char* name;
    cktile_elementwise_op_t op;
};
const op_name_value elementwise_ops[] = {
    {"identity", CKTILE_ELEMENTWISE_IDENTITY}, {"cast", CKTILE_ELEMENTWISE_IDENTITY},
    {"relu", CKTILE_ELEMENTWISE_RELU},         {"gelu_tanh", CKTILE_ELEMENTWISE_GELU_TANH},
    {"gelu_erf", CKTILE_ELEMENTWISE_GELU_ERF}, {"silu", CKTILE_ELEMENTWISE_SILU},
    {"sigmoid", CKTILE_ELEMENTWISE_SIGMOID},   {"exp", CKTILE_ELEMENTWISE_EXP},
    {"log", CKTILE_ELEMENTWISE_LOG},           {"neg", CKTILE_ELEMENTWISE_NEG},
    {"abs", CKTILE_ELEMENTWISE_ABS},           {"sqrt", CKTILE_ELEMENTWISE_SQRT},
    {"rsqrt", CKTILE_ELEMENTWISE_RSQRT},       {"tanh", CKTILE_ELEMENTWISE_TANH},
    {"add", CKTILE_ELEMENTWISE_ADD},           {"sub", CKTILE_ELEMENTWISE_SUB},
    {"mul", CKTILE_ELEMENTWISE_MUL},           {"div", CKTILE_ELEMENTWISE_DIV},
    {"max", CKTILE_ELEMENTWISE_MAX},           {"min", CKTILE_ELEMENTWISE_MIN}};

const std::set<std::string> value_options = {
    "op",       "type",   "type-y", "shape",  "shape-a", "shape-b", "perm", "alpha", "beta",
    "instance", "device", "target", "warmup", "iters",   "seed",    "csv",  "json"};
const std::set<std::string> flag_options = {"verify", "quiet"};

struct options
{
    std::string op, mode = "profile";
    std::map<std::string, std::string> v;
    bool flag(const std::string& n) const { return v.count(n) && v.at(n) == "1"; }
    std::string text(const std::string& n, const std::string& d = "") const
    {
        return v.count(n) ? v.at(n) : d;
    }
    int integer(const std::string& n, int d, int minimum) const
    {
        if(!v.count(n))
            return d;
        int x         = 0;
        const auto& t = v.at(n);
        const auto r  = std::from_chars(t.data(), t.data() + t.size(), x);
        if(r.ec != std::errc() || r.ptr != t.data() + t.size() || x < minimum)
            throw usage_error("--" + n + "=" + t + ": expected an integer of at least " +
                              std::to_string(minimum));
        return x;
    }
};

options parse(const std::vector<std::string>& args)
{
    options o;
    o.op = args.at(0);
    for(std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string& tok = args[i];
        if(tok.rfind("--", 0) != 0)
        {
            if(i == 1 && (tok == "profile" || tok == "enumerate"))
            {
                o.mode = tok;
                continue;
            }
            throw usage_error("unexpected argument '" + tok + "' for " + o.op +
                              ": modes are profile and enumerate, options --name=value");
        }
        const std::size_t eq = tok.find('=');
        std::string name     = normalise_option_name(tok.substr(0, eq));
        if(name == "help" || name == "h")
        {
            o.v["help"] = "1";
            continue;
        }
        if(flag_options.count(name))
        {
            if(eq != std::string::npos)
                throw usage_error("--" + name + " takes no value");
            o.v[name] = "1";
            continue;
        }
        if(name.rfind("no-", 0) == 0 && flag_options.count(name.substr(3)))
        {
            o.v[name.substr(3)] = "0";
            continue;
        }
        if(!value_options.count(name))
            throw usage_error("unknown option '" + tok.substr(0, eq) + "' for " + o.op +
                              " (cktile-profiler " + o.op + " --help lists them)");
        if(eq == std::string::npos || eq + 1 == tok.size())
            throw usage_error("--" + name + " needs a value: --" + name + "=...");
        if(o.v.count(name))
            throw usage_error("--" + name + " is given twice");
        o.v[name] = tok.substr(eq + 1);
    }
    return o;
}

cktile_datatype_t parse_type(const std::string& t, const char* option)
{
    if(t == "f16" || t == "fp16")
        return CKTILE_DATATYPE_FP16;
    if(t == "bf16")
        return CKTILE_DATATYPE_BF16;
    if(t == "f32" || t == "fp32")
        return CKTILE_DATATYPE_FP32;
    throw usage_error(std::string("--") + option + "=" + t + ": expected f16, bf16 or f32");
}
const char* type_text(cktile_datatype_t t)
{
    return t == CKTILE_DATATYPE_FP16 ? "f16" : t == CKTILE_DATATYPE_BF16 ? "bf16" : "f32";
}

/// "32768x4096" -> {32768, 4096}.
std::vector<std::int64_t> parse_shape(const std::string& s, const char* option)
{
    std::vector<std::int64_t> dims;
    std::stringstream in(s);
    for(std::string item; std::getline(in, item, 'x');)
    {
        std::int64_t v = 0;
        const auto r   = std::from_chars(item.data(), item.data() + item.size(), v);
        if(r.ec != std::errc() || r.ptr != item.data() + item.size() || v < 1)
            throw usage_error(std::string("--") + option + "=" + s +
                              ": expected lengths >= 1 joined by 'x' (32768x4096)");
        dims.push_back(v);
    }
    if(dims.empty() || dims.size() > CKTILE_MAX_TENSOR_RANK)
        throw usage_error(std::string("--") + option + "=" + s + ": 1 to 6 axes");
    return dims;
}

cktile_tensor_desc_t packed(cktile_datatype_t t, const std::vector<std::int64_t>& dims)
{
    cktile_tensor_desc_t d{};
    d.type         = t;
    d.rank         = static_cast<std::int32_t>(dims.size());
    std::int64_t s = 1;
    for(int k = d.rank - 1; k >= 0; --k)
    {
        d.dims[k]    = dims[k];
        d.strides[k] = s;
        s *= dims[k];
    }
    return d;
}
std::int64_t count(const cktile_tensor_desc_t& d)
{
    std::int64_t n = 1;
    for(int k = 0; k < d.rank; ++k)
        n *= d.dims[k];
    return n;
}
std::string shape_text(const cktile_tensor_desc_t& d)
{
    std::string s;
    for(int k = 0; k < d.rank; ++k)
        s += (k ? "x" : "") + std::to_string(d.dims[k]);
    return s;
}
ck_tile::host_strided_desc host_desc(const cktile_tensor_desc_t& d)
{
    ck_tile::host_strided_desc h;
    h.rank = d.rank;
    for(int k = 0; k < d.rank; ++k)
        h.dims[k] = d.dims[k], h.strides[k] = d.strides[k];
    return h;
}

std::string id_hex(std::uint64_t id)
{
    char b[24];
    std::snprintf(b, sizeof(b), "0x%016" PRIx64, id);
    return b;
}

/// A packed device tensor with random contents and its host copy.
struct device_tensor
{
    cktile_tensor_desc_t desc;
    std::vector<unsigned char> host;
    std::unique_ptr<ck_tile::DeviceMem> mem;

    device_tensor(const cktile_tensor_desc_t& d, std::mt19937& rng, bool fill)
        : desc(d), host(static_cast<std::size_t>(count(d)) * bytes_of(d.type))
    {
        if(fill)
            host = random_elements(d.type, count(d), rng());
        mem = std::make_unique<ck_tile::DeviceMem>(host.size());
        if(fill)
            HIP_CHECK_ERROR(
                hipMemcpy(mem->GetDeviceBuffer(), host.data(), host.size(), hipMemcpyHostToDevice));
    }
    void* ptr() const { return mem->GetDeviceBuffer(); }
    std::vector<double> values() const
    {
        const std::size_t eb = bytes_of(desc.type);
        std::vector<double> v(host.size() / eb);
        for(std::size_t i = 0; i < v.size(); ++i)
            v[i] = decode_element(desc.type, host.data() + i * eb);
        return v;
    }
};

/// Compares y (read back) with the reference; "" or the first mismatches.
std::string compare(const device_tensor& y, const std::vector<double>& ref)
{
    const cktile_datatype_t t = y.desc.type;
    std::vector<unsigned char> got(y.host.size());
    HIP_CHECK_ERROR(hipMemcpy(got.data(), y.ptr(), got.size(), hipMemcpyDeviceToHost));
    const std::size_t eb = bytes_of(t);
    const double rel = t == CKTILE_DATATYPE_FP32 ? 2e-5 : t == CKTILE_DATATYPE_FP16 ? 2e-3 : 1.6e-2;
    std::size_t bad  = 0;
    std::string first;
    for(std::size_t i = 0; i < ref.size(); ++i)
    {
        const double g = decode_element(t, got.data() + i * eb), w = round_to(t, ref[i]);
        if(!matches(g, w, rel) && bad++ == 0)
            first = "element " + std::to_string(i) + ": got " + std::to_string(g) + ", want " +
                    std::to_string(w);
    }
    return bad ? std::to_string(bad) + " mismatches, first " + first : "";
}

/// One operation's problem, buffers, bytes and reference, behind one interface.
struct memops_job
{
    virtual ~memops_job()                                                          = default;
    virtual std::string shape() const                                              = 0;
    virtual std::string types() const                                              = 0;
    virtual double bytes() const                                                   = 0;
    virtual cktile_status_t supports(cktile_handle_t, std::uint64_t, bool with_args, char*,
                                     std::size_t) const                            = 0;
    virtual cktile_status_t run(cktile_handle_t, std::uint64_t, hipStream_t) const = 0;
    virtual std::string verify() const                                             = 0;
    virtual void poison() const                                                    = 0;
    virtual cktile_op_kind_t kind() const                                          = 0;
};

struct elementwise_job : memops_job
{
    cktile_elementwise_problem_t p;
    cktile_elementwise_args_t a{};
    std::unique_ptr<device_tensor> ta, tb, ty;
    bool binary = false;

    elementwise_job(const options& o, bool allocate, std::mt19937& rng)
    {
        cktile_elementwise_problem_init(&p);
        const std::string name = o.text("op", "add");
        bool known             = false;
        for(const auto& e : elementwise_ops)
            if(name == e.name)
                p.op = e.op, known = true;
        if(!known)
            throw usage_error("--op=" + name +
                              ": not an elementwise operation (add, mul, "
                              "relu, cast, ... see --help)");
        binary           = static_cast<int>(p.op) > 100;
        const auto at    = parse_type(o.text("type", "f16"), "type");
        const auto yt    = o.v.count("type-y") ? parse_type(o.text("type-y"), "type-y") : at;
        const auto shape = parse_shape(o.text("shape", "32768x4096"), "shape");
        p.y              = packed(yt, shape);
        p.a = packed(at, o.v.count("shape-a") ? parse_shape(o.text("shape-a"), "shape-a") : shape);
        p.b = packed(at, o.v.count("shape-b") ? parse_shape(o.text("shape-b"), "shape-b") : shape);
        p.alpha = std::stod(o.text("alpha", "1"));
        p.beta  = std::stod(o.text("beta", "1"));
        if(cktile_elementwise_validate(&p, nullptr) != CKTILE_STATUS_SUCCESS)
            throw usage_error(cktile_get_last_error_message());
        cktile_elementwise_args_init(&a);
        if(!allocate)
            return;
        ta  = std::make_unique<device_tensor>(p.a, rng, true);
        tb  = binary ? std::make_unique<device_tensor>(p.b, rng, true) : nullptr;
        ty  = std::make_unique<device_tensor>(p.y, rng, false);
        a.a = ta->ptr(), a.b = tb ? tb->ptr() : nullptr, a.y = ty->ptr();
    }
    std::string shape() const override
    {
        return "y=" + shape_text(p.y) + " a=" + shape_text(p.a) +
               (binary ? " b=" + shape_text(p.b) : "");
    }
    std::string types() const override
    {
        return std::string(type_text(p.a.type)) + "->" + type_text(p.y.type);
    }
    double bytes() const override
    {
        const double ea = static_cast<double>(bytes_of(p.a.type));
        return ea * count(p.a) + (binary ? ea * count(p.b) : 0) +
               bytes_of(p.y.type) * static_cast<double>(count(p.y));
    }
    cktile_status_t supports(cktile_handle_t h, std::uint64_t id, bool with_args, char* r,
                             std::size_t n) const override
    {
        return cktile_elementwise_supports(h, id, &p, with_args ? &a : nullptr, r, n);
    }
    cktile_status_t run(cktile_handle_t h, std::uint64_t id, hipStream_t s) const override
    {
        return cktile_elementwise_run(h, id, &p, &a, s);
    }
    void poison() const override { ty->mem->SetValue(0xff); }
    std::string verify() const override
    {
        const auto av = ta->values();
        const auto bv = binary ? tb->values() : std::vector<double>{};
        std::vector<double> ref(static_cast<std::size_t>(count(p.y)));
        ck_tile::reference_elementwise(static_cast<ck_tile::elementwise_op>(p.op), p.alpha, p.beta,
                                       av.data(), host_desc(p.a), binary ? bv.data() : nullptr,
                                       host_desc(p.b), ref.data(), host_desc(p.y));
        return compare(*ty, ref);
    }
    cktile_op_kind_t kind() const override { return CKTILE_OP_ELEMENTWISE; }
};

struct permute_job : memops_job
{
    cktile_permute_problem_t p;
    cktile_permute_args_t a{};
    std::unique_ptr<device_tensor> tx, ty;

    permute_job(const options& o, bool allocate, std::mt19937& rng)
    {
        cktile_permute_problem_init(&p);
        const auto t     = parse_type(o.text("type", "f16"), "type");
        const auto shape = parse_shape(o.text("shape", "32768x4096"), "shape");
        p.x              = packed(t, shape);
        const int rank   = static_cast<int>(shape.size());
        std::vector<std::int64_t> ydims;
        if(o.v.count("perm"))
        {
            std::stringstream in(o.text("perm"));
            int d = 0;
            for(std::string item; std::getline(in, item, ',');)
            {
                if(d >= CKTILE_MAX_TENSOR_RANK)
                    throw usage_error("--perm: at most 6 axes");
                p.perm[d++] = std::atoi(item.c_str());
            }
            if(d != rank)
                throw usage_error("--perm=" + o.text("perm") + ": needs " + std::to_string(rank) +
                                  " axes, one per axis of --shape");
        }
        else if(rank >= 2)
            std::swap(p.perm[rank - 1], p.perm[rank - 2]); // transpose the last two axes
        for(int d = 0; d < rank; ++d)
            ydims.push_back(p.perm[d] >= 0 && p.perm[d] < rank ? shape[p.perm[d]] : 1);
        p.y = packed(t, ydims);
        if(cktile_permute_validate(&p, nullptr) != CKTILE_STATUS_SUCCESS)
            throw usage_error(cktile_get_last_error_message());
        cktile_permute_args_init(&a);
        if(!allocate)
            return;
        tx  = std::make_unique<device_tensor>(p.x, rng, true);
        ty  = std::make_unique<device_tensor>(p.y, rng, false);
        a.x = tx->ptr(), a.y = ty->ptr();
    }
    std::string shape() const override
    {
        std::string s = "x=" + shape_text(p.x) + " perm=";
        for(int d = 0; d < p.x.rank; ++d)
            s += (d ? "," : "") + std::to_string(p.perm[d]);
        return s;
    }
    std::string types() const override { return type_text(p.x.type); }
    double bytes() const override
    {
        return 2.0 * bytes_of(p.x.type) * static_cast<double>(count(p.x));
    }
    cktile_status_t supports(cktile_handle_t h, std::uint64_t id, bool with_args, char* r,
                             std::size_t n) const override
    {
        return cktile_permute_supports(h, id, &p, with_args ? &a : nullptr, r, n);
    }
    cktile_status_t run(cktile_handle_t h, std::uint64_t id, hipStream_t s) const override
    {
        return cktile_permute_run(h, id, &p, &a, s);
    }
    void poison() const override { ty->mem->SetValue(0xff); }
    std::string verify() const override
    {
        const auto xv = tx->values();
        std::vector<double> ref(static_cast<std::size_t>(count(p.y)));
        std::vector<int> perm(p.perm, p.perm + p.x.rank);
        ck_tile::reference_permute(xv.data(), host_desc(p.x), perm.data(), ref.data(),
                                   host_desc(p.y));
        return compare(*ty, ref);
    }
    cktile_op_kind_t kind() const override { return CKTILE_OP_PERMUTE; }
};

std::string replay(const std::vector<std::string>& args, const std::string& instance)
{
    std::string c = "cktile-profiler";
    for(const auto& a : args)
        if(a.rfind("--instance", 0) != 0 && a.rfind("--csv", 0) != 0 && a.rfind("--json", 0) != 0)
            c += " " + a;
    return c + (instance.empty() ? "" : " --instance=" + instance);
}

bool write_file(const std::string& path, const report& rep, bool json, std::ostream& out)
{
    if(path.empty())
        return true;
    if(path == "-")
    {
        json ? write_json(out, rep) : write_csv(out, rep);
        return true;
    }
    std::ofstream f(path);
    if(f)
        json ? write_json(f, rep) : write_csv(f, rep);
    return static_cast<bool>(f);
}

int run_checked(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const options o = parse(args);
    if(o.flag("help"))
    {
        out << memops_help(o.op);
        return exit_ok;
    }
    const bool offline = o.mode == "enumerate" && o.v.count("target");
    const auto gpu     = ck_tile::query_gpu_availability();
    if(!offline && !gpu.present)
    {
        std::string reason = gpu.reason;
        if(reason.rfind("no GPU device present", 0) != 0)
            reason = "no GPU device present (" + reason + ")";
        err << "cktile-profiler " << o.op << " " << o.mode << ": " << reason
            << "; enumerate works offline with --target=sm_90a.\n";
        return exit_no_device;
    }
    std::mt19937 rng(static_cast<unsigned>(o.integer("seed", 1, 0)));
    const bool allocate = o.mode == "profile";
    std::unique_ptr<memops_job> job;
    if(o.op == "elementwise")
        job = std::make_unique<elementwise_job>(o, allocate, rng);
    else
        job = std::make_unique<permute_job>(o, allocate, rng);

    cktile_handle_t h        = nullptr;
    const cktile_status_t st = offline ? cktile_create_for_target(&h, o.text("target").c_str())
                                       : cktile_create(&h, o.integer("device", 0, 0));
    if(st != CKTILE_STATUS_SUCCESS)
    {
        err << "cktile-profiler: cannot open a handle: " << cktile_get_last_error_message() << "\n";
        return exit_setup;
    }
    std::unique_ptr<cktile_handle_opaque, cktile_status_t (*)(cktile_handle_t)> guard(
        h, &cktile_destroy);
    report rep;
    rep.mode = o.mode;
    rep.context.emplace_back("version", std::string(cktile_get_version_string()));
    rep.context.emplace_back("command", replay(args, ""));
    rep.table_columns =
        o.mode == "enumerate"
            ? std::vector<std::string>{"instance", "supported", "reason"}
            : std::vector<std::string>{"shape", "types", "instance", "time_us", "GB/s", "verified"};

    std::vector<std::string> wanted;
    {
        std::stringstream in(o.text("instance"));
        for(std::string item; std::getline(in, item, ',');)
            if(!item.empty())
                wanted.push_back(item);
    }
    std::size_t n = 0;
    cktile_get_instance_count(h, &n);
    const int warmup = o.integer("warmup", 10, 0), iters = o.integer("iters", 50, 1);
    int code         = exit_ok;
    double best_gbps = 0;
    std::string best;
    for(std::size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        if(cktile_get_instance_info(h, i, &info) != CKTILE_STATUS_SUCCESS ||
           info.op_kind != job->kind())
            continue;
        if(!wanted.empty() && std::find(wanted.begin(), wanted.end(), info.name) == wanted.end() &&
           std::find(wanted.begin(), wanted.end(), id_hex(info.id)) == wanted.end())
            continue;
        char reason[256] = {};
        const bool ok =
            job->supports(h, info.id, allocate, reason, sizeof(reason)) == CKTILE_STATUS_SUCCESS;
        record r;
        r.set("shape", job->shape());
        r.set("types", job->types());
        r.set("instance", std::string(info.name));
        r.set("id", id_hex(info.id));
        r.set("general", info.is_general != 0);
        if(o.mode == "enumerate")
        {
            r.set("supported", ok);
            r.set("reason", std::string(reason));
            rep.rows.push_back(r);
            continue;
        }
        if(!ok)
            continue;
        std::string verified = "-";
        if(o.flag("verify"))
        {
            job->poison();
            if(job->run(h, info.id, nullptr) != CKTILE_STATUS_SUCCESS)
                verified = std::string("run failed: ") + cktile_get_last_error_message();
            else
            {
                HIP_CHECK_ERROR(hipDeviceSynchronize());
                const std::string m = job->verify();
                verified            = m.empty() ? "yes" : "NO: " + m;
            }
            if(verified != "yes")
                code = exit_failed;
        }
        const timing t = time_launches(
            [&](std::size_t, hipStream_t s) -> std::string {
                return job->run(h, info.id, s) == CKTILE_STATUS_SUCCESS
                           ? std::string()
                           : std::string(cktile_get_last_error_message());
            },
            1, warmup, iters, nullptr);
        if(!t.error.empty())
        {
            verified = "run failed: " + t.error;
            code     = exit_failed;
        }
        const double gbps = t.median_ms > 0 ? job->bytes() / (t.median_ms * 1e6) : 0;
        r.set("time_us", t.median_ms * 1e3);
        r.set("GB/s", gbps);
        r.set("bytes", job->bytes());
        r.set("verified", verified);
        r.set("replay", replay(args, info.name));
        rep.rows.push_back(r);
        if(gbps > best_gbps)
            best_gbps = gbps, best = info.name;
    }
    if(!best.empty())
    {
        record s;
        s.set("text", "best: " + best + " " + std::to_string(static_cast<long>(best_gbps)) +
                          " GB/s (bytes read + written)");
        rep.summary.push_back(s);
    }
    const std::string csv = o.text("csv"), json = o.text("json");
    if(!o.flag("quiet") && csv != "-" && json != "-")
    {
        write_table(out, rep);
        for(const record& r : rep.summary)
            if(const cell* line = r.get("text"))
                out << table_text(*line) << "\n";
    }
    if(!write_file(csv, rep, false, out) || !write_file(json, rep, true, out))
    {
        err << "cktile-profiler: cannot write the output file\n";
        return exit_setup;
    }
    return code;
}

} // namespace

bool is_memops_op(const std::string& op) { return op == "elementwise" || op == "permute"; }

std::string memops_help(const std::string& op)
{
    std::ostringstream s;
    if(op == "elementwise")
        s << "usage: cktile-profiler elementwise [profile|enumerate] [options]\n\n"
             "y = op(alpha * a[, beta * b]) over packed tensors, b and a broadcast to y.\n"
             "  --op=<name>          identity (= cast), relu, gelu_tanh, gelu_erf, silu, sigmoid,\n"
             "                       exp, log, neg, abs, sqrt, rsqrt, tanh, add, sub, mul, div,\n"
             "                       max, min (default add)\n"
             "  --type=<t>           a's and b's type: f16 bf16 f32 (default f16)\n"
             "  --type-y=<t>         y's type (default: --type; another type makes a cast)\n"
             "  --shape=<AxB...>     y's shape, 1 to 6 axes (default 32768x4096)\n"
             "  --shape-a, --shape-b the inputs' shapes (default: y's; NumPy broadcasting)\n"
             "  --alpha, --beta      scales of a and b (default 1)\n";
    else
        s << "usage: cktile-profiler permute [profile|enumerate] [options]\n\n"
             "y = x with axes permuted (y's axis d is x's axis perm[d]), both packed.\n"
             "  --type=<t>           f16 bf16 f32 (default f16)\n"
             "  --shape=<AxB...>     x's shape, 1 to 6 axes (default 32768x4096)\n"
             "  --perm=<i,j,...>     the permutation (default: swap the last two axes)\n";
    s << "  --instance=<names>   only these instances (names or 0x ids, comma-separated)\n"
         "  --verify             compare with the CPU reference (double) before timing\n"
         "  --warmup=<n>         untimed runs (default 10); --iters=<n> timed runs (50)\n"
         "  --device=<n>         GPU ordinal; --target=<t> enumerate offline\n"
         "  --csv=<file|->, --json=<file|->, --quiet, --seed=<n>\n\n"
         "GB/s counts bytes read (each input element once) plus bytes written; time is the\n"
         "median of device-event timings. Exit codes as for gemm (0 ok, 1 failed run or\n"
         "verification, 2 no GPU, 3 bad command line, 4 set-up failure).\n";
    return s.str();
}

int run_memops_profiler(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    try
    {
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
