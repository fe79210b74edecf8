// SPDX-License-Identifier: MIT
// The row-wise entry points of include/cktile.h (normalization, softmax, reduction): problem
// set-up, validation, support queries, heuristic selection (cached in the handle, as GEMM's)
// and running, through the same handles and kernel libraries as GEMM.
#include "cktile.h"

#include "api_error.hpp"
#include "gemm_problem.hpp"
#include "handle.hpp"
#include "logging.hpp"
#include "op_instances.hpp"
#include "rowwise_problem.hpp"
#include "selection.hpp"
#include "struct_init.hpp"

#include "reduce_problem_mapping.hpp"

#include "ck_tile/host/hip_runtime.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

using namespace cktile::detail;

namespace {

/// The pieces that differ between row-wise families. Row ops (and reductions over the last
/// axis) are rows x cols; other reductions also carry their canonical form for the cost model.
struct family
{
    cktile_op_kind_t kind;
    const char* what; // "normalization"
    cktile_datatype_t x_type, y_type;
    std::int64_t rows, cols;
    bool rereads_long_rows;    // rows longer than a chunk are read twice
    double cross_warp_penalty; // cost of a row spread over warps (see estimate_rowwise_cost)
    const ck_tile::reduce_host_args* reduction = nullptr;
    /// Registers a thread spends per element of a chunk it holds (0: not modeled): they
    /// decide how many blocks stay resident, hence the bytes in flight.
    double registers_per_element = 0;
    /// Whether instances that copy rows ahead into shared memory do so for this problem
    /// (LayerNorm without a fused residual, rows that fit the tile).
    bool stages_fitting_rows = false;

