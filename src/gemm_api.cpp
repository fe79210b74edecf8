// SPDX-License-Identifier: MIT
// The GEMM entry points of include/cktile.h: problem set-up, support queries, selection
// (heuristic, tuning database, measured) and running.
#include "cktile.h"

#include "api_error.hpp"
#include "gemm_problem.hpp"
#include "handle.hpp"
#include "logging.hpp"
#include "measured_selection.hpp"
#include "selection.hpp"
#include "struct_init.hpp"

#include "ck_tile/host/hip_runtime.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

using namespace cktile::detail;

namespace {

constexpr std::size_t reason_capacity = 256;

/// Whether the instance has the problem's input and output types, either way round (an
/// instance may run the problem as its transpose, with A's and B's types exchanged).
bool has_problem_types(const cktile_instance_info_t& i, const cktile_gemm_problem_t& p)
{
    return i.d_type == p.d_type && ((i.a_type == p.a_type && i.b_type == p.b_type) ||
                                    (i.a_type == p.b_type && i.b_type == p.a_type));
}

/// Why `r` cannot run `p` (empty, with nothing allocated, when it can).
std::string why_not(const cktile_kernel_instance_t& r, const cktile_gemm_problem_t& p,
                    const cktile_gemm_args_t* args)
{
    // Only a failing instance writes the reason, so the buffer is not cleared up front.
    char reason[reason_capacity];
    reason[0] = '\0';
    if(r.supports(&p, args, reason, sizeof(reason)) == 0)
        return {};
    reason[reason_capacity - 1] = '\0';
    return reason[0] ? reason : "not supported (no reason given)";
}

const cktile_kernel_instance_t& require_instance(const handle_state& s, std::uint64_t id)
{
    if(id == CKTILE_INSTANCE_AUTO)
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "id 0 is CKTILE_INSTANCE_AUTO; this function needs an instance id");
    const auto* r = s.library->find(id);
    if(!r)
        fail(CKTILE_STATUS_NOT_FOUND,
             "no instance with id " + std::to_string(id) + " for " + s.target);
    return *r;
}

/// Every instance that runs `p`, or NOT_SUPPORTED explaining why there is none.
std::vector<const cktile_kernel_instance_t*> supporting_instances(const handle_state& s,
                                                                  const cktile_gemm_problem_t& p,
                                                                  const cktile_gemm_args_t* args)
{
    std::vector<const cktile_kernel_instance_t*> out;
    std::string reasons;
    int typed = 0;
    for(std::size_t i = 0; i < s.library->size(); ++i)
    {
        const auto& r         = s.library->at(i);
        const std::string why = why_not(r, p, args);
        if(why.empty())
            out.push_back(&r);
        else if(has_problem_types(r.info, p) && typed++ < 4)
            reasons += std::string("; ") + r.info.name + ": " + why;
    }
    if(out.empty())
        fail(CKTILE_STATUS_NOT_SUPPORTED,
             "no instance in the " + s.target + " kernel library runs this problem" +
                 (typed == 0 ? std::string(" (none has types ") + datatype_name(p.a_type) + "," +
                                   datatype_name(p.b_type) + "->" + datatype_name(p.d_type) + ")"
                             : reasons));
    return out;
}

/// Whether `a` goes before `b` when the model costs them the same. (Records from libraries
/// built before the `pingpong` field read it as 0: their size ends before it, and
/// kernel_library copies them zero-extended.)
bool preferred_on_tie(const cktile_kernel_instance_t& a, const cktile_kernel_instance_t& b)
{
    if((a.pingpong != 0) != (b.pingpong != 0))
        return a.pingpong != 0;
    return a.info.id < b.info.id;
}

/// An instance the model has costed for a problem, with the workspace of the costed run.
struct modelled_instance
{
    const cktile_kernel_instance_t* instance = nullptr;
    double cost                              = std::numeric_limits<double>::infinity();
    std::size_t workspace                    = 0;
};

