// SPDX-License-Identifier: MIT
#include "rowwise_profiler.hpp"

#include "command_line.hpp"
#include "device_runner.hpp"
#include "gemm_data.hpp"
#include "report.hpp"

#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/reference_norm.hpp"
#include "ck_tile/host/reference_reduce.hpp"
#include "ck_tile/host/reference_softmax.hpp"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>

namespace cktile_profiler {

namespace {

const char* const ops[] = {"norm", "softmax", "reduce"};

// ---- types ---------------------------------------------------------------------------------

cktile_datatype_t parse_type(const std::string& option, const std::string& t)
{
    if(t == "f16" || t == "fp16")
        return CKTILE_DATATYPE_FP16;
    if(t == "bf16")
        return CKTILE_DATATYPE_BF16;
    if(t == "f32" || t == "fp32")
        return CKTILE_DATATYPE_FP32;
    throw usage_error("--" + option + "=" + t + ": expected f16, bf16 or f32");
}
const char* type_text(cktile_datatype_t t)
{
    return t == CKTILE_DATATYPE_FP16 ? "f16" : t == CKTILE_DATATYPE_BF16 ? "bf16" : "f32";
}
std::size_t type_bytes(cktile_datatype_t t) { return t == CKTILE_DATATYPE_FP32 ? 4 : 2; }

const char* const reduce_op_names[] = {"?", "sum", "max", "min", "mean", "sum_squares"};

std::int64_t parse_int(const std::string& option, const std::string& t, std::int64_t minimum)
{
    std::int64_t v = 0;
    const auto r   = std::from_chars(t.data(), t.data() + t.size(), v);
    if(r.ec != std::errc() || r.ptr != t.data() + t.size() || v < minimum)
        throw usage_error("--" + option + "=" + t + ": expected an integer of at least " +
                          std::to_string(minimum));
    return v;
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    for(std::string item; std::getline(in, item, sep);)
        if(!item.empty())
            out.push_back(item);
    return out;
}

// ---- command line --------------------------------------------------------------------------

struct option_info
{
    const char* name;
    bool value;
    const char* ops; // which subcommands take it ("nsr")
    const char* help;
};
const option_info options[] = {
    {"rows", true, "nsr", "rows (default 4096); reduce: rows x cols with --axis"},
    {"cols", true, "nsr", "elements per row, the last axis (default 4096)"},
    {"type", true, "nsr", "input type: f16 bf16 f32 (default f16)"},
    {"type-y", true, "nsr", "output type (default: the input's)"},
    {"type-w", true, "n", "weight and bias type (default: the input's)"},
    {"kind", true, "n", "rmsnorm or layernorm (default rmsnorm)"},
    {"bias", false, "n", "add a bias after the weight"},
    {"epsilon", true, "n", "added to the variance (default 1e-5)"},
    {"op", true, "r", "sum max min mean sum_squares (default sum)"},
    {"axis", true, "r", "rows x cols: reduce the last axis (last, default) or the first (first)"},
    {"dims", true, "r", "any tensor instead of rows x cols: lengths AxBxC (row-major, packed)"},
    {"axes", true, "r", "with --dims: the reduced axes, comma-separated (default: the last)"},
    {"instance", true, "nsr", "only these instances (names or ids, comma-separated)"},
    {"device", true, "nsr", "GPU ordinal (default 0)"},
    {"warmup", true, "nsr", "untimed runs before timing (default 10)"},
    {"iters", true, "nsr", "timed runs; the median is reported (default 50)"},
    {"seed", true, "nsr", "seed of the random inputs (default 1)"},
    {"verify", false, "nsr", "check every result against the CPU reference"},
    {"csv", true, "nsr", "also write CSV to a file or stdout (-)"},
    {"json", true, "nsr", "also write JSON to a file or stdout (-)"},
    {"quiet", false, "nsr", "no table on stdout"},
};

char op_letter(const std::string& op) { return op == "norm" ? 'n' : op == "softmax" ? 's' : 'r'; }

} // namespace

bool is_rowwise_op(const std::vector<std::string>& args)
{
    return !args.empty() && std::find(std::begin(ops), std::end(ops), args[0]) != std::end(ops);
}

std::string rowwise_help(const std::string& op)
{
    std::ostringstream s;
    s << "usage: cktile-profiler " << op << " [profile] [options]\n\n";
    if(op == "norm")
        s << "RMSNorm or LayerNorm over the last axis of a rows x cols tensor.\n";
    else if(op == "softmax")
        s << "Softmax over the last axis of a rows x cols tensor.\n";
    else
        s << "Sum, max, min, mean or sum of squares over the last axis, the first axis, or any\n"
             "set of axes of a packed tensor (--dims, --axes).\n";
    s << "Every instance that supports the problem runs (the selected one is marked); GB/s counts\n"
         "the bytes read plus the bytes written, each tensor once.\n\noptions:\n";
    for(const option_info& o : options)
        if(std::strchr(o.ops, op_letter(op)))
        {
            std::string left = std::string("  --") + o.name + (o.value ? "=<v>" : "");
            left.resize(std::max<std::size_t>(left.size() + 1, 22), ' ');
            s << left << o.help << "\n";
        }
    s << "\nexit codes: 0 success, 1 a run failed or did not verify, 2 no GPU, 3 bad command "
         "line, 4 set-up failure\n";
    return s.str();
}

rowwise_settings parse_rowwise_command_line(const std::vector<std::string>& args)
{
    rowwise_settings st;
    rowwise_problem& rp = st.problem;
    rp.op               = args.at(0);
    std::map<std::string, std::string> v;
    for(std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string& tok = args[i];
        if(tok == "-h" || tok == "--help" || tok == "help")
        {
            st.help = true;
            continue;
        }
        if(i == 1 && tok == "profile")
            continue;
        if(tok.rfind("--", 0) != 0)
            throw usage_error("unexpected argument '" + tok + "': " + rp.op +
                              " has one mode, profile; options are written --name=value");
        const std::size_t eq = tok.find('=');
        std::string name     = normalise_option_name(tok.substr(0, eq));
        const option_info* o = nullptr;
        for(const option_info& c : options)
            if(name == c.name && std::strchr(c.ops, op_letter(rp.op)))
                o = &c;
        if(!o)
            throw usage_error("unknown option '" + tok.substr(0, eq) + "' for " + rp.op +
                              "; cktile-profiler " + rp.op + " --help lists them");
        if(v.count(name))
            throw usage_error("--" + name + " is given twice");
        if(!o->value)
        {
            if(eq != std::string::npos)
                throw usage_error("--" + name + " takes no value");
            v[name] = "1";
            continue;
        }
        std::string value;
        if(eq != std::string::npos)
            value = tok.substr(eq + 1);
        else if(i + 1 < args.size())
            value = args[++i];
        if(value.empty())
            throw usage_error("--" + name + " needs a value");
        v[name] = value;
    }
    auto text = [&](const char* k, const std::string& d) { return v.count(k) ? v[k] : d; };
    st.device = static_cast<int>(parse_int("device", text("device", "0"), 0));
    st.warmup = static_cast<int>(parse_int("warmup", text("warmup", "10"), 0));
    st.iters  = static_cast<int>(parse_int("iters", text("iters", "50"), 1));
    st.seed   = static_cast<std::uint64_t>(parse_int("seed", text("seed", "1"), 0));
    st.verify = v.count("verify") != 0;
    st.quiet  = v.count("quiet") != 0;
    st.csv    = text("csv", "");
    st.json   = text("json", "");
    if(st.csv == "-" && st.json == "-")
        throw usage_error("--csv=- and --json=- both want stdout; send one to a file");
    st.instances = split(text("instance", ""), ',');

    const std::int64_t rows = parse_int("rows", text("rows", "4096"), 1);
    const std::int64_t cols = parse_int("cols", text("cols", "4096"), 1);
    const auto xt           = parse_type("type", text("type", "f16"));
    const auto yt           = v.count("type-y") ? parse_type("type-y", v["type-y"]) : xt;
    if(rp.op == "norm")
    {
        auto& p = rp.norm;
        cktile_norm_problem_init(&p);
        p.x_type = xt, p.y_type = yt;
        p.weight_type = v.count("type-w") ? parse_type("type-w", v["type-w"]) : xt;
        p.rows = rows, p.cols = cols, p.x_stride = p.y_stride = cols;
        const std::string kind = text("kind", "rmsnorm");
        if(kind != "rmsnorm" && kind != "layernorm")
            throw usage_error("--kind=" + kind + ": expected rmsnorm or layernorm");
        p.kind     = kind == "layernorm" ? CKTILE_NORM_LAYERNORM : CKTILE_NORM_RMSNORM;
        p.has_bias = v.count("bias") ? 1 : 0;
        if(v.count("epsilon"))
            p.epsilon = std::strtod(v["epsilon"].c_str(), nullptr);
        if(cktile_norm_validate(&p, nullptr) != CKTILE_STATUS_SUCCESS)
            throw usage_error(std::string("the problem: ") + cktile_get_last_error_message());
    }
    else if(rp.op == "softmax")
    {
        auto& p = rp.softmax;
        cktile_softmax_problem_init(&p);
        p.x_type = xt, p.y_type = yt;
        p.rows = rows, p.cols = cols, p.x_stride = p.y_stride = cols;
        if(cktile_softmax_validate(&p, nullptr) != CKTILE_STATUS_SUCCESS)
            throw usage_error(std::string("the problem: ") + cktile_get_last_error_message());
    }
    else
    {
        auto& p = rp.reduce;
        cktile_reduce_problem_init(&p);
        p.x_type = xt, p.y_type = yt;
        const std::string op = text("op", "sum");
        int code             = 0;
        for(int k = 1; k <= 5; ++k)
            if(op == reduce_op_names[k] || (k == 5 && op == "sumsq"))
                code = k;
        if(code == 0)
            throw usage_error("--op=" + op + ": expected sum, max, min, mean or sum_squares");
        p.op = static_cast<cktile_reduce_op_t>(code);
        std::vector<std::int64_t> dims{rows, cols};
        std::uint32_t mask = 0b10;
        if(v.count("dims"))
        {
            if(v.count("rows") || v.count("cols") || v.count("axis"))
                throw usage_error("--dims replaces --rows, --cols and --axis");
            dims.clear();
            for(const std::string& d : split(v["dims"], 'x'))
                dims.push_back(parse_int("dims", d, 1));
            if(dims.empty() || dims.size() > CKTILE_REDUCE_MAX_RANK)
                throw usage_error("--dims=" + v["dims"] + ": expected 1 to 6 lengths AxBxC");
            mask = 1u << (dims.size() - 1);
            if(v.count("axes"))
            {
                mask = 0;
                for(const std::string& a : split(v["axes"], ','))
                {
                    const auto ax = parse_int("axes", a, 0);
                    if(ax >= static_cast<std::int64_t>(dims.size()))
                        throw usage_error("--axes: axis " + a + " is not below the rank " +
                                          std::to_string(dims.size()));
                    mask |= 1u << ax;
                }
            }
        }
        else if(v.count("axes"))
            throw usage_error("--axes needs --dims (with rows x cols, use --axis=first|last)");
        else
        {
            const std::string axis = text("axis", "last");
            if(axis != "last" && axis != "first")
                throw usage_error("--axis=" + axis + ": expected last or first");
            mask = axis == "last" ? 0b10 : 0b01;
        }
        p.rank          = static_cast<int>(dims.size());
        p.reduce_mask   = mask;
        std::int64_t xs = 1, ys = 1;
        for(int a = p.rank - 1; a >= 0; --a)
        {
            p.dims[a]      = dims[a];
            p.x_strides[a] = xs;
            xs *= dims[a];
            const bool reduced = (mask >> a) & 1u;
            p.y_strides[a]     = reduced ? 0 : ys;
            ys *= reduced ? 1 : dims[a];
        }
        if(cktile_reduce_validate(&p, nullptr) != CKTILE_STATUS_SUCCESS)
            throw usage_error(std::string("the problem: ") + cktile_get_last_error_message());
    }
    return st;
}

std::int64_t rowwise_problem::bytes_moved() const
{
    if(op == "norm")
        return norm.rows * norm.cols *
                   static_cast<std::int64_t>(type_bytes(norm.x_type) + type_bytes(norm.y_type)) +
               norm.cols * static_cast<std::int64_t>(type_bytes(norm.weight_type)) *
                   (norm.has_bias ? 2 : 1);
    if(op == "softmax")
        return softmax.rows * softmax.cols *
               static_cast<std::int64_t>(type_bytes(softmax.x_type) + type_bytes(softmax.y_type));
    std::int64_t in = 1, out = 1;
    for(int a = 0; a < reduce.rank; ++a)
    {
        in *= reduce.dims[a];
        if(!((reduce.reduce_mask >> a) & 1u))
            out *= reduce.dims[a];
    }
    return in * static_cast<std::int64_t>(type_bytes(reduce.x_type)) +
           out * static_cast<std::int64_t>(type_bytes(reduce.y_type));
}

std::string rowwise_problem::text() const
{
    std::ostringstream s;
    if(op == "norm")
        s << norm.rows << "x" << norm.cols << " " << type_text(norm.x_type) << "->"
          << type_text(norm.y_type) << " "
          << (norm.kind == CKTILE_NORM_LAYERNORM ? "layernorm" : "rmsnorm")
          << (norm.has_bias ? "+bias" : "");
    else if(op == "softmax")
        s << softmax.rows << "x" << softmax.cols << " " << type_text(softmax.x_type) << "->"
          << type_text(softmax.y_type);
    else
    {
        for(int a = 0; a < reduce.rank; ++a)
            s << (a ? "x" : "") << reduce.dims[a];
        s << " " << type_text(reduce.x_type) << "->" << type_text(reduce.y_type) << " "
          << reduce_op_names[reduce.op] << " axes";
        for(int a = 0; a < reduce.rank; ++a)
            if((reduce.reduce_mask >> a) & 1u)
                s << " " << a;
    }
    return s.str();
}

std::string rowwise_problem::options() const
{
    std::ostringstream s;
    if(op == "norm")
        s << " --rows=" << norm.rows << " --cols=" << norm.cols
          << " --type=" << type_text(norm.x_type) << " --type-y=" << type_text(norm.y_type)
          << " --type-w=" << type_text(norm.weight_type)
          << " --kind=" << (norm.kind == CKTILE_NORM_LAYERNORM ? "layernorm" : "rmsnorm")
          << (norm.has_bias ? " --bias" : "");
    else if(op == "softmax")
        s << " --rows=" << softmax.rows << " --cols=" << softmax.cols
          << " --type=" << type_text(softmax.x_type) << " --type-y=" << type_text(softmax.y_type);
    else
    {
        s << " --dims=";
        for(int a = 0; a < reduce.rank; ++a)
            s << (a ? "x" : "") << reduce.dims[a];
        s << " --axes=";
        bool first = true;
        for(int a = 0; a < reduce.rank; ++a)
            if((reduce.reduce_mask >> a) & 1u)
            {
                s << (first ? "" : ",") << a;
                first = false;
            }
        s << " --op=" << reduce_op_names[reduce.op] << " --type=" << type_text(reduce.x_type)
          << " --type-y=" << type_text(reduce.y_type);
    }
    return s.str();
}

namespace {

// ---- the operation through the C API, whichever it is ---------------------------------------

/// Device buffers of one set and the calls that use them.
struct op_calls
{
    const rowwise_problem& rp;

