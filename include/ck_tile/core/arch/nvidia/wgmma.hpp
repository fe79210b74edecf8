// SPDX-License-Identifier: MIT
// The Hopper warpgroup MMA instructions (sm_90a): wgmma.fence / commit_group / wait_group, one
// wrapper per wgmma.mma_async form, and setmaxnreg. Shapes, descriptors and fragment layouts
// are in wgmma_traits.hpp.
//
// A warpgroup is 4 consecutive warps starting at a warp index divisible by 4; all 128 threads
// execute each of these instructions together (.sync.aligned: same instruction, converged).
// The MMA is asynchronous: its accumulator registers, and the A registers of the register-A
// form, may be neither read nor written between the mma_async and the wgmma_wait_group that
// retires it, and wgmma_fence() must precede the first mma_async after the registers were last
// touched by other instructions (PTX ISA: "Asynchronous Warpgroup Level Matrix Multiply-
// Accumulate Instructions", wgmma.fence). Shared-memory operands written by ordinary stores
// need fence_proxy_async_shared_cta() (mbarrier.hpp) first; TMA-written ones do not.
//
// Each wrapper struct is one instruction with its operand types and N fixed:
//   wgmma_ss<A, B, C, N>::fma(desc_a, desc_b, d, scale_d)  A and B from shared memory
//   wgmma_rs<A, B, C, N>::fma(a, desc_b, d, scale_d)       A from 4 registers per thread
// Instantiated for N in {8, 16, 32, 64, 80, 96, 112, 128, 144, 160, 176, 192, 256}; another N is
// one more line in CK_TILE_WGMMA_EACH_N plus its operand tables.
#pragma once

#include "ck_tile/core/arch/nvidia/sm90_features.hpp"
#include "ck_tile/core/arch/nvidia/wgmma_traits.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

#include <cstdint>
#include <type_traits>

#if !defined(CK_TILE_PLATFORM_NVIDIA)
#error "ck_tile/core/arch/nvidia/wgmma.hpp is NVIDIA device code: compile it with nvcc"
#endif

namespace ck_tile {
namespace arch {

/// Orders this warpgroup's prior register accesses (to accumulators and A fragments) before the
/// wgmma.mma_async operations that follow; also required between two mma_async that use the
/// same accumulators with other instructions between them.
CK_TILE_DEVICE void wgmma_fence()
{
#if CK_TILE_ARCH_HAS_WGMMA
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#else
    ck_tile_error_needs_sm_90a();
#endif
}

/// Closes the group of all mma_async issued since the previous commit: wait_group counts these.
CK_TILE_DEVICE void wgmma_commit_group()
{
#if CK_TILE_ARCH_HAS_WGMMA
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#else
    ck_tile_error_needs_sm_90a();
#endif
}

/// Waits until at most `Pending` committed groups are still in flight; the registers of the
/// retired groups may be used again afterwards.
template <int Pending>
CK_TILE_DEVICE void wgmma_wait_group()
{
    static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group: 0 <= N <= 7");
#if CK_TILE_ARCH_HAS_WGMMA
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
#else
    ck_tile_error_needs_sm_90a();
#endif
}

/// Not an instruction: tells the compiler that the registers of `d` may change here, so it
/// neither moves their reads and writes across an in-flight wgmma nor copies them into other
/// registers while the tensor cores still own them. Place it around mma_async/wait_group.
template <typename T, index_t Size>
CK_TILE_DEVICE void wgmma_fence_operand([[maybe_unused]] T (&d)[Size])
{
    static_assert(sizeof(T) == 4, "wgmma registers are 32-bit");
#if CK_TILE_ARCH_HAS_WGMMA
    for(index_t i = 0; i < Size; ++i)
    {
        if constexpr(std::is_floating_point_v<T>)
            asm volatile("" : "+f"(d[i])::"memory");
        else
            asm volatile("" : "+r"(d[i])::"memory");
    }
#endif
}

/// Raises this warp's register allocation to `RegCount` per thread, blocking until the
/// registers are free (PTX ISA: setmaxnreg). Warp-specialized kernels give the math warpgroups
/// more registers than the copy warpgroup this way. Only honoured when the kernel has a
/// register limit at entry (__launch_bounds__ with a minimum of blocks, or -maxrregcount), and
/// every warp of the warpgroup must execute the same setmaxnreg.
template <uint32_t RegCount>
CK_TILE_DEVICE void setmaxnreg_inc()
{
    static_assert(RegCount >= 24 && RegCount <= 256 && RegCount % 8 == 0,
                  "setmaxnreg: register count must be a multiple of 8 in [24, 256]");
#if CK_TILE_ARCH_HAS_WGMMA
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(RegCount));
#else
    ck_tile_error_needs_sm_90a();
#endif
}

/// Lowers this warp's register allocation to `RegCount` per thread, releasing the rest to the
/// pool that setmaxnreg_inc draws from.
template <uint32_t RegCount>
CK_TILE_DEVICE void setmaxnreg_dec()
{
    static_assert(RegCount >= 24 && RegCount <= 256 && RegCount % 8 == 0,
                  "setmaxnreg: register count must be a multiple of 8 in [24, 256]");
#if CK_TILE_ARCH_HAS_WGMMA
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(RegCount));
#else
    ck_tile_error_needs_sm_90a();
#endif
}