/// The model's ranking of `candidates` for `p`: those that run with at most `workspace_limit`
/// bytes of workspace (costed as run with their full workspace where it fits, else with their
/// least), fastest first.
/// @post ties are ordered by preferred_on_tie; `unaffordable` (when given) holds the fastest
/// modelled instance that needs more workspace (instance null when there is none).
std::vector<modelled_instance>
rank_heuristic(const handle_state& s, const cktile_gemm_problem_t& p,
               const std::vector<const cktile_kernel_instance_t*>& candidates,
               std::size_t workspace_limit, modelled_instance* unaffordable = nullptr)
{
    std::vector<modelled_instance> ranked;
    ranked.reserve(candidates.size());
    for(const auto* r : candidates)
    {
        // With less than its full workspace an instance may still run, only slower.
        const std::size_t full_workspace = r->workspace_size(&p);
        const bool full                  = full_workspace <= workspace_limit;
        double c                         = estimate_gemm_cost(*r, p, s.machine, full);
        if(std::isnan(c))
            c = std::numeric_limits<double>::infinity(); // keeps the order below strict
        if(logger().should_log(spdlog::level::trace))
            logger().trace("modelled {:.4g} for {}{}{} ({})", c, r->info.name,
                           r->runs_transposed && r->runs_transposed(&p) ? ", transposed" : "",
                           r->staged_epilogue && r->staged_epilogue(&p) ? ", staged epilogue" : "",
                           gemm_problem_key(p));
        const std::size_t least = full ? full_workspace : minimum_workspace(*r, p);
        if(!full && least > workspace_limit)
        {
            // A run without enough workspace cannot use it; remembered to say so.
            if(unaffordable && c < unaffordable->cost)
                *unaffordable = {r, c, least};
            continue;
        }
        ranked.push_back({r, c, least});
    }
    // Exact ties (tiles of one area and stage size, as 64x128 and 128x64) go to ping-pong
    // schedules: on the H100 they ran 5 to 25% faster than the cooperative tile of the same
    // area where M is twice N or more, and as fast at M = 128 and 1024^3, though 4 to 8% slower
    // at 1024 x 1024 with K of 4096 or 8192 (docs/performance.md); then to the lower id, so the
    // order is reproducible across runs and builds.
    std::sort(ranked.begin(), ranked.end(),
              [](const modelled_instance& a, const modelled_instance& b) {
                  if(a.cost != b.cost)
                      return a.cost < b.cost;
                  return preferred_on_tie(*a.instance, *b.instance);
              });
    return ranked;
}

[[noreturn]] void fail_unaffordable(std::size_t workspace_limit)
{
    fail(CKTILE_STATUS_INSUFFICIENT_WORKSPACE,
         "every instance that runs this problem needs more than the " +
             std::to_string(workspace_limit) + " bytes of workspace given");
}

/// rank_heuristic over every instance that runs `p`; INSUFFICIENT_WORKSPACE when none fits.
/// @post non-empty.
std::vector<modelled_instance> rank_affordable(const handle_state& s,
                                               const cktile_gemm_problem_t& p,
                                               const cktile_gemm_args_t* args,
                                               std::size_t workspace_limit)
{
    auto ranked = rank_heuristic(s, p, supporting_instances(s, p, args), workspace_limit);
    if(ranked.empty())
        fail_unaffordable(workspace_limit);
    return ranked;
}

/// The first of rank_heuristic's ranking (nullptr when every candidate needs more workspace).
const cktile_kernel_instance_t*
pick_heuristic(const handle_state& s, const cktile_gemm_problem_t& p,
               const std::vector<const cktile_kernel_instance_t*>& candidates,
               std::size_t workspace_limit)
{
    modelled_instance unaffordable;
    const auto ranked = rank_heuristic(s, p, candidates, workspace_limit, &unaffordable);
    if(ranked.empty())
        return nullptr;
    const modelled_instance& best = ranked.front();
    // Selections are cached per problem, so this is said once per problem and handle.
    if(unaffordable.instance && unaffordable.cost < best.cost)
        logger().info("{} is modelled {:.1f}x faster than {} for {} but needs {} bytes of "
                      "workspace ({} given)",
                      unaffordable.instance->info.name, best.cost / unaffordable.cost,
                      best.instance->info.name, gemm_problem_key(p), unaffordable.workspace,
                      workspace_limit);
    return best.instance;
}

