// SPDX-License-Identifier: MIT
// Turns the elementwise and permute kernels into registry records: the C-callable supports
// and run of CKTILE_OP_ELEMENTWISE and CKTILE_OP_PERMUTE. A permutation runs on either
// kernel: the transpose kernel, or the elementwise kernel's identity over x's strides in y's
// axis order (a contiguous copy when the permutation merges away, the general strided path
// otherwise). Included by the generated instance sources only (device compiler).
#pragma once

// The kernels first: their arch headers bring the GPU runtime's declarations that
// kernel_launch.hpp (through rowwise_instance_common.hpp) needs under hipcc.
#include "ck_tile/ops/elementwise/elementwise_kernel.hpp"
#include "ck_tile/ops/permute/transpose_kernel.hpp"

#include "memops_problem_mapping.hpp"
#include "rowwise_instance_common.hpp"

#include <type_traits>

namespace cktile::library {

namespace memops {

inline int refuse_gemm(const cktile_gemm_problem_t*, const cktile_gemm_args_t*, char* reason,
                       std::size_t reason_size)
{
    write_text(reason, reason_size, "an elementwise/permute instance runs no GEMM");
    return 1;
}
inline int refuse_gemm_run(const cktile_gemm_problem_t*, const cktile_gemm_args_t*, void*,
                           std::size_t, void*, char* message, std::size_t message_size)
{
    write_text(message, message_size, "an elementwise/permute instance runs no GEMM");
    return CKTILE_STATUS_NOT_SUPPORTED;
}

template <typename Kernel>
struct is_transpose : std::false_type
{};
template <typename T, ck_tile::index_t W, ck_tile::index_t A, ck_tile::index_t V>
struct is_transpose<ck_tile::transpose_kernel<T, W, A, V>> : std::true_type
{};

/// The public description of a kernel: block tile, threads, vector, shared memory.
template <typename Kernel>
void describe(cktile_instance_info_t& i, bool general)
{
    if constexpr(is_transpose<Kernel>::value)
    {
        i.tile_m             = Kernel::Width; // y's rows (p) per tile
        i.tile_n             = Kernel::Tile;  // y's columns (q) per tile
        i.alignment_elements = Kernel::Vector;
        i.shared_memory_bytes =
            Kernel::Buffers * Kernel::Tile * Kernel::Width * sizeof(typename Kernel::DataType);
    }
    else
    {
        i.tile_m              = Kernel::Shape::RowsPerBlock;
        i.tile_n              = Kernel::Shape::TileN;
        i.alignment_elements  = general ? 1 : Kernel::Vector;
        i.shared_memory_bytes = 0;
    }
    i.block_threads = Kernel::BlockSize;
}

template <typename Kernel>
cktile_kernel_instance_t
make_record(std::uint64_t id, const char* name, const char* target, bool general,
            cktile_op_kind_t op, cktile_datatype_t a, cktile_datatype_t b, cktile_datatype_t y,
            cktile_kernel_op_supports_fn supports, cktile_kernel_op_run_fn run)
{
    cktile_kernel_instance_t r{};
    r.struct_size             = sizeof(r);
    cktile_instance_info_t& i = r.info;
    i.struct_size             = sizeof(i);
    i.id                      = id;
    std::snprintf(i.name, sizeof(i.name), "%s", name);
    std::snprintf(i.target, sizeof(i.target), "%s", target);
    i.op_kind      = op;
    i.a_type       = a;
    i.b_type       = b;
    i.c_type       = y;
    i.d_type       = y;
    i.compute_type = CKTILE_DATATYPE_FP32;
    i.a_layout     = CKTILE_LAYOUT_ANY;
    i.b_layout     = CKTILE_LAYOUT_ANY;
    i.tile_k       = 1;
    i.index_bits   = 64;
    i.k_multiple   = 1;
    i.is_general   = general ? 1 : 0;
    describe<Kernel>(i, general);
    r.min_blocks_per_cu = 1;
    if constexpr(is_transpose<Kernel>::value)
        r.rows_in_flight = Kernel::TilesAhead + 1; // the tile worked on and those copied ahead
    r.supports       = &refuse_gemm;
    r.workspace_size = &rowwise::no_workspace;
    r.run            = &refuse_gemm_run;
    r.op_supports    = supports;
    r.op_run         = run;
    return r;
}

/// Writes the kernel's reason (or the adapter's) and returns 1; 0 when `why` is null.
inline int refuse(const char* why, char* reason, std::size_t reason_size)
{
    if(!why)
        return 0;
    write_text(reason, reason_size, why);
    return 1;
}

} // namespace memops

/// @pre the problem passed cktile_elementwise_validate. `args` may be null (shape queries).
inline ck_tile::elementwise_host_args
to_elementwise_host_args(const cktile_elementwise_problem_t& p, const cktile_elementwise_args_t* a)
{
    ck_tile::elementwise_host_args h;
    if(a)
    {
        h.a = a->a;
        h.b = a->b;
        h.y = a->y;
    }
    h.op    = static_cast<ck_tile::elementwise_op>(p.op);
    h.alpha = static_cast<float>(p.alpha);
    h.beta  = static_cast<float>(p.beta);
    h.space = elementwise_space(p);
    return h;
}

template <typename Kernel, cktile_datatype_t AType, cktile_datatype_t YType>
struct elementwise_instance
{
    static int supports(const void* problem, const void* args, char* reason,
                        std::size_t reason_size)
    {
        const auto& p     = *static_cast<const cktile_elementwise_problem_t*>(problem);
        const bool binary = static_cast<int>(p.op) > 100;
        if(p.a.type != AType || (binary && p.b.type != AType) || p.y.type != YType)
            return memops::refuse("the instance's a/b/y data types differ from the problem's",
                                  reason, reason_size);
        return memops::refuse(Kernel::why_unsupported(to_elementwise_host_args(
                                  p, static_cast<const cktile_elementwise_args_t*>(args))),
                              reason, reason_size);
    }

