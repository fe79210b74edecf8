// SPDX-License-Identifier: MIT
// Individual coordinate transforms: the seed examples (seed 000 / seed 004 section 7.9) with
// their documented results, and properties over random shapes with fixed seeds.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace ck_tile;

namespace {
std::mt19937& rng()
{
    static std::mt19937 g(20240611);
    return g;
}
index_t rand_in(index_t lo, index_t hi) // inclusive
{
    return lo + static_cast<index_t>(rng()() % static_cast<unsigned>(hi - lo + 1));
}

// Moves the upper index of `t` by random steps and checks that update_lower_index gives the
// lower index (and lower diff) that calculate_lower_index gives from scratch.
template <typename T, typename UpGen>
void check_incremental(const T& t, UpGen gen_up, int moves)
{
    constexpr index_t nup  = T::get_num_of_upper_dimension();
    constexpr index_t nlow = T::get_num_of_lower_dimension();
    auto idx_up            = gen_up();
    multi_index<nlow> idx_low{};
    t.calculate_lower_index(idx_low, idx_up);
    for(int m = 0; m < moves; ++m)
    {
        const auto idx_up_new = gen_up();
        multi_index<nup> diff_up{};
        if constexpr(nup > 0)
            for(index_t i = 0; i < nup; ++i)
                diff_up[i] = idx_up_new[i] - idx_up[i];
        multi_index<nlow> diff_low{};
        const auto idx_low_old = idx_low;
        t.update_lower_index(diff_low, diff_up, idx_low, idx_up_new);
        multi_index<nlow> expect{};
        t.calculate_lower_index(expect, idx_up_new);
        ASSERT_TRUE(idx_low == expect);
        if constexpr(nlow > 0)
        {
            for(index_t i = 0; i < nlow; ++i)
            {
                ASSERT_EQ(diff_low[i], idx_low[i] - idx_low_old[i]);
            }
        }
        idx_up = idx_up_new;
    }
}
} // namespace

// ------------------------------------------------------------------ seed examples

TEST(SeedTransforms, MergeInverse13Is2And3)
{
    auto transform = make_merge_transform(make_tuple(4, 5));
    multi_index<1> upper_coord;
    upper_coord[number<0>{}] = 13;
    multi_index<2> lower_coord;
    transform.calculate_lower_index(lower_coord, upper_coord);
    EXPECT_EQ(lower_coord[number<0>{}], 2);
    EXPECT_EQ(lower_coord[number<1>{}], 3);
    // forward: 2*5 + 3 = 13
    multi_index<1> up{};
    transform.calculate_upper_index(up, make_multi_index(2, 3));
    EXPECT_EQ(up[0], 13);
    EXPECT_EQ(transform.get_upper_lengths()[number<0>{}], 20);
}

TEST(SeedTransforms, UnmergeOf1_3_0Is14)
{
    auto transform = make_unmerge_transform(make_tuple(3, 4, 2));
    multi_index<3> upper_coord;
    upper_coord[number<0>{}] = 1;
    upper_coord[number<1>{}] = 3;
    upper_coord[number<2>{}] = 0;
    multi_index<1> lower_coord;
    transform.calculate_lower_index(lower_coord, upper_coord);
    EXPECT_EQ(lower_coord[number<0>{}], 14);
    multi_index<3> back{};
    transform.calculate_upper_index(back, lower_coord); // 14 = 1*8 + 3*2 + 0
    EXPECT_TRUE((back == make_multi_index(1, 3, 0)));
}

TEST(SeedTransforms, EmbedOf1_2WithStrides12_1Is14)
{
    auto transform = make_embed_transform(make_tuple(2, 3), make_tuple(12, 1));
    multi_index<2> upper_coord;
    upper_coord[number<0>{}] = 1;
    upper_coord[number<1>{}] = 2;
    multi_index<1> lower_coord;
    transform.calculate_lower_index(lower_coord, upper_coord);
    EXPECT_EQ(lower_coord[number<0>{}], 14);
}

