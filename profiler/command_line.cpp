// SPDX-License-Identifier: MIT
#include "command_line.hpp"

#include <algorithm>
#include <cctype>

namespace cktile_profiler {

const std::vector<std::string>& gemm_modes()
{
    static const std::vector<std::string> modes = {"profile", "enumerate", "select", "tune",
                                                   "overhead"};
    return modes;
}

const std::vector<option_spec>& gemm_options()
{
    using g                                     = option_group;
    const std::string ints                      = "<int|list|range>";
    static const std::vector<option_spec> specs = {
        // The problem. Sweeps nest in this order: the first swept option varies slowest.
        {"m", {}, true, g::problem, ints, "rows of A and D (default 4096; 64 in overhead mode)"},
        {"n", {}, true, g::problem, ints, "columns of B and D (default 4096; 64 in overhead mode)"},
        {"k", {}, true, g::problem, ints, "columns of A, rows of B (default 4096; 64 in overhead)"},
        {"batch", {"batch-count"}, true, g::problem, ints, "batch count (default 1)"},
        {"type-a",
         {"a-type"},
         true,
         g::problem,
         "<type|list>",
         "A's type: f16 bf16 f32 e4m3 e5m2 i8 (default f16)"},
        {"type-b", {"b-type"}, true, g::problem, "<type|list>", "B's type (default: A's)"},
        {"type-c", {"c-type"}, true, g::problem, "<type|list>", "C's type (default: D's)"},
        {"type-d",
         {"d-type"},
         true,
         g::problem,
         "<type|list>",
         "D's type: f16 bf16 f32 i32 (default: A's; f16 for fp8 inputs; i32 for i8)"},
        {"type-compute",
         {"compute-type", "compute"},
         true,
         g::problem,
         "<type|list>",
         "accumulation type: f32, or i32 for i8 inputs (the default follows A)"},
        {"layout-a", {"a-layout"}, true, g::problem, "<row|col|list>", "A's layout (default row)"},
        {"layout-b", {"b-layout"}, true, g::problem, "<row|col|list>", "B's layout (default col)"},
        {"layout-c", {"c-layout"}, true, g::problem, "<row|col|list>", "C's layout (default: D's)"},
        {"layout-d", {"d-layout"}, true, g::problem, "<row|col|list>", "D's layout (default row)"},
        {"lda", {}, true, g::problem, ints, "A's leading dimension (default: tight)"},
        {"ldb", {}, true, g::problem, ints, "B's leading dimension (default: tight)"},
        {"ldc", {}, true, g::problem, ints, "C's leading dimension (default: tight)"},
        {"ldd", {}, true, g::problem, ints, "D's leading dimension (default: tight)"},
        {"stride-a", {}, true, g::problem, ints, "elements between A's batches (default: packed)"},
        {"stride-b", {}, true, g::problem, ints, "elements between B's batches (0 broadcasts)"},
        {"stride-c", {}, true, g::problem, ints, "elements between C's batches"},
        {"stride-d", {}, true, g::problem, ints, "elements between D's batches"},
        {"stride-bias", {}, true, g::problem, ints, "elements between the bias's batches"},
        {"alpha", {}, true, g::problem, "<real|list>", "D = act(alpha*A*B + beta*C + bias) (1)"},
        {"beta", {}, true, g::problem, "<real|list>", "C is read when beta != 0 (default 0)"},
        {"bias", {}, true, g::problem, "<none|row|col|list>", "bias per row or column of D"},
        {"activation",
         {"act"},
         true,
         g::problem,
         "<name|list>",
         "none relu gelu_tanh gelu_erf silu (default none)"},
        {"multi-d",
         {"multi-d-op"},
         true,
         g::problem,
         "<op|list>",
         "extra inputs D0/D1: none add mul add_mul mul_add (default none)"},
        {"multi-d-point",
         {},
         true,
         g::problem,
         "<after|before>",
         "combine after (default) or before the activation"},
        {"type-d0", {"d0-type"}, true, g::problem, "<type|list>", "D0's type: D's or f32"},
        {"type-d1", {"d1-type"}, true, g::problem, "<type|list>", "D1's type: D's or f32"},
        {"layout-d0", {"d0-layout"}, true, g::problem, "<row|col|list>", "D0's layout (D's)"},
        {"layout-d1", {"d1-layout"}, true, g::problem, "<row|col|list>", "D1's layout (D's)"},
        {"ldd0", {}, true, g::problem, ints, "D0's leading dimension (default: tight)"},
        {"ldd1", {}, true, g::problem, ints, "D1's leading dimension (default: tight)"},
        {"stride-d0", {}, true, g::problem, ints, "elements between D0's batches (0 broadcasts)"},
        {"stride-d1", {}, true, g::problem, ints, "elements between D1's batches (0 broadcasts)"},
        // How to run.
        {"instance",
         {},
         true,
         g::run,
         "<name|id|list>",
         "only these instances (names or ids; 'cublasLt' is the vendor row)"},
        {"target",
         {},
         true,
         g::run,
         "<target>",
         "enumerate/select offline for a target (sm_90a, gfx90a) instead of a device"},
        {"device", {}, true, g::run, "<int>", "GPU ordinal (default 0)"},
        {"warmup", {}, true, g::run, "<int>", "untimed runs before timing (default 10)"},
        {"iters", {}, true, g::run, "<int>", "timed runs; the median is reported (default 50)"},
        {"steady-ms",
         {},
         true,
         g::run,
         "<int>",
         "run each instance untimed for this much device time before each of its rounds, so "
         "that a power-capped card times every instance at its own sustained clock (default 0)"},
        {"rounds",
         {},
         true,
         g::run,
         "<int>",
         "profile: split --iters into this many rounds, each row timed in every round in an "
         "order that turns, so that a drifting clock favours no row (default 5)"},
        {"verify", {}, false, g::run, "", "check every result against the CPU reference"},
        {"vendor",
         {},
         false,
         g::run,
         "",
         "also time the vendor library (cuBLASLt) in this run (default on where built)"},
        {"tuning-db",
         {},
         true,
         g::run,
         "<path>",
         "tune: database to write (default cktile-tuning-db.json); select: database to read"},
        {"seed", {}, true, g::run, "<int>", "seed of the random inputs (default 1)"},
        {"calls", {}, true, g::run, "<int>", "overhead: calls per measurement (default 5000)"},
        {"progress",
         {},
         false,
         g::run,
         "",
         "progress bar on stderr (default: on when stderr is a terminal)"},
        // Where results go.
        {"csv", {}, true, g::output, "<path|->", "also write CSV to a file or stdout (-)"},
        {"json", {}, true, g::output, "<path|->", "also write JSON to a file or stdout (-)"},
        {"quiet", {}, false, g::output, "", "no table on stdout"},
    };
    return specs;
}

std::string normalise_option_name(std::string_view spelled)
{
    while(!spelled.empty() && spelled.front() == '-')
        spelled.remove_prefix(1);
    std::string out(spelled);
    for(char& c : out)
        c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

const option_spec* find_gemm_option(std::string_view normalised)
{
    for(const option_spec& s : gemm_options())
    {
        if(s.name == normalised)
            return &s;
        for(const std::string& a : s.aliases)
            if(a == normalised)
                return &s;
    }
    return nullptr;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for(std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for(std::size_t i = 1; i <= a.size(); ++i)
    {
        std::size_t diag = row[0];
        row[0]           = i;
        for(std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag   = up;
        }
    }
    return row[b.size()];
}

/// "1", "true", ... -> true; "0", "false", ... -> false; anything else throws.
bool parse_bool(const std::string& option, const std::string& text)
{
    std::string t = normalise_option_name(text);
    if(t == "1" || t == "true" || t == "yes" || t == "on")
        return true;
    if(t == "0" || t == "false" || t == "no" || t == "off")
        return false;
    throw usage_error("--" + option + "=" + text + ": expected 1/0, true/false, yes/no or on/off");
}

std::string known_modes()
{
    std::string s;
    for(const std::string& m : gemm_modes())
        s += (s.empty() ? "" : ", ") + m;
    return s;
}

} // namespace

std::string suggest_option(std::string_view normalised)
{
    std::string best;
    std::size_t best_d = 4;
    for(const option_spec& s : gemm_options())
    {
        std::vector<std::string> names = s.aliases;
        names.push_back(s.name);
        for(const std::string& n : names)
            if(const std::size_t d = edit_distance(normalised, n); d < best_d)
            {
                best_d = d;
                best   = s.name;
            }
    }
    return best;
}

bool command_line::flag(const std::string& name, bool default_value) const
{
    const auto it = values.find(name);
    return it == values.end() ? default_value : it->second == "1";
}

std::string command_line::text(const std::string& name, const std::string& fallback) const
{
    const auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
}

command_line parse_command_line(const std::vector<std::string>& args)
{
    command_line cl;
    for(std::size_t i = 0; i < args.size(); ++i)
    {
        const std::string& tok = args[i];
        if(tok == "-h" || tok == "--help" || tok == "help")
        {
            cl.help = true;
            continue;
        }
        if(tok == "--version")
        {
            cl.version = true;
            continue;
        }
        if(tok.rfind("-", 0) != 0)
        {
            if(cl.op.empty())
            {
                if(tok != "gemm")
                    throw usage_error("unknown operation '" + tok +
                                      "': cktile-profiler knows gemm (try --help)");
                cl.op = tok;
            }
            else if(cl.mode.empty())
            {
                const auto& modes = gemm_modes();
                if(std::find(modes.begin(), modes.end(), tok) == modes.end())
                    throw usage_error("unknown mode '" + tok + "' for " + cl.op +
                                      ": expected one of " + known_modes());
                cl.mode = tok;
            }
            else
                throw usage_error("unexpected argument '" + tok +
                                  "': options are written --name=value");
            continue;
        }
        if(cl.op.empty())
            throw usage_error("'" + tok +
                              "' comes before the operation: write cktile-profiler "
                              "gemm [mode] [options] (try --help)");

        const std::size_t eq    = tok.find('=');
        const std::string name  = normalise_option_name(tok.substr(0, eq));
        const bool has_value    = eq != std::string::npos;
        std::string value       = has_value ? tok.substr(eq + 1) : "";
        const option_spec* spec = find_gemm_option(name);
        bool negated            = false;
        if(!spec && name.rfind("no-", 0) == 0)
        {
            spec    = find_gemm_option(name.substr(3));
            negated = spec && !spec->takes_value;
            if(!negated)
                spec = nullptr;
        }
        if(!spec)
        {
            const std::string near = suggest_option(name);
            throw usage_error("unknown option '" + tok.substr(0, eq) + "'" +
                              (near.empty() ? "" : " (did you mean --" + near + "?)") +
                              "; cktile-profiler gemm --help lists them");
        }
        if(cl.values.count(spec->name))
            throw usage_error("--" + spec->name + " is given twice");
        if(spec->takes_value)
        {
            if(!has_value)
            {
                if(i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                    throw usage_error("--" + spec->name + " needs a value: --" + spec->name + "=" +
                                      spec->metavar);
                value = args[++i];
            }
            if(value.empty())
                throw usage_error("--" + spec->name + "= is empty: expected " + spec->metavar);
            cl.values[spec->name] = value;
        }
        else
        {
            if(negated && has_value)
                throw usage_error("--no-" + spec->name + " takes no value");
            const bool on = negated ? false : (has_value ? parse_bool(spec->name, value) : true);
            cl.values[spec->name] = on ? "1" : "0";
        }
    }
    if(!cl.op.empty() && cl.mode.empty())
        cl.mode = "profile";
    return cl;
}

} // namespace cktile_profiler
