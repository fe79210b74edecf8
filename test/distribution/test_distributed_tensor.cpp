// SPDX-License-Identifier: MIT
// Distributed tensors and sweeps (seed 004, 7.14 and 7.20): span lengths per X dimension,
// sweep order (X0 outermost, each span's Ys in H order), every element visited once, the
// three body forms of sweep_tile, element access by distributed index, Y index and buffer
// position, Y slices, and the element-wise tile operations.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <set>
#include <vector>

using namespace ck_tile;

namespace {

// Seed 004 7.5.6: 4x4 tile, 2x2 threads, 2x2 values each.
using Enc4x4 =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;
// Seed 004 7.1.5: 256x256, <repeat, warp, lane, vector> = <4, 2, 8, 4> per dimension.
using Enc256 =
    tile_distribution_encoding<sequence<>, tuple<sequence<4, 2, 8, 4>, sequence<4, 2, 8, 4>>,
                               tuple<sequence<1, 2>, sequence<1, 2>>,
                               tuple<sequence<1, 1>, sequence<2, 2>>, sequence<1, 1, 2, 2>,
                               sequence<0, 3, 0, 3>>;
// Ys listed out of X order: Y0 -> H1[1] (length 2), Y1 -> H0[0] (length 2).
using EncPermutedYs = tile_distribution_encoding<sequence<>, tuple<sequence<2, 4>, sequence<4, 2>>,
                                                 tuple<sequence<1, 2>>, tuple<sequence<1, 0>>,
                                                 sequence<2, 1>, sequence<1, 0>>;
// Two Ys of X1 named in reverse H order: Y0 -> H1[2] (4), Y1 -> H1[0] (3); X0 has no Y.
using EncTwoYsOneX = tile_distribution_encoding<sequence<>, tuple<sequence<8>, sequence<3, 2, 4>>,
                                                tuple<sequence<1, 2>>, tuple<sequence<0, 1>>,
                                                sequence<2, 2>, sequence<2, 0>>;
// 1-D: 64 elements, 16 lanes x 4 values.
using Enc1D = tile_distribution_encoding<sequence<>, tuple<sequence<16, 4>>, tuple<sequence<1>>,
                                         tuple<sequence<0>>, sequence<1>, sequence<1>>;

template <typename Enc>
using tile_of = static_distributed_tensor<float, decltype(make_static_tile_distribution(Enc{}))>;

template <typename Seq>
std::vector<index_t> to_vec(Seq)
{
    std::vector<index_t> v;
    for(index_t i = 0; i < Seq::size(); ++i)
        v.push_back(Seq::at(i));
    return v;
}

// The Y indices a sweep visits, in order.
template <typename Tile>
std::vector<std::vector<index_t>> sweep_order()
{
    std::vector<std::vector<index_t>> out;
    Tile t{};
    sweep_tile(t, [&](auto idx) {
        const auto ys =
            Tile::StaticTileDistribution::get_y_indices_from_distributed_indices(decltype(idx){});
        out.emplace_back(ys.begin(), ys.end());
    });
    return out;
}

} // namespace

TEST(DistributedSpans, LengthsPerXDimensionInHOrder)
{
    constexpr auto s256 = tile_of<Enc256>::get_distributed_spans();
    EXPECT_EQ(to_vec(remove_cvref_t<decltype(s256[number<0>{}])>::Impl{}),
              (std::vector<index_t>{4, 4}));
    EXPECT_EQ(to_vec(remove_cvref_t<decltype(s256[number<1>{}])>::Impl{}),
              (std::vector<index_t>{4, 4}));

    constexpr auto sp = tile_of<EncPermutedYs>::get_distributed_spans();
    EXPECT_EQ(to_vec(remove_cvref_t<decltype(sp[number<0>{}])>::Impl{}), (std::vector<index_t>{2}));
    EXPECT_EQ(to_vec(remove_cvref_t<decltype(sp[number<1>{}])>::Impl{}), (std::vector<index_t>{2}));

    // X1's Ys in H order: H1[0] (Y1, 3) before H1[2] (Y0, 4); X0 has none.
    constexpr auto s2 = tile_of<EncTwoYsOneX>::get_distributed_spans();
    EXPECT_EQ(remove_cvref_t<decltype(s2[number<0>{}])>::size(), 0);
    EXPECT_EQ(to_vec(remove_cvref_t<decltype(s2[number<1>{}])>::Impl{}),
              (std::vector<index_t>{3, 4}));
}