namespace detail {
template <typename A, typename B, typename C, index_t N>
inline constexpr bool wgmma_form_missing = false;
} // namespace detail

/// wgmma.mma_async with A and B in shared memory: D(64 x N) (+)= A(64 x K) * B(K x N).
/// Specialized below for every type pairing and N; the primary template only reports errors.
template <typename AType, typename BType, typename CType, index_t N>
struct wgmma_ss : wgmma_traits<AType, BType, CType, N>
{
    static_assert(detail::wgmma_form_missing<AType, BType, CType, N>,
                  "wgmma_ss: this N is not instantiated (see CK_TILE_WGMMA_EACH_N in wgmma.hpp)");
};

/// wgmma.mma_async with A in registers (4 words per thread, laid out as
/// wgmma_a_fragment_coord says) and B in shared memory. f16 and bf16 forms.
template <typename AType, typename BType, typename CType, index_t N>
struct wgmma_rs : wgmma_traits<AType, BType, CType, N>
{
    static_assert(detail::wgmma_form_missing<AType, BType, CType, N>,
                  "wgmma_rs: no register-A form for these types or this N (f16 and bf16 "
                  "operands, N from CK_TILE_WGMMA_EACH_N)");
};

// ---- operand tables and one specialization per form and N ---------------------------------

// clang-format off
// "{%0, ..., %<n-1>}": the n accumulator registers, operands 0 .. n-1 of every wrapper.
#define CK_TILE_WGMMA_D_4 "{%0, %1, %2, %3}"
#define CK_TILE_WGMMA_D_8 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define CK_TILE_WGMMA_D_16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define CK_TILE_WGMMA_D_32 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define CK_TILE_WGMMA_D_40 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39}"
#define CK_TILE_WGMMA_D_48 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47}"
#define CK_TILE_WGMMA_D_56 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55}"
#define CK_TILE_WGMMA_D_64 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define CK_TILE_WGMMA_D_72 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71}"
#define CK_TILE_WGMMA_D_80 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79}"
#define CK_TILE_WGMMA_D_88 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87}"
#define CK_TILE_WGMMA_D_96 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}"
#define CK_TILE_WGMMA_D_128 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
// C(d[0]), ..., C(d[n-1]): the accumulators as read-write asm operands, C = "+f" or "+r".
#define CK_TILE_WGMMA_D_OPERANDS_4(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3])
#define CK_TILE_WGMMA_D_OPERANDS_8(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7])
#define CK_TILE_WGMMA_D_OPERANDS_16(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15])
#define CK_TILE_WGMMA_D_OPERANDS_32(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31])
#define CK_TILE_WGMMA_D_OPERANDS_40(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39])
#define CK_TILE_WGMMA_D_OPERANDS_48(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47])
#define CK_TILE_WGMMA_D_OPERANDS_56(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47]), \
    C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]), C(d[55])
#define CK_TILE_WGMMA_D_OPERANDS_64(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47]), \
    C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]), C(d[55]), \
    C(d[56]), C(d[57]), C(d[58]), C(d[59]), C(d[60]), C(d[61]), C(d[62]), C(d[63])