/// nullptr when the tuning data (measured or loaded) has no usable answer.
const cktile_kernel_instance_t* pick_tuned(handle_state& s, const cktile_gemm_problem_t& p,
                                           const cktile_gemm_args_t* args, bool measured_too)
{
    const std::string key = gemm_problem_key(p);
    std::string name;
    std::uint64_t id = 0;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        if(measured_too)
            if(const auto it = s.measured.find(key); it != s.measured.end())
                id = it->second;
        if(id == 0)
            if(const auto it = s.tuning.find(key); it != s.tuning.end())
                name = it->second.instance;
    }
    const cktile_kernel_instance_t* r = id ? s.library->find(id) : s.library->find(name);
    if(!r)
        return nullptr;
    if(const std::string why = why_not(*r, p, args); !why.empty())
    {
        logger().warn("tuning entry for {} names {}, which cannot run it ({}); using the "
                      "heuristic",
                      key, r->info.name, why);
        return nullptr;
    }
    return r;
}

/// The selection without the handle's cache: text keys, every instance's support check and
/// the cost model. @pre `mode` is a cktile_select_mode_t.
const cktile_kernel_instance_t& select_uncached(handle_state& s, const cktile_gemm_problem_t& p,
                                                const cktile_gemm_args_t* args,
                                                cktile_select_mode_t mode,
                                                std::size_t workspace_limit)
{
    if(mode != CKTILE_SELECT_HEURISTIC)
    {
        if(const auto* r = pick_tuned(s, p, args, mode == CKTILE_SELECT_DEFAULT))
            if(minimum_workspace(*r, p) <= workspace_limit)
                return *r;
        if(mode == CKTILE_SELECT_TUNING_DB)
            fail(CKTILE_STATUS_NOT_FOUND,
                 "the tuning database has no usable entry for " + gemm_problem_key(p));
    }
    const auto* r = pick_heuristic(s, p, supporting_instances(s, p, args), workspace_limit);
    if(!r)
        fail_unaffordable(workspace_limit);
    return *r;
}

/// What a selection reads: the problem (batch strides only when there are batches, as the
/// kernels see them), whether there are arguments and how aligned each pointer is (vectorised
/// instances check it), the mode and the workspace limit.
/// @pre the problem (and the arguments, when given) passed validation, so enums are in range.
selection_key gemm_selection_key(const cktile_gemm_problem_t& p, const cktile_gemm_args_t* args,
                                 cktile_select_mode_t mode, std::size_t workspace_limit)
{
    auto e    = [](const auto& v) { return static_cast<std::uint64_t>(raw_enum(v)) & 0xff; };
    auto bits = [](double d) { return std::bit_cast<std::uint64_t>(d); };
    // Alignment as trailing zero bits, capped at 256 bytes (more than any vector needs); a
    // null pointer counts as fully aligned.
    auto align = [](const void* ptr) {
        return static_cast<std::uint64_t>(
            std::countr_zero(reinterpret_cast<std::uintptr_t>(ptr) | std::uintptr_t{256}));
    };
    const bool batched = p.batch_count > 1;
    selection_key k;
    k.w[0] = e(p.a_type) | e(p.b_type) << 8 | e(p.c_type) << 16 | e(p.d_type) << 24 |
             e(p.compute_type) << 32 | e(p.a_layout) << 40 | e(p.b_layout) << 44 |
             e(p.c_layout) << 48 | e(p.d_layout) << 52 | e(p.bias) << 56 | e(p.activation) << 60;
    k.w[1] = e(mode);
    if(args)
        k.w[1] |= std::uint64_t{1} << 8 | align(args->a) << 16 | align(args->b) << 24 |
                  align(args->c) << 32 | align(args->bias) << 40 | align(args->d) << 48;
    const std::int64_t dims[] = {p.m,
                                 p.n,
                                 p.k,
                                 p.lda,
                                 p.ldb,
                                 p.ldc,
                                 p.ldd,
                                 p.batch_count,
                                 batched ? p.stride_a : 0,
                                 batched ? p.stride_b : 0,
                                 batched ? p.stride_c : 0,
                                 batched ? p.stride_d : 0,
                                 batched ? p.stride_bias : 0};
    static_assert(2 + std::size(dims) + 4 <= selection_key::words);
    std::size_t i = 2;
    for(const std::int64_t d : dims)
        k.w[i++] = static_cast<std::uint64_t>(d);
    k.w[i++] = bits(p.alpha);
    k.w[i++] = bits(p.beta);
    k.w[i++] = workspace_limit;
    // Extra inputs: support reads whether there are any (and their description, for the
    // record); the kernels read them with scalar loads, so their alignment never matters.
    if(p.multi_d_op != CKTILE_MULTI_D_NONE)
        k.w[i] = e(p.multi_d_op) | e(p.multi_d_point) << 8 | e(p.d0_type) << 16 |
                 e(p.d1_type) << 24 | e(p.d0_layout) << 32 | e(p.d1_layout) << 40;
    return k;
}