TEST(SweepTile, OrderIsX0OutermostThenHOrder)
{
    using V = std::vector<std::vector<index_t>>;
    EXPECT_EQ(sweep_order<tile_of<Enc4x4>>(), (V{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
    // X0's Y is Y1, so Y1 varies slowest.
    EXPECT_EQ(sweep_order<tile_of<EncPermutedYs>>(), (V{{0, 0}, {1, 0}, {0, 1}, {1, 1}}));
    // X1's span is (Y1, Y0): Y1 slowest.
    const auto o = sweep_order<tile_of<EncTwoYsOneX>>();
    ASSERT_EQ(o.size(), 12u);
    EXPECT_EQ(o[1], (std::vector<index_t>{1, 0}));
    EXPECT_EQ(o[4], (std::vector<index_t>{0, 1}));
}

TEST(SweepTile, VisitsEveryElementOnce)
{
    tile_of<Enc256> t{};
    std::set<index_t> offsets;
    index_t calls = 0;
    sweep_tile(t, [&](auto idx) {
        ++calls;
        offsets.insert(tile_of<Enc256>::calculate_offset(idx));
    });
    EXPECT_EQ(calls, 256);
    EXPECT_EQ(offsets.size(), 256u);
    EXPECT_EQ(*offsets.begin(), 0);
    EXPECT_EQ(*offsets.rbegin(), 255);
}

TEST(SweepTile, AllBodyFormsAgree)
{
    using T = tile_of<Enc256>;
    T t{};
    for(index_t i = 0; i < T::size(); ++i)
        t[i] = static_cast<float>(i * 3 + 1);

    std::vector<float> per_dim, tupled, by_ref, typed;
    sweep_tile(t, [&](auto i, auto j) { per_dim.push_back(t(make_tuple(i, j))); });
    sweep_tile(t, [&](auto idx) { tupled.push_back(t(idx)); });
    sweep_tile(t, [&](auto, auto& v) {
        by_ref.push_back(v);
        v = -v;
    });
    sweep_tile<T>([&](auto i, auto j) { typed.push_back(-t.get_element(make_tuple(i, j))); });
    EXPECT_EQ(per_dim, tupled);
    EXPECT_EQ(per_dim, by_ref);
    EXPECT_EQ(per_dim, typed);
}

TEST(SweepTile, OneDimensionalTileTakesABareIndex)
{
    using T = tile_of<Enc1D>;
    T t{};
    index_t k = 0;
    sweep_tile(t, [&](auto i) { t(i) = static_cast<float>(k++); });
    for(index_t i = 0; i < 4; ++i)
        EXPECT_EQ(t[i], static_cast<float>(i));
    EXPECT_EQ(sweep_order<T>().size(), 4u);
}

TEST(StaticDistributedTensor, AccessByYIndexAndBufferPosition)
{
    using T = tile_of<Enc256>;
    static_assert(T::kThreadElementSpaceSize == 256 && T::get_thread_buffer_size() == 256);
    static_assert(T::get_num_of_dimension() == 2);
    T t{};
    for(index_t i = 0; i < T::size(); ++i)
        t[i] = static_cast<float>(i);
    // Y -> D is packed row-major over the Y lengths (4, 4, 4, 4)
    EXPECT_EQ(t.at(1, 2, 3, 0), 108.0f);
    EXPECT_EQ(T::calculate_offset_from_y(make_multi_index(1, 2, 3, 1)), 109);
    // the distributed index (X0: Y0=1, Y1=2; X1: Y2=3, Y3=1) is Y index (1, 2, 3, 1)
    const auto idx = make_tuple(tile_distributed_index<1, 2>{}, tile_distributed_index<3, 1>{});
    EXPECT_EQ(t(idx), t.at(1, 2, 3, 1));
    t.set_element(idx, -1.0f);
    EXPECT_EQ(t.at(1, 2, 3, 1), -1.0f);
}

TEST(StaticDistributedTensor, YSlicesReadAndWriteTheBox)
{
    using T = tile_of<Enc256>;
    T t{};
    for(index_t i = 0; i < T::size(); ++i)
        t[i] = static_cast<float>(i);
    const auto s = t.get_y_sliced_thread_data(sequence<1, 0, 2, 0>{}, sequence<2, 1, 1, 4>{});
    static_assert(decltype(s)::size() == 8);
    for(index_t a = 0; a < 2; ++a)
        for(index_t d = 0; d < 4; ++d)
            EXPECT_EQ(s[a * 4 + d], t.at(1 + a, 0, 2, d));
    thread_buffer<float, 8> w;
    for(index_t i = 0; i < 8; ++i)
        w[i] = 100.0f + static_cast<float>(i);
    t.set_y_sliced_thread_data(sequence<2, 3, 0, 0>{}, sequence<1, 1, 2, 4>{}, w);
    EXPECT_EQ(t.get_y_sliced_thread_data(sequence<2, 3, 0, 0>{}, sequence<1, 1, 2, 4>{}), w);
    EXPECT_EQ(t.at(2, 3, 1, 2), 106.0f);
    EXPECT_EQ(t.at(0, 0, 0, 0), 0.0f);
}

TEST(TileElementwise, InOutInSetClearCast)
{
    constexpr auto d = make_static_tile_distribution(Enc256{});
    auto a           = make_static_distributed_tensor<float>(d);
    auto b           = make_static_distributed_tensor<float, decltype(d)>();
    set_tile(a, 2);
    for(index_t i = 0; i < a.size(); ++i)
        b[i] = static_cast<float>(i);
    tile_elementwise_inout([](float& x, const float& y) { x = x * y + 1.0f; }, a, b);
    for(index_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(a[i], 2.0f * static_cast<float>(i) + 1.0f);

    const auto c =
        tile_elementwise_in([](float x, float y) { return static_cast<double>(x - y); }, a, b);
    static_assert(std::is_same_v<decltype(c)::DataType, double>);
    for(index_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(c[i], static_cast<double>(i) + 1.0);

    const auto h = cast_tile<half_t>(a);
    static_assert(std::is_same_v<decltype(h)::DataType, half_t>);
    EXPECT_EQ(static_cast<float>(h[5]), 11.0f);
    const auto bf = cast_tile<bf16_t>(b);
    EXPECT_EQ(static_cast<float>(bf[63]), 63.0f);

    clear_tile(a);
    for(index_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(a[i], 0.0f);
}
