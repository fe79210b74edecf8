// SPDX-License-Identifier: MIT
// Turns a GEMM kernel template into a registry record: the C-callable supports / workspace /
// run functions and the public description. Included by the generated instance sources only
// (device compiler).
#pragma once

#include "gemm_problem_mapping.hpp"
#include "kernel_call.hpp"
#include "kernel_library_abi.h"

#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/kernel_launch.hpp"
#include "ck_tile/ops/gemm/gemm_simt_kernel.hpp"
#include "ck_tile/ops/gemm/gemm_tile_kernel.hpp"

#include <cstdio>
#include <cstring>
#include <exception>

namespace cktile::library {

/// The compile-time facts of one instance, as the C API spells them.
template <cktile_datatype_t AType, cktile_datatype_t BType, cktile_datatype_t DType,
          cktile_datatype_t ComputeType, cktile_layout_t ALayout, cktile_layout_t BLayout>
struct gemm_signature
{
    static const char* mismatch(const cktile_gemm_problem_t& p)
    {
        if(p.a_type != AType || p.b_type != BType)
            return "the instance's A/B data types differ from the problem's";
        if(p.c_type != DType || p.d_type != DType)
            return "the instance's C/D data type differs from the problem's";
        // A TF32 request may run in true fp32 (at least as accurate): the general fp32
        // instances serve every TF32 problem.
        const bool fp32_serves_tf32 =
            ComputeType == CKTILE_DATATYPE_FP32 && p.compute_type == CKTILE_DATATYPE_TF32;
        if(p.compute_type != ComputeType && !fp32_serves_tf32)
            return "the instance's compute type differs from the problem's";
        if(ALayout != CKTILE_LAYOUT_ANY && p.a_layout != ALayout)
            return "the instance's A layout differs from the problem's";
        if(BLayout != CKTILE_LAYOUT_ANY && p.b_layout != BLayout)
            return "the instance's B layout differs from the problem's";
        return nullptr;
    }
};

template <typename Kernel, typename Signature>
struct gemm_simt_instance
{
    static int supports(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args,
                        char* reason, std::size_t reason_size)
    {
        const char* why = Signature::mismatch(*p);
        if(!why)
            why = Kernel::why_unsupported(to_host_args(*p, args));
        if(why)
        {
            write_text(reason, reason_size, why);
            return 1;
        }
        return 0;
    }

    static std::size_t workspace_size(const cktile_gemm_problem_t*) { return 0; }

    static int run(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args, void*,
                   std::size_t, void* stream, char* message, std::size_t message_size)
    {
        return guard_kernel_call(message, message_size, [&]() -> int {
            const auto h = to_host_args(*p, args);
            if(const char* why = Kernel::why_unsupported(h))
            {
                write_text(message, message_size, why);
                return CKTILE_STATUS_NOT_SUPPORTED;
            }
            const auto ka = Kernel::make_kargs(h);
            const dim3 grid(static_cast<unsigned>(ka.grid_x), 1, static_cast<unsigned>(ka.grid_z));
            const dim3 block(Kernel::BlockSize);
            ck_tile::launch_kernel(
                ck_tile::stream_config{static_cast<hipStream_t>(stream), false, 0, 0, 1},
                ck_tile::make_kernel<Kernel::BlockSize, 1>(Kernel{}, grid, block, 0u, ka));
            return CKTILE_STATUS_SUCCESS;
        });
    }
};

/// The record the generated sources define, one per instance.
template <typename Kernel, cktile_datatype_t AType, cktile_datatype_t BType,
          cktile_datatype_t DType, cktile_datatype_t ComputeType, cktile_layout_t ALayout,
          cktile_layout_t BLayout>
cktile_kernel_instance_t make_gemm_simt_record(std::uint64_t id, const char* name,
                                               const char* target, bool general)
{
    using Sig  = gemm_signature<AType, BType, DType, ComputeType, ALayout, BLayout>;
    using Inst = gemm_simt_instance<Kernel, Sig>;
    using Pol  = typename Kernel::Policy;
    cktile_kernel_instance_t r{};
    r.struct_size             = sizeof(r);
    cktile_instance_info_t& i = r.info;
    i.struct_size             = sizeof(i);
    i.id                      = id;
    std::snprintf(i.name, sizeof(i.name), "%s", name);
    std::snprintf(i.target, sizeof(i.target), "%s", target);
    i.op_kind             = CKTILE_OP_GEMM;
    i.a_type              = AType;
    i.b_type              = BType;
    i.c_type              = DType;
    i.d_type              = DType;
    i.compute_type        = ComputeType;
    i.a_layout            = ALayout;
    i.b_layout            = BLayout;
    i.supports_bias       = Kernel::FusedEpilogue ? 1 : 0;
    i.supports_activation = Kernel::FusedEpilogue ? 1 : 0;
    i.tile_m              = Pol::BlockM;
    i.tile_n              = Pol::BlockN;
    i.tile_k              = Pol::BlockK;
    i.block_threads       = Pol::BlockSize;
    i.index_bits          = static_cast<int>(sizeof(typename Kernel::Index) * 8);
    i.alignment_elements  = (Kernel::VectorA > 1 || Kernel::VectorB > 1) ? Pol::VectorK : 1;
    i.k_multiple          = i.alignment_elements;
    i.shared_memory_bytes = Pol::template shared_memory_bytes<typename Kernel::Acc>();
    i.is_general          = general ? 1 : 0;
    r.min_blocks_per_cu   = 1;
    r.supports            = &Inst::supports;
    r.workspace_size      = &Inst::workspace_size;
    r.run                 = &Inst::run;
    return r;
}

/// A tile kernel (gemm_tile_kernel.hpp): one launch, or with split-K two (the partial sums
/// into the workspace, then the in-order reduction with the epilogue into D).
template <typename Kernel, typename Signature>
struct gemm_tile_instance
{
    static int supports(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args,
                        char* reason, std::size_t reason_size)
    {
        const char* why = Signature::mismatch(*p);
        if(!why)
            why = Kernel::why_unsupported(to_host_args(*p, args));
        if(why)
        {
            write_text(reason, reason_size, why);
            return 1;
        }
        return 0;
    }