#define CK_TILE_WGMMA_D_OPERANDS_72(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47]), \
    C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]), C(d[55]), \
    C(d[56]), C(d[57]), C(d[58]), C(d[59]), C(d[60]), C(d[61]), C(d[62]), C(d[63]), \
    C(d[64]), C(d[65]), C(d[66]), C(d[67]), C(d[68]), C(d[69]), C(d[70]), C(d[71])
#define CK_TILE_WGMMA_D_OPERANDS_80(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47]), \
    C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]), C(d[55]), \
    C(d[56]), C(d[57]), C(d[58]), C(d[59]), C(d[60]), C(d[61]), C(d[62]), C(d[63]), \
    C(d[64]), C(d[65]), C(d[66]), C(d[67]), C(d[68]), C(d[69]), C(d[70]), C(d[71]), \
    C(d[72]), C(d[73]), C(d[74]), C(d[75]), C(d[76]), C(d[77]), C(d[78]), C(d[79])
#define CK_TILE_WGMMA_D_OPERANDS_88(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47]), \
    C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]), C(d[55]), \
    C(d[56]), C(d[57]), C(d[58]), C(d[59]), C(d[60]), C(d[61]), C(d[62]), C(d[63]), \
    C(d[64]), C(d[65]), C(d[66]), C(d[67]), C(d[68]), C(d[69]), C(d[70]), C(d[71]), \
    C(d[72]), C(d[73]), C(d[74]), C(d[75]), C(d[76]), C(d[77]), C(d[78]), C(d[79]), \
    C(d[80]), C(d[81]), C(d[82]), C(d[83]), C(d[84]), C(d[85]), C(d[86]), C(d[87])
#define CK_TILE_WGMMA_D_OPERANDS_96(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47]), \
    C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]), C(d[55]), \
    C(d[56]), C(d[57]), C(d[58]), C(d[59]), C(d[60]), C(d[61]), C(d[62]), C(d[63]), \
    C(d[64]), C(d[65]), C(d[66]), C(d[67]), C(d[68]), C(d[69]), C(d[70]), C(d[71]), \
    C(d[72]), C(d[73]), C(d[74]), C(d[75]), C(d[76]), C(d[77]), C(d[78]), C(d[79]), \
    C(d[80]), C(d[81]), C(d[82]), C(d[83]), C(d[84]), C(d[85]), C(d[86]), C(d[87]), \
    C(d[88]), C(d[89]), C(d[90]), C(d[91]), C(d[92]), C(d[93]), C(d[94]), C(d[95])
#define CK_TILE_WGMMA_D_OPERANDS_128(C, d) C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), \
    C(d[8]), C(d[9]), C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), \
    C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), \
    C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), C(d[31]), \
    C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]), C(d[37]), C(d[38]), C(d[39]), \
    C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]), C(d[46]), C(d[47]), \
    C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]), C(d[55]), \
    C(d[56]), C(d[57]), C(d[58]), C(d[59]), C(d[60]), C(d[61]), C(d[62]), C(d[63]), \
    C(d[64]), C(d[65]), C(d[66]), C(d[67]), C(d[68]), C(d[69]), C(d[70]), C(d[71]), \
    C(d[72]), C(d[73]), C(d[74]), C(d[75]), C(d[76]), C(d[77]), C(d[78]), C(d[79]), \
    C(d[80]), C(d[81]), C(d[82]), C(d[83]), C(d[84]), C(d[85]), C(d[86]), C(d[87]), \
    C(d[88]), C(d[89]), C(d[90]), C(d[91]), C(d[92]), C(d[93]), C(d[94]), C(d[95]), \
    C(d[96]), C(d[97]), C(d[98]), C(d[99]), C(d[100]), C(d[101]), C(d[102]), C(d[103]), \
    C(d[104]), C(d[105]), C(d[106]), C(d[107]), C(d[108]), C(d[109]), C(d[110]), C(d[111]), \
    C(d[112]), C(d[113]), C(d[114]), C(d[115]), C(d[116]), C(d[117]), C(d[118]), C(d[119]), \
    C(d[120]), C(d[121]), C(d[122]), C(d[123]), C(d[124]), C(d[125]), C(d[126]), C(d[127])