    static int run(const void* problem, const void* args, void* stream, char* message,
                   std::size_t message_size)
    {
        const auto& p = *static_cast<const cktile_elementwise_problem_t*>(problem);
        const auto h =
            to_elementwise_host_args(p, static_cast<const cktile_elementwise_args_t*>(args));
        if(const char* why = Kernel::why_unsupported(h))
        {
            write_text(message, message_size, why);
            return CKTILE_STATUS_NOT_SUPPORTED;
        }
        return rowwise::launch<Kernel>(Kernel::make_kargs(h), stream, message, message_size);
    }
};

template <typename Kernel, cktile_datatype_t AType, cktile_datatype_t YType>
cktile_kernel_instance_t make_elementwise_record(std::uint64_t id, const char* name,
                                                 const char* target, bool general)
{
    using Inst = elementwise_instance<Kernel, AType, YType>;
    return memops::make_record<Kernel>(id, name, target, general, CKTILE_OP_ELEMENTWISE, AType,
                                       AType, YType, &Inst::supports, &Inst::run);
}

/// The kernel's host arguments for a permutation: the transpose kernel's, or the elementwise
/// kernel's identity with a = x in y's axis order.
template <typename Kernel>
auto to_permute_host_args(const cktile_permute_problem_t& p, const cktile_permute_args_t* a)
{
    const ck_tile::strided_space<2> s = permute_space(p);
    if constexpr(memops::is_transpose<Kernel>::value)
    {
        ck_tile::transpose_host_args h;
        h.x     = a ? a->x : nullptr;
        h.y     = a ? a->y : nullptr;
        h.space = s;
        return h;
    }
    else
    {
        ck_tile::elementwise_host_args h;
        h.a          = a ? a->x : nullptr;
        h.y          = a ? a->y : nullptr;
        h.space.rank = s.rank;
        for(int d = 0; d < s.rank; ++d)
        {
            h.space.lengths[d]    = s.lengths[d];
            h.space.strides[0][d] = s.strides[0][d];
            h.space.strides[1][d] = s.strides[1][d];
        }
        return h;
    }
}

template <typename Kernel, cktile_datatype_t Type>
struct permute_instance
{
    static int supports(const void* problem, const void* args, char* reason,
                        std::size_t reason_size)
    {
        const auto& p = *static_cast<const cktile_permute_problem_t*>(problem);
        if(p.x.type != Type || p.y.type != Type)
            return memops::refuse("the instance's data type differs from the problem's", reason,
                                  reason_size);
        return memops::refuse(Kernel::why_unsupported(to_permute_host_args<Kernel>(
                                  p, static_cast<const cktile_permute_args_t*>(args))),
                              reason, reason_size);
    }

    static int run(const void* problem, const void* args, void* stream, char* message,
                   std::size_t message_size)
    {
        const auto& p = *static_cast<const cktile_permute_problem_t*>(problem);
        const auto h =
            to_permute_host_args<Kernel>(p, static_cast<const cktile_permute_args_t*>(args));
        if(const char* why = Kernel::why_unsupported(h))
        {
            write_text(message, message_size, why);
            return CKTILE_STATUS_NOT_SUPPORTED;
        }
        return rowwise::launch<Kernel>(Kernel::make_kargs(h), stream, message, message_size);
    }
};

template <typename Kernel, cktile_datatype_t Type>
cktile_kernel_instance_t make_permute_record(std::uint64_t id, const char* name, const char* target,
                                             bool general)
{
    using Inst = permute_instance<Kernel, Type>;
    return memops::make_record<Kernel>(id, name, target, general, CKTILE_OP_PERMUTE, Type, Type,
                                       Type, &Inst::supports, &Inst::run);
}

} // namespace cktile::library
