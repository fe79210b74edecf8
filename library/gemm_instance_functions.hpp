// SPDX-License-Identifier: MIT
// The C-callable functions of a GEMM instance (supports, workspace sizes, splits, run) over a
// kernel template and its launch, and the statement of a problem they run: as stated, or as
// its transpose. Host code only (the launch is a parameter), so it is tested on the host.
#pragma once

#include "gemm_problem_mapping.hpp"
#include "gemm_transpose.hpp"
#include "kernel_call.hpp"
#include "kernel_library_abi.h"

#include <cstddef>
#include <cstdint>

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

/// The C-callable functions of an instance. Launch says how the kernel family starts:
/// workspace_bytes(h) (for the fastest run), minimum_workspace_bytes(h), k_splits(h),
/// tail_splits(h) and run(h, workspace, workspace_size, stream) (throws on runtime errors), and
/// with may_transpose that the instance may run a problem as its transpose (transposes()).
template <typename Kernel, typename Signature, typename Launch>
struct gemm_instance
{
    /// Why the kernel cannot run `p` as stated (nullptr: it can).
    static const char* why_refused(const cktile_gemm_problem_t& p, const cktile_gemm_args_t* args)
    {
        const char* why = Signature::mismatch(p);
        return why ? why : Kernel::why_unsupported(to_host_args(p, args));
    }

    /// Whether the instance runs `p` as D^T = B^T A^T: when only the transpose fits it, or when
    /// both do and D is column-major, since the transpose stores D^T row-major and only a
    /// row-major D leaves through the copy engine. Pointer alignment is the same either way,
    /// so the answer without `args` (shape-only queries) is the answer with them.
    static bool transposes(const cktile_gemm_problem_t& p, const cktile_gemm_args_t* args)
    {
        if constexpr(!Launch::may_transpose)
            return false;
        else
        {
            const cktile_gemm_args_t t_args = args ? transposed_args(*args) : cktile_gemm_args_t{};
            if(why_refused(transposed_problem(p), args ? &t_args : nullptr))
                return false;
            return p.d_layout == CKTILE_LAYOUT_COL_MAJOR || why_refused(p, args) != nullptr;
        }
    }

    /// The kernel's host description of the statement of `p` the instance runs.
    static ck_tile::gemm_simt_host_args host_args(const cktile_gemm_problem_t& p,
                                                  const cktile_gemm_args_t* args)
    {
        if(!transposes(p, args))
            return to_host_args(p, args);
        const cktile_gemm_args_t t_args = args ? transposed_args(*args) : cktile_gemm_args_t{};
        return to_host_args(transposed_problem(p), args ? &t_args : nullptr);
    }

    static int supports(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args,
                        char* reason, std::size_t reason_size)
    {
        if(transposes(*p, args))
            return 0;
        // The reason given is the stated problem's: the transposed one is an implementation
        // detail the caller did not write.
        if(const char* why = why_refused(*p, args))
        {
            write_text(reason, reason_size, why);
            return 1;
        }
        return 0;
    }

    static int runs_transposed(const cktile_gemm_problem_t* p)
    {
        return transposes(*p, nullptr) ? 1 : 0;
    }

    static std::size_t workspace_size(const cktile_gemm_problem_t* p)
    {
        return Launch::workspace_bytes(host_args(*p, nullptr));
    }

    static std::size_t minimum_workspace_size(const cktile_gemm_problem_t* p)
    {
        return Launch::minimum_workspace_bytes(host_args(*p, nullptr));
    }

    static std::int64_t k_splits(const cktile_gemm_problem_t* p)
    {
        return Launch::k_splits(host_args(*p, nullptr));
    }

    static std::int64_t tail_splits(const cktile_gemm_problem_t* p)
    {
        return Launch::tail_splits(host_args(*p, nullptr));
    }

    static int run(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args, void* workspace,
                   std::size_t workspace_size, void* stream, char* message,
                   std::size_t message_size)
    {
        return guard_kernel_call(message, message_size, [&]() -> int {
            if(!transposes(*p, args))
            {
                if(const char* why = why_refused(*p, args))
                {
                    write_text(message, message_size, why);
                    return CKTILE_STATUS_NOT_SUPPORTED;
                }
            }
            const auto h = host_args(*p, args);
            if(workspace_size < Launch::minimum_workspace_bytes(h))
            {
                write_text(message, message_size,
                           "the workspace is smaller than split-K and operand staging need");
                return CKTILE_STATUS_INSUFFICIENT_WORKSPACE;
            }
            Launch::run(h, workspace, workspace_size, static_cast<hipStream_t>(stream));
            return CKTILE_STATUS_SUCCESS;
        });
    }
};

} // namespace cktile::library