    op_family op() const { return {kind, what, x_type, y_type}; }
};

/// A kernel that sweeps element slots in blocks: the quantities the cost model needs.
struct sweep
{
    double blocks;          // blocks of work (row groups, column tiles, output groups)
    double slots_per_block; // element slots a block sweeps (masked lanes and passes included)
    double steps_per_block; // load steps a block takes one after another (loop trips)
    double bytes_per_step;  // bytes one thread has in flight per step
    double registers_per_thread = 0; // estimated; 0: occupancy not limited by registers
};

/// Estimated time (arbitrary units, comparable between instances for one problem): the slots
/// swept per busy compute unit, with a fixed cost per loop step, divided by how well the
/// resident threads hide memory latency (enough warps, and enough bytes in flight per compute
/// unit: about 32 KiB on H100), times the tail of the last wave. Resident blocks are limited by
/// threads, the hardware cap and, where the sweep estimates them, registers.
double estimate_sweep_cost(const sweep& w, const cktile_instance_info_t& i, const machine_model& m)
{
    const double threads = std::max(1, i.block_threads);
    int occ = std::min(m.max_blocks_per_cu, m.max_threads_per_cu / std::max(1, i.block_threads));
    if(w.registers_per_thread > 0)
        occ = std::min(occ,
                       static_cast<int>(m.registers_per_cu / (w.registers_per_thread * threads)));
    occ                    = std::max(1, occ);
    const double slots     = static_cast<double>(m.compute_units) * occ;
    const double waves     = std::ceil(w.blocks / slots);
    const double tail      = waves * std::min(slots, w.blocks) / std::max(1.0, w.blocks);
    const double busy_cus  = std::min<double>(m.compute_units, w.blocks);
    const double resident  = std::min(w.blocks, slots) * threads / m.compute_units;
    const double in_flight = resident * w.bytes_per_step;
    const double eff       = std::min(1.0, in_flight / 32768.0) *
                       std::min(1.0, resident / static_cast<double>(m.latency_hiding_threads));
    constexpr double step_cost = 256; // loop trip, address update, masks: in element slots
    return w.blocks * (w.slots_per_block + w.steps_per_block * step_cost) / busy_cus * tail /
           std::max(eff, 1e-6);
}

/// The row kernels (norm, softmax, the reduction over the last axis). Measured on H100: a row
/// split over several warps (block-wide reductions through shared memory) costs the reduction
/// 1.2x and softmax 1.1x against a warp per row, LayerNorm/RMSNorm nothing measurable once
/// weight and bias load beside x (the 8-warp norm was the fastest of 32768 x 4096 rows by 1.2x
/// to 1.4x); the second pass over a long row of softmax/norm hits L2 while the rows in flight
/// fit it, and goes to memory when they do not. Softmax and norm
/// hold a chunk in registers: about 24 + registers_per_element x elements per thread (ptxas:
/// softmax 8-warp 48, 16-warp 39; norm 8-warp 64 under its cap), which limits the resident
/// blocks and so the bytes in flight (16 warps per row of 4096: 3 blocks of 512, 24 KiB per SM,
/// 1.4x slower than 8 warps). A thread also works through its elements one after another
/// between its loads and its stores: 0.4% per element (32 per thread: 5% slower than 16).
double estimate_rowwise_cost(const cktile_kernel_instance_t& r, const family& f,
                             const machine_model& m)
{
    const cktile_instance_info_t& i = r.info;
    const double tile_m             = std::max(1, i.tile_m);
    const double tile_n             = std::max(1, i.tile_n);
    const double vector             = std::max(1, i.alignment_elements);
    const double elem               = static_cast<double>(datatype_bytes(f.x_type));
    const double threads_per_row    = std::max(1.0, i.block_threads / tile_m);
    const double repeat             = std::max(1.0, tile_n / (threads_per_row * vector));
    const double warps_per_row      = static_cast<double>(i.shared_memory_bytes) / (4.0 * tile_m);
    const double chunks             = std::ceil(static_cast<double>(f.cols) / tile_n);
    const double groups             = std::ceil(static_cast<double>(f.rows) / tile_m);
    double passes                   = 1.0;
    if(chunks > 1 && f.rereads_long_rows)
    {
        const int occ = std::max(1, m.max_threads_per_cu / std::max(1, i.block_threads));
        const double rows_in_flight =
            std::min(groups, static_cast<double>(m.compute_units) * occ) * tile_m;
        constexpr double l2_bytes = 50.0 * 1024 * 1024;
        passes += std::min(1.0, rows_in_flight * f.cols * elem / (2 * l2_bytes));
    }
    double cross_warp = warps_per_row > 1 ? f.cross_warp_penalty : 1.0;
    // Rows copied ahead into shared memory keep loads in flight through LayerNorm's two
    // block-wide exchanges, which otherwise leave the 8-warp blocks idle (fp16 32768 x 4096 on
    // the H100: 2710 GB/s staged, 2324 from registers).
    if(r.rows_in_flight > 1 && f.stages_fitting_rows && f.cols <= tile_n)
        cross_warp *= 0.86;
    const double elements = repeat * vector; // per thread per chunk
    const double serial   = 1.0 + 0.004 * elements;
    double registers = f.registers_per_element > 0 ? 24 + f.registers_per_element * elements : 0.0;
    // A launch bound of several blocks per compute unit caps the registers (what does not fit
    // spills, which the estimate per element leaves out: the capped kernels were measured).
    if(registers > 0 && r.min_blocks_per_cu > 1)
        registers = std::min(registers, std::floor(static_cast<double>(m.registers_per_cu) /
                                                   (r.min_blocks_per_cu * i.block_threads)));
    return estimate_sweep_cost({groups, chunks * tile_n * tile_m * passes * cross_warp * serial,
                                chunks * passes, repeat * vector * elem, registers},
                               i, m);
}

/// The reduce kernels: the row kernel as above; the column kernel sweeps outer x
/// ceil(inner / tile_n) blocks down the reduced axis (segments of a row under 64 bytes cost a
/// little DRAM efficiency); the strided (general) kernel reads one element per lane, with
/// index arithmetic per element.
double estimate_reduce_cost(const cktile_kernel_instance_t& r, const family& f,
                            const machine_model& m)
{
    const ck_tile::reduce_host_args& h = *f.reduction;
    const cktile_instance_info_t& i    = r.info;
    const double elem                  = static_cast<double>(datatype_bytes(f.x_type));
    if(i.is_general)
    {
        const double outputs  = static_cast<double>(h.kept.count());
        const double reduced  = static_cast<double>(h.reduced.count());
        const double warps    = std::max(1, i.tile_m);
        const double lanes    = std::max(1, i.tile_n);
        const double per_warp = std::ceil(reduced / lanes);
        return estimate_sweep_cost(
            {std::ceil(outputs / warps), 2.0 * warps * per_warp * lanes, per_warp, elem}, i, m);
    }
    if(h.pattern == ck_tile::reduce_pattern::row)
        return estimate_rowwise_cost(r, f, m);
    const bool has_outer = h.kept.rank == 2;
    const double outer   = has_outer ? static_cast<double>(h.kept.dims[0]) : 1.0;
    const double inner   = static_cast<double>(h.kept.dims[h.kept.rank - 1]);
    const double rows    = static_cast<double>(h.reduced.dims[0]);
    const double tile_m = std::max(1, i.tile_m), tile_n = std::max(1, i.tile_n);
    const double vector  = std::max(1, i.alignment_elements);
    const double steps   = std::ceil(rows / tile_m);
    const double repeat  = std::max(1.0, tile_m * tile_n / (vector * i.block_threads));
    const double segment = tile_n * elem < 64 ? 1.1 : 1.0;
    return estimate_sweep_cost({outer * std::ceil(inner / tile_n),
                                steps * tile_m * tile_n * segment, steps, repeat * vector * elem},
                               i, m);
}

double estimate_cost(const cktile_kernel_instance_t& r, const family& f, const machine_model& m)
{
    return f.reduction ? estimate_reduce_cost(r, f, m) : estimate_rowwise_cost(r, f, m);
}

/// The heuristic over every instance that supports the problem.
const cktile_kernel_instance_t& select_uncached(const handle_state& s, const family& f,
                                                const void* p, const void* args)
{
    const cktile_kernel_instance_t* best = nullptr;
    double best_cost                     = std::numeric_limits<double>::infinity();
    for(const auto* r : supporting(s, f.op(), p, args))
    {
        const double c = estimate_cost(*r, f, s.machine);
        if(c < best_cost || (c == best_cost && best && r->info.id < best->info.id))
        {
            best      = r;
            best_cost = c;
        }
    }
    return *best;
}

/// A repeated selection is one hashed lookup in the handle plus the chosen instance's own
/// support check (cheap, and it keeps a stale answer impossible); text is built only when
/// something fails or is logged.
const cktile_kernel_instance_t& select(handle_state& s, const family& f, const void* p,
                                       const void* args, cktile_select_mode_t mode,
                                       const selection_key& k, problem_text key)
{
    check_select_mode(mode, p, key);
    std::uint64_t generation = 0;
    if(const auto* r = s.rowwise_selections.find(k, generation))
        if(why_not(*r, f.op(), p, args).empty())
            return *r;
    const auto& r = select_uncached(s, f, p, args);
    s.rowwise_selections.insert(k, &r, generation);
    return r;
}

family norm_family(const cktile_norm_problem_t& p)
{
    // x, weight and bias tiles: 2.5 registers per element for fp16 and fp32 (ptxas: 113 to 127
    // for 32 fp16 elements, 64 for 16 under the cap); bf16 tiles take about twice as many
    // (183 to 201 for 32 elements, and 16 spill under the cap).
    const double per_element = p.x_type == CKTILE_DATATYPE_BF16 ? 5.4 : 2.5;
    return {CKTILE_OP_NORMALIZATION,
            "normalization",
            p.x_type,
            p.y_type,
            p.rows,
            p.cols,
            true,
            1.0,
            nullptr,
            per_element,
            p.kind == CKTILE_NORM_LAYERNORM && p.fused_residual == 0};
}
family softmax_family(const cktile_softmax_problem_t& p)
{
    // The fp32 tile of exp(x - max): 1.5 registers per element (48 for 16 elements).
    return {CKTILE_OP_SOFTMAX, "softmax", p.x_type, p.y_type, p.rows, p.cols, true, 1.1,
            nullptr,           1.5};
}
family reduce_family(const cktile_reduce_problem_t& p, const ck_tile::reduce_host_args& h)
{
    const bool row = h.pattern == ck_tile::reduce_pattern::row;
    return {CKTILE_OP_REDUCTION, "reduction", p.x_type, p.y_type, row ? h.rows() : 1,
            row ? h.cols() : 1,  false,       1.2,      &h};
}

// Selection keys: everything a selection reads, packed into words (see selection_key).
std::uint64_t e(int v) { return static_cast<std::uint64_t>(v) & 0xff; }
/// Alignment as trailing zero bits, capped at 256 bytes; a null pointer counts as aligned.
std::uint64_t align(const void* ptr)
{
    return static_cast<std::uint64_t>(
        std::countr_zero(reinterpret_cast<std::uintptr_t>(ptr) | std::uintptr_t{256}));
}

selection_key norm_selection_key(const cktile_norm_problem_t& p, const cktile_norm_args_t* a,
                                 cktile_select_mode_t mode)
{
    selection_key k;
    k.w[0] = e(CKTILE_OP_NORMALIZATION) | e(raw_enum(p.kind)) << 8 | e(raw_enum(p.x_type)) << 16 |
             e(raw_enum(p.y_type)) << 24 | e(raw_enum(p.weight_type)) << 32 |
             e(raw_enum(p.compute_type)) << 40 | std::uint64_t(p.has_bias != 0) << 48 |
             std::uint64_t(p.fused_residual != 0) << 49 |
             std::uint64_t(p.save_statistics != 0) << 50;
    k.w[1] = e(raw_enum(mode));
    if(a)
        k.w[1] |= std::uint64_t{1} << 8 | align(a->x) << 16 | align(a->y) << 24 |
                  align(a->weight) << 32 | align(a->bias) << 40 | align(a->residual) << 48 |
                  align(a->residual_out) << 56;
    const std::int64_t v[] = {
        p.rows, p.cols, p.x_stride, p.y_stride, p.residual_stride, p.residual_out_stride};
    for(std::size_t i = 0; i < std::size(v); ++i)
        k.w[2 + i] = static_cast<std::uint64_t>(v[i]);
    return k;
}

selection_key softmax_selection_key(const cktile_softmax_problem_t& p,
                                    const cktile_softmax_args_t* a, cktile_select_mode_t mode)
{
    selection_key k;
    k.w[0] = e(CKTILE_OP_SOFTMAX) | e(raw_enum(p.x_type)) << 16 | e(raw_enum(p.y_type)) << 24 |
             e(raw_enum(p.compute_type)) << 40;
    k.w[1] = e(raw_enum(mode));
    if(a)
        k.w[1] |= std::uint64_t{1} << 8 | align(a->x) << 16 | align(a->y) << 24;
    const std::int64_t v[] = {p.rows, p.cols, p.x_stride, p.y_stride};
    for(std::size_t i = 0; i < std::size(v); ++i)
        k.w[2 + i] = static_cast<std::uint64_t>(v[i]);
    return k;
}

/// @pre the problem passed validation (rank 1..6); unused axes do not enter the key.
selection_key reduce_selection_key(const cktile_reduce_problem_t& p, const cktile_reduce_args_t* a,
                                   cktile_select_mode_t mode)
{
    static_assert(2 + 3 * CKTILE_REDUCE_MAX_RANK <= selection_key::words);
    selection_key k;
    k.w[0] = e(CKTILE_OP_REDUCTION) | e(raw_enum(p.op)) << 8 | e(raw_enum(p.x_type)) << 16 |
             e(raw_enum(p.y_type)) << 24 | e(raw_enum(p.compute_type)) << 32 | e(p.rank) << 40 |
             std::uint64_t(p.reduce_mask & 0xff) << 48;
    k.w[1] = e(raw_enum(mode));
    if(a)
        k.w[1] |= std::uint64_t{1} << 8 | align(a->x) << 16 | align(a->y) << 24;
    for(int d = 0; d < p.rank; ++d)
    {
        k.w[2 + d]                              = static_cast<std::uint64_t>(p.dims[d]);
        k.w[2 + CKTILE_REDUCE_MAX_RANK + d]     = static_cast<std::uint64_t>(p.x_strides[d]);
        k.w[2 + 2 * CKTILE_REDUCE_MAX_RANK + d] = static_cast<std::uint64_t>(p.y_strides[d]);
    }
    return k;
}

std::string norm_key_text(const void* p)
{
    return norm_problem_key(*static_cast<const cktile_norm_problem_t*>(p));
}
std::string softmax_key_text(const void* p)
{
    return softmax_problem_key(*static_cast<const cktile_softmax_problem_t*>(p));
}
std::string reduce_key_text(const void* p)
{
    return reduce_problem_key(*static_cast<const cktile_reduce_problem_t*>(p));
}

/// Selects (CKTILE_INSTANCE_AUTO) or looks up the instance, checks it supports the problem
/// and runs it.
void select_check_run(handle_state& s, std::uint64_t instance_id, const family& f, const void* p,
                      const void* a, const selection_key& k, problem_text key, void* stream)
{
    const cktile_kernel_instance_t* r = instance_id == CKTILE_INSTANCE_AUTO
                                            ? &select(s, f, p, a, CKTILE_SELECT_DEFAULT, k, key)
                                            : &require_instance(s, instance_id);
    if(instance_id != CKTILE_INSTANCE_AUTO)
        if(const std::string why = why_not(*r, f.op(), p, a); !why.empty())
            fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r->info.name) + ": " + why);
    run_on_device(s, *r, p, a, stream, key);
}

