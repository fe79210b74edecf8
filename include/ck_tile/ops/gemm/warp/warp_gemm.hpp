// SPDX-License-Identifier: MIT
// warp_gemm<Atom, KIter, KOrder>: C += A * B^T for one warp, as KIter matrix instructions
// (`Atom`, an mma_sync_atom or mfma_atom) along K. The vendor-neutral unit that block GEMMs
// are written on: it publishes the tile distribution encodings of its A (M x K), B (N x K) and
// C (M x N) register tiles, so a block GEMM can build static distributions for them, and
// computes on their thread buffers.
//
//   using wg = warp_gemm<mma_sync_m16n8k16_f32_f16, 2>;      // 16 x 8 x 32 per warp
//   auto a = make_static_distributed_tensor<half_t>(make_static_tile_distribution(
//                wg::a_encoding{}));  ... fill a, b, c ...
//   wg{}(c, a, b);
//
// A and B are both K-contiguous tiles ("NT"): B's rows are N. KOrder picks how the KIter
// fragments are laid out (warp_gemm_fragment.hpp); the result does not depend on it.
#pragma once

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/gemm/warp/mfma_atoms.hpp"
#include "ck_tile/ops/gemm/warp/mma_sync_atoms.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm_fragment.hpp"

namespace ck_tile {

template <typename Atom, index_t KIter = 1,
          warp_gemm_k_order KOrder = warp_gemm_k_order::atom_major>
struct warp_gemm
{
    static_assert(KIter >= 1, "warp_gemm: at least one instruction along K");

    using atom   = Atom;
    using a_type = typename Atom::a_type;
    using b_type = typename Atom::b_type;
    using c_type = typename Atom::c_type;

    static constexpr index_t warp_size         = Atom::warp_size;
    static constexpr index_t m                 = Atom::m;
    static constexpr index_t n                 = Atom::n;
    static constexpr index_t k                 = Atom::k * KIter;
    static constexpr index_t k_iter            = KIter;
    static constexpr warp_gemm_k_order k_order = KOrder;
    static constexpr index_t a_per_lane        = Atom::a_per_lane * KIter;
    static constexpr index_t b_per_lane        = Atom::b_per_lane * KIter;
    static constexpr index_t c_per_lane        = Atom::c_per_lane;

    /// A: M x K, B: N x K, C: M x N; one P dimension (the lane).
    using a_encoding = typename Atom::a_layout::template encoding<KIter, KOrder>;
    using b_encoding = typename Atom::b_layout::template encoding<KIter, KOrder>;
    using c_encoding = typename Atom::c_encoding;

    using a_fragment = thread_buffer<a_type, a_per_lane>;
    using b_fragment = thread_buffer<b_type, b_per_lane>;
    using c_fragment = thread_buffer<c_type, c_per_lane>;

    CK_TILE_HOST_DEVICE static constexpr auto make_a_distribution()
    {
        return make_static_tile_distribution(a_encoding{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto make_b_distribution()
    {
        return make_static_tile_distribution(b_encoding{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto make_c_distribution()
    {
        return make_static_tile_distribution(c_encoding{});
    }

    /// Register of this warp GEMM's A (or B) fragment that holds element e of iteration i's
    /// instruction fragment.
    CK_TILE_HOST_DEVICE static constexpr index_t a_register(index_t e, index_t i)
    {
        return Atom::a_layout::k_iter_register(e, i, KIter, KOrder);
    }
    CK_TILE_HOST_DEVICE static constexpr index_t b_register(index_t e, index_t i)
    {
        return Atom::b_layout::k_iter_register(e, i, KIter, KOrder);
    }

    /// c += a * b^T over the warp's tiles; every lane of the warp calls it (the instructions are
    /// warp-wide). The fragment copies are register renames: every index is a constant.
    CK_TILE_DEVICE void operator()(c_fragment& c, const a_fragment& a, const b_fragment& b) const
    {
        static_assert(is_warp_size_v<warp_size>,
                      "warp_gemm: the atom is for another warp size (another GPU vendor)");
        typename Atom::c_vector acc;
        static_for<0, c_per_lane, 1>{}([&](auto r) { acc[r] = c[r]; });
        static_for<0, KIter, 1>{}([&](auto i) {
            typename Atom::a_vector av;
            typename Atom::b_vector bv;
            static_for<0, Atom::a_per_lane, 1>{}([&](auto e) {
                av[e] = a[number<a_register(decltype(e)::value, decltype(i)::value)>{}];
            });
            static_for<0, Atom::b_per_lane, 1>{}([&](auto e) {
                bv[e] = b[number<b_register(decltype(e)::value, decltype(i)::value)>{}];
            });
            Atom::run(acc, av, bv);
        });
        static_for<0, c_per_lane, 1>{}([&](auto r) { c[r] = acc[r]; });
    }

    /// The same on distributed tensors built from a_encoding, b_encoding and c_encoding.
    template <typename CTensor, typename ATensor, typename BTensor>
    CK_TILE_DEVICE void operator()(CTensor& c, const ATensor& a, const BTensor& b) const
        requires(requires { c.get_thread_buffer(); })
    {
        using a_dist = typename ATensor::StaticTileDistribution;
        using b_dist = typename BTensor::StaticTileDistribution;
        using c_dist = typename CTensor::StaticTileDistribution;
        static_assert(
            std::is_same_v<
                remove_cvref_t<decltype(a_dist::get_static_tile_distribution_encoding())>,
                a_encoding> &&
                std::is_same_v<
                    remove_cvref_t<decltype(b_dist::get_static_tile_distribution_encoding())>,
                    b_encoding> &&
                std::is_same_v<
                    remove_cvref_t<decltype(c_dist::get_static_tile_distribution_encoding())>,
                    c_encoding>,
            "warp_gemm: the tensors must use the warp GEMM's own encodings");
        (*this)(c.get_thread_buffer(), a.get_thread_buffer(), b.get_thread_buffer());
    }
};

} // namespace ck_tile
