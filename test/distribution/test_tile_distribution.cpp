// SPDX-License-Identifier: MIT
// Tile distributions on the host: the seed 004 encodings (7.1.5/7.5.8 256x256, 7.5.6 4x4,
// 7.21.6 example 1, 7.22.5 RMSNorm) and encodings with replication, checked for every
// partition index: ownership (each element exactly prod(Rs) times), the Y -> D bijection,
// the X step of each Y (contiguity of the last Y), and the 7.5.6 values seen through the
// window at (1, 3) of the 9x9 pattern i*100+j.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <vector>

using namespace ck_tile;

namespace {

// ---- encodings --------------------------------------------------------------------------

// Seed 004 7.5.6: a 4x4 tile, 2x2 threads (P0 = warp, P1 = lane), 2x2 values each.
using Enc4x4 =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;

// Seed 004 7.1.5 / 7.5.8 / 7.6.10: 256x256 with <repeat, warp, lane, vector> = <4, 2, 8, 4>
// per dimension: 4 warps (P0 -> both warp factors), 64 lanes (P1 -> both lane factors).
using Enc256 =
    tile_distribution_encoding<sequence<>, tuple<sequence<4, 2, 8, 4>, sequence<4, 2, 8, 4>>,
                               tuple<sequence<1, 2>, sequence<1, 2>>,
                               tuple<sequence<1, 1>, sequence<2, 2>>, sequence<1, 1, 2, 2>,
                               sequence<0, 3, 0, 3>>;

// Seed 004 7.22.5 (RMSNorm), with Y minors <1, 1>: an 8x8 tile, 4 warps x 4 lanes, 2x2 values
// each. The seed writes Y minors <0, 0>, which names H0[0] and H1[0] twice (P and Y) and
// H0[1], H1[1] never; that literal encoding is rejected (see SeedEncodingsThatBreakTheRules).
using EncRmsNorm =
    tile_distribution_encoding<sequence<>, tuple<sequence<4, 2>, sequence<4, 2>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;

// Seed 004 7.21.6 example 1: two P dimensions that name no factor (length 1 each); the one
// thread holds the whole 2x2 tile.
using EncSimple =
    tile_distribution_encoding<sequence<>, tuple<sequence<2>, sequence<2>>,
                               tuple<sequence<>, sequence<>>, tuple<sequence<>, sequence<>>,
                               sequence<1, 2>, sequence<0, 0>>;

// Replication, one P: 2 copies; P0 = (R0, H0[0]) so lanes 0-1 hold copy 0, lanes 2-3 copy 1.
using EncRep1 = tile_distribution_encoding<sequence<2>, tuple<sequence<2, 4>, sequence<4, 2>>,
                                           tuple<sequence<0, 1>>, tuple<sequence<0, 0>>,
                                           sequence<1, 2, 2>, sequence<1, 0, 1>>;

// Replication in a GEMM-like block: 4 warps = 2 copies (R0, e.g. the N warps sharing A) x 2
// M warps; 32 lanes = 8 along M x 4 along K; each thread holds 2 repeats x 4 K values.
using EncRepGemm = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 8>, sequence<4, 4>>, tuple<sequence<0, 1>, sequence<1, 2>>,
    tuple<sequence<0, 1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>;

// Ys listed out of X order (Y0 -> X1's vector factor, Y1 -> X0's): the last Y is X0's
// outer factor, so it is not contiguous in X.
using EncPermutedYs = tile_distribution_encoding<sequence<>, tuple<sequence<2, 4>, sequence<4, 2>>,
                                                 tuple<sequence<1, 2>>, tuple<sequence<1, 0>>,
                                                 sequence<2, 1>, sequence<1, 0>>;

// ---- enumeration helpers --------------------------------------------------------------------

// Calls f(idx) for every index of a box of the given lengths, last dimension fastest.
template <index_t N, typename F>
void for_each_index(const array<index_t, N>& lengths, F&& f)
{
    index_t total = 1;
    for(index_t i = 0; i < N; ++i)
        total *= lengths[i];
    for(index_t lin = 0; lin < total; ++lin)
    {
        multi_index<N> idx{};
        index_t rest = lin;
        for(index_t i = N - 1; i >= 0; --i)
        {
            idx(i) = rest % lengths[i];
            rest /= lengths[i];
        }
        f(idx);
    }
}

template <typename Seq>
array<index_t, Seq::size()> to_array(Seq)
{
    array<index_t, Seq::size()> r{};
    for(index_t i = 0; i < Seq::size(); ++i)
        r(i) = Seq::at(i);
    return r;
}

template <typename Encoding>
struct dist_of
{
    using D                     = typename Encoding::detail;
    static constexpr index_t NX = Encoding::NDimX;
    static constexpr index_t NP = Encoding::NDimP;
    static constexpr index_t NY = Encoding::NDimY;
    static array<index_t, NX> xs() { return to_array(typename D::xs_lengths{}); }
    static array<index_t, NP> ps() { return to_array(typename D::ps_lengths{}); }
    static array<index_t, NY> ys() { return to_array(typename D::ys_lengths{}); }
};

// How many (partition, Y) pairs land on each X element; any X outside the tile fails.
template <typename Encoding>
std::vector<index_t> ownership_counts()
{
    using T             = dist_of<Encoding>;
    constexpr auto dstr = make_static_tile_distribution(Encoding{});
    const auto xs       = T::xs();
    index_t total       = 1;
    for(index_t i = 0; i < T::NX; ++i)
        total *= xs[i];
    std::vector<index_t> count(static_cast<size_t>(total), 0);
    for_each_index<T::NP>(T::ps(), [&](const auto& p) {
        for_each_index<T::NY>(T::ys(), [&](const auto& y) {
            const auto x = dstr.calculate_index(p, y);
            index_t lin  = 0;
            for(index_t i = 0; i < T::NX; ++i)
            {
                EXPECT_GE(x[i], 0);
                EXPECT_LT(x[i], xs[i]);
                lin = lin * xs[i] + x[i];
            }
            if(lin >= 0 && lin < total)
                ++count[static_cast<size_t>(lin)];
        });
    });
    return count;
}

template <typename Encoding>
void expect_each_element_owned(index_t times)
{
    const auto count = ownership_counts<Encoding>();
    for(size_t i = 0; i < count.size(); ++i)
        ASSERT_EQ(count[i], times) << "element " << i;
}

// Y -> D is a bijection onto [0, prod(Y lengths)).
template <typename Encoding>
void expect_ys_to_d_dense()
{
    using T             = dist_of<Encoding>;
    constexpr auto dstr = make_static_tile_distribution(Encoding{});
    const auto& ys_to_d = dstr.get_ys_to_d_descriptor();
    const index_t size  = ys_to_d.get_element_space_size();
    EXPECT_EQ(size, dstr.get_num_of_element_per_thread());
    std::vector<index_t> hit(static_cast<size_t>(size), 0);
    index_t expected = 0;
    for_each_index<T::NY>(T::ys(), [&](const auto& y) {
        const index_t d = ys_to_d.calculate_offset(y);
        ASSERT_GE(d, 0);
        ASSERT_LT(d, size);
        // packed row-major: D enumerates Ys in order, last Y fastest
        EXPECT_EQ(d, expected++);
        ++hit[static_cast<size_t>(d)];
    });
    for(index_t h : hit)
        EXPECT_EQ(h, 1);
}

// One step of Y dimension `y` moves X dimension (major - 1) by the product of the H factors
// after the one it names, and leaves the other X dimensions alone.
template <typename Encoding>
void expect_y_steps()
{
    using T             = dist_of<Encoding>;
    using E             = Encoding;
    constexpr auto dstr = make_static_tile_distribution(Encoding{});
    const auto ys       = T::ys();
    for(index_t yd = 0; yd < T::NY; ++yd)
    {
        const index_t major = E::Ys2RHsMajor::at(yd);
        const index_t minor = E::Ys2RHsMinor::at(yd);
        index_t step        = 1;
        for(index_t m = minor + 1; E::detail::rh_length(major, m) > 0; ++m)
            step *= E::detail::rh_length(major, m);
        for_each_index<T::NP>(T::ps(), [&](const auto& p) {
            for_each_index<T::NY>(ys, [&](const auto& y) {
                if(y[yd] + 1 >= ys[yd])
                    return;
                auto y1 = y;
                y1(yd) += 1;
                const auto x0 = dstr.calculate_index(p, y);
                const auto x1 = dstr.calculate_index(p, y1);
                for(index_t i = 0; i < T::NX; ++i)
                    ASSERT_EQ(x1[i] - x0[i], i == major - 1 ? step : 0) << "Y" << yd << " X" << i;
            });
        });
    }
}

} // namespace

