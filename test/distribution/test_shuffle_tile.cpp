// SPDX-License-Identifier: MIT
// Register shuffles on the host, one emulated thread at a time (explicit partition indices):
// shuffle_tile between distributions that give every thread the same elements (Ys in another
// order, an H factor split into two Ys, replication), transpose_tile into the transposed
// distribution, the compile-time verdict for pairs that need shared memory, the transposed
// encoding's structure, and the lanes-per-warp helper that get_partition_index() asserts on.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

using namespace ck_tile;

namespace {

// 8 x 16 tile, 2 copies (P0 -> R0) x 8 lanes (P1 -> H0[1], H1[0]); each thread: 2 x 2 rows
// (Y0 -> H0[0], Y1 -> H0[2]) x 4 columns (Y2 -> H1[1]).
using EncA = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 4>>, tuple<sequence<0>, sequence<1, 2>>,
    tuple<sequence<0>, sequence<1, 0>>, sequence<1, 1, 2>, sequence<0, 2, 1>>;
// The same ownership, Ys listed columns first: a pure permutation of each thread's registers.
using EncAPermuted = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 4>>, tuple<sequence<0>, sequence<1, 2>>,
    tuple<sequence<0>, sequence<1, 0>>, sequence<2, 1, 1>, sequence<1, 0, 2>>;
// The same ownership with X1's per-thread factor 4 split into 2 x 2 and the Ys reordered.
using EncASplit = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 2, 2>>, tuple<sequence<0>, sequence<1, 2>>,
    tuple<sequence<0>, sequence<1, 0>>, sequence<2, 1, 2, 1>, sequence<2, 2, 1, 0>>;
// Lanes merged in the other order: the threads hold other rows and columns.
using EncALanesSwapped = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 4>>, tuple<sequence<0>, sequence<2, 1>>,
    tuple<sequence<0>, sequence<0, 1>>, sequence<1, 1, 2>, sequence<0, 2, 1>>;
// No replication: P0 splits the rows instead, so each thread holds half as many elements.
using EncANoReplica =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2, 2>, sequence<4, 4>>,
                               tuple<sequence<1>, sequence<1, 2>>,
                               tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<2, 1>>;
// 8 x 32: another tile length.
using EncAWide = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 8>>, tuple<sequence<0>, sequence<1, 2>>,
    tuple<sequence<0>, sequence<1, 0>>, sequence<1, 1, 2>, sequence<0, 2, 1>>;
// 8 x 16 over 4 x 4 threads: another partition.
using EncAOtherThreads =
    tile_distribution_encoding<sequence<>, tuple<sequence<4, 2>, sequence<4, 4>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;

// A 16 x 32 tile read with 4-wide vectors along X1 (Y1 -> H1[1]) where each thread holds 2
// consecutive rows (Y0 -> H0[2]): 2 warps x (4 x 8) lanes.
using EncMK =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 4, 2>, sequence<8, 4>>,
                               tuple<sequence<1>, sequence<1, 2>>,
                               tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<2, 1>>;
// Its transpose as make_transposed_encoding should build it: Hs swapped, majors 1 <-> 2,
// Ys reversed (the 2 rows now innermost in registers and along the new last X).
using EncMKTransposed =
    tile_distribution_encoding<sequence<>, tuple<sequence<8, 4>, sequence<2, 4, 2>>,
                               tuple<sequence<2>, sequence<2, 1>>,
                               tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<1, 2>>;

template <typename Enc>
using dstr_t = decltype(make_static_tile_distribution(Enc{}));

template <typename Dstr, typename F>
void for_each_partition(F&& f)
{
    constexpr auto ps    = Dstr::get_ps_lengths();
    constexpr index_t np = Dstr::get_num_of_dimension_p();
    index_t total        = 1;
    static_for<0, np, 1>{}([&](auto i) { total *= ps[i]; });
    for(index_t lin = 0; lin < total; ++lin)
    {
        multi_index<np> p{};
        index_t rest = lin;
        static_for<np - 1, -1, -1>{}([&](auto i) {
            p(i) = rest % ps[i];
            rest /= ps[i];
        });
        f(p);
    }
}

float value_at(index_t r, index_t c) { return static_cast<float>(r * 1000 + c + 1); }

// This thread's share of the tile whose element (r, c) is value_at(r, c), written directly
// from the adaptor (independent of the offsets shuffle_tile computes from the encoding).
template <typename Dstr, typename P>
auto make_thread_share(const P& p)
{
    static_distributed_tensor<float, Dstr> t;
    sweep_tile(t, [&](auto idx) {
        const auto x = Dstr{}.calculate_index(p, Dstr::get_y_indices_from_distributed_indices(idx));
        t(idx)       = value_at(x[0], x[1]);
    });
    return t;
}

// For every thread: shuffle_tile from In to Out, then each of Out's elements must be the
// tile element Out's adaptor says the thread holds there.
template <typename EncIn, typename EncOut>
void expect_shuffle_matches_tile()
{
    using DI = dstr_t<EncIn>;
    using DO = dstr_t<EncOut>;
    static_assert(can_shuffle_tile_v<DO, DI>);
    index_t checked = 0;
    for_each_partition<DI>([&](const auto& p) {
        const auto in = make_thread_share<DI>(p);
        static_distributed_tensor<float, DO> out;
        out.fill(-1.0f);
        shuffle_tile(out, in);
        sweep_tile(out, [&](auto idx) {
            const auto x = DO{}.calculate_index(p, DO::get_y_indices_from_distributed_indices(idx));
            ASSERT_EQ(out(idx), value_at(x[0], x[1]))
                << "p=(" << p[0] << "," << p[1] << ") x=(" << x[0] << "," << x[1] << ")";
            ++checked;
        });
    });
    EXPECT_EQ(checked, 2 * 8 * DO::get_num_of_element_per_thread());
}

} // namespace

