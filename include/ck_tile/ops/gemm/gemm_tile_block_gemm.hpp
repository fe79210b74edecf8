// SPDX-License-Identifier: MIT
// The block GEMM: C(BlockM x BlockN) += A(BlockM x k-slice) * B(k-slice x BlockN) out of
// shared memory, as a WarpsM x WarpsN grid of warps, each running MIter x NIter warp_gemm's per
// matrix-instruction step of K. Vendor-neutral: which lane holds which element comes from the
// warp GEMM's tile distribution encodings (mma_fragment_coordinate), never from a vendor table.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/gemm/gemm_tile_policy.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_fragment.hpp"

namespace ck_tile {

template <typename Problem, typename Policy>
struct gemm_tile_block_gemm
{
    using P           = typename Policy::template of<Problem>;
    using A           = typename Problem::ADataType;
    using B           = typename Problem::BDataType;
    using warp_gemm_t = typename P::warp_gemm_t;
    using atom        = typename P::atom;
    using a_fragment  = typename warp_gemm_t::a_fragment;
    using b_fragment  = typename warp_gemm_t::b_fragment;
    using c_fragment  = typename warp_gemm_t::c_fragment;

    static constexpr index_t MIter = P::MIter, NIter = P::NIter, KSteps = P::KSteps;

    /// The accumulators of one warp: MIter x NIter C fragments.
    struct accumulators
    {
        c_fragment c[MIter][NIter];
    };

    /// Element (row, k) of an operand tile in shared memory, stored rows x K (K-contiguous) or
    /// K x rows.
    template <typename Lds, bool KContiguous, typename T>
    CK_TILE_HOST_DEVICE static T lds_at(const T* lds, index_t row, index_t k)
    {
        return KContiguous ? lds[Lds::offset(row, k)] : lds[Lds::offset(k, row)];
    }

    /// Lane `lane`'s fragment of the operand rows [row0, row0 + rows of the atom) and
    /// K [k0, k0 + atom K). @post equal to what the encoding assigns to (lane, register).
    template <typename Encoding, typename Lds, bool KContiguous, typename Fragment, typename T>
    CK_TILE_HOST_DEVICE static Fragment load_fragment(const T* lds, index_t row0, index_t k0,
                                                      index_t lane)
    {
        Fragment f;
        static_for<0, Fragment::size(), 1>{}([&](auto e) {
            const auto x = mma_fragment_coordinate<Encoding>(lane, decltype(e)::value);
            f[e]         = lds_at<Lds, KContiguous>(lds, row0 + x[0], k0 + x[1]);
        });
        return f;
    }

    CK_TILE_HOST_DEVICE static a_fragment load_a(const A* lds, index_t m0, index_t k0, index_t lane)
    {
        return load_fragment<typename warp_gemm_t::a_encoding, typename P::a_lds,
                             Problem::a_k_contiguous, a_fragment>(lds, m0, k0, lane);
    }
    CK_TILE_HOST_DEVICE static b_fragment load_b(const B* lds, index_t n0, index_t k0, index_t lane)
    {
        return load_fragment<typename warp_gemm_t::b_encoding, typename P::b_lds,
                             Problem::b_k_contiguous, b_fragment>(lds, n0, k0, lane);
    }

    CK_TILE_HOST_DEVICE static void clear(accumulators& acc)
    {
        static_for<0, MIter, 1>{}([&](auto i) {
            static_for<0, NIter, 1>{}([&](auto j) {
                static_for<0, c_fragment::size(), 1>{}(
                    [&](auto r) { acc.c[i][j][r] = typename atom::c_type(0); });
            });
        });
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// acc += A * B^T over instruction steps [Step0, Step1) of the stage's K slice, for the
    /// warp (warp_m, warp_n). The fragments of a step are loaded before its instructions so
    /// the shared-memory reads of step s + 1 overlap the instructions of step s.
    template <index_t Step0, index_t Step1>
    CK_TILE_DEVICE static void run(accumulators& acc, const A* lds_a, const B* lds_b,
                                   index_t warp_m, index_t warp_n, index_t lane)
    {
        static_for<Step0, Step1, 1>{}([&](auto s) {
            constexpr index_t k0 = decltype(s)::value * atom::k;
            a_fragment a[MIter];
            b_fragment b[NIter];
            static_for<0, MIter, 1>{}([&](auto i) {
                a[i] = load_a(lds_a, warp_m * Policy::WarpTileM + i * atom::m, k0, lane);
            });
            static_for<0, NIter, 1>{}([&](auto j) {
                b[j] = load_b(lds_b, warp_n * Policy::WarpTileN + j * atom::n, k0, lane);
            });
            static_for<0, MIter, 1>{}([&](auto i) {
                static_for<0, NIter, 1>{}([&](auto j) { warp_gemm_t{}(acc.c[i][j], a[i], b[j]); });
            });
        });
    }
#endif
};

} // namespace ck_tile
