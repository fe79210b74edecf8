// SPDX-License-Identifier: MIT
// The elementwise and permute entry points of include/cktile.h: problem set-up, validation,
// support queries, heuristic selection and running, through the same handles and kernel
// libraries as the other operations.
#include "cktile.h"

#include "api_error.hpp"
#include "handle.hpp"
#include "memops_problem.hpp"
#include "memops_problem_mapping.hpp"
#include "op_instances.hpp"
#include "selection.hpp"
#include "struct_init.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace cktile::detail;

namespace {

/// The iteration space as the vectorized kernels see it: rows of `cols` elements.
struct matrix_shape
{
    double rows, cols;
};

template <int N>
matrix_shape as_rows(const ck_tile::strided_space<N>& s)
{
    if(s.rank == 0)
        return {1, 1};
    const double cols = static_cast<double>(s.lengths[s.rank - 1]);
    return {static_cast<double>(s.element_count()) / cols, cols};
}

/// Estimated time (arbitrary units): element slots a block sweeps (masked edge lanes
/// included) over the parallelism the grid keeps busy, with a penalty for one-element
/// accesses (general instances).
double estimate_memops_cost(const cktile_kernel_instance_t& r, matrix_shape m,
                            const machine_model& mm)
{
    const cktile_instance_info_t& i = r.info;
    const double tm = std::max(1, i.tile_m), tn = std::max(1, i.tile_n);
    const double tiles = std::ceil(m.rows / tm) * std::ceil(m.cols / tn);
    const double slots = tiles * tm * tn;
    // A staged transpose block moves two tiles per tile it copies ahead
    // (transpose_kernel::TilesPerBlock), so small problems give it fewer blocks.
    const double tiles_per_block = r.rows_in_flight > 1 ? 2.0 * (r.rows_in_flight - 1) : 1.0;
    const double blocks          = std::min(std::ceil(tiles / tiles_per_block), 65536.0);
    const double busy =
        std::min(1.0, blocks * i.block_threads /
                          (2.0 * mm.latency_hiding_threads * std::max(1, mm.compute_units)));
    const double access = i.alignment_elements > 1 ? 1.0 : 3.0;
    // Staged transposes (the next tile copied into shared memory while one is written, tiles
    // following each other along q): 5% faster on the H100 once the grid fills the machine
    // (fp16 32768 x 4096: 2769 against 2602 GB/s; 8192 x 8192: 2716 against 2513).
    const double staged = r.rows_in_flight > 1 ? 0.99 : 1.0;
    return slots * access * staged / std::max(busy, 1e-3);
}

template <typename Space>
const cktile_kernel_instance_t& select(const handle_state& s, const op_family& f, const void* p,
                                       const void* args, cktile_select_mode_t mode,
                                       problem_text key, const Space& space)
{
    check_select_mode(mode, p, key);
    const cktile_kernel_instance_t* best = nullptr;
    double best_cost                     = std::numeric_limits<double>::infinity();
    for(const auto* r : supporting(s, f, p, args))
    {
        const double c = estimate_memops_cost(*r, as_rows(space), s.machine);
        if(c < best_cost || (c == best_cost && best && r->info.id < best->info.id))
        {
            best      = r;
            best_cost = c;
        }
    }
    return *best;
}

op_family elementwise_family(const cktile_elementwise_problem_t& p)
{
    return {CKTILE_OP_ELEMENTWISE, "elementwise", p.a.type, p.y.type};
}
op_family permute_family(const cktile_permute_problem_t& p)
{
    return {CKTILE_OP_PERMUTE, "permute", p.x.type, p.y.type};
}

cktile_tensor_desc_t default_desc()
{
    cktile_tensor_desc_t t{};
    t.type       = CKTILE_DATATYPE_FP16;
    t.rank       = 1;
    t.dims[0]    = 1;
    t.strides[0] = 1;
    return t;
}

/// Validation of a problem and, when given (always for a run), its pointers.
void check(const cktile_elementwise_problem_t* p, const cktile_elementwise_args_t* a)
{
    validate_elementwise_problem(p);
    if(a)
        validate_elementwise_args(*p, a);
}
void check(const cktile_permute_problem_t* p, const cktile_permute_args_t* a)
{
    validate_permute_problem(p);
    if(a)
        validate_permute_args(*p, a);
}
void check_for_run(const cktile_elementwise_problem_t* p, const cktile_elementwise_args_t* a)
{
    validate_elementwise_problem(p);
    validate_elementwise_args(*p, a);
}
void check_for_run(const cktile_permute_problem_t* p, const cktile_permute_args_t* a)
{
    validate_permute_problem(p);
    validate_permute_args(*p, a);
}
op_family family_of(const cktile_elementwise_problem_t& p) { return elementwise_family(p); }
op_family family_of(const cktile_permute_problem_t& p) { return permute_family(p); }
std::string elementwise_key_text(const void* p)
{
    return elementwise_problem_key(*static_cast<const cktile_elementwise_problem_t*>(p));
}
std::string permute_key_text(const void* p)
{
    return permute_problem_key(*static_cast<const cktile_permute_problem_t*>(p));
}
problem_text key_of(const cktile_elementwise_problem_t&) { return elementwise_key_text; }
problem_text key_of(const cktile_permute_problem_t&) { return permute_key_text; }
auto space_of(const cktile_elementwise_problem_t& p)
{
    return cktile::library::elementwise_space(p);
}
auto space_of(const cktile_permute_problem_t& p) { return cktile::library::permute_space(p); }

template <typename Problem, typename Args>
cktile_status_t supports_query(cktile_handle_t handle, uint64_t id, const Problem* p, const Args* a,
                               char* reason, size_t reason_size)
{
    if(reason && reason_size > 0)
        reason[0] = '\0';
    const auto s  = lookup_handle(handle);
    const auto& r = require_instance(*s, id);
    check(p, a);
    return report_support(r, why_not(r, family_of(*p), p, a), reason, reason_size);
}

template <typename Problem, typename Args>
cktile_status_t select_into(cktile_handle_t handle, const Problem* p, const Args* a,
                            cktile_select_mode_t mode, uint64_t* id)
{
    const auto s = lookup_handle(handle);
    check(p, a);
    require_pointer(id, "id");
    *id = select(*s, family_of(*p), p, a, mode, key_of(*p), space_of(*p)).info.id;
    return CKTILE_STATUS_SUCCESS;
}

template <typename Problem, typename Args>
cktile_status_t run_problem(cktile_handle_t handle, uint64_t instance_id, const Problem* p,
                            const Args* a, void* stream)
{
    const auto s = lookup_handle(handle);
    check_for_run(p, a);
    const problem_text key = key_of(*p);
    const op_family f      = family_of(*p);
    const cktile_kernel_instance_t* r =
        instance_id == CKTILE_INSTANCE_AUTO
            ? &select(*s, f, p, a, CKTILE_SELECT_DEFAULT, key, space_of(*p))
            : &require_instance(*s, instance_id);
    if(const std::string why = why_not(*r, f, p, a); !why.empty())
        fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r->info.name) + ": " + why);
    run_on_device(*s, *r, p, a, stream, key);
    return CKTILE_STATUS_SUCCESS;
}