TEST(ShuffleTile, PermutedYsArePureRegisterPermutation)
{
    expect_shuffle_matches_tile<EncA, EncAPermuted>();
    expect_shuffle_matches_tile<EncAPermuted, EncA>();
    // Not the identity: the first element of the columns-first buffer is the second of A's.
    const auto in = make_thread_share<dstr_t<EncA>>(make_multi_index(0, 0));
    static_distributed_tensor<float, dstr_t<EncAPermuted>> out;
    shuffle_tile(out, in);
    EXPECT_EQ(out[0], in[0]);
    // The columns-first buffer's second register is the next row of the pair (A's Y1), which
    // is A's fifth register (A's Y1 has buffer stride 4).
    EXPECT_EQ(out[1], in[4]);
    EXPECT_NE(out[1], in[1]);
}

TEST(ShuffleTile, SplitAndReorderedYs)
{
    expect_shuffle_matches_tile<EncA, EncASplit>();
    expect_shuffle_matches_tile<EncASplit, EncAPermuted>();
}

TEST(ShuffleTile, SameDistributionIsACopyWithConversion)
{
    using D       = dstr_t<EncA>;
    const auto in = make_thread_share<D>(make_multi_index(1, 5));
    static_distributed_tensor<double, D> out;
    shuffle_tile(out, in);
    for(index_t i = 0; i < D::get_num_of_element_per_thread(); ++i)
        EXPECT_EQ(out[i], static_cast<double>(in[i]));
}

TEST(ShuffleTile, PairsThatNeedSharedMemoryAreRejectedAtCompileTime)
{
    // Same shape, other lane order: threads hold other elements.
    static_assert(!can_shuffle_tile_v<dstr_t<EncALanesSwapped>, dstr_t<EncA>>);
    // Replicated vs split among threads: different element counts per thread.
    static_assert(!can_shuffle_tile_v<dstr_t<EncANoReplica>, dstr_t<EncA>>);
    // Different tile lengths, different thread partitions.
    static_assert(!can_shuffle_tile_v<dstr_t<EncAWide>, dstr_t<EncA>>);
    static_assert(!can_shuffle_tile_v<dstr_t<EncAOtherThreads>, dstr_t<EncA>>);
    // Tiled-copy encodings A and B of the distribution gpu test: the repeat moves from the
    // outermost to the innermost row factor, so thread rows differ.
    using CopyA = tile_distribution_encoding<
        sequence<>, tuple<sequence<2, 4, 8>, sequence<8, 4>>, tuple<sequence<1>, sequence<1, 2>>,
        tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>;
    using CopyB = tile_distribution_encoding<
        sequence<>, tuple<sequence<4, 8, 2>, sequence<8, 4>>, tuple<sequence<1>, sequence<1, 2>>,
        tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<2, 1>>;
    static_assert(!can_shuffle_tile_v<dstr_t<CopyB>, dstr_t<CopyA>>);
    static_assert(can_shuffle_tile_v<dstr_t<CopyA>, dstr_t<CopyA>>);
    SUCCEED();
}

TEST(TransposeTile, TransposedEncodingStructure)
{
    static_assert(std::is_same_v<decltype(make_transposed_encoding(EncMK{})), EncMKTransposed>);
    // Transposing twice gives the encoding back, replication included.
    static_assert(
        std::is_same_v<decltype(make_transposed_encoding(make_transposed_encoding(EncA{}))), EncA>);
    constexpr auto dt = make_transposed_distribution(EncMK{});
    static_assert(std::is_same_v<remove_cvref_t<decltype(dt)>, dstr_t<EncMKTransposed>>);
    static_assert(std::is_same_v<decltype(make_transposed_distribution(dstr_t<EncMK>{})),
                                 decltype(make_transposed_distribution(EncMK{}))>);
    EXPECT_EQ(dt.get_lengths()[number<0>{}], 32);
    EXPECT_EQ(dt.get_lengths()[number<1>{}], 16);
    // The transposed tile's rows (2 per thread) are its innermost registers, and its stores
    // along the new last X (the old rows) vectorize by 2.
    using traits = load_store_traits<dstr_t<EncMKTransposed>, float, 4>;
    EXPECT_EQ(traits::scalar_per_vector, 2);
}