TEST(SeedTransforms, ReplicateMapsEverythingToTheEmptyIndex)
{
    auto transform = make_replicate_transform(make_tuple(3, 4));
    static_assert(decltype(transform)::get_num_of_lower_dimension() == 0);
    static_assert(decltype(transform)::get_num_of_upper_dimension() == 2);
    int test_coords[][2] = {{0, 0}, {1, 2}, {2, 3}};
    for(auto& c : test_coords)
    {
        multi_index<2> test_upper;
        test_upper[number<0>{}] = c[0];
        test_upper[number<1>{}] = c[1];
        multi_index<0> test_lower;
        transform.calculate_lower_index(test_lower, test_upper);
        static_assert(decltype(test_lower)::size() == 0);
    }
    EXPECT_EQ(transform.get_upper_lengths()[number<0>{}] *
                  transform.get_upper_lengths()[number<1>{}],
              12);
}

TEST(SeedTransforms, OffsetAdds16)
{
    auto transform = make_offset_transform(48, 16);
    multi_index<1> upper_coord;
    upper_coord[number<0>{}] = 5;
    multi_index<1> lower_coord;
    transform.calculate_lower_index(lower_coord, upper_coord);
    EXPECT_EQ(lower_coord[number<0>{}], 21);
    const int test_indices[] = {0, 10, 20, 47};
    const int expected[]     = {16, 26, 36, 63};
    for(int i = 0; i < 4; ++i)
    {
        multi_index<1> test_upper;
        test_upper[number<0>{}] = test_indices[i];
        multi_index<1> test_lower;
        transform.calculate_lower_index(test_lower, test_upper);
        EXPECT_EQ(test_lower[number<0>{}], expected[i]);
    }
    EXPECT_EQ(transform.get_upper_lengths()[number<0>{}], 48);
    multi_index<1> back{};
    transform.calculate_upper_index(back, make_multi_index(21));
    EXPECT_EQ(back[0], 5);
}

TEST(SeedTransforms, PassThroughIsIdentityBothWays)
{
    int length     = 60;
    auto transform = make_pass_through_transform(length);
    multi_index<1> upper_coord;
    upper_coord[number<0>{}] = 25;
    multi_index<1> lower_coord;
    transform.calculate_lower_index(lower_coord, upper_coord);
    EXPECT_EQ(lower_coord[number<0>{}], 25);
    multi_index<1> lower_input;
    lower_input[number<0>{}] = 42;
    multi_index<1> upper_result;
    transform.calculate_lower_index(upper_result, lower_input);
    EXPECT_EQ(upper_result[number<0>{}], 42);
}

TEST(SeedTransforms, PadMapsTheEdgesOutside)
{
    int low_length = 3, left_pad = 1, right_pad = 1;
    auto transform = make_pad_transform(low_length, left_pad, right_pad);
    EXPECT_EQ(transform.get_upper_lengths()[number<0>{}], 5);
    const int expect_lower[]  = {-1, 0, 1, 2, 3};
    const bool expect_valid[] = {false, true, true, true, false};
    for(int i = 0; i < 5; ++i)
    {
        multi_index<1> upper;
        upper[number<0>{}] = i;
        multi_index<1> lower;
        transform.calculate_lower_index(lower, upper);
        const int adjusted_idx = static_cast<int>(lower[number<0>{}]);
        const bool is_valid    = (adjusted_idx >= 0 && adjusted_idx < low_length);
        EXPECT_EQ(adjusted_idx, expect_lower[i]);
        EXPECT_EQ(is_valid, expect_valid[i]);
        EXPECT_EQ(transform.is_valid_upper_index_mapped_to_valid_lower_index(upper),
                  expect_valid[i]);
    }
    EXPECT_FALSE(transform.is_valid_upper_index_always_mapped_to_valid_lower_index());
    EXPECT_TRUE(decltype(make_pad_transform(
        3, 1, 1,
        bool_constant<true>{}))::is_valid_upper_index_always_mapped_to_valid_lower_index());
    EXPECT_TRUE(decltype(make_pad_transform(
        3, number<0>{}, number<0>{}))::is_valid_upper_index_always_mapped_to_valid_lower_index());
}