/// `workspace_limit`: the workspace a run will have (cktile_gemm_run's); a selection without a
/// run may pick an instance that needs any amount (cktile_gemm_workspace_size says how much).
/// A repeated selection is one hashed lookup in the handle plus the chosen instance's own
/// support check; text is built only when something fails.
const cktile_kernel_instance_t&
select(handle_state& s, const cktile_gemm_problem_t& p, const cktile_gemm_args_t* args,
       cktile_select_mode_t mode,
       std::size_t workspace_limit = std::numeric_limits<std::size_t>::max())
{
    if(raw_enum(mode) < CKTILE_SELECT_DEFAULT || raw_enum(mode) > CKTILE_SELECT_TUNING_DB)
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "mode = " + std::to_string(raw_enum(mode)) + " is not a cktile_select_mode_t");
    const selection_key key  = gemm_selection_key(p, args, mode, workspace_limit);
    std::uint64_t generation = 0;
    // The key holds everything support reads, so the check cannot fail; it is kept because it
    // is cheap and makes a stale answer impossible should an instance read more than the key.
    if(const auto* r = s.gemm_selections.find(key, generation))
        if(why_not(*r, p, args).empty())
            return *r;
    const auto& r = select_uncached(s, p, args, mode, workspace_limit);
    s.gemm_selections.insert(key, &r, generation);
    return r;
}

/// Makes the handle's device current for the scope, restoring the caller's afterwards. The
/// current device is asked for on every call rather than remembered per thread: the caller may
/// change it through the runtime between our calls, and asking is a thread-local read in the
/// runtime, while a wrong guess would launch on the wrong device. Setting it is skipped when
/// it is already current (the usual case).
class device_scope
{
    public:
    explicit device_scope(int device)
    {
        if(hipGetDevice(&previous_) != hipSuccess)
            previous_ = -1;
        if(previous_ != device)
            if(const hipError_t e = hipSetDevice(device); e != hipSuccess)
                fail(CKTILE_STATUS_RUNTIME_ERROR, std::string("cannot make device ") +
                                                      std::to_string(device) +
                                                      " current: " + hipGetErrorString(e));
        device_ = device;
    }
    ~device_scope()
    {
        if(previous_ >= 0 && previous_ != device_)
            (void)hipSetDevice(previous_);
    }
    device_scope(const device_scope&)            = delete;
    device_scope& operator=(const device_scope&) = delete;

    private:
    int previous_ = -1;
    int device_   = -1;
};

void require_device(const handle_state& s)
{
    if(s.device < 0)
        fail(CKTILE_STATUS_NO_DEVICE,
             "the handle was created for target " + s.target +
                 " without a device (cktile_create_for_target); use cktile_create to run");
}

void launch(const handle_state& s, const cktile_kernel_instance_t& r,
            const cktile_gemm_problem_t& p, const cktile_gemm_args_t& args, void* workspace,
            std::size_t workspace_size, void* stream)
{
    // Less than workspace_size(&p) but at least the minimum: the instance runs without what
    // the rest would have bought (the split of a partial last wave).
    if(!workspace)
        workspace_size = 0;
    const std::size_t need = minimum_workspace(r, p);
    if(workspace_size < need)
        fail(CKTILE_STATUS_INSUFFICIENT_WORKSPACE,
             std::string(r.info.name) + " needs " + std::to_string(need) +
                 " bytes of workspace, got " + std::to_string(workspace_size));
    if(need > 0 && !workspace)
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "workspace is NULL but " + std::to_string(need) + " bytes are needed");
    if(need > 0 && reinterpret_cast<std::uintptr_t>(workspace) % 16 != 0)
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "workspace must be 16-byte aligned (split-K reads and writes its sums in vectors)");
    if(logger().should_log(spdlog::level::info))
        logger().info("gemm on device {}: {}", s.device, gemm_replay_command(p, r.info.name));
    char message[reason_capacity]; // written by a failing run only
    message[0] = '\0';
    const int status =
        r.run(&p, &args, workspace, workspace_size, stream, message, sizeof(message));
    if(status != CKTILE_STATUS_SUCCESS)
    {
        message[reason_capacity - 1] = '\0';
        fail(static_cast<cktile_status_t>(status), std::string(r.info.name) + ": " + message);
    }
}