// "%<n + j>": the j-th operand after n accumulator registers.
#define CK_TILE_WGMMA_ARG_4_0 "%4"
#define CK_TILE_WGMMA_ARG_4_1 "%5"
#define CK_TILE_WGMMA_ARG_4_2 "%6"
#define CK_TILE_WGMMA_ARG_4_3 "%7"
#define CK_TILE_WGMMA_ARG_4_4 "%8"
#define CK_TILE_WGMMA_ARG_4_5 "%9"
#define CK_TILE_WGMMA_ARG_4_6 "%10"
#define CK_TILE_WGMMA_ARG_4_7 "%11"
#define CK_TILE_WGMMA_ARG_4_8 "%12"
#define CK_TILE_WGMMA_ARG_8_0 "%8"
#define CK_TILE_WGMMA_ARG_8_1 "%9"
#define CK_TILE_WGMMA_ARG_8_2 "%10"
#define CK_TILE_WGMMA_ARG_8_3 "%11"
#define CK_TILE_WGMMA_ARG_8_4 "%12"
#define CK_TILE_WGMMA_ARG_8_5 "%13"
#define CK_TILE_WGMMA_ARG_8_6 "%14"
#define CK_TILE_WGMMA_ARG_8_7 "%15"
#define CK_TILE_WGMMA_ARG_8_8 "%16"
#define CK_TILE_WGMMA_ARG_16_0 "%16"
#define CK_TILE_WGMMA_ARG_16_1 "%17"
#define CK_TILE_WGMMA_ARG_16_2 "%18"
#define CK_TILE_WGMMA_ARG_16_3 "%19"
#define CK_TILE_WGMMA_ARG_16_4 "%20"
#define CK_TILE_WGMMA_ARG_16_5 "%21"
#define CK_TILE_WGMMA_ARG_16_6 "%22"
#define CK_TILE_WGMMA_ARG_16_7 "%23"
#define CK_TILE_WGMMA_ARG_16_8 "%24"
#define CK_TILE_WGMMA_ARG_32_0 "%32"
#define CK_TILE_WGMMA_ARG_32_1 "%33"
#define CK_TILE_WGMMA_ARG_32_2 "%34"
#define CK_TILE_WGMMA_ARG_32_3 "%35"
#define CK_TILE_WGMMA_ARG_32_4 "%36"
#define CK_TILE_WGMMA_ARG_32_5 "%37"
#define CK_TILE_WGMMA_ARG_32_6 "%38"
#define CK_TILE_WGMMA_ARG_32_7 "%39"
#define CK_TILE_WGMMA_ARG_32_8 "%40"
#define CK_TILE_WGMMA_ARG_40_0 "%40"
#define CK_TILE_WGMMA_ARG_40_1 "%41"
#define CK_TILE_WGMMA_ARG_40_2 "%42"
#define CK_TILE_WGMMA_ARG_40_3 "%43"
#define CK_TILE_WGMMA_ARG_40_4 "%44"
#define CK_TILE_WGMMA_ARG_40_5 "%45"
#define CK_TILE_WGMMA_ARG_40_6 "%46"
#define CK_TILE_WGMMA_ARG_40_7 "%47"
#define CK_TILE_WGMMA_ARG_40_8 "%48"
#define CK_TILE_WGMMA_ARG_48_0 "%48"
#define CK_TILE_WGMMA_ARG_48_1 "%49"
#define CK_TILE_WGMMA_ARG_48_2 "%50"
#define CK_TILE_WGMMA_ARG_48_3 "%51"
#define CK_TILE_WGMMA_ARG_48_4 "%52"
#define CK_TILE_WGMMA_ARG_48_5 "%53"
#define CK_TILE_WGMMA_ARG_48_6 "%54"
#define CK_TILE_WGMMA_ARG_48_7 "%55"
#define CK_TILE_WGMMA_ARG_48_8 "%56"
#define CK_TILE_WGMMA_ARG_56_0 "%56"
#define CK_TILE_WGMMA_ARG_56_1 "%57"
#define CK_TILE_WGMMA_ARG_56_2 "%58"
#define CK_TILE_WGMMA_ARG_56_3 "%59"
#define CK_TILE_WGMMA_ARG_56_4 "%60"
#define CK_TILE_WGMMA_ARG_56_5 "%61"
#define CK_TILE_WGMMA_ARG_56_6 "%62"
#define CK_TILE_WGMMA_ARG_56_7 "%63"
#define CK_TILE_WGMMA_ARG_56_8 "%64"
#define CK_TILE_WGMMA_ARG_64_0 "%64"
#define CK_TILE_WGMMA_ARG_64_1 "%65"
#define CK_TILE_WGMMA_ARG_64_2 "%66"
#define CK_TILE_WGMMA_ARG_64_3 "%67"
#define CK_TILE_WGMMA_ARG_64_4 "%68"
#define CK_TILE_WGMMA_ARG_64_5 "%69"
#define CK_TILE_WGMMA_ARG_64_6 "%70"
#define CK_TILE_WGMMA_ARG_64_7 "%71"
#define CK_TILE_WGMMA_ARG_64_8 "%72"
#define CK_TILE_WGMMA_ARG_72_0 "%72"
#define CK_TILE_WGMMA_ARG_72_1 "%73"
#define CK_TILE_WGMMA_ARG_72_2 "%74"
#define CK_TILE_WGMMA_ARG_72_3 "%75"
#define CK_TILE_WGMMA_ARG_72_4 "%76"
#define CK_TILE_WGMMA_ARG_72_5 "%77"
#define CK_TILE_WGMMA_ARG_72_6 "%78"
#define CK_TILE_WGMMA_ARG_72_7 "%79"
#define CK_TILE_WGMMA_ARG_72_8 "%80"
#define CK_TILE_WGMMA_ARG_80_0 "%80"
#define CK_TILE_WGMMA_ARG_80_1 "%81"
#define CK_TILE_WGMMA_ARG_80_2 "%82"
#define CK_TILE_WGMMA_ARG_80_3 "%83"
#define CK_TILE_WGMMA_ARG_80_4 "%84"
#define CK_TILE_WGMMA_ARG_80_5 "%85"
#define CK_TILE_WGMMA_ARG_80_6 "%86"
#define CK_TILE_WGMMA_ARG_80_7 "%87"
#define CK_TILE_WGMMA_ARG_80_8 "%88"
#define CK_TILE_WGMMA_ARG_88_0 "%88"
#define CK_TILE_WGMMA_ARG_88_1 "%89"
#define CK_TILE_WGMMA_ARG_88_2 "%90"
#define CK_TILE_WGMMA_ARG_88_3 "%91"
#define CK_TILE_WGMMA_ARG_88_4 "%92"
#define CK_TILE_WGMMA_ARG_88_5 "%93"
#define CK_TILE_WGMMA_ARG_88_6 "%94"
#define CK_TILE_WGMMA_ARG_88_7 "%95"
#define CK_TILE_WGMMA_ARG_88_8 "%96"
#define CK_TILE_WGMMA_ARG_96_0 "%96"
#define CK_TILE_WGMMA_ARG_96_1 "%97"
#define CK_TILE_WGMMA_ARG_96_2 "%98"
#define CK_TILE_WGMMA_ARG_96_3 "%99"
#define CK_TILE_WGMMA_ARG_96_4 "%100"
#define CK_TILE_WGMMA_ARG_96_5 "%101"
#define CK_TILE_WGMMA_ARG_96_6 "%102"
#define CK_TILE_WGMMA_ARG_96_7 "%103"
#define CK_TILE_WGMMA_ARG_96_8 "%104"
#define CK_TILE_WGMMA_ARG_128_0 "%128"
#define CK_TILE_WGMMA_ARG_128_1 "%129"
#define CK_TILE_WGMMA_ARG_128_2 "%130"
#define CK_TILE_WGMMA_ARG_128_3 "%131"
#define CK_TILE_WGMMA_ARG_128_4 "%132"
#define CK_TILE_WGMMA_ARG_128_5 "%133"
#define CK_TILE_WGMMA_ARG_128_6 "%134"
#define CK_TILE_WGMMA_ARG_128_7 "%135"
#define CK_TILE_WGMMA_ARG_128_8 "%136"
// clang-format on