TEST(SeedTransforms, SliceModuloXorFreeze)
{
    // slice [2, 7) of 10: upper 0..4 -> lower 2..6
    auto s = make_slice_transform(10, 2, 7);
    EXPECT_EQ(s.get_upper_lengths()[number<0>{}], 5);
    multi_index<1> lo{};
    s.calculate_lower_index(lo, make_multi_index(4));
    EXPECT_EQ(lo[0], 6);
    EXPECT_TRUE(decltype(s)::is_valid_upper_index_always_mapped_to_valid_lower_index());
    // modulo 4 over 16: cyclic
    auto m = make_modulo_transform(4, 16);
    for(index_t u = 0; u < 16; ++u)
    {
        m.calculate_lower_index(lo, make_multi_index(u));
        EXPECT_EQ(lo[0], u % 4);
    }
    // xor (LDS swizzle): K0' = K0 ^ (M % len1)
    auto x = make_xor_transform(sequence<4, 8>{});
    static_assert(decltype(x)::is_known_at_compile_time());
    multi_index<2> l2{};
    x.calculate_lower_index(l2, make_multi_index(3, 5));
    EXPECT_TRUE((l2 == make_multi_index(3, 5 ^ 3)));
    // freeze: no upper dimension, lower fixed
    auto f = make_freeze_transform(7);
    static_assert(decltype(f)::get_num_of_upper_dimension() == 0);
    multi_index<0> none{};
    f.calculate_lower_index(lo, none);
    EXPECT_EQ(lo[0], 7);
}

// ------------------------------------------------------------------ properties

TEST(TransformProperties, MergeAfterUnmergeIsIdentity)
{
    for(int trial = 0; trial < 200; ++trial)
    {
        const auto lengths = make_tuple(rand_in(1, 7), rand_in(1, 9), rand_in(1, 5));
        const auto u       = make_unmerge_transform(lengths);
        const auto m       = make_merge_transform(lengths);
        const index_t n    = lengths[number<0>{}] * lengths[number<1>{}] * lengths[number<2>{}];
        for(int k = 0; k < 20; ++k)
        {
            const auto x = make_multi_index(rand_in(0, n - 1));
            multi_index<3> split{};
            m.calculate_lower_index(split, x); // merge: 1 -> 3
            multi_index<1> back{};
            u.calculate_lower_index(back, split); // unmerge: 3 -> 1
            ASSERT_EQ(back[0], x[0]);
            multi_index<3> split2{};
            u.calculate_upper_index(split2, x);
            ASSERT_TRUE(split == split2);
            for(index_t i = 0; i < 3; ++i)
            {
                ASSERT_GE(split[i], 0);
            }
            ASSERT_LT(split[1], lengths[number<1>{}]);
            ASSERT_LT(split[2], lengths[number<2>{}]);
        }
    }
}

TEST(TransformProperties, EmbedOffsetIsDotWithStrides)
{
    for(int trial = 0; trial < 200; ++trial)
    {
        const auto lengths = make_tuple(rand_in(1, 9), rand_in(1, 9), rand_in(1, 9), rand_in(1, 9));
        const auto strides =
            make_tuple(rand_in(0, 500), rand_in(0, 50), rand_in(-5, 50), rand_in(1, 3));
        const auto e = make_embed_transform(lengths, strides);
        for(int k = 0; k < 20; ++k)
        {
            const auto x = make_multi_index(
                rand_in(0, lengths[number<0>{}] - 1), rand_in(0, lengths[number<1>{}] - 1),
                rand_in(0, lengths[number<2>{}] - 1), rand_in(0, lengths[number<3>{}] - 1));
            multi_index<1> off{};
            e.calculate_lower_index(off, x);
            ASSERT_EQ(off[0], x[0] * strides[number<0>{}] + x[1] * strides[number<1>{}] +
                                  x[2] * strides[number<2>{}] + x[3] * strides[number<3>{}]);
        }
    }
}