// ---- encoding facts -------------------------------------------------------------------------

TEST(TileDistributionEncoding, Seed256x256DerivedLengths)
{
    using E = Enc256;
    static_assert(E::NDimX == 2 && E::NDimP == 2 && E::NDimY == 4 && E::NDimR == 0);
    static_assert(std::is_same_v<E::detail::ys_lengths, sequence<4, 4, 4, 4>>);
    static_assert(std::is_same_v<E::detail::ps_lengths, sequence<4, 64>>);
    static_assert(std::is_same_v<E::detail::xs_lengths, sequence<256, 256>>);
    static_assert(std::is_same_v<E::detail::ys_to_span_major, sequence<0, 0, 1, 1>>);
    static_assert(std::is_same_v<E::detail::ys_to_span_minor, sequence<0, 1, 0, 1>>);
    static_assert(std::is_same_v<remove_cvref_t<decltype(E::detail::distributed_spans_lengthss_)>,
                                 tuple<sequence<4, 4>, sequence<4, 4>>>);
    static_assert(E::detail::rhs_major_minor_to_y(1, 3) == 1);
    static_assert(E::detail::rhs_major_minor_to_y(2, 2) == -1);
    // The seed reads the H lengths of X0 through the static member.
    constexpr auto hs0 = E::hs_lengthss_[number<0>{}];
    static_assert(reduce_on_sequence(hs0, multiplies{}, number<1>{}) == 256);
    SUCCEED();
}