#define CK_TILE_WGMMA_CAT_(a, b) a##b
#define CK_TILE_WGMMA_D(n) CK_TILE_WGMMA_CAT_(CK_TILE_WGMMA_D_, n)
#define CK_TILE_WGMMA_D_OPERANDS(n, C, d) CK_TILE_WGMMA_CAT_(CK_TILE_WGMMA_D_OPERANDS_, n)(C, d)
#define CK_TILE_WGMMA_ARG(n, j) CK_TILE_WGMMA_ARG_##n##_##j

#if CK_TILE_ARCH_HAS_WGMMA
#define CK_TILE_WGMMA_ASM(...) asm volatile(__VA_ARGS__)
#else
#define CK_TILE_WGMMA_ASM(...) ck_tile_error_needs_sm_90a()
#endif

// scale-d is a predicate operand; the wrappers take it as a 0/1 register and set a predicate
// from it, so one instruction form serves the first K step (D = A * B) and the others.

// f16/bf16, A and B from shared memory: scale-d, imm-scale-a, imm-scale-b, imm-trans-a,
// imm-trans-b.
// clang-format off
#define CK_TILE_WGMMA_SS_16BIT(ATYPE, PTX_TYPES, N, NREG)                                                                     \
    template <>                                                                                                               \
    struct wgmma_ss<ATYPE, ATYPE, float, N> : wgmma_traits<ATYPE, ATYPE, float, N>                                            \
    {                                                                                                                         \
        template <wgmma_major MajorA = wgmma_major::k, wgmma_major MajorB = wgmma_major::k,                                   \
                  wgmma_scale_in ScaleA = wgmma_scale_in::one,                                                                \
                  wgmma_scale_in ScaleB = wgmma_scale_in::one>                                                                \
        CK_TILE_DEVICE static void                                                                                            \
        fma([[maybe_unused]] uint64_t desc_a, [[maybe_unused]] uint64_t desc_b,                                               \
            [[maybe_unused]] float (&d)[NREG], [[maybe_unused]] wgmma_scale_d scale_d)                                        \
        {                                                                                                                     \
            CK_TILE_WGMMA_ASM(                                                                                                \
                "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, " CK_TILE_WGMMA_ARG(                                                    \
                    NREG,                                                                                                     \
                    2) ", 0;\n\t"                                                                                             \
                       "wgmma.mma_async.sync.aligned.m64n" #N                                                                 \
                       "k16.f32." PTX_TYPES " " CK_TILE_WGMMA_D(NREG) ", " CK_TILE_WGMMA_ARG(NREG, 0) ", " CK_TILE_WGMMA_ARG( \
                           NREG,                                                                                              \
                           1) ", p, " CK_TILE_WGMMA_ARG(NREG,                                                                 \
                                                        3) ", " CK_TILE_WGMMA_ARG(NREG,                                       \
                                                                                  4) ","                                      \
                                                                                     " " CK_TILE_WGMMA_ARG(                   \
                                                                                         NREG,                                \
                                                                                         5) ","                               \
                                                                                            " " CK_TILE_WGMMA_ARG(            \
                                                                                                NREG,                         \
                                                                                                6) ";\n\t}"                   \
                : CK_TILE_WGMMA_D_OPERANDS(NREG, "+f", d)                                                                     \
                : "l"(desc_a), "l"(desc_b), "r"(static_cast<uint32_t>(scale_d)),                                              \
                  "n"(static_cast<int>(ScaleA)), "n"(static_cast<int>(ScaleB)),                                               \
                  "n"(static_cast<int>(MajorA)), "n"(static_cast<int>(MajorB))                                                \
                : "memory");                                                                                                  \
        }                                                                                                                     \
    };