TEST(TransformProperties, PadMarksExactlyThePaddedIndicesInvalid)
{
    for(int trial = 0; trial < 200; ++trial)
    {
        const index_t n = rand_in(1, 20), l = rand_in(0, 6), r = rand_in(0, 6);
        const auto p  = make_pad_transform(n, l, r);
        const auto lp = make_left_pad_transform(n, l);
        const auto rp = make_right_pad_transform(n, r);
        for(index_t u = 0; u < n + l + r; ++u)
        {
            const auto up = make_multi_index(u);
            multi_index<1> lo{};
            p.calculate_lower_index(lo, up);
            const bool in_data = lo[0] >= 0 && lo[0] < n;
            ASSERT_EQ(p.is_valid_upper_index_mapped_to_valid_lower_index(up), in_data);
            ASSERT_EQ(lo[0], u - l);
            if(u < n + l)
            {
                ASSERT_EQ(lp.is_valid_upper_index_mapped_to_valid_lower_index(up), u >= l);
            }
            if(u < n + r)
            {
                ASSERT_EQ(rp.is_valid_upper_index_mapped_to_valid_lower_index(up), u < n);
            }
        }
    }
}

TEST(TransformProperties, IncrementalUpdateEqualsRecomputation)
{
    for(int trial = 0; trial < 50; ++trial)
    {
        const index_t a = rand_in(1, 8), b = rand_in(1, 8), c = rand_in(1, 8);
        auto up1 = [&](index_t len) {
            return [=] { return make_multi_index(rand_in(0, len - 1)); };
        };
        auto up3 = [&] {
            return make_multi_index(rand_in(0, a - 1), rand_in(0, b - 1), rand_in(0, c - 1));
        };
        check_incremental(make_pass_through_transform(a), up1(a), 20);
        check_incremental(make_pad_transform(a, b, c), up1(a + b + c), 20);
        check_incremental(make_embed_transform(make_tuple(a, b, c), make_tuple(b * c + 3, c, 1)),
                          up3, 20);
        check_incremental(make_unmerge_transform(make_tuple(a, b, c)), up3, 20);
        check_incremental(make_merge_transform(make_tuple(a, b, c)), up1(a * b * c), 20);
        check_incremental(make_offset_transform(a, b), up1(a), 20);
        check_incremental(make_slice_transform(a + b + c, b, a + b), up1(a), 20);
        check_incremental(make_modulo_transform(b, a * b), up1(a * b), 20);
        check_incremental(
            make_xor_transform(make_tuple(a, 8)),
            [&] { return make_multi_index(rand_in(0, a - 1), rand_in(0, 7)); }, 20);
        check_incremental(
            make_freeze_transform(c), [] { return multi_index<0>{}; }, 5);
        check_incremental(
            make_replicate_transform(make_tuple(a, b)),
            [&] { return make_multi_index(rand_in(0, a - 1), rand_in(0, b - 1)); }, 5);
    }
}

TEST(TransformProperties, NoCarryMergeIsExactForMovesInsideTheRow)
{
    for(int trial = 0; trial < 100; ++trial)
    {
        const index_t rows = rand_in(1, 6), cols = rand_in(2, 16);
        const auto m4     = make_merge_transform_v4_no_carry(make_tuple(rows, cols));
        const auto m3     = make_merge_transform(make_tuple(rows, cols));
        const index_t row = rand_in(0, rows - 1);
        index_t col       = rand_in(0, cols - 1);
        multi_index<2> lo4{}, lo3{};
        m4.calculate_lower_index(lo4, make_multi_index(row * cols + col));
        m3.calculate_lower_index(lo3, make_multi_index(row * cols + col));
        ASSERT_TRUE(lo4 == lo3);
        for(int k = 0; k < 10; ++k)
        {
            const index_t new_col = rand_in(0, cols - 1); // stays inside the row: no carry
            const auto up_new     = make_multi_index(row * cols + new_col);
            const auto diff       = make_multi_index(new_col - col);
            multi_index<2> d4{}, d3{};
            m4.update_lower_index(d4, diff, lo4, up_new);
            m3.update_lower_index(d3, diff, lo3, up_new);
            ASSERT_TRUE(lo4 == lo3);
            ASSERT_TRUE(d4 == d3);
            col = new_col;
        }
    }
}