    std::int64_t x_elems() const
    {
        if(rp.op == "norm")
            return rp.norm.rows * rp.norm.cols;
        if(rp.op == "softmax")
            return rp.softmax.rows * rp.softmax.cols;
        std::int64_t n = 1;
        for(int a = 0; a < rp.reduce.rank; ++a)
            n *= rp.reduce.dims[a];
        return n;
    }
    std::int64_t y_elems() const
    {
        if(rp.op != "reduce")
            return x_elems();
        std::int64_t n = 1;
        for(int a = 0; a < rp.reduce.rank; ++a)
            if(!((rp.reduce.reduce_mask >> a) & 1u))
                n *= rp.reduce.dims[a];
        return n;
    }
    cktile_datatype_t x_type() const
    {
        return rp.op == "norm"      ? rp.norm.x_type
               : rp.op == "softmax" ? rp.softmax.x_type
                                    : rp.reduce.x_type;
    }
    cktile_datatype_t y_type() const
    {
        return rp.op == "norm"      ? rp.norm.y_type
               : rp.op == "softmax" ? rp.softmax.y_type
                                    : rp.reduce.y_type;
    }
    cktile_op_kind_t kind() const
    {
        return rp.op == "norm"      ? CKTILE_OP_NORMALIZATION
               : rp.op == "softmax" ? CKTILE_OP_SOFTMAX
                                    : CKTILE_OP_REDUCTION;
    }

