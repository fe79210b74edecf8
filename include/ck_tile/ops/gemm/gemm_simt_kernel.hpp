// SPDX-License-Identifier: MIT
// The general GEMM kernel: block-tiled through shared memory, accumulating in fp32 (int32 for
// int8), correct for every M, N, K >= 1, every layout, leading dimension and alignment,
// batched, with alpha/beta, bias, activation and extra inputs (multi-D). It is the instance every
// (types, layouts) combination can fall back on; fast tensor-core kernels are separate templates.
//
// Pieces: gemm_simt_problem (types, layouts, index width), gemm_simt_policy (tiling),
// gemm_epilogue (bias, activation, conversion), and this kernel, which ties them together
// and exposes kernel arguments, grid size, the support check, and the device entry.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/ops/gemm/gemm_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_multi_d.hpp"
#include "ck_tile/ops/gemm/gemm_simt_policy.hpp"
#include "ck_tile/ops/gemm/gemm_simt_problem.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/arch.hpp"
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

namespace ck_tile {

/// A GEMM as the host describes it: element strides per dimension (a row-major M x K A has
/// a_stride_m = lda, a_stride_k = 1), 64-bit everywhere. Pointers may be null when only the
/// shape is checked.
struct gemm_simt_host_args
{
    const void* a    = nullptr;
    const void* b    = nullptr;
    const void* c    = nullptr;
    const void* bias = nullptr;
    void* d          = nullptr;
    std::int64_t m = 0, n = 0, k = 0;
    std::int64_t a_stride_m = 0, a_stride_k = 0, b_stride_k = 0, b_stride_n = 0;
    std::int64_t c_stride_m = 0, c_stride_n = 0, d_stride_m = 0, d_stride_n = 0;
    std::int64_t batch_count    = 1;
    std::int64_t batch_stride_a = 0, batch_stride_b = 0, batch_stride_c = 0, batch_stride_d = 0,
                 batch_stride_bias = 0;
    double alpha = 1.0, beta = 0.0;
    gemm_bias bias_kind        = gemm_bias::none;
    gemm_activation activation = gemm_activation::none;
    /// Per-tensor scales, device pointers to one float, null meaning 1 (cktile_gemm_args_t):
    /// D = scale_d * act(alpha * scale_a * scale_b * A * B + beta * C + bias).
    const float* scale_a = nullptr;
    const float* scale_b = nullptr;
    const float* scale_d = nullptr;
    /// Extra M x N inputs combined at the activation (gemm_multi_d.hpp).
    gemm_multi_d multi_d;
};

/// Why an instance compiled without the fused epilogue (bias, activation, extra inputs)
/// cannot run `h`; nullptr when `h` uses none of them.
inline const char* unfused_epilogue_refuses(const gemm_simt_host_args& h)
{
    if(h.bias_kind != gemm_bias::none)
        return "this instance has no bias epilogue";
    if(h.activation != gemm_activation::none)
        return "this instance has no activation epilogue";
    if(h.multi_d.active())
        return "this instance has no multi-D epilogue (extra inputs D0/D1)";
    return nullptr;
}

template <typename Problem_, typename Policy_, bool FusedEpilogue_>
struct gemm_simt_kernel
{
    using Problem = Problem_;
    using Policy  = Policy_;
    using A       = typename Problem::ADataType;
    using B       = typename Problem::BDataType;
    using D       = typename Problem::DDataType;
    using Acc     = typename Problem::AccDataType;
    using E       = typename Problem::EpilogueType;
    using Index   = typename Problem::IndexType;
    /// false: the instance accepts only problems without bias, activation and extra inputs
    /// (fewer instructions); true: all three are read from the kernel arguments.
    static constexpr bool FusedEpilogue = FusedEpilogue_;

    static constexpr index_t BlockSize = Policy::BlockSize;
    static constexpr index_t BlockM = Policy::BlockM, BlockN = Policy::BlockN,
                             BlockK  = Policy::BlockK;
    static constexpr index_t ThreadM = Policy::ThreadM, ThreadN = Policy::ThreadN;
    static constexpr index_t ThreadsM = Policy::ThreadsM, ThreadsN = Policy::ThreadsN;

    static constexpr bool a_k_contiguous_fixed =
        std::is_same_v<typename Problem::ALayout, gemm_layout::row>;
    static constexpr bool b_k_contiguous_fixed =
        std::is_same_v<typename Problem::BLayout, gemm_layout::col>;
    /// Vector width used for each operand (only K-contiguous operands are vectorised).
    static constexpr index_t VectorA = a_k_contiguous_fixed ? Policy::VectorK : 1;
    static constexpr index_t VectorB = b_k_contiguous_fixed ? Policy::VectorK : 1;

