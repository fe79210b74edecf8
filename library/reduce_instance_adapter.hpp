// SPDX-License-Identifier: MIT
// Turns a reduce kernel (row, column or strided) into a registry record: the C-callable
// supports and run of CKTILE_OP_REDUCTION. Included by the generated instance sources only
// (device compiler).
#pragma once

#include "reduce_problem_mapping.hpp"
#include "rowwise_instance_common.hpp"

#include "ck_tile/ops/reduce/reduce_column_kernel.hpp"
#include "ck_tile/ops/reduce/reduce_row_kernel.hpp"
#include "ck_tile/ops/reduce/reduce_strided_kernel.hpp"

#include <type_traits>

namespace cktile::library {

/// The public description of each reduce kernel's tiling: the window one block reads per step.
template <typename Kernel>
constexpr rowwise::tile_info reduce_tile_info()
{
    using Shape = typename Kernel::Shape;
    if constexpr(std::is_same_v<Kernel,
                                ck_tile::reduce_row_kernel<typename Kernel::XDataType,
                                                           typename Kernel::YDataType, Shape>>)
        return rowwise::row_tile_info<Shape>();
    else if constexpr(std::is_same_v<
                          Kernel, ck_tile::reduce_column_kernel<typename Kernel::XDataType,
                                                                typename Kernel::YDataType, Shape>>)
        return {Shape::TileR, Shape::TileI, Shape::BlockSize, Shape::Vector,
                static_cast<std::size_t>(Kernel::SharedMemoryBytes)};
    else // strided: a warp per output, one element per access
        return {Shape::Warps, Shape::Warp, Shape::BlockSize, 1, 0};
}

template <typename Kernel, cktile_datatype_t XType, cktile_datatype_t YType>
struct reduce_instance
{
    static const char* why_unsupported(const cktile_reduce_problem_t& p,
                                       const cktile_reduce_args_t* args)
    {
        if(p.x_type != XType || p.y_type != YType)
            return "the instance's x/y data types differ from the problem's";
        if(p.compute_type != CKTILE_DATATYPE_FP32)
            return "the instance computes in fp32";
        return Kernel::why_unsupported(to_reduce_host_args(p, args));
    }

    static int supports(const void* problem, const void* args, char* reason,
                        std::size_t reason_size)
    {
        return rowwise::answer_supports(
            why_unsupported(*static_cast<const cktile_reduce_problem_t*>(problem),
                            static_cast<const cktile_reduce_args_t*>(args)),
            reason, reason_size);
    }

    static int run(const void* problem, const void* args, void* stream, char* message,
                   std::size_t message_size)
    {
        const auto& p = *static_cast<const cktile_reduce_problem_t*>(problem);
        const auto* a = static_cast<const cktile_reduce_args_t*>(args);
        if(const char* why = why_unsupported(p, a))
        {
            library::write_text(message, message_size, why);
            return CKTILE_STATUS_NOT_SUPPORTED;
        }
        return rowwise::launch<Kernel>(Kernel::make_kargs(to_reduce_host_args(p, a)), stream,
                                       message, message_size);
    }
};

template <typename Kernel, cktile_datatype_t XType, cktile_datatype_t YType>
cktile_kernel_instance_t make_reduce_record(std::uint64_t id, const char* name, const char* target,
                                            bool general)
{
    using Inst = reduce_instance<Kernel, XType, YType>;
    return rowwise::make_record(id, name, target, general, CKTILE_OP_REDUCTION, XType, XType, YType,
                                reduce_tile_info<Kernel>(), rowwise::min_blocks_per_cu<Kernel>(),
                                &Inst::supports, &Inst::run);
}

} // namespace cktile::library