    static std::size_t workspace_size(const cktile_gemm_problem_t* p)
    {
        return Kernel::workspace_bytes(to_host_args(*p, nullptr));
    }

    static std::int64_t k_splits(const cktile_gemm_problem_t* p)
    {
        return Kernel::k_splits(to_host_args(*p, nullptr));
    }

    static int run(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args, void* workspace,
                   std::size_t workspace_size, void* stream, char* message,
                   std::size_t message_size)
    {
        return guard_kernel_call(message, message_size, [&]() -> int {
            const auto h = to_host_args(*p, args);
            if(const char* why = Kernel::why_unsupported(h))
            {
                write_text(message, message_size, why);
                return CKTILE_STATUS_NOT_SUPPORTED;
            }
            if(workspace_size < Kernel::workspace_bytes(h))
            {
                write_text(message, message_size, "the workspace is smaller than split-K needs");
                return CKTILE_STATUS_INSUFFICIENT_WORKSPACE;
            }
            const auto ka  = Kernel::make_kargs(h, workspace);
            std::int64_t x = 0, y = 0, z = 0;
            Kernel::grid(ka, x, y, z);
            const ck_tile::stream_config sc{static_cast<hipStream_t>(stream), false, 0, 0, 1};
            ck_tile::launch_kernel(sc, ck_tile::make_kernel<Kernel::BlockSize, 1>(
                                           Kernel{},
                                           dim3(static_cast<unsigned>(x), static_cast<unsigned>(y),
                                                static_cast<unsigned>(z)),
                                           dim3(Kernel::BlockSize),
                                           static_cast<unsigned>(Kernel::shared_memory_bytes), ka));
            if(ka.splits > 1)
            {
                using R                   = typename Kernel::reduce;
                const std::int64_t total  = p->m * p->n * p->batch_count;
                const std::int64_t want   = (total + R::BlockSize - 1) / R::BlockSize;
                const std::int64_t blocks = want < 65536 ? want : 65536;
                ck_tile::launch_kernel(sc, ck_tile::make_kernel<R::BlockSize, 1>(
                                               R{}, dim3(static_cast<unsigned>(blocks)),
                                               dim3(R::BlockSize), 0u, Kernel::reduce_kargs(ka)));
            }
            return CKTILE_STATUS_SUCCESS;
        });
    }
};

/// The record of a tile instance. math_rate: matrix instructions do this many times the
/// multiply-accumulates of FMA per cycle (a selection-model input, not a measurement).
template <typename Kernel, cktile_datatype_t AType, cktile_datatype_t BType,
          cktile_datatype_t DType, cktile_datatype_t ComputeType, cktile_layout_t ALayout,
          cktile_layout_t BLayout>
cktile_kernel_instance_t make_gemm_tile_record(std::uint64_t id, const char* name,
                                               const char* target, double math_rate)
{
    using Sig  = gemm_signature<AType, BType, DType, ComputeType, ALayout, BLayout>;
    using Inst = gemm_tile_instance<Kernel, Sig>;
    using Pol  = typename Kernel::Policy;
    cktile_kernel_instance_t r{};
    r.struct_size             = sizeof(r);
    cktile_instance_info_t& i = r.info;
    i.struct_size             = sizeof(i);
    i.id                      = id;
    std::snprintf(i.name, sizeof(i.name), "%s", name);
    std::snprintf(i.target, sizeof(i.target), "%s", target);
    i.op_kind             = CKTILE_OP_GEMM;
    i.a_type              = AType;
    i.b_type              = BType;
    i.c_type              = DType;
    i.d_type              = DType;
    i.compute_type        = ComputeType;
    i.a_layout            = ALayout;
    i.b_layout            = BLayout;
    i.supports_bias       = Kernel::FusedEpilogue ? 1 : 0;
    i.supports_activation = Kernel::FusedEpilogue ? 1 : 0;
    i.tile_m              = Pol::BlockM;
    i.tile_n              = Pol::BlockN;
    i.tile_k              = Pol::BlockK;
    i.block_threads       = Pol::BlockSize;
    i.index_bits          = 64;
    i.alignment_elements  = Kernel::VectorA > Kernel::VectorB ? Kernel::VectorA : Kernel::VectorB;
    i.k_multiple          = 1;
    i.shared_memory_bytes = Kernel::shared_memory_bytes;
    i.is_general          = 0;
    r.min_blocks_per_cu   = 1;
    r.supports            = &Inst::supports;
    r.workspace_size      = &Inst::workspace_size;
    r.run                 = &Inst::run;
    r.math_rate           = math_rate;
    r.k_splits            = &Inst::k_splits;
    return r;
}

} // namespace cktile::library