    cktile_status_t supports(cktile_handle_t h, std::uint64_t id, const void* x, void* y,
                             const void* w, char* reason, std::size_t n) const
    {
        if(rp.op == "norm")
        {
            cktile_norm_args_t a;
            cktile_norm_args_init(&a);
            a.x = x, a.y = y, a.weight = w, a.bias = rp.norm.has_bias ? w : nullptr;
            return cktile_norm_supports(h, id, &rp.norm, &a, reason, n);
        }
        if(rp.op == "softmax")
        {
            cktile_softmax_args_t a;
            cktile_softmax_args_init(&a);
            a.x = x, a.y = y;
            return cktile_softmax_supports(h, id, &rp.softmax, &a, reason, n);
        }
        cktile_reduce_args_t a;
        cktile_reduce_args_init(&a);
        a.x = x, a.y = y;
        return cktile_reduce_supports(h, id, &rp.reduce, &a, reason, n);
    }
    cktile_status_t select(cktile_handle_t h, std::uint64_t* id) const
    {
        if(rp.op == "norm")
            return cktile_norm_select(h, &rp.norm, nullptr, CKTILE_SELECT_DEFAULT, id);
        if(rp.op == "softmax")
            return cktile_softmax_select(h, &rp.softmax, nullptr, CKTILE_SELECT_DEFAULT, id);
        return cktile_reduce_select(h, &rp.reduce, nullptr, CKTILE_SELECT_DEFAULT, id);
    }
    cktile_status_t run(cktile_handle_t h, std::uint64_t id, const void* x, void* y, const void* w,
                        hipStream_t stream) const
    {
        if(rp.op == "norm")
        {
            cktile_norm_args_t a;
            cktile_norm_args_init(&a);
            a.x = x, a.y = y, a.weight = w, a.bias = rp.norm.has_bias ? w : nullptr;
            return cktile_norm_run(h, id, &rp.norm, &a, stream);
        }
        if(rp.op == "softmax")
        {
            cktile_softmax_args_t a;
            cktile_softmax_args_init(&a);
            a.x = x, a.y = y;
            return cktile_softmax_run(h, id, &rp.softmax, &a, stream);
        }
        cktile_reduce_args_t a;
        cktile_reduce_args_init(&a);
        a.x = x, a.y = y;
        return cktile_reduce_run(h, id, &rp.reduce, &a, stream);
    }
};

/// Random inputs, periodic: a block of random elements (odd length, so rows differ) repeated,
/// which keeps set-up fast for tensors of billions of elements.
std::vector<unsigned char> periodic_input(cktile_datatype_t t, std::int64_t count,
                                          std::uint64_t seed)
{
    const std::int64_t period = std::min<std::int64_t>(count, (1 << 20) + 7);
    const auto block          = random_elements(t, period, seed);
    std::vector<unsigned char> out(static_cast<std::size_t>(count) * type_bytes(t));
    for(std::size_t off = 0; off < out.size(); off += block.size())
        std::memcpy(out.data() + off, block.data(), std::min(block.size(), out.size() - off));
    return out;
}

/// v stored as `t` and read back.
double round_to_type(cktile_datatype_t t, double v)
{
    const float f = static_cast<float>(v);
    if(t == CKTILE_DATATYPE_FP16)
        return ck_tile::type_convert<float>(ck_tile::type_convert<ck_tile::half_t>(f));
    if(t == CKTILE_DATATYPE_BF16)
        return ck_tile::type_convert<float>(ck_tile::type_convert<ck_tile::bf16_t>(f));
    return f;
}

double rel_tolerance(cktile_datatype_t t)
{
    return t == CKTILE_DATATYPE_FP16 ? 4e-3 : t == CKTILE_DATATYPE_BF16 ? 3e-2 : 2e-4;
}

bool close(double got, double want, double rel, double abs)
{
    if(std::isnan(want) || std::isnan(got))
        return std::isnan(want) && std::isnan(got);
    if(std::isinf(want) || std::isinf(got))
        return got == want;
    return std::fabs(got - want) <= abs + rel * std::fabs(want);
}

/// Checks `y` against the reference; "" or what failed. Row ops check up to 64 rows spread
/// over the tensor (the reference of a few billion elements would dominate the run).
std::string verify(const rowwise_problem& rp, const std::vector<unsigned char>& xb,
                   const std::vector<unsigned char>& wb, const std::vector<unsigned char>& yb)
{
    const op_calls c{rp};
    const auto xt = c.x_type(), yt = c.y_type();
    auto xval        = [&](std::int64_t n) { return decode_element(xt, &xb[n * type_bytes(xt)]); };
    auto yval        = [&](std::int64_t n) { return decode_element(yt, &yb[n * type_bytes(yt)]); };
    const double rel = rel_tolerance(yt);
    if(rp.op != "reduce")
    {
        const std::int64_t rows = rp.op == "norm" ? rp.norm.rows : rp.softmax.rows;
        const std::int64_t cols = rp.op == "norm" ? rp.norm.cols : rp.softmax.cols;
        const std::int64_t step = std::max<std::int64_t>(1, rows / 64);
        std::vector<double> x(cols), y(cols), w(cols);
        if(rp.op == "norm")
            for(std::int64_t j = 0; j < cols; ++j)
                w[j] =
                    decode_element(rp.norm.weight_type, &wb[j * type_bytes(rp.norm.weight_type)]);
        for(std::int64_t i = 0; i < rows; i += step)
        {
            for(std::int64_t j = 0; j < cols; ++j)
                x[j] = xval(i * cols + j);
            if(rp.op == "softmax")
                ck_tile::reference_softmax(1, cols, x.data(), cols, y.data(), cols);
            else
            {
                ck_tile::reference_norm_desc d;
                d.cols = cols, d.x_stride = d.y_stride = cols;
                d.epsilon   = rp.norm.epsilon;
                d.layernorm = rp.norm.kind == CKTILE_NORM_LAYERNORM;
                d.has_bias  = rp.norm.has_bias != 0;
                ck_tile::reference_norm(d, x.data(), nullptr, w.data(), w.data(), y.data(), nullptr,
                                        nullptr, nullptr, [](double v) { return v; });
            }
            for(std::int64_t j = 0; j < cols; ++j)
                if(!close(yval(i * cols + j), y[j], rel, rp.op == "norm" ? rel : 1e-6))
                {
                    std::ostringstream s;
                    s << "y(" << i << "," << j << ") = " << yval(i * cols + j) << ", want " << y[j];
                    return s.str();
                }
        }
        return {};
    }
    const auto& p = rp.reduce;
    std::vector<double> x(static_cast<std::size_t>(c.x_elems())), mag(x.size());
    for(std::int64_t n = 0; n < c.x_elems(); ++n)
    {
        x[n]   = xval(n);
        mag[n] = p.op == CKTILE_REDUCE_SUM_SQUARES ? x[n] * x[n] : std::fabs(x[n]);
    }
    std::int64_t y_span = 1;
    for(int a = 0; a < p.rank; ++a)
        if(!((p.reduce_mask >> a) & 1u))
            y_span += (p.dims[a] - 1) * p.y_strides[a];
    std::vector<double> ref(y_span), bound(y_span);
    const auto ref_op = static_cast<ck_tile::reference_reduce_op>(static_cast<int>(p.op) - 1);
    ck_tile::reference_reduce(ref_op, p.rank, p.dims, x.data(), p.x_strides, p.reduce_mask,
                              ref.data(), p.y_strides);
    ck_tile::reference_reduce(p.op == CKTILE_REDUCE_MEAN ? ck_tile::reference_reduce_op::mean
                                                         : ck_tile::reference_reduce_op::sum,
                              p.rank, p.dims, mag.data(), p.x_strides, p.reduce_mask, bound.data(),
                              p.y_strides);
    const bool exact = p.op == CKTILE_REDUCE_MAX || p.op == CKTILE_REDUCE_MIN;
    for(std::int64_t n = 0; n < y_span; ++n)
    {
        // y is packed here, so every element is an output.
        const double want = round_to_type(yt, ref[n]);
        if(!close(yval(n), want, exact ? 0.0 : rel, exact ? 0.0 : 4e-6 * bound[n]))
        {
            std::ostringstream s;
            s << "y[" << n << "] = " << yval(n) << ", want " << want;
            return s.str();
        }
    }
    return {};
}

std::string id_hex(std::uint64_t id)
{
    char b[24];
    std::snprintf(b, sizeof(b), "0x%016" PRIx64, id);
    return b;
}

} // namespace

int run_rowwise_profiler(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const rowwise_settings st = parse_rowwise_command_line(args);
    if(st.help)
    {
        out << rowwise_help(st.problem.op);
        return exit_ok;
    }
    const rowwise_problem& rp = st.problem;
    const op_calls calls{rp};
    const auto gpu = ck_tile::query_gpu_availability();
    if(!gpu.present)
    {
        err << "cktile-profiler " << rp.op << ": " << gpu.reason << "; profiling needs a GPU.\n";
        return exit_no_device;
    }
    cktile_handle_t h = nullptr;
    if(cktile_create(&h, st.device) != CKTILE_STATUS_SUCCESS)
    {
        err << "cktile-profiler: cannot open device " << st.device << ": "
            << cktile_get_last_error_message() << "\n";
        return exit_setup;
    }
    std::unique_ptr<cktile_handle_opaque, cktile_status_t (*)(cktile_handle_t)> guard(
        h, &cktile_destroy);

    // Inputs on the host, then as many device sets as it takes to exceed twice the L2.
    const auto dev = device_info::query(st.device);
    const auto xt  = calls.x_type();
    const auto xb  = periodic_input(xt, calls.x_elems(), st.seed);
    const auto wt  = rp.op == "norm" ? rp.norm.weight_type : xt;
    const auto wb  = periodic_input(wt, rp.op == "norm" ? rp.norm.cols : 1, st.seed + 1);
    const std::size_t yb_bytes =
        static_cast<std::size_t>(calls.y_elems()) * type_bytes(calls.y_type());
    const std::size_t set_bytes = xb.size() + yb_bytes;
    const std::size_t sets =
        std::clamp<std::size_t>(2 * dev.l2_bytes / std::max<std::size_t>(set_bytes, 1) + 1, 1, 32);
    std::vector<ck_tile::DeviceMem> dx, dy;
    ck_tile::DeviceMem dw(wb.size());
    dw.ToDevice(wb.data());
    for(std::size_t s = 0; s < sets; ++s)
    {
        dx.emplace_back(xb.size());
        dy.emplace_back(yb_bytes);
        dx.back().ToDevice(xb.data());
    }
    hipStream_t stream = nullptr;

    // Which instances: the named ones, else every instance of the op that supports it.
    std::vector<cktile_instance_info_t> chosen;
    std::size_t n = 0;
    cktile_get_instance_count(h, &n);
    for(std::size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        if(cktile_get_instance_info(h, i, &info) != CKTILE_STATUS_SUCCESS ||
           info.op_kind != calls.kind())
            continue;
        const bool named =
            st.instances.empty() ||
            std::find_if(st.instances.begin(), st.instances.end(), [&](const std::string& s) {
                return s == info.name || s == id_hex(info.id) || s == std::to_string(info.id);
            }) != st.instances.end();
        if(named)
            chosen.push_back(info);
    }
    if(!st.instances.empty() && chosen.size() != st.instances.size())
        throw usage_error("--instance: some names or ids are not " + rp.op +
                          " instances of this device's kernel library");
    std::uint64_t selected = 0;
    calls.select(h, &selected);

    report rep;
    rep.mode = "profile";
    rep.context.emplace_back("version", std::string(cktile_get_version_string()));
    std::string command = "cktile-profiler";
    for(const std::string& a : args)
        command += " " + a;
    rep.context.emplace_back("command", command);
    rep.context.emplace_back("device", dev.name);
    rep.context.emplace_back("target", dev.target);
    rep.table_columns  = {"problem", "instance", "selected", "time_us", "GB/s", "verified"};
    const double bytes = static_cast<double>(rp.bytes_moved());
    int code           = exit_ok;
    double best_gbs    = 0;
    std::string best;
    for(const auto& info : chosen)
    {
        record r;
        r.set("op", rp.op);
        r.set("problem", rp.text());
        r.set("instance", std::string(info.name));
        r.set("id", id_hex(info.id));
        r.set("selected", info.id == selected);
        r.set("bytes", static_cast<std::int64_t>(bytes));
        char reason[256] = {};
        if(calls.supports(h, info.id, dx[0].GetDeviceBuffer(), dy[0].GetDeviceBuffer(),
                          dw.GetDeviceBuffer(), reason, sizeof(reason)) != CKTILE_STATUS_SUCCESS)
        {
            if(!st.instances.empty())
            {
                r.set("error", std::string("not supported: ") + reason);
                rep.rows.push_back(r);
                code = exit_failed;
            }
            continue;
        }
        const timing t = time_launches(
            [&](std::size_t s, hipStream_t strm) -> std::string {
                if(calls.run(h, info.id, dx[s].GetDeviceBuffer(), dy[s].GetDeviceBuffer(),
                             dw.GetDeviceBuffer(), strm) != CKTILE_STATUS_SUCCESS)
                    return cktile_get_last_error_message();
                return {};
            },
            sets, st.warmup, st.iters, stream);
        if(!t.error.empty())
        {
            r.set("error", t.error);
            rep.rows.push_back(r);
            code = exit_failed;
            continue;
        }
        const double gbs = bytes / (t.median_ms * 1e-3) / 1e9;
        r.set("time_us", t.median_ms * 1e3);
        r.set("min_us", t.min_ms * 1e3);
        r.set("GB/s", gbs);
        if(st.verify)
        {
            // A fresh run into a poisoned output, so nothing stale can pass.
            std::vector<unsigned char> yb(yb_bytes);
            dy[0].SetValue(0xff);
            std::string why;
            if(calls.run(h, info.id, dx[0].GetDeviceBuffer(), dy[0].GetDeviceBuffer(),
                         dw.GetDeviceBuffer(), stream) != CKTILE_STATUS_SUCCESS)
                why = cktile_get_last_error_message();
            else if(hipDeviceSynchronize() != hipSuccess)
                why = "the device reported an error";
            else
            {
                dy[0].FromDevice(yb.data());
                why = verify(rp, xb, wb, yb);
            }
            r.set("verified", why.empty());
            if(!why.empty())
            {
                r.set("error", why);
                code = exit_failed;
            }
        }
        r.set("replay", "cktile-profiler " + rp.op + rp.options() + " --instance=" + info.name +
                            (st.verify ? " --verify" : ""));
        if(gbs > best_gbs)
        {
            best_gbs = gbs;
            best     = info.name;
        }
        rep.rows.push_back(r);
    }
    if(!best.empty())
    {
        record s;
        s.set("problem", rp.text());
        s.set("best", best);
        s.set("GB/s", best_gbs);
        s.set("text", "best: " + best + " " + table_text(cell(best_gbs)) + " GB/s (" + rp.text() +
                          ", bytes read + written)");
        rep.summary.push_back(s);
    }
    const bool stdout_taken = st.csv == "-" || st.json == "-";
    if(!st.quiet && !stdout_taken)
    {
        write_table(out, rep);
        for(const record& r : rep.summary)
            if(const cell* line = r.get("text"))
                out << table_text(*line) << "\n";
    }
    if(!write_report_to(st.csv, rep, false, out, err) ||
       !write_report_to(st.json, rep, true, out, err))
        return exit_setup;
    return code;
}

} // namespace cktile_profiler