TEST(TransposeTile, EveryThreadHoldsTheTransposeOfItsShare)
{
    using DI        = dstr_t<EncMK>;
    using DT        = dstr_t<EncMKTransposed>;
    index_t checked = 0;
    for_each_partition<DI>([&](const auto& p) {
        const auto in = make_thread_share<DI>(p);
        const auto t  = transpose_tile(in);
        static_assert(
            std::is_same_v<typename remove_cvref_t<decltype(t)>::StaticTileDistribution, DT>);
        sweep_tile(t, [&](auto idx) {
            const auto x = DT{}.calculate_index(p, DT::get_y_indices_from_distributed_indices(idx));
            // t is K x M: its (k, m) is the input's (m, k).
            ASSERT_EQ(t(idx), value_at(x[1], x[0])) << "p=(" << p[0] << "," << p[1] << ")";
            ++checked;
        });
        // The registers really move: A's second register is the next column, the transpose's
        // the next row.
        EXPECT_EQ(t[1], in[4]);
    });
    EXPECT_EQ(checked, 16 * 32);
    // Into any distribution of the transposed tile that gives each thread the same elements,
    // e.g. the transposed one with its Ys back in the original order.
    using EncMKTransposedYsKept = tile_distribution_encoding<
        sequence<>, tuple<sequence<8, 4>, sequence<2, 4, 2>>, tuple<sequence<2>, sequence<2, 1>>,
        tuple<sequence<0>, sequence<1, 0>>, sequence<2, 1>, sequence<2, 1>>;
    using DK      = dstr_t<EncMKTransposedYsKept>;
    const auto in = make_thread_share<DI>(make_multi_index(1, 13));
    static_distributed_tensor<float, DK> kept;
    transpose_tile(kept, in);
    for(index_t i = 0; i < DK::get_num_of_element_per_thread(); ++i)
        EXPECT_EQ(kept[i], in[i]); // same register order: a plain copy
}

TEST(WarpSize, LanesPerWarpOfAnEncoding)
{
    // (warp, lane) encodings: the lane P's length, the product of the factors it names.
    static_assert(lanes_per_warp_v<EncMK> == 32);
    static_assert(lanes_per_warp_v<dstr_t<EncMK>> == 32);
    static_assert(dstr_t<EncMK>::get_lanes_per_warp() == 32);
    static_assert(lanes_per_warp_v<EncA> == 8);
    // A 64-lane (AMD wavefront) encoding: 4 warps x (16 x 4) lanes.
    using Enc64 =
        tile_distribution_encoding<sequence<>, tuple<sequence<4, 16>, sequence<4, 8>>,
                                   tuple<sequence<1>, sequence<1, 2>>,
                                   tuple<sequence<0>, sequence<1, 0>>, sequence<2>, sequence<1>>;
    static_assert(lanes_per_warp_v<Enc64> == 64);
    // (lane) encodings: the one P.
    using Enc1P = tile_distribution_encoding<sequence<>, tuple<sequence<16, 4>>, tuple<sequence<1>>,
                                             tuple<sequence<0>>, sequence<1>, sequence<1>>;
    static_assert(lanes_per_warp_v<Enc1P> == 16);
    // Three P dimensions have no hardware partition index.
    using Enc3P = tile_distribution_encoding<
        sequence<>, tuple<sequence<2, 2, 2>>, tuple<sequence<1>, sequence<1>, sequence<1>>,
        tuple<sequence<0>, sequence<1>, sequence<2>>, sequence<>, sequence<>>;
    static_assert(lanes_per_warp_v<Enc3P> == 0);

    // An encoding whose lane P is derived from get_warp_size() fits the platform; the fixed
    // 64-lane one fits only a 64-lane platform.
    constexpr index_t W = get_warp_size();
    using EncFromWarp =
        tile_distribution_encoding<sequence<>, tuple<sequence<4, W / 8>, sequence<8, 4>>,
                                   tuple<sequence<1>, sequence<1, 2>>,
                                   tuple<sequence<0>, sequence<1, 0>>, sequence<2>, sequence<1>>;
    static_assert(lanes_per_warp_v<EncFromWarp> == W);
    static_assert(matches_warp_size_v<EncFromWarp>);
    static_assert(matches_warp_size_v<Enc64> == (W == 64));
    static_assert(matches_warp_size_v<EncMK> == (W == 32));
    SUCCEED();
}