    /// Grid limits every platform meets: x up to 2^31-1 blocks (we cap far lower, the kernel
    /// walks tiles in a grid-stride loop), z up to 65535 (batches are walked the same way).
    static constexpr std::int64_t max_grid_x = std::int64_t(1) << 20;
    static constexpr std::int64_t max_grid_z = 65535;

    struct kargs
    {
        const A* a;
        const B* b;
        const D* c;
        const D* bias;
        D* d;
        Index m, n, k;
        Index a_stride_m, a_stride_k, b_stride_k, b_stride_n;
        Index c_stride_m, c_stride_n, d_stride_m, d_stride_n;
        Index batch_count, batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d,
            batch_stride_bias;
        Index tiles_n, num_tiles, grid_x, grid_z;
        E alpha, beta;
        gemm_bias bias_kind;
        gemm_activation activation;
        bool read_c;
        const float* scale_a;
        const float* scale_b;
        const float* scale_d;
        E d_scale; // *scale_d, read by the kernel
        gemm_multi_d multi_d;
    };

    static std::int64_t num_tiles(const gemm_simt_host_args& h)
    {
        return ((h.m + BlockM - 1) / BlockM) * ((h.n + BlockN - 1) / BlockN);
    }

    /// Why the kernel cannot run `h` (nullptr when it can). Checks only what this kernel
    /// adds to a well-formed problem: index width, vector alignment, the epilogue.
    static const char* why_unsupported(const gemm_simt_host_args& h)
    {
        if constexpr(!FusedEpilogue)
        {
            if(const char* why = unfused_epilogue_refuses(h))
                return why;
        }
        if constexpr(sizeof(Index) == 4)
        {
            constexpr std::int64_t lim = 2147483647;
            if(h.m > lim - BlockM || h.n > lim - BlockN || h.k > lim - BlockK)
                return "M, N or K too large for 32-bit indexing";
            const std::int64_t bc = h.batch_count - 1;
            auto span = [&](std::int64_t r, std::int64_t c, std::int64_t sr, std::int64_t sc,
                            std::int64_t sb) { return bc * sb + (r - 1) * sr + (c - 1) * sc; };
            if(span(h.m, h.k, h.a_stride_m, h.a_stride_k, h.batch_stride_a) > lim)
                return "A's index space exceeds 32-bit indexing";
            if(span(h.k, h.n, h.b_stride_k, h.b_stride_n, h.batch_stride_b) > lim)
                return "B's index space exceeds 32-bit indexing";
            if(span(h.m, h.n, h.c_stride_m, h.c_stride_n, h.batch_stride_c) > lim)
                return "C's index space exceeds 32-bit indexing";
            if(span(h.m, h.n, h.d_stride_m, h.d_stride_n, h.batch_stride_d) > lim)
                return "D's index space exceeds 32-bit indexing";
            if(bc * h.batch_stride_bias + (h.m > h.n ? h.m : h.n) > lim)
                return "the bias's index space exceeds 32-bit indexing";
            if(h.batch_count > lim || num_tiles(h) > lim)
                return "batch or tile count exceeds 32-bit indexing";
        }
        if constexpr(VectorA > 1 || VectorB > 1)
        {
            if(h.k % Policy::VectorK != 0)
                return "K is not a multiple of the instance's vector width";
        }
        if constexpr(VectorA > 1)
        {
            if(h.a_stride_m % VectorA != 0 || h.batch_stride_a % VectorA != 0)
                return "lda or stride_a is not a multiple of the instance's vector width";
            if(reinterpret_cast<std::uintptr_t>(h.a) % (VectorA * sizeof(A)) != 0)
                return "A's pointer is not aligned to the instance's vector width";
        }
        if constexpr(VectorB > 1)
        {
            if(h.b_stride_n % VectorB != 0 || h.batch_stride_b % VectorB != 0)
                return "ldb or stride_b is not a multiple of the instance's vector width";
            if(reinterpret_cast<std::uintptr_t>(h.b) % (VectorB * sizeof(B)) != 0)
                return "B's pointer is not aligned to the instance's vector width";
        }
        return nullptr;
    }