/// The defaults of cktile_elementwise_problem_init (init_prefix keeps those that lie inside the
/// caller's struct).
void elementwise_problem_defaults(prefix_defaults<cktile_elementwise_problem_t>& d)
{
    auto& v = d.value;
    d.set(v.op, CKTILE_ELEMENTWISE_IDENTITY);
    d.set(v.compute_type, CKTILE_DATATYPE_FP32);
    for(auto* t : {&v.a, &v.b, &v.y})
        d.set(*t, default_desc());
    d.set(v.alpha, 1.0);
    d.set(v.beta, 1.0);
}

/// The defaults of cktile_permute_problem_init (init_prefix keeps those that lie inside the
/// caller's struct).
void permute_problem_defaults(prefix_defaults<cktile_permute_problem_t>& d)
{
    auto& v = d.value;
    d.set(v.x, default_desc());
    d.set(v.y, default_desc());
    for(int i = 0; i < CKTILE_MAX_TENSOR_RANK; ++i)
        d.set(v.perm[i], i);
}

} // namespace

extern "C" {

cktile_status_t cktile_elementwise_problem_init_sized(cktile_elementwise_problem_t* p,
                                                      size_t struct_size)
{
    return guarded_init("cktile_elementwise_problem_init_sized", p, struct_size, "problem",
                        elementwise_problem_defaults);
}

cktile_status_t(cktile_elementwise_problem_init)(cktile_elementwise_problem_t* p)
{
    return guarded_init("cktile_elementwise_problem_init", p,
                        first_layout_size<cktile_elementwise_problem_t>, "problem",
                        elementwise_problem_defaults);
}

cktile_status_t cktile_elementwise_args_init_sized(cktile_elementwise_args_t* a, size_t struct_size)
{
    return guarded_init("cktile_elementwise_args_init_sized", a, struct_size, "args", no_defaults);
}

cktile_status_t(cktile_elementwise_args_init)(cktile_elementwise_args_t* a)
{
    return guarded_init("cktile_elementwise_args_init", a,
                        first_layout_size<cktile_elementwise_args_t>, "args", no_defaults);
}

cktile_status_t cktile_elementwise_validate(const cktile_elementwise_problem_t* p,
                                            const cktile_elementwise_args_t* a)
{
    return guarded("cktile_elementwise_validate", [&] {
        check(p, a);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_elementwise_supports(cktile_handle_t handle, uint64_t id,
                                            const cktile_elementwise_problem_t* p,
                                            const cktile_elementwise_args_t* a, char* reason,
                                            size_t reason_size)
{
    return guarded("cktile_elementwise_supports",
                   [&] { return supports_query(handle, id, p, a, reason, reason_size); });
}

cktile_status_t cktile_elementwise_select(cktile_handle_t handle,
                                          const cktile_elementwise_problem_t* p,
                                          const cktile_elementwise_args_t* a,
                                          cktile_select_mode_t mode, uint64_t* id)
{
    return guarded("cktile_elementwise_select",
                   [&] { return select_into(handle, p, a, mode, id); });
}

cktile_status_t cktile_elementwise_run(cktile_handle_t handle, uint64_t instance_id,
                                       const cktile_elementwise_problem_t* p,
                                       const cktile_elementwise_args_t* a, void* stream)
{
    return guarded("cktile_elementwise_run",
                   [&] { return run_problem(handle, instance_id, p, a, stream); });
}

cktile_status_t cktile_permute_problem_init_sized(cktile_permute_problem_t* p, size_t struct_size)
{
    return guarded_init("cktile_permute_problem_init_sized", p, struct_size, "problem",
                        permute_problem_defaults);
}

cktile_status_t(cktile_permute_problem_init)(cktile_permute_problem_t* p)
{
    return guarded_init("cktile_permute_problem_init", p,
                        first_layout_size<cktile_permute_problem_t>, "problem",
                        permute_problem_defaults);
}

cktile_status_t cktile_permute_args_init_sized(cktile_permute_args_t* a, size_t struct_size)
{
    return guarded_init("cktile_permute_args_init_sized", a, struct_size, "args", no_defaults);
}

cktile_status_t(cktile_permute_args_init)(cktile_permute_args_t* a)
{
    return guarded_init("cktile_permute_args_init", a, first_layout_size<cktile_permute_args_t>,
                        "args", no_defaults);
}

cktile_status_t cktile_permute_validate(const cktile_permute_problem_t* p,
                                        const cktile_permute_args_t* a)
{
    return guarded("cktile_permute_validate", [&] {
        check(p, a);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_permute_supports(cktile_handle_t handle, uint64_t id,
                                        const cktile_permute_problem_t* p,
                                        const cktile_permute_args_t* a, char* reason,
                                        size_t reason_size)
{
    return guarded("cktile_permute_supports",
                   [&] { return supports_query(handle, id, p, a, reason, reason_size); });
}

cktile_status_t cktile_permute_select(cktile_handle_t handle, const cktile_permute_problem_t* p,
                                      const cktile_permute_args_t* a, cktile_select_mode_t mode,
                                      uint64_t* id)
{
    return guarded("cktile_permute_select", [&] { return select_into(handle, p, a, mode, id); });
}

cktile_status_t cktile_permute_run(cktile_handle_t handle, uint64_t instance_id,
                                   const cktile_permute_problem_t* p,
                                   const cktile_permute_args_t* a, void* stream)
{
    return guarded("cktile_permute_run",
                   [&] { return run_problem(handle, instance_id, p, a, stream); });
}

} // extern "C"