TEST(TileDistributionEncoding, ReplicationFacts)
{
    using E = EncRepGemm;
    static_assert(E::NDimR == 1 && E::detail::num_replicas == 2);
    static_assert(E::detail::does_p_own_r(0, 0) && !E::detail::does_p_own_r(1, 0));
    static_assert(std::is_same_v<E::detail::ps_lengths, sequence<4, 32>>);
    static_assert(std::is_same_v<E::detail::xs_lengths, sequence<32, 16>>);
    SUCCEED();
}

// The seed also shows encodings that name an H factor twice or not at all, or name RH
// indices that do not exist; ours refuses them at compile time. Their rule predicates:
TEST(TileDistributionEncoding, SeedEncodingsThatBreakTheRulesAreRejected)
{
    // 7.21.6 example 2 (GemmBlockEncoding with 4 repeats): P0 and the Ys both name H0[1], H1[0].
    using Gemm =
        detail::encoding_rules<sequence<>, tuple<sequence<4, 2>, sequence<4, 2>>,
                               tuple<sequence<1, 2>, sequence<>>, tuple<sequence<1, 0>, sequence<>>,
                               sequence<1, 1, 2, 2>, sequence<0, 1, 0, 1>>;
    static_assert(Gemm::ps_in_range() && !Gemm::every_rh_used_once());
    // 7.11 row-major 4x16: Y majors 2 and 4 with two X dimensions.
    using RowMajor =
        detail::encoding_rules<sequence<>, tuple<sequence<2, 2>, sequence<4, 4>>,
                               tuple<sequence<1>, sequence<1>>, tuple<sequence<0>, sequence<0>>,
                               sequence<2, 4>, sequence<1, 1>>;
    static_assert(!RowMajor::ys_in_range());
    // 7.22.5 RMSNorm as written: Y minors <0, 0> repeat the P factors.
    using RmsNorm =
        detail::encoding_rules<sequence<>, tuple<sequence<4, 2>, sequence<4, 2>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<0, 0>>;
    static_assert(RmsNorm::ys_in_range() && !RmsNorm::every_rh_used_once());
    // A Y on R.
    using YOnR = detail::encoding_rules<sequence<2>, tuple<sequence<4>>, tuple<sequence<1>>,
                                        tuple<sequence<0>>, sequence<0>, sequence<0>>;
    static_assert(!YOnR::no_y_on_r());
    // The valid ones pass every rule.
    using Ok = detail::encoding_rules<sequence<2>, tuple<sequence<2, 4>, sequence<4, 2>>,
                                      tuple<sequence<0, 1>>, tuple<sequence<0, 0>>,
                                      sequence<1, 2, 2>, sequence<1, 0, 1>>;
    static_assert(Ok::ps_major_minor_same_shape() && Ok::lengths_positive() && Ok::ps_in_range() &&
                  Ok::ys_in_range() && Ok::no_y_on_r() && Ok::every_rh_used_once());
    SUCCEED();
}

// ---- the distribution object ----------------------------------------------------------------