// f16/bf16, A from registers: a (4 words), scale-d, imm-scale-a, imm-scale-b, imm-trans-b.
#define CK_TILE_WGMMA_RS_16BIT(ATYPE, PTX_TYPES, N, NREG)                                                                                                      \
    template <>                                                                                                                                                \
    struct wgmma_rs<ATYPE, ATYPE, float, N> : wgmma_traits<ATYPE, ATYPE, float, N>                                                                             \
    {                                                                                                                                                          \
        template <wgmma_major MajorB    = wgmma_major::k,                                                                                                      \
                  wgmma_scale_in ScaleA = wgmma_scale_in::one,                                                                                                 \
                  wgmma_scale_in ScaleB = wgmma_scale_in::one>                                                                                                 \
        CK_TILE_DEVICE static void                                                                                                                             \
        fma([[maybe_unused]] const uint32_t (&a)[4], [[maybe_unused]] uint64_t desc_b,                                                                         \
            [[maybe_unused]] float (&d)[NREG], [[maybe_unused]] wgmma_scale_d scale_d)                                                                         \
        {                                                                                                                                                      \
            CK_TILE_WGMMA_ASM(                                                                                                                                 \
                "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, " CK_TILE_WGMMA_ARG(                                                                                     \
                    NREG,                                                                                                                                      \
                    5) ", 0;\n\t"                                                                                                                              \
                       "wgmma.mma_async.sync.aligned.m64n" #N                                                                                                  \
                       "k16.f32." PTX_TYPES " " CK_TILE_WGMMA_D(NREG) ", {" CK_TILE_WGMMA_ARG(NREG, 0) ", " CK_TILE_WGMMA_ARG(NREG, 1) ", " CK_TILE_WGMMA_ARG( \
                           NREG,                                                                                                                               \
                           2) ", " CK_TILE_WGMMA_ARG(NREG,                                                                                                     \
                                                     3) "}, " CK_TILE_WGMMA_ARG(NREG,                                                                          \
                                                                                4) ", "                                                                        \
                                                                                   "p,"                                                                        \
                                                                                   " " CK_TILE_WGMMA_ARG(NREG, 6) ", " CK_TILE_WGMMA_ARG(                      \
                                                                                       NREG,                                                                   \
                                                                                       7) ","                                                                  \
                                                                                          " " CK_TILE_WGMMA_ARG(                                               \
                                                                                              NREG,                                                            \
                                                                                              8) ";\n\t}"                                                      \
                : CK_TILE_WGMMA_D_OPERANDS(NREG, "+f", d)                                                                                                      \
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b),                                                                                     \
                  "r"(static_cast<uint32_t>(scale_d)), "n"(static_cast<int>(ScaleA)),                                                                          \
                  "n"(static_cast<int>(ScaleB)), "n"(static_cast<int>(MajorB))                                                                                 \
                : "memory");                                                                                                                                   \
        }                                                                                                                                                      \
    };