/// The defaults of cktile_norm_problem_init (init_prefix keeps those that lie inside the
/// caller's struct).
void norm_problem_defaults(prefix_defaults<cktile_norm_problem_t>& d)
{
    auto& v = d.value;
    d.set(v.kind, CKTILE_NORM_RMSNORM);
    for(auto* t : {&v.x_type, &v.y_type, &v.weight_type})
        d.set(*t, CKTILE_DATATYPE_FP16);
    d.set(v.compute_type, CKTILE_DATATYPE_FP32);
    for(auto* one :
        {&v.rows, &v.cols, &v.x_stride, &v.y_stride, &v.residual_stride, &v.residual_out_stride})
        d.set(*one, 1);
    d.set(v.epsilon, 1e-5);
}

/// The defaults of cktile_softmax_problem_init (init_prefix keeps those that lie inside the
/// caller's struct).
void softmax_problem_defaults(prefix_defaults<cktile_softmax_problem_t>& d)
{
    auto& v = d.value;
    d.set(v.x_type, CKTILE_DATATYPE_FP16);
    d.set(v.y_type, CKTILE_DATATYPE_FP16);
    d.set(v.compute_type, CKTILE_DATATYPE_FP32);
    for(auto* one : {&v.rows, &v.cols, &v.x_stride, &v.y_stride})
        d.set(*one, 1);
}