/// The defaults of cktile_gemm_problem_init (init_prefix keeps those that lie inside the
/// caller's struct).
void gemm_problem_defaults(prefix_defaults<cktile_gemm_problem_t>& d)
{
    auto& v = d.value;
    for(auto* t : {&v.a_type, &v.b_type, &v.c_type, &v.d_type})
        d.set(*t, CKTILE_DATATYPE_FP16);
    d.set(v.compute_type, CKTILE_DATATYPE_FP32);
    for(auto* l : {&v.a_layout, &v.b_layout, &v.c_layout, &v.d_layout})
        d.set(*l, CKTILE_LAYOUT_ROW_MAJOR);
    for(auto* one : {&v.m, &v.n, &v.k, &v.lda, &v.ldb, &v.ldc, &v.ldd, &v.batch_count})
        d.set(*one, 1);
    d.set(v.alpha, 1.0);
    d.set(v.beta, 0.0);
    d.set(v.bias, CKTILE_BIAS_NONE);
    d.set(v.activation, CKTILE_ACTIVATION_NONE);
    // Appended in 0.2: no extra inputs, D0 and D1 described as D.
    d.set(v.multi_d_op, CKTILE_MULTI_D_NONE);
    d.set(v.multi_d_point, CKTILE_MULTI_D_AFTER_ACTIVATION);
    d.set(v.d0_type, CKTILE_DATATYPE_FP16);
    d.set(v.d1_type, CKTILE_DATATYPE_FP16);
    d.set(v.d0_layout, CKTILE_LAYOUT_ROW_MAJOR);
    d.set(v.d1_layout, CKTILE_LAYOUT_ROW_MAJOR);
    d.set(v.ldd0, 1);
    d.set(v.ldd1, 1);
}

} // namespace

