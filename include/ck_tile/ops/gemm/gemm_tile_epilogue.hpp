// SPDX-License-Identifier: MIT
// The tile GEMM's epilogue: each accumulator of a warp's C fragments goes to its (row, column)
// of D (from the warp GEMM's C encoding) through gemm_epilogue.hpp's operations, masked at the
// matrix edge. With split-K the fragments go to a workspace of per-split partial sums instead,
// and gemm_tile_splitk_reduce adds the splits in order (so results do not depend on timing)
// before the same epilogue.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/gemm/gemm_epilogue.hpp"
#include "ck_tile/ops/gemm/gemm_multi_d.hpp"
#include "ck_tile/ops/gemm/gemm_simt_kernel.hpp"
#include "ck_tile/ops/gemm/gemm_tile_block_gemm.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_fragment.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/arch.hpp"
#endif

#include <cstdint>

namespace ck_tile {

/// Where D, C and the bias are, and what the epilogue does: one batch's view.
template <typename D, typename E>
struct gemm_tile_output
{
    D* d;
    const D* c;
    const D* bias;
    std::int64_t m, n;
    std::int64_t d_stride_m, d_stride_n, c_stride_m, c_stride_n;
    E alpha, beta;
    gemm_bias bias_kind;
    gemm_activation activation;
    bool read_c;
    const float* scale_a; // per-tensor scales, null meaning 1 (gemm_simt_host_args)
    const float* scale_b;
    const float* scale_d;
    E d_scale;
    gemm_multi_d multi_d; // extra inputs, combined at the activation (Fused only)

    /// The view of batch 0 that a problem's host arguments describe (d_scale is set by
    /// load_scales on the device).
    CK_TILE_HOST static gemm_tile_output from(const gemm_simt_host_args& h)
    {
        return {static_cast<D*>(h.d),
                static_cast<const D*>(h.c),
                static_cast<const D*>(h.bias),
                h.m,
                h.n,
                h.d_stride_m,
                h.d_stride_n,
                h.c_stride_m,
                h.c_stride_n,
                E(h.alpha),
                E(h.beta),
                h.bias_kind,
                h.activation,
                h.beta != 0.0, // BLAS: beta == 0 never reads C (null or NaN)
                h.scale_a,
                h.scale_b,
                h.scale_d,
                E(1),
                h.multi_d};
    }

    /// Reads the per-tensor scales (device memory) into alpha and d_scale: once per thread,
    /// before write().
    CK_TILE_HOST_DEVICE void load_scales()
    {
        if(scale_a)
            alpha *= static_cast<E>(*scale_a);
        if(scale_b)
            alpha *= static_cast<E>(*scale_b);
        d_scale = scale_d ? static_cast<E>(*scale_d) : E(1);
    }

    /// Moves D, C, the bias and (Fused: the epilogue reads them) the extra inputs to batch `b`.
    template <bool Fused>
    CK_TILE_HOST_DEVICE void select_batch(std::int64_t b, std::int64_t batch_stride_c,
                                          std::int64_t batch_stride_d,
                                          std::int64_t batch_stride_bias)
    {
        d += b * batch_stride_d;
        c += b * batch_stride_c;
        bias += b * batch_stride_bias;
        if constexpr(Fused)
            if(multi_d.active())
                multi_d.template select_batch<D>(b);
    }

    /// What the epilogue reads at one element besides the accumulator (0 where unused).
    struct element_inputs
    {
        E c, bias, x0, x1;
    };

    /// The loads of write() at (r, col), done apart from its store so that a caller can issue
    /// the loads of several elements first: D may be C or D0 (in place), so the compiler may
    /// not move a load above an earlier element's store by itself.
    template <bool Fused>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE element_inputs gather(std::int64_t r,
                                                                   std::int64_t col) const
    {
        element_inputs in{E(0), E(0), E(0), E(0)};
        if(read_c)
            in.c = load_output_type<E>(c[r * c_stride_m + col * c_stride_n]);
        if constexpr(Fused)
        {
            if(bias_kind == gemm_bias::per_row)
                in.bias = load_output_type<E>(bias[r]);
            else if(bias_kind == gemm_bias::per_column)
                in.bias = load_output_type<E>(bias[col]);
            if(multi_d.active())
                multi_d.template load<D>(r, col, in.x0, in.x1);
        }
        return in;
    }