TEST(TransformProperties, XorIsAnInvolutionAndABijectionForPowerOfTwo)
{
    const auto x = make_xor_transform(make_tuple(number<16>{}, number<8>{}));
    std::vector<int> hit(16 * 8, 0);
    for(index_t i = 0; i < 16; ++i)
        for(index_t j = 0; j < 8; ++j)
        {
            multi_index<2> lo{}, up{};
            x.calculate_lower_index(lo, make_multi_index(i, j));
            ASSERT_GE(lo[1], 0);
            ASSERT_LT(lo[1], 8);
            ++hit[lo[0] * 8 + lo[1]];
            x.calculate_upper_index(up, lo);
            ASSERT_TRUE((up == make_multi_index(i, j)));
        }
    for(int h : hit)
        ASSERT_EQ(h, 1);
}

TEST(TransformProperties, StaticAndDynamicLengthsAgree)
{
    const auto ms = make_merge_transform(make_tuple(number<3>{}, number<5>{}, number<4>{}));
    const auto md = make_merge_transform(make_tuple(3, 5, 4));
    static_assert(decltype(ms)::is_known_at_compile_time());
    static_assert(!decltype(md)::is_known_at_compile_time());
    static_assert(
        std::is_same_v<remove_cvref_t<decltype(ms.get_upper_lengths()[number<0>{}])>, number<60>>);
    const auto us = make_unmerge_transform(sequence<3, 5, 4>{});
    const auto ud = make_unmerge_transform(make_tuple(3, number<5>{}, 4));
    const auto es = make_embed_transform(make_tuple(number<3>{}, number<5>{}),
                                         make_tuple(number<7>{}, number<1>{}));
    const auto ed = make_embed_transform(make_tuple(3, 5), make_tuple(7, 1));
    const auto ps = make_pad_transform(number<5>{}, number<2>{}, number<1>{});
    const auto pd = make_pad_transform(5, 2, 1);
    static_assert(
        std::is_same_v<remove_cvref_t<decltype(ps.get_upper_lengths()[number<0>{}])>, number<8>>);
    for(index_t u = 0; u < 60; ++u)
    {
        multi_index<3> a{}, b{};
        ms.calculate_lower_index(a, make_multi_index(u));
        md.calculate_lower_index(b, make_multi_index(u));
        ASSERT_TRUE(a == b);
        multi_index<1> c{}, d{};
        us.calculate_lower_index(c, a);
        ud.calculate_lower_index(d, a);
        ASSERT_EQ(c[0], d[0]);
        ASSERT_EQ(c[0], u);
    }
    for(index_t i = 0; i < 3; ++i)
        for(index_t j = 0; j < 5; ++j)
        {
            multi_index<1> c{}, d{};
            es.calculate_lower_index(c, make_multi_index(i, j));
            ed.calculate_lower_index(d, make_multi_index(i, j));
            ASSERT_EQ(c[0], d[0]);
        }
    for(index_t u = 0; u < 8; ++u)
        ASSERT_EQ(ps.is_valid_upper_index_mapped_to_valid_lower_index(make_multi_index(u)),
                  pd.is_valid_upper_index_mapped_to_valid_lower_index(make_multi_index(u)));
    // a static transform is its own default value
    const decltype(ms) ms_default{};
    multi_index<3> a{}, b{};
    ms_default.calculate_lower_index(a, make_multi_index(37));
    ms.calculate_lower_index(b, make_multi_index(37));
    EXPECT_TRUE(a == b);
}

TEST(TransformPrint, TransformsPrintTheirParameters)
{
    testing::internal::CaptureStdout();
    print(make_merge_transform(make_tuple(number<4>{}, 5)));
    printf("|");
    print(make_pad_transform(3, 1, 1));
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(
        out,
        "merge_v3_division_mod{low_lengths: tuple<number<4>, 5>, low_lengths_scan: tuple<5, "
        "number<1>>, up_lengths: tuple<20>}|pad{up_lengths: tuple<5>, left_pad: 1, right_pad: 1}");
}