TEST(TileDistribution, QueriesOf4x4Seed)
{
    constexpr auto dstr = make_static_tile_distribution(Enc4x4{});
    static_assert(dstr.get_num_of_dimension_x() == 2);
    static_assert(dstr.get_num_of_dimension_y() == 2);
    static_assert(dstr.get_num_of_dimension_p() == 2);
    static_assert(
        std::is_same_v<remove_cvref_t<decltype(dstr.get_lengths())>, tuple<number<4>, number<4>>>);
    static_assert(dstr.get_num_of_element_per_thread() == 4);
    static_assert(is_tile_distribution<remove_cvref_t<decltype(dstr)>>::value);
    // Constant-evaluable on the host as on the device.
    static_assert(dstr.calculate_index(make_multi_index(1, 1))[0] == 2);
    static_assert(dstr.calculate_index(make_multi_index(1, 1), make_multi_index(1, 0))[1] == 2);
    SUCCEED();
}

TEST(TileDistribution, AdaptorTakesPsThenYs)
{
    constexpr auto dstr = make_static_tile_distribution(Enc256{});
    const auto& adaptor = dstr.get_ps_ys_to_xs_adaptor();
    using A             = remove_cvref_t<decltype(adaptor)>;
    static_assert(A::get_num_of_top_dimension() == 6 && A::get_num_of_bottom_dimension() == 2);
    // Top lengths: P0 (4 warps), P1 (64 lanes), then the four Ys.
    const auto top = adaptor.get_top_dimension_lengths();
    EXPECT_EQ(index_t(top[number<0>{}]), 4);
    EXPECT_EQ(index_t(top[number<1>{}]), 64);
    EXPECT_EQ(index_t(top[number<2>{}]), 4);
    EXPECT_EQ(index_t(top[number<5>{}]), 4);
    const auto x  = adaptor.calculate_bottom_index(make_multi_index(3, 17, 1, 2, 3, 1));
    const auto x2 = dstr.calculate_index(make_multi_index(3, 17), make_multi_index(1, 2, 3, 1));
    EXPECT_EQ(x, x2);
}

// X0 = 64*y0 + 32*(warp/2) + 4*(lane/8) + y1, X1 = 64*y2 + 32*(warp%2) + 4*(lane%8) + y3.
TEST(TileDistribution, Seed256x256MatchesTheHierarchy)
{
    constexpr auto dstr = make_static_tile_distribution(Enc256{});
    for_each_index<2>({4, 64}, [&](const auto& p) {
        for_each_index<4>({4, 4, 4, 4}, [&](const auto& y) {
            const auto x = dstr.calculate_index(p, y);
            ASSERT_EQ(x[0], 64 * y[0] + 32 * (p[0] / 2) + 4 * (p[1] / 8) + y[1]);
            ASSERT_EQ(x[1], 64 * y[2] + 32 * (p[0] % 2) + 4 * (p[1] % 8) + y[3]);
        });
    });
}

TEST(TileDistribution, EachElementOwnedOnce)
{
    expect_each_element_owned<Enc4x4>(1);
    expect_each_element_owned<Enc256>(1);
    expect_each_element_owned<EncRmsNorm>(1);
    expect_each_element_owned<EncSimple>(1);
    expect_each_element_owned<EncPermutedYs>(1);
}

TEST(TileDistribution, ReplicatedElementsOwnedOncePerCopy)
{
    expect_each_element_owned<EncRep1>(2);
    expect_each_element_owned<EncRepGemm>(2);
}

TEST(TileDistribution, ReplicaIndexPartitionsTheThreads)
{
    using E             = EncRepGemm;
    constexpr auto dstr = make_static_tile_distribution(E{});
    static_assert(dstr.get_num_of_dimension_r() == 1);
    // Warp w holds copy w / 2 (R0 is the outer factor of P0); lanes do not matter.
    std::vector<index_t> count(32 * 16 * 2, 0);
    for_each_index<2>({4, 32}, [&](const auto& p) {
        const auto r = dstr.calculate_rs_index_from_ps_index(p);
        ASSERT_EQ(r[0], p[0] / 2);
        for_each_index<2>({2, 4}, [&](const auto& y) {
            const auto x = dstr.calculate_index(p, y);
            ++count[static_cast<size_t>((r[0] * 32 + x[0]) * 16 + x[1])];
        });
    });
    for(index_t c : count)
        EXPECT_EQ(c, 1);
}