/// The defaults of cktile_reduce_problem_init (init_prefix keeps those that lie inside the
/// caller's struct).
void reduce_problem_defaults(prefix_defaults<cktile_reduce_problem_t>& d)
{
    auto& v = d.value;
    d.set(v.op, CKTILE_REDUCE_SUM);
    d.set(v.x_type, CKTILE_DATATYPE_FP16);
    d.set(v.y_type, CKTILE_DATATYPE_FP16);
    d.set(v.compute_type, CKTILE_DATATYPE_FP32);
    d.set(v.rank, 1);
    d.set(v.dims[0], 1);
    d.set(v.x_strides[0], 1);
    d.set(v.reduce_mask, 1u);
}

} // namespace

extern "C" {

cktile_status_t cktile_norm_problem_init_sized(cktile_norm_problem_t* p, size_t struct_size)
{
    return guarded_init("cktile_norm_problem_init_sized", p, struct_size, "problem",
                        norm_problem_defaults);
}

cktile_status_t(cktile_norm_problem_init)(cktile_norm_problem_t* p)
{
    return guarded_init("cktile_norm_problem_init", p, first_layout_size<cktile_norm_problem_t>,
                        "problem", norm_problem_defaults);
}

cktile_status_t cktile_norm_args_init_sized(cktile_norm_args_t* a, size_t struct_size)
{
    return guarded_init("cktile_norm_args_init_sized", a, struct_size, "args", no_defaults);
}

cktile_status_t(cktile_norm_args_init)(cktile_norm_args_t* a)
{
    return guarded_init("cktile_norm_args_init", a, first_layout_size<cktile_norm_args_t>, "args",
                        no_defaults);
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
        return report_support(r, why_not(r, norm_family(*p).op(), p, a), reason, reason_size);
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
        *id =
            select(*s, norm_family(*p), p, a, mode, norm_selection_key(*p, a, mode), &norm_key_text)
                .info.id;
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
        select_check_run(*s, instance_id, norm_family(*p), p, a,
                         norm_selection_key(*p, a, CKTILE_SELECT_DEFAULT), &norm_key_text, stream);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_softmax_problem_init_sized(cktile_softmax_problem_t* p, size_t struct_size)
{
    return guarded_init("cktile_softmax_problem_init_sized", p, struct_size, "problem",
                        softmax_problem_defaults);
}

cktile_status_t(cktile_softmax_problem_init)(cktile_softmax_problem_t* p)
{
    return guarded_init("cktile_softmax_problem_init", p,
                        first_layout_size<cktile_softmax_problem_t>, "problem",
                        softmax_problem_defaults);
}

cktile_status_t cktile_softmax_args_init_sized(cktile_softmax_args_t* a, size_t struct_size)
{
    return guarded_init("cktile_softmax_args_init_sized", a, struct_size, "args", no_defaults);
}

cktile_status_t(cktile_softmax_args_init)(cktile_softmax_args_t* a)
{
    return guarded_init("cktile_softmax_args_init", a, first_layout_size<cktile_softmax_args_t>,
                        "args", no_defaults);
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
        return report_support(r, why_not(r, softmax_family(*p).op(), p, a), reason, reason_size);
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
        *id = select(*s, softmax_family(*p), p, a, mode, softmax_selection_key(*p, a, mode),
                     &softmax_key_text)
                  .info.id;
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
        select_check_run(*s, instance_id, softmax_family(*p), p, a,
                         softmax_selection_key(*p, a, CKTILE_SELECT_DEFAULT), &softmax_key_text,
                         stream);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_reduce_problem_init_sized(cktile_reduce_problem_t* p, size_t struct_size)
{
    return guarded_init("cktile_reduce_problem_init_sized", p, struct_size, "problem",
                        reduce_problem_defaults);
}

cktile_status_t(cktile_reduce_problem_init)(cktile_reduce_problem_t* p)
{
    return guarded_init("cktile_reduce_problem_init", p, first_layout_size<cktile_reduce_problem_t>,
                        "problem", reduce_problem_defaults);
}

cktile_status_t cktile_reduce_args_init_sized(cktile_reduce_args_t* a, size_t struct_size)
{
    return guarded_init("cktile_reduce_args_init_sized", a, struct_size, "args", no_defaults);
}

cktile_status_t(cktile_reduce_args_init)(cktile_reduce_args_t* a)
{
    return guarded_init("cktile_reduce_args_init", a, first_layout_size<cktile_reduce_args_t>,
                        "args", no_defaults);
}

cktile_status_t cktile_reduce_validate(const cktile_reduce_problem_t* p,
                                       const cktile_reduce_args_t* a)
{
    return guarded("cktile_reduce_validate", [&] {
        validate_reduce_problem(p);
        if(a)
            validate_reduce_args(*p, a);
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_reduce_supports(cktile_handle_t handle, uint64_t id,
                                       const cktile_reduce_problem_t* p,
                                       const cktile_reduce_args_t* a, char* reason,
                                       size_t reason_size)
{
    return guarded("cktile_reduce_supports", [&] {
        if(reason && reason_size > 0)
            reason[0] = '\0';
        const auto s  = lookup_handle(handle);
        const auto& r = require_instance(*s, id);
        validate_reduce_problem(p);
        if(a)
            validate_reduce_args(*p, a);
        const auto h = cktile::library::to_reduce_host_args(*p, a);
        return report_support(r, why_not(r, reduce_family(*p, h).op(), p, a), reason, reason_size);
    });
}

cktile_status_t cktile_reduce_select(cktile_handle_t handle, const cktile_reduce_problem_t* p,
                                     const cktile_reduce_args_t* a, cktile_select_mode_t mode,
                                     uint64_t* id)
{
    return guarded("cktile_reduce_select", [&] {
        const auto s = lookup_handle(handle);
        validate_reduce_problem(p);
        if(a)
            validate_reduce_args(*p, a);
        require_pointer(id, "id");
        const auto h = cktile::library::to_reduce_host_args(*p, a);
        *id = select(*s, reduce_family(*p, h), p, a, mode, reduce_selection_key(*p, a, mode),
                     &reduce_key_text)
                  .info.id;
        return CKTILE_STATUS_SUCCESS;
    });
}

cktile_status_t cktile_reduce_run(cktile_handle_t handle, uint64_t instance_id,
                                  const cktile_reduce_problem_t* p, const cktile_reduce_args_t* a,
                                  void* stream)
{
    return guarded("cktile_reduce_run", [&] {
        const auto s = lookup_handle(handle);
        validate_reduce_problem(p);
        validate_reduce_args(*p, a);
        const auto h = cktile::library::to_reduce_host_args(*p, a);
        select_check_run(*s, instance_id, reduce_family(*p, h), p, a,
                         reduce_selection_key(*p, a, CKTILE_SELECT_DEFAULT), &reduce_key_text,
                         stream);
        return CKTILE_STATUS_SUCCESS;
    });
}

} // extern "C"