// e4m3/e5m2 and tf32, both from shared memory, K-major only: scale-d, imm-scale-a, imm-scale-b.
#define CK_TILE_WGMMA_SS_KMAJOR(ATYPE, BTYPE, SHAPE_K, PTX_TYPES, N, NREG)                                                 \
    template <>                                                                                                            \
    struct wgmma_ss<ATYPE, BTYPE, float, N> : wgmma_traits<ATYPE, BTYPE, float, N>                                         \
    {                                                                                                                      \
        template <wgmma_scale_in ScaleA = wgmma_scale_in::one,                                                             \
                  wgmma_scale_in ScaleB = wgmma_scale_in::one>                                                             \
        CK_TILE_DEVICE static void                                                                                         \
        fma([[maybe_unused]] uint64_t desc_a, [[maybe_unused]] uint64_t desc_b,                                            \
            [[maybe_unused]] float (&d)[NREG], [[maybe_unused]] wgmma_scale_d scale_d)                                     \
        {                                                                                                                  \
            CK_TILE_WGMMA_ASM(                                                                                             \
                "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, " CK_TILE_WGMMA_ARG(                                                 \
                    NREG,                                                                                                  \
                    2) ", 0;\n\t"                                                                                          \
                       "wgmma.mma_async.sync.aligned.m64n" #N SHAPE_K                                                      \
                       ".f32." PTX_TYPES " " CK_TILE_WGMMA_D(NREG) ", " CK_TILE_WGMMA_ARG(NREG, 0) ", " CK_TILE_WGMMA_ARG( \
                           NREG,                                                                                           \
                           1) ", p, " CK_TILE_WGMMA_ARG(NREG,                                                              \
                                                        3) ", " CK_TILE_WGMMA_ARG(NREG,                                    \
                                                                                  4) ";\n\t}"                              \
                : CK_TILE_WGMMA_D_OPERANDS(NREG, "+f", d)                                                                  \
                : "l"(desc_a), "l"(desc_b), "r"(static_cast<uint32_t>(scale_d)),                                           \
                  "n"(static_cast<int>(ScaleA)), "n"(static_cast<int>(ScaleB))                                             \
                : "memory");                                                                                               \
        }                                                                                                                  \
    };