TEST(TileDistribution, YsToDIsDense)
{
    expect_ys_to_d_dense<Enc4x4>();
    expect_ys_to_d_dense<Enc256>();
    expect_ys_to_d_dense<EncRmsNorm>();
    expect_ys_to_d_dense<EncSimple>();
    expect_ys_to_d_dense<EncRep1>();
    expect_ys_to_d_dense<EncRepGemm>();
    expect_ys_to_d_dense<EncPermutedYs>();
}

TEST(TileDistribution, EachYStepsByItsHStride)
{
    expect_y_steps<Enc4x4>();
    expect_y_steps<Enc256>();
    expect_y_steps<EncRmsNorm>();
    expect_y_steps<EncSimple>();
    expect_y_steps<EncRep1>();
    expect_y_steps<EncRepGemm>();
    expect_y_steps<EncPermutedYs>();
}

// Where the last Y names the innermost H factor of an X dimension, consecutive D slots of a
// thread are consecutive X addresses along it: the vector the encoding promises.
TEST(TileDistribution, LastYIsContiguousWhereTheEncodingSaysSo)
{
    constexpr auto d256 = make_static_tile_distribution(Enc256{});
    const auto a = d256.calculate_index(make_multi_index(2, 9), make_multi_index(1, 2, 3, 0));
    for(index_t v = 1; v < 4; ++v)
    {
        const auto b = d256.calculate_index(make_multi_index(2, 9), make_multi_index(1, 2, 3, v));
        EXPECT_EQ(b[0], a[0]);
        EXPECT_EQ(b[1], a[1] + v);
    }
    // Permuted Ys: the last Y is X0's outer factor, a step of 4 rows.
    constexpr auto dp = make_static_tile_distribution(EncPermutedYs{});
    const auto c0     = dp.calculate_index(make_multi_index(3), make_multi_index(1, 0));
    const auto c1     = dp.calculate_index(make_multi_index(3), make_multi_index(1, 1));
    EXPECT_EQ(c1[0] - c0[0], 4);
    EXPECT_EQ(c1[1], c0[1]);
}

// Seed 004 7.5.6: the kernel loads the 4x4 window at origin (1, 3) of a 9x9 tensor holding
// i*100 + j, and each thread collects its values in Y order (row-major, which is also the
// sweep order of this encoding: X0's span outside, X1's inside). The seed prints threads
// 0, 1, 64, 65 of a 128-thread block with 64-wide warps: partitions (0,0), (0,1), (1,0), (1,1).
TEST(TileDistribution, Seed4x4CollectedValuesThroughWindowAt1x3)
{
    constexpr index_t rows = 9, cols = 9;
    std::vector<float> global(rows * cols);
    for(index_t i = 0; i < rows; ++i)
        for(index_t j = 0; j < cols; ++j)
            global[static_cast<size_t>(i * cols + j)] = static_cast<float>(i * 100 + j);

    constexpr auto dstr        = make_static_tile_distribution(Enc4x4{});
    const index_t origin[2]    = {1, 3};
    const float expected[4][4] = {
        {103, 104, 203, 204}, {105, 106, 205, 206}, {303, 304, 403, 404}, {305, 306, 405, 406}};
    for(index_t warp = 0; warp < 2; ++warp)
        for(index_t lane = 0; lane < 2; ++lane)
        {
            std::vector<float> collected;
            for_each_index<2>({2, 2}, [&](const auto& y) {
                const auto x = dstr.calculate_index(make_multi_index(warp, lane), y);
                collected.push_back(
                    global[static_cast<size_t>((origin[0] + x[0]) * cols + origin[1] + x[1])]);
            });
            ASSERT_EQ(collected.size(), 4u);
            for(size_t k = 0; k < 4; ++k)
                EXPECT_EQ(collected[k], expected[warp * 2 + lane][k])
                    << "warp " << warp << " lane " << lane << " value " << k;
        }
}

// Seed 004 7.22.5 RMSNorm encoding: thread (p0, p1) holds the 2x2 block at (2*p0, 2*p1).
TEST(TileDistribution, RmsNormThreadOrigins)
{
    constexpr auto dstr = make_static_tile_distribution(EncRmsNorm{});
    for_each_index<2>({4, 4}, [&](const auto& p) {
        const auto x = dstr.calculate_index(p);
        EXPECT_EQ(x[0], 2 * p[0]);
        EXPECT_EQ(x[1], 2 * p[1]);
    });
}
