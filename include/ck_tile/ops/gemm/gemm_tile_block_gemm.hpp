// SPDX-License-Identifier: MIT
// The block GEMM: C(BlockM x BlockN) += A(BlockM x k-slice) * B(k-slice x BlockN) out of
// shared memory, as a WarpsM x WarpsN grid of warps, each running MIter x NIter warp_gemm's per
// matrix-instruction step of K. Vendor-neutral: which lane holds which element comes from the
// warp GEMM's tile distribution encodings (mma_fragment_coordinate), never from a vendor table.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/gemm/gemm_tile_policy.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_fragment.hpp"

#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/mma_sync.hpp"
#endif

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
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static T lds_at(const T* lds, index_t row, index_t k)
    {
        return KContiguous ? lds[Lds::offset(row, k)] : lds[Lds::offset(k, row)];
    }

    /// Lane `lane`'s fragment of the operand rows [row0, row0 + rows of the atom) and
    /// K [k0, k0 + atom K). @post equal to what the encoding assigns to (lane, register).
    /// Every register index is a compile-time constant, so the fragment stays in registers.
    template <typename Encoding, typename Lds, bool KContiguous, typename Fragment, typename T>
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static Fragment
    load_fragment(const T* lds, index_t row0, index_t k0, index_t lane)
    {
        Fragment f;
        const auto origin = mma_fragment_lane_origin<Encoding>(lane);
        static_for<0, Fragment::size(), 1>{}([&](auto e) CK_TILE_FORCE_INLINE {
            constexpr auto x = mma_fragment_register_offset<Encoding, decltype(e)::value>;
            f[e] = lds_at<Lds, KContiguous>(lds, row0 + origin[0] + x[0], k0 + origin[1] + x[1]);
        });
        return f;
    }

#if defined(CK_TILE_PLATFORM_NVIDIA)
    /// Whether an operand fragment comes from ldmatrix: every mma.sync fragment is a set of
    /// 8 x 16-byte matrices (rows x K), so ldmatrix reads K-contiguous operands of any element
    /// width, and with .trans the 16-bit operands stored K x rows. One address per matrix
    /// instead of one per element: the addresses the compiler keeps across the K loop are
    /// what filled the register file.
    template <typename T, bool KContiguous>
    static constexpr bool use_ldmatrix = warp_gemm_t::k_iter == 1 &&
                                         (KContiguous || sizeof(T) == 2);

    /// The fragment of rows [row0, row0 + Rows) and K [k0, k0 + atom K) by ldmatrix: matrix j
    /// is register j of the fragment, rows 8 * (j % (Rows / 8)) and K bytes 16 * (j / (Rows / 8))
    /// (registers ordered K half, then row half: mma_sync_atoms.hpp).
    template <index_t Rows, typename Lds, bool KContiguous, typename Fragment, typename T>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static Fragment
    load_fragment_ldmatrix(const T* lds, index_t row0, index_t k0, index_t lane)
    {
        constexpr index_t row_blocks = Rows / 8;
        constexpr index_t matrices   = static_cast<index_t>(sizeof(Fragment) / 4);
        constexpr index_t k_per_16b  = static_cast<index_t>(16 / sizeof(T));
        static_assert(matrices == 2 * row_blocks && sizeof(Fragment) % 4 == 0,
                      "an mma.sync fragment is two K halves of Rows / 8 matrices");
        const index_t j = (lane / 8) % matrices, r = lane % 8;
        const index_t rb = j % row_blocks, kb = j / row_blocks;
        if constexpr(KContiguous)
        {
            const T* p = lds + Lds::offset(row0 + rb * 8 + r, k0 + kb * k_per_16b);
            return bit_cast<Fragment>(arch::nvidia::ldmatrix_x<matrices, false>(p));
        }
        else
        {
            // Stored K x rows: matrix rows are K, each 8 contiguous 16-bit rows (.trans).
            const T* p = lds + Lds::offset(k0 + kb * 8 + r, row0 + rb * 8);
            return bit_cast<Fragment>(arch::nvidia::ldmatrix_x<matrices, true>(p));
        }
    }
#endif

    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static a_fragment load_a(const A* lds, index_t m0,
                                                                      index_t k0, index_t lane)
    {
#if defined(CK_TILE_PLATFORM_NVIDIA) && !defined(CK_TILE_PLATFORM_HOST)
        if constexpr(use_ldmatrix<A, Problem::a_k_contiguous>)
            return load_fragment_ldmatrix<atom::m, typename P::a_lds, Problem::a_k_contiguous,
                                          a_fragment>(lds, m0, k0, lane);
        else
#endif
            return load_fragment<typename warp_gemm_t::a_encoding, typename P::a_lds,
                                 Problem::a_k_contiguous, a_fragment>(lds, m0, k0, lane);
    }
    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static b_fragment load_b(const B* lds, index_t n0,
                                                                      index_t k0, index_t lane)
    {
#if defined(CK_TILE_PLATFORM_NVIDIA) && !defined(CK_TILE_PLATFORM_HOST)
        if constexpr(use_ldmatrix<B, Problem::b_k_contiguous>)
            return load_fragment_ldmatrix<atom::n, typename P::b_lds, Problem::b_k_contiguous,
                                          b_fragment>(lds, n0, k0, lane);
        else
#endif
            return load_fragment<typename warp_gemm_t::b_encoding, typename P::b_lds,
                                 Problem::b_k_contiguous, b_fragment>(lds, n0, k0, lane);
    }

    CK_TILE_FORCE_INLINE CK_TILE_HOST_DEVICE static void clear(accumulators& acc)
    {
        static_for<0, MIter, 1>{}([&](auto i) CK_TILE_FORCE_INLINE {
            static_for<0, NIter, 1>{}([&](auto j) CK_TILE_FORCE_INLINE {
                static_for<0, c_fragment::size(), 1>{}([&](auto r) CK_TILE_FORCE_INLINE {
                    acc.c[i][j][r] = typename atom::c_type(0);
                });
            });
        });
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    /// acc += A * B^T over instruction steps [Step0, Step1) of the stage's K slice, for the
    /// warp (warp_m, warp_n). The fragments of a step are loaded before its instructions so
    /// the shared-memory reads of step s + 1 overlap the instructions of step s.
    template <index_t Step0, index_t Step1>
    CK_TILE_FORCE_INLINE CK_TILE_DEVICE static void run(accumulators& acc, const A* lds_a,
                                                        const B* lds_b, index_t warp_m,
                                                        index_t warp_n, index_t lane)
    {
        static_for<Step0, Step1, 1>{}([&](auto s) CK_TILE_FORCE_INLINE {
            constexpr index_t k0 = decltype(s)::value * atom::k;
            a_fragment a[MIter];
            b_fragment b[NIter];
            static_for<0, MIter, 1>{}([&](auto i) CK_TILE_FORCE_INLINE {
                a[i] = load_a(lds_a, warp_m * Policy::WarpTileM + i * atom::m, k0, lane);
            });
            static_for<0, NIter, 1>{}([&](auto j) CK_TILE_FORCE_INLINE {
                b[j] = load_b(lds_b, warp_n * Policy::WarpTileN + j * atom::n, k0, lane);
            });
            static_for<0, MIter, 1>{}([&](auto i) CK_TILE_FORCE_INLINE {
                static_for<0, NIter, 1>{}(
                    [&](auto j) CK_TILE_FORCE_INLINE { warp_gemm_t{}(acc.c[i][j], a[i], b[j]); });
            });
        });
    }
#endif
};

} // namespace ck_tile