extern "C" {

cktile_status_t cktile_gemm_problem_init_sized(cktile_gemm_problem_t* p, size_t struct_size)
{
    return guarded_init("cktile_gemm_problem_init_sized", p, struct_size, "problem",
                        gemm_problem_defaults);
}

cktile_status_t(cktile_gemm_problem_init)(cktile_gemm_problem_t* p)
{
    return guarded_init("cktile_gemm_problem_init", p, first_layout_size<cktile_gemm_problem_t>,
                        "problem", gemm_problem_defaults);
}

cktile_status_t cktile_gemm_args_init_sized(cktile_gemm_args_t* a, size_t struct_size)
{
    return guarded_init("cktile_gemm_args_init_sized", a, struct_size, "args", no_defaults);
}

cktile_status_t(cktile_gemm_args_init)(cktile_gemm_args_t* a)
{
    return guarded_init("cktile_gemm_args_init", a, first_layout_size<cktile_gemm_args_t>, "args",
                        no_defaults);
}

cktile_status_t cktile_gemm_validate(const cktile_gemm_problem_t* p)
{
    return guarded("cktile_gemm_validate", [&] {
        (void)validate_gemm_problem(p);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_gemm_supports(cktile_handle_t handle, uint64_t id,
                                     const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args,
                                     char* reason, size_t reason_size)
{
    return guarded("cktile_gemm_supports", [&] {
        if(reason && reason_size > 0)
            reason[0] = '\0';
        const auto s  = lookup_handle(handle);
        const auto& r = require_instance(*s, id);
        const validated_gemm_query query(p, args);
        p                     = &query.problem();
        args                  = query.args();
        const std::string why = why_not(r, *p, args);
        if(why.empty())
            return CKTILE_STATUS_SUCCESS;
        if(reason && reason_size > 0)
            std::snprintf(reason, reason_size, "%s", why.c_str());
        fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r.info.name) + ": " + why);
    });
}

cktile_status_t cktile_gemm_workspace_size(cktile_handle_t handle, uint64_t id,
                                           const cktile_gemm_problem_t* p, size_t* bytes)
{
    return guarded("cktile_gemm_workspace_size", [&] {
        const auto s                             = lookup_handle(handle);
        const auto& r                            = require_instance(*s, id);
        const cktile_gemm_problem_t full_problem = validate_gemm_problem(p); // complete struct
        p                                        = &full_problem;
        require_pointer(bytes, "bytes");
        *bytes = r.workspace_size(p);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_gemm_runs_transposed(cktile_handle_t handle, uint64_t id,
                                            const cktile_gemm_problem_t* p, int* transposed)
{
    return guarded("cktile_gemm_runs_transposed", [&] {
        const auto s                             = lookup_handle(handle);
        const auto& r                            = require_instance(*s, id);
        const cktile_gemm_problem_t full_problem = validate_gemm_problem(p); // complete struct
        p                                        = &full_problem;
        require_pointer(transposed, "transposed");
        const std::string why = why_not(r, *p, nullptr);
        if(!why.empty())
            fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r.info.name) + ": " + why);
        *transposed = r.runs_transposed && r.runs_transposed(p) ? 1 : 0;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_gemm_select(cktile_handle_t handle, const cktile_gemm_problem_t* p,
                                   const cktile_gemm_args_t* args, cktile_select_mode_t mode,
                                   uint64_t* id)
{
    return guarded("cktile_gemm_select", [&] {
        const auto s = lookup_handle(handle);
        const validated_gemm_query query(p, args);
        p    = &query.problem();
        args = query.args();
        require_pointer(id, "id");
        *id = select(*s, *p, args, mode).info.id;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_gemm_select_ranked(cktile_handle_t handle, const cktile_gemm_problem_t* p,
                                          const cktile_gemm_args_t* args, size_t workspace_limit,
                                          cktile_gemm_candidate_t* candidates, size_t capacity,
                                          size_t* count)
{
    return guarded("cktile_gemm_select_ranked", [&] {
        const auto s = lookup_handle(handle);
        const validated_gemm_query query(p, args);
        p    = &query.problem();
        args = query.args();
        require_pointer(count, "count");
        // The elements' size, from the first one (an output: a newer caller's larger struct
        // gets the fields this library knows, the rest zero).
        std::size_t stride = 0;
        if(capacity > 0)
        {
            require_struct(candidates, "candidates", false);
            stride = candidates->struct_size;
        }
        const auto ranked       = rank_affordable(*s, *p, args, workspace_limit);
        *count                  = ranked.size();
        const double first_cost = ranked.front().cost;
        for(std::size_t i = 0; i < std::min(capacity, ranked.size()); ++i)
        {
            cktile_gemm_candidate_t c{};
            c.struct_size = stride;
            c.id          = ranked[i].instance->info.id;
            c.relative_time =
                first_cost > 0 && std::isfinite(first_cost) ? ranked[i].cost / first_cost : 1.0;
            c.workspace_size       = ranked[i].workspace;
            c.waves                = output_waves(*ranked[i].instance, *p, s->machine);
            unsigned char* element = reinterpret_cast<unsigned char*>(candidates) + i * stride;
            std::memset(element, 0, stride);
            std::memcpy(element, &c, std::min(stride, sizeof(c)));
        }
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_gemm_select_measured(cktile_handle_t handle, const cktile_gemm_problem_t* p,
                                            const cktile_gemm_args_t* args, void* workspace,
                                            size_t workspace_size, void* stream, uint64_t* id)
{
    return guarded("cktile_gemm_select_measured", [&] {
        const auto s                             = lookup_handle(handle);
        const cktile_gemm_problem_t full_problem = validate_gemm_problem(p); // complete struct
        p                                        = &full_problem;
        const cktile_gemm_args_t full            = validate_gemm_args(*p, args); // complete struct
        args                                     = &full;
        require_pointer(id, "id");
        const std::string key = gemm_problem_key(*p);
        {
            std::lock_guard<std::mutex> lock(s->mutex);
            if(const auto it = s->measured.find(key); it != s->measured.end())
                if(s->library->find(it->second) &&
                   why_not(*s->library->find(it->second), *p, args).empty())
                {
                    *id = it->second;
                    return CKTILE_STATUS_SUCCESS;
                }
        }
        require_device(*s);
        device_scope scope(s->device);
        const std::size_t workspace_limit = workspace ? workspace_size : 0;
        // The model's order: the likely winners are screened first, and ties in time go to the
        // instance the model prefers.
        const auto ranked = rank_affordable(*s, *p, args, workspace_limit);
        const auto hs     = static_cast<hipStream_t>(stream);
        hipEvent_t start = nullptr, stop = nullptr;
        auto check = [](hipError_t e, const char* what) {
            if(e != hipSuccess)
                fail(CKTILE_STATUS_RUNTIME_ERROR, std::string(what) + ": " + hipGetErrorString(e));
        };
        check(hipEventCreate(&start), "hipEventCreate");
        check(hipEventCreate(&stop), "hipEventCreate");
        struct events_guard
        {
            hipEvent_t a, b;
            ~events_guard()
            {
                (void)hipEventDestroy(a);
                (void)hipEventDestroy(b);
            }
        } guard{start, stop};
        // Milliseconds per launch over `launches` back-to-back launches of `r`.
        auto time_launches = [&](const cktile_kernel_instance_t& r, int launches) {
            check(hipEventRecord(start, hs), "hipEventRecord");
            for(int i = 0; i < launches; ++i)
                launch(*s, r, *p, *args, workspace, workspace_size, stream);
            check(hipEventRecord(stop, hs), "hipEventRecord");
            check(hipEventSynchronize(stop), "hipEventSynchronize");
            float ms = 0;
            check(hipEventElapsedTime(&ms, start, stop), "hipEventElapsedTime");
            return static_cast<double>(ms) / launches;
        };

        const measurement_plan plan;
        std::vector<double> screen_ms(ranked.size());
        for(std::size_t i = 0; i < ranked.size(); ++i)
        {
            const auto& r = *ranked[i].instance;
            launch(*s, r, *p, *args, workspace, workspace_size, stream); // warm-up
            screen_ms[i] = time_launches(r, 1);
            logger().debug("screened {}: {} ms for {}", r.info.name, screen_ms[i], key);
        }
        const auto finalists = measurement_finalists(screen_ms, plan);
        if(finalists.empty())
            fail(CKTILE_STATUS_RUNTIME_ERROR,
                 "no candidate's launch could be timed (the device's timer gave no finite time)");
        const int launches = launches_per_round(screen_ms[finalists.front()], plan);
        std::vector<std::vector<double>> round_ms(finalists.size());
        if(finalists.size() > 1)
            for(int round = 0; round < plan.rounds; ++round)
                for(const std::size_t f : measurement_round_order(finalists.size(), round))
                    round_ms[f].push_back(time_launches(*ranked[finalists[f]].instance, launches));
        else
            round_ms[0].push_back(screen_ms[finalists[0]]);
        const std::size_t winner = fastest_by_median(round_ms);
        const auto* best         = ranked[finalists[winner]].instance;
        const double best_ms     = median_of(round_ms[winner]);
        if(logger().should_log(spdlog::level::debug))
            for(std::size_t f = 0; f < finalists.size(); ++f)
                logger().debug("measured {}: median {} ms per launch over {} rounds of {} for {}",
                               ranked[finalists[f]].instance->info.name, median_of(round_ms[f]),
                               round_ms[f].size(), launches, key);
        {
            std::lock_guard<std::mutex> lock(s->mutex);
            s->measured[key] = best->info.id;
            s->tuning[key]   = {best->info.name, best_ms};
            s->gemm_selections.invalidate();
        }
        *id = best->info.id;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_gemm_run(cktile_handle_t handle, uint64_t instance_id,
                                const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args,
                                void* workspace, size_t workspace_size, void* stream)
{
    return guarded("cktile_gemm_run", [&] {
        const auto s                             = lookup_handle(handle);
        const cktile_gemm_problem_t full_problem = validate_gemm_problem(p); // complete struct
        p                                        = &full_problem;
        const cktile_gemm_args_t full            = validate_gemm_args(*p, args); // complete struct
        args                                     = &full;
        const cktile_kernel_instance_t* r        = nullptr;
        if(instance_id == CKTILE_INSTANCE_AUTO)
            r = &select(*s, *p, args, CKTILE_SELECT_DEFAULT, workspace ? workspace_size : 0);
        else
        {
            r = &require_instance(*s, instance_id);
            if(const std::string why = why_not(*r, *p, args); !why.empty())
                fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r->info.name) + ": " + why);
        }
        require_device(*s);
        device_scope scope(s->device);
        launch(*s, *r, *p, *args, workspace, workspace_size, stream);
        return CKTILE_STATUS_SUCCESS;
    });
}

} // extern "C"
