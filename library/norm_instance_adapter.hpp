// SPDX-License-Identifier: MIT
// Turns a norm_kernel into a registry record: the C-callable supports and run of
// CKTILE_OP_NORMALIZATION. Included by the generated instance sources only (device compiler).
#pragma once

#include "norm_problem_mapping.hpp"
#include "rowwise_instance_common.hpp"

#include "ck_tile/ops/norm/norm_kernel.hpp"

namespace cktile::library {

template <typename Kernel, cktile_datatype_t XType, cktile_datatype_t WType,
          cktile_datatype_t YType>
struct norm_instance
{
    static const char* mismatch(const cktile_norm_problem_t& p)
    {
        if(p.x_type != XType || p.y_type != YType || p.weight_type != WType)
            return "the instance's x/y/weight data types differ from the problem's";
        if(p.compute_type != CKTILE_DATATYPE_FP32)
            return "the instance computes in fp32";
        return nullptr;
    }

    static int supports(const void* problem, const void* args, char* reason,
                        std::size_t reason_size)
    {
        const auto& p   = *static_cast<const cktile_norm_problem_t*>(problem);
        const char* why = mismatch(p);
        if(!why)
            why = Kernel::why_unsupported(
                to_norm_host_args(p, static_cast<const cktile_norm_args_t*>(args)));
        return rowwise::answer_supports(why, reason, reason_size);
    }

    static int run(const void* problem, const void* args, void* stream, char* message,
                   std::size_t message_size)
    {
        const auto& p = *static_cast<const cktile_norm_problem_t*>(problem);
        const auto h  = to_norm_host_args(p, static_cast<const cktile_norm_args_t*>(args));
        if(const char* why = Kernel::why_unsupported(h))
        {
            library::write_text(message, message_size, why);
            return CKTILE_STATUS_NOT_SUPPORTED;
        }
        // Each kind runs the instance compiled for it alone (fewer registers, its own cap).
        using layernorm_kernel = typename Kernel::template of_kind<ck_tile::norm_kind::layernorm>;
        using rmsnorm_kernel   = typename Kernel::template of_kind<ck_tile::norm_kind::rmsnorm>;
        if(h.layernorm)
            return rowwise::launch<layernorm_kernel>(layernorm_kernel::make_kargs(h), stream,
                                                     message, message_size);
        return rowwise::launch<rmsnorm_kernel>(rmsnorm_kernel::make_kargs(h), stream, message,
                                               message_size);
    }
};

template <typename Kernel, cktile_datatype_t XType, cktile_datatype_t WType,
          cktile_datatype_t YType>
cktile_kernel_instance_t make_norm_record(std::uint64_t id, const char* name, const char* target,
                                          bool general)
{
    using Inst = norm_instance<Kernel, XType, WType, YType>;
    return rowwise::make_record(id, name, target, general, CKTILE_OP_NORMALIZATION, XType, WType,
                                YType, rowwise::row_tile_info<typename Kernel::Shape>(),
                                rowwise::min_blocks_per_cu<Kernel>(), &Inst::supports, &Inst::run,
                                static_cast<int>(Kernel::RowsInFlight));
}

} // namespace cktile::library
