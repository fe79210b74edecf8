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
    /// `any_layout`: the kernel stages operands stored the other way (transposed into its
    /// workspace), so the problem's A and B layouts need not be the instance's.
    static const char* mismatch(const cktile_gemm_problem_t& p, bool any_layout = false)
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
        if(any_layout)
            return nullptr;
        if(ALayout != CKTILE_LAYOUT_ANY && p.a_layout != ALayout)
            return "the instance's A layout differs from the problem's";
        if(BLayout != CKTILE_LAYOUT_ANY && p.b_layout != BLayout)
            return "the instance's B layout differs from the problem's";
        return nullptr;
    }
};

/// Whether `Kernel` runs operands stored either way (Kernel::StagesOtherLayouts: it copies one
/// stored the other way, transposed, into its workspace first).
template <typename Kernel>
constexpr bool stages_other_layouts()
{
    if constexpr(requires { Kernel::StagesOtherLayouts; })
        return Kernel::StagesOtherLayouts;
    else
        return false;
}

/// The C-callable functions of an instance. Launch says how the kernel family starts:
/// workspace_bytes(h) (for the fastest run), minimum_workspace_bytes(h), k_splits(h),
/// tail_splits(h) and run(h, workspace, workspace_size, stream) (throws on runtime errors), and
/// with may_transpose that the instance may run a problem as its transpose (choose()).
template <typename Kernel, typename Signature, typename Launch>
struct gemm_instance
{
    /// The statement of a problem the instance runs, as the kernel's host description.
    struct statement
    {
        ck_tile::gemm_simt_host_args h;
        bool transposed;
        const char* why; // the stated problem's refusal when the instance runs neither
    };

    /// As stated, unless the launch may transpose and the transpose (D^T = B^T A^T) fits
    /// where the stated problem does not, or D is column-major: the transpose stores D^T
    /// row-major, and only a row-major D leaves through the copy engine. A refusal names the
    /// stated problem: the transposed one is a detail the caller did not write. Pointer checks
    /// refuse both statements alike, so the choice without `args` (shape-only queries) is the
    /// choice with them.
    static statement choose(const cktile_gemm_problem_t& p, const cktile_gemm_args_t* args)
    {
        const auto stated         = to_host_args(p, args);
        constexpr bool any_layout = stages_other_layouts<Kernel>();
        const char* why           = Signature::mismatch(p, any_layout);
        if(!why)
            why = Kernel::why_unsupported(stated);
        if constexpr(Launch::may_transpose)
        {
            if(why || p.d_layout == CKTILE_LAYOUT_COL_MAJOR)
            {
                const cktile_gemm_problem_t t = transposed_problem(p);
                const cktile_gemm_args_t t_args =
                    args ? transposed_args(*args) : cktile_gemm_args_t{};
                const auto flipped = to_host_args(t, args ? &t_args : nullptr);
                if(!Signature::mismatch(t, any_layout) && !Kernel::why_unsupported(flipped))
                    return {flipped, true, nullptr};
            }
        }
        return {stated, false, why};
    }

    static int supports(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args,
                        char* reason, std::size_t reason_size)
    {
        const char* why = choose(*p, args).why;
        if(why)
            write_text(reason, reason_size, why);
        return why ? 1 : 0;
    }

    static int runs_transposed(const cktile_gemm_problem_t* p)
    {
        return choose(*p, nullptr).transposed ? 1 : 0;
    }

    static int staged_epilogue(const cktile_gemm_problem_t* p)
    {
        return Launch::staged_epilogue(choose(*p, nullptr).h) ? 1 : 0;
    }

    /// Bit 0: A is copied into the workspace first; bit 1: B; bit 2: B is read in place by the
    /// producer's threads (Launch::copied_operands).
    static int copied_operands(const cktile_gemm_problem_t* p)
    {
        return Launch::copied_operands(choose(*p, nullptr).h);
    }

    static std::size_t workspace_size(const cktile_gemm_problem_t* p)
    {
        return Launch::workspace_bytes(choose(*p, nullptr).h);
    }

    static std::size_t minimum_workspace_size(const cktile_gemm_problem_t* p)
    {
        return Launch::minimum_workspace_bytes(choose(*p, nullptr).h);
    }

    static std::int64_t k_splits(const cktile_gemm_problem_t* p)
    {
        return Launch::k_splits(choose(*p, nullptr).h);
    }

    static std::int64_t tail_splits(const cktile_gemm_problem_t* p)
    {
        return Launch::tail_splits(choose(*p, nullptr).h);
    }

    static int run(const cktile_gemm_problem_t* p, const cktile_gemm_args_t* args, void* workspace,
                   std::size_t workspace_size, void* stream, char* message,
                   std::size_t message_size)
    {
        return guard_kernel_call(message, message_size, [&]() -> int {
            const statement st = choose(*p, args);
            if(st.why)
            {
                write_text(message, message_size, st.why);
                return CKTILE_STATUS_NOT_SUPPORTED;
            }
            const auto& h = st.h;
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
