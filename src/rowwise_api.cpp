// SPDX-License-Identifier: MIT
// The row-wise entry points of include/cktile.h (normalization, softmax): problem set-up,
// validation, support queries, heuristic selection and running, through the same handles and
// kernel libraries as GEMM.
#include "cktile.h"

#include "api_error.hpp"
#include "gemm_problem.hpp"
#include "handle.hpp"
#include "logging.hpp"
#include "op_instances.hpp"
#include "rowwise_problem.hpp"
#include "selection.hpp"

#include "ck_tile/host/hip_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

using namespace cktile::detail;

namespace {

/// The pieces that differ between row-wise families.
struct family
{
    op_family op;
    std::int64_t rows, cols;
};

/// Estimated time (arbitrary units) of a row-wise instance: element slots it sweeps (masked
/// lanes included) and passes over long rows, divided by the parallelism it keeps resident,
/// with a penalty for one-element accesses.
double estimate_rowwise_cost(const cktile_kernel_instance_t& r, const family& f,
                             const machine_model& m)
{
    const cktile_instance_info_t& i = r.info;
    const double tile_n             = std::max(1, i.tile_n);
    const double chunks             = std::ceil(static_cast<double>(f.cols) / tile_n);
    const double groups  = std::ceil(static_cast<double>(f.rows) / std::max(1, i.tile_m));
    const double passes  = chunks > 1 ? 1.6 : 1.0; // the long-row path reads the input twice
    const double per_blk = chunks * tile_n * i.tile_m * passes;
    const int occ        = std::max(
               1, std::min(m.max_blocks_per_cu, m.max_threads_per_cu / std::max(1, i.block_threads)));
    const double slots    = static_cast<double>(m.compute_units) * occ;
    const double waves    = std::ceil(groups / slots);
    const double resident = std::min(groups, slots) * i.block_threads / m.compute_units;
    const double eff      = std::min(1.0, resident / (2.0 * m.latency_hiding_threads));
    const double access   = i.alignment_elements > 1 ? 1.0 : 3.0;
    return waves * per_blk * access / eff;
}

const cktile_kernel_instance_t& select(const handle_state& s, const family& f, const void* p,
                                       const void* args, cktile_select_mode_t mode,
                                       const std::string& key)
{
    check_select_mode(mode, key);
    const cktile_kernel_instance_t* best = nullptr;
    double best_cost                     = std::numeric_limits<double>::infinity();
    for(const auto* r : supporting(s, f.op, p, args))
    {
        const double c = estimate_rowwise_cost(*r, f, s.machine);
        if(c < best_cost || (c == best_cost && best && r->info.id < best->info.id))
        {
            best      = r;
            best_cost = c;
        }
    }
    return *best;
}

family norm_family(const cktile_norm_problem_t& p)
{
    return {{CKTILE_OP_NORMALIZATION, "normalization", p.x_type, p.y_type}, p.rows, p.cols};
}
family softmax_family(const cktile_softmax_problem_t& p)
{
    return {{CKTILE_OP_SOFTMAX, "softmax", p.x_type, p.y_type}, p.rows, p.cols};
}

} // namespace

