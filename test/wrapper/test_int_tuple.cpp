// SPDX-License-Identifier: MIT
// Int-tuples: size, rank, depth, flatten, compatible, coordinates, shape_div / shape_mod.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace ck_tile;
using namespace ck_tile::wrapper;
using wt::C;
using wt::str;

TEST(IntTuple, SizeRankDepthStayStatic)
{
    const auto s = make_tuple(C<4>{}, make_tuple(C<2>{}, C<8>{}));
    static_assert(std::is_same_v<decltype(size(s)), const number<64>> ||
                  std::is_same_v<decltype(size(s)), number<64>>);
    static_assert(decltype(rank(s))::value == 2);
    static_assert(decltype(depth(s))::value == 2);
    static_assert(decltype(depth(C<3>{}))::value == 0);
    static_assert(decltype(size<1>(s))::value == 16);
    static_assert(decltype(size<1, 1>(s))::value == 8);
    const auto d = make_tuple(4, make_tuple(C<2>{}, 3));
    EXPECT_EQ(size(d), 24);
    EXPECT_EQ(str(d), "(4,(_2,3))");
    EXPECT_EQ(str(s), "(_4,(_2,_8))");
}

TEST(IntTuple, Flatten)
{
    const auto s = make_tuple(C<4>{}, make_tuple(2, make_tuple(C<8>{})), 5);
    EXPECT_EQ(str(flatten(s)), "(_4,2,_8,5)");
    EXPECT_EQ(str(flatten(7)), "7");
}

TEST(IntTuple, Compatible)
{
    EXPECT_TRUE(compatible(8, make_tuple(2, 4)));
    EXPECT_FALSE(compatible(make_tuple(2, 4), 8));
    EXPECT_TRUE(compatible(make_tuple(2, 6), make_tuple(2, make_tuple(3, 2))));
    EXPECT_FALSE(compatible(make_tuple(2, 6), make_tuple(2, 3, 2)));
    EXPECT_FALSE(compatible(make_tuple(3, 4), make_tuple(4, 3)));
}

TEST(IntTuple, Crd2IdxNaturalOneDAndPartial)
{
    const auto s = make_tuple(4, make_tuple(2, 4));
    const auto d = make_tuple(2, make_tuple(1, 8));
    // Natural, partially hierarchical and 1-D coordinates of the same point (3,(1,2)).
    EXPECT_EQ(crd2idx(make_tuple(3, make_tuple(1, 2)), s, d), 3 * 2 + 1 * 1 + 2 * 8);
    EXPECT_EQ(crd2idx(make_tuple(3, 5), s, d), 3 * 2 + 1 * 1 + 2 * 8);
    EXPECT_EQ(crd2idx(3 + 4 * 5, s, d), 3 * 2 + 1 * 1 + 2 * 8);
    EXPECT_EQ(str(idx2crd(23, s)), "(3,(1,2))");
    static_assert(decltype(crd2idx(C<5>{}, make_tuple(C<4>{}, C<3>{}),
                                   make_tuple(C<3>{}, C<1>{})))::value == 1 * 3 + 1 * 1);
}

TEST(IntTuple, ShapeDivSeedTable)
{
    EXPECT_EQ(str(shape_div(make_tuple(6, 2), 2)), "(3,2)");
    EXPECT_EQ(str(shape_div(make_tuple(6, 2), 3)), "(2,2)");
    EXPECT_EQ(str(shape_div(make_tuple(6, 2), 6)), "(1,2)");
    EXPECT_EQ(str(shape_div(make_tuple(6, 2), 12)), "(1,1)");
    EXPECT_EQ(str(shape_div(make_tuple(3, 6, 2, 8), 6)), "(1,3,2,8)");
    EXPECT_EQ(str(shape_div(make_tuple(3, 6, 2, 8), 9)), "(1,2,2,8)");
    EXPECT_EQ(str(shape_div(make_tuple(42, 16, 3), 2)), "(21,16,3)");
    EXPECT_EQ(str(shape_div(make_tuple(42, 16, 3), 6)), "(7,16,3)");
    // Static in, static out.
    EXPECT_EQ(str(shape_div(make_tuple(C<6>{}, C<2>{}), C<3>{})), "(_2,_2)");
    EXPECT_THROW(shape_div(make_tuple(6, 2), 4), std::invalid_argument);
}

TEST(IntTuple, ShapeModSeedTable)
{
    EXPECT_EQ(str(shape_mod(make_tuple(6, 2), 2)), "(2,1)");
    EXPECT_EQ(str(shape_mod(make_tuple(6, 2), 3)), "(3,1)");
    EXPECT_EQ(str(shape_mod(make_tuple(6, 2), 6)), "(6,1)");
    EXPECT_EQ(str(shape_mod(make_tuple(6, 2), 12)), "(6,2)");
    EXPECT_EQ(str(shape_mod(make_tuple(3, 6, 2, 8), 6)), "(3,2,1,1)");
    EXPECT_EQ(str(shape_mod(make_tuple(3, 6, 2, 8), 9)), "(3,3,1,1)");
    EXPECT_EQ(str(shape_mod(make_tuple(1, 2, 2, 8), 2)), "(1,2,1,1)");
    EXPECT_EQ(str(shape_mod(make_tuple(1, 2, 2, 8), 16)), "(1,2,2,4)");
    EXPECT_EQ(str(shape_mod(make_tuple(C<3>{}, C<6>{}, C<2>{}, C<8>{}), C<9>{})), "(_3,_3,_1,_1)");
    EXPECT_THROW(shape_mod(make_tuple(6, 2), 4), std::invalid_argument);
}