    /// d_scale * act(alpha * acc + beta * C + bias) in E, with the extra inputs combined
    /// before or after the activation (gemm_multi_d.hpp), converted to D, from the values
    /// gather() read. @pre load_scales().
    template <bool Fused, typename Acc>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE D value(Acc acc, const element_inputs& in) const
    {
        E v = alpha * static_cast<E>(acc);
        if(read_c)
            v += beta * in.c;
        if constexpr(Fused)
        {
            if(bias_kind != gemm_bias::none)
                v += in.bias;
            v = activate_and_combine_values(multi_d, activation, v, in.x0, in.x1);
        }
        return convert_output<D>(d_scale * v);
    }

    /// value() stored at (r, col) of D.
    template <bool Fused, typename Acc>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE void write(std::int64_t r, std::int64_t col, Acc acc,
                                                        const element_inputs& in) const
    {
        d[r * d_stride_m + col * d_stride_n] = value<Fused>(acc, in);
    }

    /// write() at one element, its loads included.
    template <bool Fused, typename Acc>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE void write(std::int64_t r, std::int64_t col,
                                                        Acc acc) const
    {
        write<Fused>(r, col, acc, gather<Fused>(r, col));
    }
};

template <typename Problem, typename Policy, bool Fused>
struct gemm_tile_epilogue
{
    using block_gemm = gemm_tile_block_gemm<Problem, Policy>;
    using warp_gemm  = typename block_gemm::warp_gemm_t;
    using atom       = typename block_gemm::atom;
    using D          = typename Problem::DDataType;
    using E          = typename Problem::EpilogueType;

    /// Calls f(row, column, value) for every accumulator of the warp's tile at (m0, n0) (the
    /// block tile's origin plus the warp's offset), masked to rows < m and columns < n.
    template <typename F>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static void
    for_each(const typename block_gemm::accumulators& acc, std::int64_t m0, std::int64_t n0,
             std::int64_t m, std::int64_t n, index_t lane, const F& f)
    {
        // Addresses and bounds are recomputed here, per tile, rather than kept in registers
        // across the main loop (arch::opaque).
        opaque(m0, n0, m, n);
        using c_encoding        = typename warp_gemm::c_encoding;
        const auto origin       = mma_fragment_lane_origin<c_encoding>(lane);
        const std::int64_t row0 = m0 + origin[0], col0 = n0 + origin[1];
        static_for<0, block_gemm::MIter, 1>{}([&](auto i) CK_TILE_FORCE_INLINE {
            static_for<0, block_gemm::NIter, 1>{}([&](auto j) CK_TILE_FORCE_INLINE {
                static_for<0, block_gemm::c_fragment::size(), 1>{}(
                    [&](auto r) CK_TILE_FORCE_INLINE {
                        constexpr auto x =
                            mma_fragment_register_offset<c_encoding, decltype(r)::value>;
                        const std::int64_t row = row0 + (i * atom::m + x[0]);
                        const std::int64_t col = col0 + (j * atom::n + x[1]);
                        if(row < m && col < n)
                            f(row, col, acc.c[i][j][r]);
                    });
            });
        });
    }

    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static void
    store(const typename block_gemm::accumulators& acc, const gemm_tile_output<D, E>& output,
          std::int64_t m0, std::int64_t n0, index_t lane)
    {
        gemm_tile_output<D, E> out = output;
        opaque(out.d, out.c, out.bias, out.d_stride_m, out.d_stride_n, out.c_stride_m,
               out.c_stride_n);
        for_each(acc, m0, n0, out.m, out.n, lane,
                 [&](std::int64_t r, std::int64_t c, auto v)
                     CK_TILE_FORCE_INLINE { out.template write<Fused>(r, c, v); });
    }

    /// Split-K: the partial sums of one split, row-major M x N.
    template <typename Acc>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static void
    store_partial(const typename block_gemm::accumulators& acc, Acc* partial, std::int64_t m,
                  std::int64_t n, std::int64_t m0, std::int64_t n0, index_t lane)
    {
        for_each(acc, m0, n0, m, n, lane,
                 [&](std::int64_t r, std::int64_t c, auto v)
                     CK_TILE_FORCE_INLINE { partial[r * n + c] = v; });
    }
};

} // namespace ck_tile
