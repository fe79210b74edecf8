// SPDX-License-Identifier: MIT
// Turns a softmax_kernel into a registry record: the C-callable supports and run of
// CKTILE_OP_SOFTMAX. Included by the generated instance sources only (device compiler).
#pragma once

#include "rowwise_instance_common.hpp"

#include "ck_tile/ops/softmax/softmax_kernel.hpp"

namespace cktile::library {

/// @pre the problem passed cktile_softmax_validate. `args` may be null (shape-only queries).
inline ck_tile::softmax_host_args to_softmax_host_args(const cktile_softmax_problem_t& p,
                                                       const cktile_softmax_args_t* args)
{
    ck_tile::softmax_host_args h;
    if(args)
    {
        h.x = args->x;
        h.y = args->y;
    }
    h.rows     = p.rows;
    h.cols     = p.cols;
    h.x_stride = p.x_stride;
    h.y_stride = p.y_stride;
    return h;
}

template <typename Kernel, cktile_datatype_t XType, cktile_datatype_t YType>
struct softmax_instance
{
    static int supports(const void* problem, const void* args, char* reason,
                        std::size_t reason_size)
    {
        const auto& p   = *static_cast<const cktile_softmax_problem_t*>(problem);
        const char* why = nullptr;
        if(p.x_type != XType || p.y_type != YType)
            why = "the instance's x/y data types differ from the problem's";
        else if(p.compute_type != CKTILE_DATATYPE_FP32)
            why = "the instance computes in fp32";
        else
            why = Kernel::why_unsupported(
                to_softmax_host_args(p, static_cast<const cktile_softmax_args_t*>(args)));
        return rowwise::answer_supports(why, reason, reason_size);
    }

    static int run(const void* problem, const void* args, void* stream, char* message,
                   std::size_t message_size)
    {
        const auto& p = *static_cast<const cktile_softmax_problem_t*>(problem);
        const auto h  = to_softmax_host_args(p, static_cast<const cktile_softmax_args_t*>(args));
        if(const char* why = Kernel::why_unsupported(h))
        {
            library::write_text(message, message_size, why);
            return CKTILE_STATUS_NOT_SUPPORTED;
        }
        return rowwise::launch<Kernel>(Kernel::make_kargs(h), stream, message, message_size);
    }
};

template <typename Kernel, cktile_datatype_t XType, cktile_datatype_t YType>
cktile_kernel_instance_t make_softmax_record(std::uint64_t id, const char* name, const char* target,
                                             bool general)
{
    using Inst = softmax_instance<Kernel, XType, YType>;
    return rowwise::make_record(id, name, target, general, CKTILE_OP_SOFTMAX, XType, XType, YType,
                                rowwise::row_tile_info<typename Kernel::Shape>(),
                                rowwise::min_blocks_per_cu<Kernel>(), &Inst::supports, &Inst::run);
}

} // namespace cktile::library