// s8 x s8 -> s32, both from shared memory, K-major only: scale-d (integer forms take no scale
// immediates). Wrapping, not .satfinite, accumulation.
#define CK_TILE_WGMMA_SS_S8(ATYPE, N, NREG)                                                        \
    template <>                                                                                    \
    struct wgmma_ss<ATYPE, ATYPE, int32_t, N> : wgmma_traits<ATYPE, ATYPE, int32_t, N>             \
    {                                                                                              \
        CK_TILE_DEVICE static void fma([[maybe_unused]] uint64_t desc_a,                           \
                                       [[maybe_unused]] uint64_t desc_b,                           \
                                       [[maybe_unused]] int32_t (&d)[NREG],                        \
                                       [[maybe_unused]] wgmma_scale_d scale_d)                     \
        {                                                                                          \
            CK_TILE_WGMMA_ASM(                                                                     \
                "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, " CK_TILE_WGMMA_ARG(                         \
                    NREG, 2) ", 0;\n\t"                                                            \
                             "wgmma.mma_async.sync.aligned.m64n" #N                                \
                             "k32.s32.s8.s8 " CK_TILE_WGMMA_D(NREG) ", " CK_TILE_WGMMA_ARG(        \
                                 NREG, 0) ", " CK_TILE_WGMMA_ARG(NREG, 1) ", p;\n\t}"              \
                : CK_TILE_WGMMA_D_OPERANDS(NREG, "+r", d)                                          \
                : "l"(desc_a), "l"(desc_b), "r"(static_cast<uint32_t>(scale_d))                    \
                : "memory");                                                                       \
        }                                                                                          \
    };
// clang-format on

// DEF(args..., N, N / 2) for every instantiated N.
#define CK_TILE_WGMMA_EACH_N(DEF, ...)                                                             \
    DEF(__VA_ARGS__, 8, 4)                                                                         \
    DEF(__VA_ARGS__, 16, 8)                                                                        \
    DEF(__VA_ARGS__, 32, 16)                                                                       \
    DEF(__VA_ARGS__, 64, 32)                                                                       \
    DEF(__VA_ARGS__, 80, 40)                                                                       \
    DEF(__VA_ARGS__, 96, 48)                                                                       \
    DEF(__VA_ARGS__, 112, 56)                                                                      \
    DEF(__VA_ARGS__, 128, 64)                                                                      \
    DEF(__VA_ARGS__, 144, 72)                                                                      \
    DEF(__VA_ARGS__, 160, 80)                                                                      \
    DEF(__VA_ARGS__, 176, 88)                                                                      \
    DEF(__VA_ARGS__, 192, 96)                                                                      \
    DEF(__VA_ARGS__, 256, 128)

CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_16BIT, half_t, "f16.f16")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_16BIT, bf16_t, "bf16.bf16")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_RS_16BIT, half_t, "f16.f16")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_RS_16BIT, bf16_t, "bf16.bf16")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_KMAJOR, fp8_t, fp8_t, "k32", "e4m3.e4m3")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_KMAJOR, fp8_t, bf8_t, "k32", "e4m3.e5m2")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_KMAJOR, bf8_t, fp8_t, "k32", "e5m2.e4m3")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_KMAJOR, bf8_t, bf8_t, "k32", "e5m2.e5m2")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_KMAJOR, tf32_t, tf32_t, "k8", "tf32.tf32")
CK_TILE_WGMMA_EACH_N(CK_TILE_WGMMA_SS_S8, int8_t)

} // namespace arch
} // namespace ck_tile