extern "C" {

cktile_status_t cktile_norm_problem_init(cktile_norm_problem_t* p)
{
    return guarded("cktile_norm_problem_init", [&] {
        require_pointer(p, "problem");
        std::memset(p, 0, sizeof(*p));
        p->struct_size  = sizeof(*p);
        p->kind         = CKTILE_NORM_RMSNORM;
        p->x_type       = CKTILE_DATATYPE_FP16;
        p->y_type       = CKTILE_DATATYPE_FP16;
        p->weight_type  = CKTILE_DATATYPE_FP16;
        p->compute_type = CKTILE_DATATYPE_FP32;
        p->rows = p->cols = 1;
        p->x_stride = p->y_stride = p->residual_stride = p->residual_out_stride = 1;
        p->epsilon                                                              = 1e-5;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_norm_args_init(cktile_norm_args_t* a)
{
    return guarded("cktile_norm_args_init", [&] {
        require_pointer(a, "args");
        std::memset(a, 0, sizeof(*a));
        a->struct_size = sizeof(*a);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_norm_validate(const cktile_norm_problem_t* p, const cktile_norm_args_t* a)
{
    return guarded("cktile_norm_validate", [&] {
        validate_norm_problem(p);
        if(a)
            validate_norm_args(*p, a);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_norm_supports(cktile_handle_t handle, uint64_t id,
                                     const cktile_norm_problem_t* p, const cktile_norm_args_t* a,
                                     char* reason, size_t reason_size)
{
    return guarded("cktile_norm_supports", [&] {
        if(reason && reason_size > 0)
            reason[0] = '\0';
        const auto s  = lookup_handle(handle);
        const auto& r = require_instance(*s, id);
        validate_norm_problem(p);
        if(a)
            validate_norm_args(*p, a);
        return report_support(r, why_not(r, norm_family(*p).op, p, a), reason, reason_size);
    });
}

cktile_status_t cktile_norm_select(cktile_handle_t handle, const cktile_norm_problem_t* p,
                                   const cktile_norm_args_t* a, cktile_select_mode_t mode,
                                   uint64_t* id)
{
    return guarded("cktile_norm_select", [&] {
        const auto s = lookup_handle(handle);
        validate_norm_problem(p);
        if(a)
            validate_norm_args(*p, a);
        require_pointer(id, "id");
        *id = select(*s, norm_family(*p), p, a, mode, norm_problem_key(*p)).info.id;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_norm_run(cktile_handle_t handle, uint64_t instance_id,
                                const cktile_norm_problem_t* p, const cktile_norm_args_t* a,
                                void* stream)
{
    return guarded("cktile_norm_run", [&] {
        const auto s = lookup_handle(handle);
        validate_norm_problem(p);
        validate_norm_args(*p, a);
        const std::string key             = norm_problem_key(*p);
        const family f                    = norm_family(*p);
        const cktile_kernel_instance_t* r = instance_id == CKTILE_INSTANCE_AUTO
                                                ? &select(*s, f, p, a, CKTILE_SELECT_DEFAULT, key)
                                                : &require_instance(*s, instance_id);
        if(const std::string why = why_not(*r, f.op, p, a); !why.empty())
            fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r->info.name) + ": " + why);
        run_on_device(*s, *r, p, a, stream, key);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_softmax_problem_init(cktile_softmax_problem_t* p)
{
    return guarded("cktile_softmax_problem_init", [&] {
        require_pointer(p, "problem");
        std::memset(p, 0, sizeof(*p));
        p->struct_size  = sizeof(*p);
        p->x_type       = CKTILE_DATATYPE_FP16;
        p->y_type       = CKTILE_DATATYPE_FP16;
        p->compute_type = CKTILE_DATATYPE_FP32;
        p->rows = p->cols = 1;
        p->x_stride = p->y_stride = 1;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_softmax_args_init(cktile_softmax_args_t* a)
{
    return guarded("cktile_softmax_args_init", [&] {
        require_pointer(a, "args");
        std::memset(a, 0, sizeof(*a));
        a->struct_size = sizeof(*a);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_softmax_validate(const cktile_softmax_problem_t* p,
                                        const cktile_softmax_args_t* a)
{
    return guarded("cktile_softmax_validate", [&] {
        validate_softmax_problem(p);
        if(a)
            validate_softmax_args(*p, a);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_softmax_supports(cktile_handle_t handle, uint64_t id,
                                        const cktile_softmax_problem_t* p,
                                        const cktile_softmax_args_t* a, char* reason,
                                        size_t reason_size)
{
    return guarded("cktile_softmax_supports", [&] {
        if(reason && reason_size > 0)
            reason[0] = '\0';
        const auto s  = lookup_handle(handle);
        const auto& r = require_instance(*s, id);
        validate_softmax_problem(p);
        if(a)
            validate_softmax_args(*p, a);
        return report_support(r, why_not(r, softmax_family(*p).op, p, a), reason, reason_size);
    });
}

cktile_status_t cktile_softmax_select(cktile_handle_t handle, const cktile_softmax_problem_t* p,
                                      const cktile_softmax_args_t* a, cktile_select_mode_t mode,
                                      uint64_t* id)
{
    return guarded("cktile_softmax_select", [&] {
        const auto s = lookup_handle(handle);
        validate_softmax_problem(p);
        if(a)
            validate_softmax_args(*p, a);
        require_pointer(id, "id");
        *id = select(*s, softmax_family(*p), p, a, mode, softmax_problem_key(*p)).info.id;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_softmax_run(cktile_handle_t handle, uint64_t instance_id,
                                   const cktile_softmax_problem_t* p,
                                   const cktile_softmax_args_t* a, void* stream)
{
    return guarded("cktile_softmax_run", [&] {
        const auto s = lookup_handle(handle);
        validate_softmax_problem(p);
        validate_softmax_args(*p, a);
        const std::string key             = softmax_problem_key(*p);
        const family f                    = softmax_family(*p);
        const cktile_kernel_instance_t* r = instance_id == CKTILE_INSTANCE_AUTO
                                                ? &select(*s, f, p, a, CKTILE_SELECT_DEFAULT, key)
                                                : &require_instance(*s, instance_id);
        if(const std::string why = why_not(*r, f.op, p, a); !why.empty())
            fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r->info.name) + ": " + why);
        run_on_device(*s, *r, p, a, stream, key);
        return CKTILE_STATUS_SUCCESS;
    });
}

} // extern "C"