    /// @pre why_unsupported(h) == nullptr.
    static kargs make_kargs(const gemm_simt_host_args& h)
    {
        kargs k{};
        k.a    = static_cast<const A*>(h.a);
        k.b    = static_cast<const B*>(h.b);
        k.c    = static_cast<const D*>(h.c);
        k.bias = static_cast<const D*>(h.bias);
        k.d    = static_cast<D*>(h.d);
        k.m = Index(h.m), k.n = Index(h.n), k.k = Index(h.k);
        k.a_stride_m = Index(h.a_stride_m), k.a_stride_k = Index(h.a_stride_k);
        k.b_stride_k = Index(h.b_stride_k), k.b_stride_n = Index(h.b_stride_n);
        k.c_stride_m = Index(h.c_stride_m), k.c_stride_n = Index(h.c_stride_n);
        k.d_stride_m = Index(h.d_stride_m), k.d_stride_n = Index(h.d_stride_n);
        k.batch_count            = Index(h.batch_count);
        k.batch_stride_a         = Index(h.batch_stride_a);
        k.batch_stride_b         = Index(h.batch_stride_b);
        k.batch_stride_c         = Index(h.batch_stride_c);
        k.batch_stride_d         = Index(h.batch_stride_d);
        k.batch_stride_bias      = Index(h.batch_stride_bias);
        k.tiles_n                = Index((h.n + BlockN - 1) / BlockN);
        const std::int64_t tiles = num_tiles(h);
        k.num_tiles              = Index(tiles);
        k.grid_x                 = Index(tiles < max_grid_x ? tiles : max_grid_x);
        k.grid_z                 = Index(h.batch_count < max_grid_z ? h.batch_count : max_grid_z);
        k.alpha                  = E(h.alpha);
        k.beta                   = E(h.beta);
        k.bias_kind              = h.bias_kind;
        k.activation             = h.activation;
        // BLAS convention: beta == 0 means C is not read (it may hold NaNs or be null).
        k.read_c  = h.beta != 0.0;
        k.scale_a = h.scale_a, k.scale_b = h.scale_b, k.scale_d = h.scale_d;
        k.multi_d = h.multi_d;
        return k;
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    template <typename T, index_t V>
    struct alignas(sizeof(T) * V) vec
    {
        T v[V];
    };

    /// Stages the Rows x BlockK slice of an operand at (row0, k0) into shared memory as
    /// lds[k * Ld + row], converted to Acc (exactly: Acc holds every input value), zero-filling
    /// outside the matrix. Operands stored K-contiguous are read along K by consecutive threads
    /// (coalesced), others along rows.
    template <index_t Rows, index_t Ld, index_t V, bool KContiguousFixed, typename T>
    CK_TILE_DEVICE static void stage(Acc* lds, const T* p, Index rows, Index k, Index stride_row,
                                     Index stride_k, Index row0, Index k0, bool k_contiguous)
    {
        const index_t tid = get_thread_id();
        if(KContiguousFixed || k_contiguous)
        {
            constexpr index_t vectors_k = BlockK / V;
            for(index_t i = tid; i < Rows * vectors_k; i += BlockSize)
            {
                const index_t r  = i / vectors_k;
                const index_t kk = (i % vectors_k) * V;
                const Index gr = row0 + r, gk = k0 + kk;
                if constexpr(V > 1)
                {
                    // The support check guarantees K % V == 0, so a vector is in or out whole.
                    vec<T, V> x{};
                    if(gr < rows && gk < k)
                        x = *reinterpret_cast<const vec<T, V>*>(p + gr * stride_row + gk);
                    for(index_t e = 0; e < V; ++e)
                        lds[(kk + e) * Ld + r] =
                            gr < rows && gk < k ? type_convert<Acc>(x.v[e]) : Acc(0);
                }
                else
                {
                    lds[kk * Ld + r] = gr < rows && gk < k
                                           ? type_convert<Acc>(p[gr * stride_row + gk * stride_k])
                                           : Acc(0);
                }
            }
        }
        else
        {
            for(index_t i = tid; i < Rows * BlockK; i += BlockSize)
            {
                const index_t r  = i % Rows;
                const index_t kk = i / Rows;
                const Index gr = row0 + r, gk = k0 + kk;
                lds[kk * Ld + r] = gr < rows && gk < k
                                       ? type_convert<Acc>(p[gr * stride_row + gk * stride_k])
                                       : Acc(0);
            }
        }
    }

    CK_TILE_DEVICE void operator()(kargs ka) const
    {
        // Per-tensor scales: read once per thread, folded into alpha (A and B) and d_scale.
        if(ka.scale_a)
            ka.alpha *= static_cast<E>(*ka.scale_a);
        if(ka.scale_b)
            ka.alpha *= static_cast<E>(*ka.scale_b);
        ka.d_scale = ka.scale_d ? static_cast<E>(*ka.scale_d) : E(1);
        // Shared memory is declared with the language qualifier both platforms share.
        __shared__ Acc lds_a[BlockK * Policy::LdsA];
        __shared__ Acc lds_b[BlockK * Policy::LdsB];

        const index_t tid = get_thread_id();
        const index_t tm  = tid / ThreadsN;
        const index_t tn  = tid % ThreadsN;
        const bool a_kc   = a_k_contiguous_fixed || ka.a_stride_k == 1;
        // B is K x N; "K-contiguous" means column-major, i.e. stride along K is 1.
        const bool b_kc = b_k_contiguous_fixed || ka.b_stride_k == 1;

        for(Index batch = get_block_id_z(); batch < ka.batch_count; batch += ka.grid_z)
        {
            const A* pa = ka.a + batch * ka.batch_stride_a;
            const B* pb = ka.b + batch * ka.batch_stride_b;
            for(Index tile = get_block_id(); tile < ka.num_tiles; tile += ka.grid_x)
            {
                const Index m0 = (tile / ka.tiles_n) * BlockM;
                const Index n0 = (tile % ka.tiles_n) * BlockN;

                Acc acc[ThreadM][ThreadN];
                for(index_t i = 0; i < ThreadM; ++i)
                    for(index_t j = 0; j < ThreadN; ++j)
                        acc[i][j] = Acc(0);

                for(Index k0 = 0; k0 < ka.k; k0 += BlockK)
                {
                    stage<BlockM, Policy::LdsA, VectorA, a_k_contiguous_fixed>(
                        lds_a, pa, ka.m, ka.k, ka.a_stride_m, ka.a_stride_k, m0, k0, a_kc);
                    stage<BlockN, Policy::LdsB, VectorB, b_k_contiguous_fixed>(
                        lds_b, pb, ka.n, ka.k, ka.b_stride_n, ka.b_stride_k, n0, k0, b_kc);
                    block_sync_lds();
                    for(index_t kk = 0; kk < BlockK; ++kk)
                    {
                        Acc av[ThreadM], bv[ThreadN];
                        for(index_t i = 0; i < ThreadM; ++i)
                            av[i] = lds_a[kk * Policy::LdsA + tm + i * ThreadsM];
                        for(index_t j = 0; j < ThreadN; ++j)
                            bv[j] = lds_b[kk * Policy::LdsB + tn + j * ThreadsN];
                        for(index_t i = 0; i < ThreadM; ++i)
                            for(index_t j = 0; j < ThreadN; ++j)
                                acc[i][j] += av[i] * bv[j];
                    }
                    block_sync_lds();
                }
                store(ka, batch, m0, n0, tm, tn, acc);
            }
        }
    }

    CK_TILE_DEVICE static void store(const kargs& ka, Index batch, Index m0, Index n0, index_t tm,
                                     index_t tn, const Acc (&acc)[ThreadM][ThreadN])
    {
        const D* pc                      = ka.c + batch * ka.batch_stride_c;
        D* pd                            = ka.d + batch * ka.batch_stride_d;
        const D* pbias                   = ka.bias + batch * ka.batch_stride_bias;
        [[maybe_unused]] gemm_multi_d md = ka.multi_d;
        if constexpr(FusedEpilogue)
        {
            if(md.active())
                md.template select_batch<D>(batch);
        }
        // Unrolled so that acc stays in registers: a loop left rolled (the fused epilogue's
        // body is long) would index it at run time, which puts it in local memory.
#pragma unroll
        for(index_t i = 0; i < ThreadM; ++i)
        {
            const Index r = m0 + tm + i * ThreadsM;
            if(r >= ka.m)
                continue;
#pragma unroll
            for(index_t j = 0; j < ThreadN; ++j)
            {
                const Index c = n0 + tn + j * ThreadsN;
                if(c >= ka.n)
                    continue;
                E v = ka.alpha * static_cast<E>(acc[i][j]);
                if(ka.read_c)
                    v += ka.beta * load_output_type<E>(pc[r * ka.c_stride_m + c * ka.c_stride_n]);
                if constexpr(FusedEpilogue)
                {
                    if(ka.bias_kind == gemm_bias::per_row)
                        v += load_output_type<E>(pbias[r]);
                    else if(ka.bias_kind == gemm_bias::per_column)
                        v += load_output_type<E>(pbias[c]);
                    v = activate_and_combine<D>(md, ka.activation, v, r, c);
                }
                pd[r * ka.d_stride_m + c * ka.d_stride_n] = convert_output<D>(ka.d_scale * v);
            }
        }
    }
#endif
};

} // namespace ck_tile
