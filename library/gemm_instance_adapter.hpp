// SPDX-License-Identifier: MIT
// Turns a GEMM kernel template into a registry record: the C-callable supports / workspace /
// run functions and the public description. Included by the generated instance sources only
// (device compiler).
#pragma once

#include "gemm_instance_functions.hpp"
#include "kernel_library_abi.h"

#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/kernel_launch.hpp"
#include "ck_tile/ops/gemm/gemm_simt_kernel.hpp"
#include "ck_tile/ops/gemm/gemm_splitk_reduce.hpp"
#include "ck_tile/ops/gemm/gemm_tile_kernel.hpp"
#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/ops/gemm/gemm_wgmma_kernel.hpp"
#endif

#include <cstdio>
#include <cstring>
#include <exception>

namespace cktile::library {

/// What a record says about an instance beyond its types and layouts.
struct gemm_record_shape
{
    bool fused_epilogue;
    int tile_m, tile_n, tile_k, block_threads, index_bits, alignment_elements, k_multiple;
    std::size_t shared_memory_bytes;
    bool general;
    double math_rate;    // matrix instructions: multiply-accumulates per cycle relative to FMA
    int cluster_m;       // blocks along M sharing B's tiles through multicast
    int copy_stages;     // stages the copy engine keeps ahead of the math (0: the threads load)
    bool pingpong;       // consumer warpgroups take alternate tiles instead of sharing each
    bool alpha_only;     // only D = alpha * A * B is compiled into the epilogue
    bool bias_only;      // only D = act(alpha * A * B (+ beta * C where reads_c) + bias)
    int bias_activation; // bias_only: the one activation compiled (a cktile_activation_t)
    bool reads_c;        // bias_only: beta * C is compiled in as well
};

/// The record the generated sources define, one per instance.
template <typename Inst, cktile_datatype_t AType, cktile_datatype_t BType, cktile_datatype_t DType,
          cktile_datatype_t ComputeType, cktile_layout_t ALayout, cktile_layout_t BLayout>
cktile_kernel_instance_t make_gemm_record(std::uint64_t id, const char* name, const char* target,
                                          const gemm_record_shape& shape)
{
    cktile_kernel_instance_t r{};
    r.struct_size             = sizeof(r);
    cktile_instance_info_t& i = r.info;
    i.struct_size             = sizeof(i);
    i.id                      = id;
    std::snprintf(i.name, sizeof(i.name), "%s", name);
    std::snprintf(i.target, sizeof(i.target), "%s", target);
    i.op_kind                = CKTILE_OP_GEMM;
    i.a_type                 = AType;
    i.b_type                 = BType;
    i.c_type                 = DType;
    i.d_type                 = DType;
    i.compute_type           = ComputeType;
    i.a_layout               = ALayout;
    i.b_layout               = BLayout;
    i.supports_bias          = shape.fused_epilogue ? 1 : 0;
    i.supports_activation    = shape.fused_epilogue && !shape.bias_only ? 1 : 0;
    i.tile_m                 = shape.tile_m;
    i.tile_n                 = shape.tile_n;
    i.tile_k                 = shape.tile_k;
    i.block_threads          = shape.block_threads;
    i.index_bits             = shape.index_bits;
    i.alignment_elements     = shape.alignment_elements;
    i.k_multiple             = shape.k_multiple;
    i.shared_memory_bytes    = shape.shared_memory_bytes;
    i.is_general             = shape.general ? 1 : 0;
    i.supports_multi_d       = shape.fused_epilogue && !shape.bias_only ? 1 : 0;
    i.supports_beta          = shape.reads_c || !(shape.alpha_only || shape.bias_only) ? 1 : 0;
    i.activations            = shape.bias_only         ? 1u << shape.bias_activation
                               : i.supports_activation ? (1u << (CKTILE_ACTIVATION_SILU + 1)) - 1
                                                       : 1u << CKTILE_ACTIVATION_NONE;
    r.min_blocks_per_cu      = 1;
    r.supports               = &Inst::supports;
    r.workspace_size         = &Inst::workspace_size;
    r.run                    = &Inst::run;
    r.math_rate              = shape.math_rate;
    r.k_splits               = &Inst::k_splits;
    r.tail_splits            = &Inst::tail_splits;
    r.minimum_workspace_size = &Inst::minimum_workspace_size;
    r.cluster_m              = shape.cluster_m;
    r.copy_stages            = shape.copy_stages;
    r.pingpong               = shape.pingpong ? 1 : 0;
    r.runs_transposed        = &Inst::runs_transposed;
    r.staged_epilogue        = &Inst::staged_epilogue;
    r.alpha_only_epilogue    = shape.alpha_only ? 1 : shape.bias_only ? 2 : 0;
    return r;
}

/// Split-K's second kernel: the splits' partial sums added in order, then the epilogue into D.
template <typename Acc, typename D, typename E, bool Fused>
void launch_splitk_reduce(const Acc* partial, const ck_tile::gemm_tile_output<D, E>& out,
                          std::int64_t splits, const ck_tile::gemm_simt_host_args& h,
                          hipStream_t stream)
{
    using R = ck_tile::gemm_tile_splitk_reduce<Acc, D, E, Fused>;
    const typename R::kargs rk =
        R::make_kargs(partial, out, splits, h.batch_count, h.batch_stride_c, h.batch_stride_d,
                      h.batch_stride_bias);
    std::int64_t x = 0, y = 0;
    R::grid(rk, x, y);
    ck_tile::launch_kernel(ck_tile::stream_config{stream, false, 0, 0, 1},
                           ck_tile::make_kernel<R::BlockSize, 1>(
                               R{}, dim3(static_cast<unsigned>(x), static_cast<unsigned>(y)),
                               dim3(R::BlockSize), 0u, rk));
}

/// SIMT kernels (gemm_simt_kernel.hpp): one launch, no workspace.
template <typename Kernel>
struct gemm_simt_launch
{
    static constexpr bool may_transpose = false;
    static std::size_t workspace_bytes(const ck_tile::gemm_simt_host_args&) { return 0; }
    static std::size_t minimum_workspace_bytes(const ck_tile::gemm_simt_host_args&) { return 0; }
    static std::int64_t k_splits(const ck_tile::gemm_simt_host_args&) { return 1; }
    static std::int64_t tail_splits(const ck_tile::gemm_simt_host_args&) { return 1; }
    static bool staged_epilogue(const ck_tile::gemm_simt_host_args&) { return false; }
    static void run(const ck_tile::gemm_simt_host_args& h, void*, std::size_t, hipStream_t stream)
    {
        const auto ka = Kernel::make_kargs(h);
        const dim3 grid(static_cast<unsigned>(ka.grid_x), 1, static_cast<unsigned>(ka.grid_z));
        ck_tile::launch_kernel(ck_tile::stream_config{stream, false, 0, 0, 1},
                               ck_tile::make_kernel<Kernel::BlockSize, 1>(
                                   Kernel{}, grid, dim3(Kernel::BlockSize), 0u, ka));
    }
};

/// Tile kernels (gemm_tile_kernel.hpp): one launch, or with split-K two (the partial sums into
/// the workspace, then the in-order reduction with the epilogue into D).
template <typename Kernel>
struct gemm_tile_launch
{
    static constexpr bool may_transpose = false;
    static std::size_t workspace_bytes(const ck_tile::gemm_simt_host_args& h)
    {
        return Kernel::workspace_bytes(h);
    }
    static std::size_t minimum_workspace_bytes(const ck_tile::gemm_simt_host_args& h)
    {
        return Kernel::workspace_bytes(h);
    }
    static std::int64_t k_splits(const ck_tile::gemm_simt_host_args& h)
    {
        return Kernel::k_splits(h);
    }
    static std::int64_t tail_splits(const ck_tile::gemm_simt_host_args&) { return 1; }
    /// (Every element's epilogue runs from its thread's registers or the staging memory alike:
    /// the selection model's other terms cost it.)
    static bool staged_epilogue(const ck_tile::gemm_simt_host_args&) { return false; }
    static void run(const ck_tile::gemm_simt_host_args& h, void* workspace, std::size_t,
                    hipStream_t stream)
    {
        const auto ka  = Kernel::make_kargs(h, workspace);
        std::int64_t x = 0, y = 0, z = 0;
        Kernel::grid(ka, x, y, z);
        ck_tile::launch_kernel(
            ck_tile::stream_config{stream, false, 0, 0, 1},
            ck_tile::make_kernel<Kernel::BlockSize, 1>(
                Kernel{},
                dim3(static_cast<unsigned>(x), static_cast<unsigned>(y), static_cast<unsigned>(z)),
                dim3(Kernel::BlockSize), static_cast<unsigned>(Kernel::shared_memory_bytes), ka));
        if(ka.splits > 1)
            launch_splitk_reduce<typename Kernel::Acc, typename Kernel::D, typename Kernel::E,
                                 Kernel::FusedEpilogue>(ka.workspace, ka.out, ka.splits, h, stream);
    }
};

#if defined(CK_TILE_PLATFORM_NVIDIA)
/// Hopper kernels (gemm_wgmma_kernel.hpp): one persistent launch, plus the reduction with
/// split-K.
template <typename Kernel>
struct gemm_wgmma_launch : gemm_tile_launch<Kernel>
{
    /// Row-major D leaves through the copy engine, and the 16-row A tiles take few-row
    /// problems only: the transpose brings column-major D and few-column problems to both.
    static constexpr bool may_transpose = true;
    static std::int64_t tail_splits(const ck_tile::gemm_simt_host_args& h)
    {
        return Kernel::tail_splits(h);
    }
    static bool staged_epilogue(const ck_tile::gemm_simt_host_args& h)
    {
        return Kernel::staged_epilogue(h);
    }
    static int copied_operands(const ck_tile::gemm_simt_host_args& h)
    {
        return Kernel::copied_operands(h);
    }
    static std::size_t minimum_workspace_bytes(const ck_tile::gemm_simt_host_args& h)
    {
        return Kernel::minimum_workspace_bytes(h);
    }
    /// With less workspace than workspace_bytes(h) (but at least the minimum) the last wave
    /// runs whole tiles.
    static void run(const ck_tile::gemm_simt_host_args& h, void* workspace,
                    std::size_t workspace_size, hipStream_t stream)
    {
        const auto tail = Kernel::plan_tail(h, workspace_size);
        const auto ka =
            Kernel::make_kargs(Kernel::stage_operands(h, workspace, tail, stream), workspace, tail);
        Kernel::launch(ka, stream);
        if(ka.work.splits > 1)
            launch_splitk_reduce<typename Kernel::Acc, typename Kernel::D, typename Kernel::E,
                                 Kernel::FusedEpilogue>(ka.workspace, ka.out, ka.work.splits, h,
                                                        stream);
    }
};
#endif

template <typename Kernel, cktile_datatype_t AType, cktile_datatype_t BType,
          cktile_datatype_t DType, cktile_datatype_t ComputeType, cktile_layout_t ALayout,
          cktile_layout_t BLayout>
cktile_kernel_instance_t make_gemm_simt_record(std::uint64_t id, const char* name,
                                               const char* target, bool general)
{
    using Sig = gemm_signature<AType, BType, DType, ComputeType, ALayout, BLayout>;
    using Pol = typename Kernel::Policy;
    const int vec =
        (Kernel::VectorA > 1 || Kernel::VectorB > 1) ? static_cast<int>(Pol::VectorK) : 1;
    const gemm_record_shape shape{Kernel::FusedEpilogue,
                                  Pol::BlockM,
                                  Pol::BlockN,
                                  Pol::BlockK,
                                  Pol::BlockSize,
                                  static_cast<int>(sizeof(typename Kernel::Index) * 8),
                                  vec,
                                  vec,
                                  Pol::template shared_memory_bytes<typename Kernel::Acc>(),
                                  general,
                                  0.0,
                                  1,
                                  0,
                                  false,
                                  false,
                                  false,
                                  CKTILE_ACTIVATION_NONE,
                                  false};
    return make_gemm_record<gemm_instance<Kernel, Sig, gemm_simt_launch<Kernel>>, AType, BType,
                            DType, ComputeType, ALayout, BLayout>(id, name, target, shape);
}

template <typename Kernel, cktile_datatype_t AType, cktile_datatype_t BType,
          cktile_datatype_t DType, cktile_datatype_t ComputeType, cktile_layout_t ALayout,
          cktile_layout_t BLayout>
cktile_kernel_instance_t make_gemm_tile_record(std::uint64_t id, const char* name,
                                               const char* target, double math_rate)
{
    using Sig = gemm_signature<AType, BType, DType, ComputeType, ALayout, BLayout>;
    using Pol = typename Kernel::Policy;
    const gemm_record_shape shape{
        Kernel::FusedEpilogue,
        Pol::BlockM,
        Pol::BlockN,
        Pol::BlockK,
        Pol::BlockSize,
        64,
        static_cast<int>(Kernel::VectorA > Kernel::VectorB ? Kernel::VectorA : Kernel::VectorB),
        1,
        Kernel::shared_memory_bytes,
        false,
        math_rate,
        1,
        0,
        false,
        false,
        false,
        CKTILE_ACTIVATION_NONE,
        false};
    return make_gemm_record<gemm_instance<Kernel, Sig, gemm_tile_launch<Kernel>>, AType, BType,
                            DType, ComputeType, ALayout, BLayout>(id, name, target, shape);
}

#if defined(CK_TILE_PLATFORM_NVIDIA)
template <typename Kernel, cktile_datatype_t AType, cktile_datatype_t BType,
          cktile_datatype_t DType, cktile_datatype_t ComputeType, cktile_layout_t ALayout,
          cktile_layout_t BLayout>
cktile_kernel_instance_t make_gemm_wgmma_record(std::uint64_t id, const char* name,
                                                const char* target, double math_rate)
{
    using Sig = gemm_signature<AType, BType, DType, ComputeType, ALayout, BLayout>;
    // The tile is the part of D a block produces: a short A tile's rows, not the MMA's 64.
    const gemm_record_shape shape{Kernel::FusedEpilogue,
                                  Kernel::OutputRows,
                                  Kernel::BlockN,
                                  Kernel::BlockK,
                                  Kernel::BlockSize,
                                  64,
                                  Kernel::Alignment,
                                  1,
                                  Kernel::shared_memory_bytes,
                                  false,
                                  math_rate,
                                  static_cast<int>(Kernel::ClusterM),
                                  static_cast<int>(Kernel::Policy::Stages),
                                  Kernel::Policy::Pingpong,
                                  Kernel::AlphaOnly,
                                  Kernel::BiasOnly,
                                  static_cast<int>(Kernel::BiasActivation),
                                  Kernel::ReadsC};
    using Inst = gemm_instance<Kernel, Sig, gemm_wgmma_launch<Kernel>>;
    cktile_kernel_instance_t r =
        make_gemm_record<Inst, AType, BType, DType, ComputeType, ALayout, BLayout>(id, name, target,
                                                                                   shape);
    r.copied_operands = &Inst::copied_operands;
    return r;
}
#endif

} // namespace cktile::library
