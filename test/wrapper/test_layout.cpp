// SPDX-License-Identifier: MIT
// Layouts and their algebra on the worked examples of seed 001 (CuTe layout algebra), with
// the results printed in CuTe notation.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

using namespace ck_tile;
using namespace ck_tile::wrapper;
using wt::C;
using wt::str;

// ---- the layout itself ----------------------------------------------------------------------

TEST(Layout, ShapeStrideSizeCosizeRankDepth)
{
    const auto l = make_layout(make_tuple(12, make_tuple(4, 8)), make_tuple(59, make_tuple(13, 1)));
    EXPECT_EQ(str(l), "(12,(4,8)):(59,(13,1))");
    EXPECT_EQ(size(l), 384);
    EXPECT_EQ(cosize(l), 11 * 59 + 3 * 13 + 7 + 1);
    static_assert(decltype(rank(l))::value == 2 && decltype(depth(l))::value == 2);
    EXPECT_EQ(str(shape(l)), "(12,(4,8))");
    EXPECT_EQ(str(stride<1>(l)), "(13,1)");
    EXPECT_EQ((shape<1, 0>(l)), 4);
    EXPECT_EQ(size<1>(l), 32);
    EXPECT_EQ(str(get<1>(l)), "(4,8):(13,1)");
    EXPECT_EQ(str(get<1, 1>(l)), "8:1");
}

TEST(Layout, StaticLayoutFoldsToConstants)
{
    constexpr auto l = make_layout(make_tuple(C<4>{}, make_tuple(C<2>{}, C<4>{})),
                                   make_tuple(C<2>{}, make_tuple(C<1>{}, C<8>{})));
    static_assert(decltype(size(l))::value == 32);
    static_assert(decltype(cosize(l))::value == 3 * 2 + 1 + 3 * 8 + 1);
    static_assert(decltype(l(C<5>{}))::value == 1 * 2 + 1 * 1);
    static_assert(decltype(l)::is_static());
    EXPECT_EQ(str(l), "(_4,(_2,_4)):(_2,(_1,_8))");
}

TEST(Layout, CoordinatesNaturalOneDPartial)
{
    const auto l = make_layout(make_tuple(4, make_tuple(2, 4)), make_tuple(2, make_tuple(1, 8)));
    for(index_t i = 0; i < 4; ++i)
        for(index_t j = 0; j < 2; ++j)
            for(index_t k = 0; k < 4; ++k)
            {
                const index_t want = i * 2 + j + k * 8;
                EXPECT_EQ(l(make_tuple(i, make_tuple(j, k))), want);
                EXPECT_EQ(l(i, make_tuple(j, k)), want);
                EXPECT_EQ(l(i, j + 2 * k), want);        // partially hierarchical
                EXPECT_EQ(l(i + 4 * (j + 2 * k)), want); // 1-D, colexicographic
            }
}

TEST(Layout, MakeLayoutFromShapeIsColumnMajor)
{
    const auto l = make_layout(make_tuple(C<2>{}, make_tuple(C<3>{}, 4)));
    EXPECT_EQ(str(l), "(_2,(_3,4)):(_1,(_2,_6))");
    EXPECT_TRUE(wt::same_function(l, make_layout(24, 1), 24));
}

TEST(Layout, ConcatenationAndEquality)
{
    const auto a = make_layout(C<4>{}, C<2>{});
    const auto b = make_layout(make_tuple(2, 3), make_tuple(1, 8));
    const auto c = make_layout(a, b);
    EXPECT_EQ(str(c), "(_4,(2,3)):(_2,(1,8))");
    EXPECT_TRUE(get<0>(c) == a);
    EXPECT_TRUE(get<1>(c) == b);
    EXPECT_TRUE(make_layout(4, 2) == a); // a runtime 4 equals a static 4
    EXPECT_FALSE(make_layout(4, 3) == a);
}

TEST(Layout, Compatible)
{
    const auto b = make_layout(make_tuple(4, 3), make_tuple(3, 1));
    const auto r = make_layout(make_tuple(make_tuple(2, 2), 3), make_tuple(make_tuple(24, 2), 8));
    EXPECT_TRUE(compatible(b, r));
    EXPECT_FALSE(compatible(r, b));
}

TEST(Layout, PrintsWithOstreamAndPrint)
{
    std::ostringstream os;
    os << make_layout(make_tuple(C<2>{}, 3), make_tuple(C<1>{}, 2));
    EXPECT_EQ(os.str(), "(_2,3):(_1,2)");
}

// ---- coalesce -------------------------------------------------------------------------------

TEST(Coalesce, SeedExample)
{
    const auto l = make_layout(make_tuple(C<2>{}, make_tuple(C<1>{}, C<6>{})),
                               make_tuple(C<1>{}, make_tuple(C<6>{}, C<2>{})));
    EXPECT_EQ(str(coalesce(l)), "_12:_1");
}

TEST(Coalesce, ByModeSeedExample)
{
    const auto a = make_layout(make_tuple(C<2>{}, make_tuple(C<1>{}, C<6>{})),
                               make_tuple(C<1>{}, make_tuple(C<6>{}, C<2>{})));
    EXPECT_EQ(str(coalesce(a, make_tuple(C<1>{}, C<1>{}))), "(_2,_6):(_1,_2)");
    EXPECT_TRUE(coalesce(a, make_tuple(1, 1)) ==
                make_layout(coalesce(get<0>(a)), coalesce(get<1>(a))));
}

TEST(Coalesce, FourCases)
{
    // s0:d0 ++ _1:d1 => s0:d0, _1:d0 ++ s1:d1 => s1:d1, s0:d0 ++ s1:s0*d0 => s0*s1:d0, else both.
    EXPECT_EQ(str(coalesce(make_layout(make_tuple(C<3>{}, C<1>{}), make_tuple(C<2>{}, C<7>{})))),
              "_3:_2");
    EXPECT_EQ(str(coalesce(make_layout(make_tuple(C<1>{}, C<3>{}), make_tuple(C<7>{}, C<2>{})))),
              "_3:_2");
    EXPECT_EQ(str(coalesce(make_layout(make_tuple(C<3>{}, C<4>{}), make_tuple(C<2>{}, C<6>{})))),
              "_12:_2");
    EXPECT_EQ(str(coalesce(make_layout(make_tuple(C<3>{}, C<4>{}), make_tuple(C<2>{}, C<5>{})))),
              "(_3,_4):(_2,_5)");
    EXPECT_EQ(str(coalesce(make_layout(make_tuple(C<1>{}, C<1>{}), make_tuple(C<3>{}, C<5>{})))),
              "_1:_0");
    // Runtime integers are never merged (the rank is part of the type) but still flattened.
    EXPECT_EQ(str(coalesce(
                  make_layout(make_tuple(3, make_tuple(4, 1)), make_tuple(2, make_tuple(6, 9))))),
              "(3,4,1):(2,6,9)");
}

// ---- composition ----------------------------------------------------------------------------

TEST(Composition, SeedExampleFunction)
{
    // A = (6,2):(8,2), B = (4,3):(3,1), R = ((2,2),3):((24,2),8).
    const auto a = make_layout(make_tuple(C<6>{}, C<2>{}), make_tuple(C<8>{}, C<2>{}));
    const auto b = make_layout(make_tuple(C<4>{}, C<3>{}), make_tuple(C<3>{}, C<1>{}));
    const auto r = composition(a, b);
    EXPECT_EQ(str(r), "((_2,_2),_3):((_24,_2),_8)");
    const index_t table[12] = {0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42};
    for(index_t i = 0; i < 12; ++i)
    {
        EXPECT_EQ(r(i), table[i]);
        EXPECT_EQ(a(b(i)), table[i]);
    }
    EXPECT_TRUE(compatible(b, r));
}

TEST(Composition, ReshapeExample1)
{
    // 20:2 o (5,4):(4,1) = (5,4):(8,2)
    const auto r = composition(make_layout(C<20>{}, C<2>{}),
                               make_layout(make_tuple(C<5>{}, C<4>{}), make_tuple(C<4>{}, C<1>{})));
    EXPECT_EQ(str(r), "(_5,_4):(_8,_2)");
}

TEST(Composition, ReshapeExample2StaticAndDynamic)
{
    const auto a = make_layout(make_tuple(C<10>{}, C<2>{}), make_tuple(C<16>{}, C<4>{}));
    const auto b = make_layout(make_tuple(C<5>{}, C<4>{}), make_tuple(C<1>{}, C<5>{}));
    EXPECT_EQ(str(composition(a, b)), "(_5,(_2,_2)):(_16,(_80,_4))");

    const auto ad = make_layout(make_tuple(10, 2), make_tuple(16, 4));
    const auto bd = make_layout(make_tuple(5, 4), make_tuple(1, 5));
    EXPECT_EQ(str(composition(ad, bd)), "((5,1),(2,2)):((16,4),(80,4))");
    // Different looking, the same function.
    EXPECT_TRUE(wt::same_function(composition(a, b), composition(ad, bd), 20));
    // The parts of the derivation.
    EXPECT_EQ(str(composition(ad, make_layout(5, 1))), "(5,1):(16,4)");
    EXPECT_EQ(str(composition(ad, make_layout(4, 5))), "(2,2):(80,4)");
}

TEST(Composition, ByModeWithLayoutTiler)
{
    const auto a = make_layout(make_tuple(12, make_tuple(4, 8)), make_tuple(59, make_tuple(13, 1)));
    const auto tiler = make_tile(make_layout(C<3>{}, C<4>{}), make_layout(C<8>{}, C<2>{}));
    const auto r     = composition(a, tiler);
    EXPECT_EQ(str(r), "(_3,(2,4)):(236,(26,1))");
    EXPECT_TRUE(r == make_layout(composition(get<0>(a), get<0>(tiler)),
                                 composition(get<1>(a), get<1>(tiler))));
}

TEST(Composition, ByModeWithShapeTiler)
{
    const auto a = make_layout(make_tuple(12, make_tuple(4, 8)), make_tuple(59, make_tuple(13, 1)));
    EXPECT_EQ(str(composition(a, make_tuple(C<3>{}, C<8>{}))), "(_3,(4,2)):(59,(13,1))");
    // The same as the tiler <3:1, 8:1>.
    EXPECT_TRUE(
        composition(a, make_tuple(C<3>{}, C<8>{})) ==
        composition(a, make_tile(make_layout(C<3>{}, C<1>{}), make_layout(C<8>{}, C<1>{}))));
}

TEST(Composition, StrideZeroAndIntegralA)
{
    EXPECT_EQ(str(composition(make_layout(make_tuple(C<4>{}, C<3>{}), make_tuple(C<3>{}, C<1>{})),
                              make_layout(C<5>{}, C<0>{}))),
              "_5:_0");
    const auto r = composition(make_layout(make_tuple(4, 3), make_tuple(3, 1)), make_layout(5, 0));
    EXPECT_TRUE(wt::same_function(r, make_layout(5, 0), 5));
    EXPECT_EQ(str(composition(make_layout(C<8>{}, C<3>{}), make_layout(C<4>{}, C<2>{}))), "_4:_6");
}

TEST(Composition, DivisibilityViolationsThrow)
{
    const auto a = make_layout(make_tuple(4, 3), make_tuple(1, 10));
    EXPECT_THROW(composition(a, make_layout(6, 1)), std::invalid_argument); // shape condition
    EXPECT_THROW(composition(a, make_layout(3, 3)), std::invalid_argument); // stride condition
    EXPECT_NO_THROW(composition(a, make_layout(3, 1)));                     // ends inside mode 0
    try
    {
        composition(a, make_layout(6, 1));
    }
    catch(const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("composition"), std::string::npos);
    }
}

// ---- complement -----------------------------------------------------------------------------

TEST(Complement, SeedExamples)
{
    EXPECT_EQ(str(complement(make_layout(C<4>{}, C<1>{}), C<24>{})), "_6:_4");
    EXPECT_EQ(str(complement(make_layout(C<6>{}, C<4>{}), C<24>{})), "_4:_1");
    EXPECT_EQ(str(complement(make_layout(make_tuple(C<4>{}, C<6>{}), make_tuple(C<1>{}, C<4>{})),
                             C<24>{})),
              "_1:_0");
    EXPECT_EQ(str(complement(make_layout(C<4>{}, C<2>{}), C<24>{})), "(_2,_3):(_1,_8)");
    EXPECT_EQ(str(complement(make_layout(make_tuple(C<2>{}, C<4>{}), make_tuple(C<1>{}, C<6>{})),
                             C<24>{})),
              "_3:_2");
    EXPECT_EQ(str(complement(make_layout(make_tuple(C<2>{}, C<2>{}), make_tuple(C<1>{}, C<6>{})),
                             C<24>{})),
              "(_3,_2):(_2,_12)");
}

TEST(Complement, DynamicAndIntTupleCotarget)
{
    // Runtime integers: the same function, with the size-1 modes a static result would drop.
    EXPECT_EQ(str(complement(make_layout(4, 2), 24)), "(2,3):(1,8)");
    EXPECT_TRUE(wt::same_function(complement(make_layout(make_tuple(2, 2), make_tuple(1, 6)), 24),
                                  make_layout(make_tuple(3, 2), make_tuple(2, 12)), 6));
    // A static layout with a runtime cotarget keeps everything but the last shape static.
    EXPECT_EQ(str(complement(make_layout(C<4>{}, C<2>{}), 24)), "(_2,3):(_1,_8)");
    // The cotarget may be a shape; only its size matters.
    EXPECT_EQ(str(complement(make_layout(C<4>{}, C<1>{}), make_tuple(C<4>{}, 7))), "7:_4");
}

TEST(Complement, NotComplementableThrows)
{
    EXPECT_THROW(complement(make_layout(make_tuple(3, 2), make_tuple(1, 4)), 24),
                 std::invalid_argument);
    EXPECT_THROW(complement(make_layout(make_tuple(2, 2), make_tuple(1, 1)), 8),
                 std::invalid_argument);
}

// ---- divide ---------------------------------------------------------------------------------

TEST(LogicalDivide, OneDSeedExample)
{
    const auto a =
        make_layout(make_tuple(C<4>{}, C<2>{}, C<3>{}), make_tuple(C<2>{}, C<1>{}, C<8>{}));
    const auto b = make_layout(C<4>{}, C<2>{});
    EXPECT_EQ(str(complement(b, size(a))), "(_2,_3):(_1,_8)");
    EXPECT_EQ(str(logical_divide(a, b)), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
}

namespace {
auto seed_a_2d()
{
    return make_layout(make_tuple(C<9>{}, make_tuple(C<4>{}, C<8>{})),
                       make_tuple(C<59>{}, make_tuple(C<13>{}, C<1>{})));
}
auto seed_tiler_2d()
{
    return make_tile(make_layout(C<3>{}, C<3>{}),
                     make_layout(make_tuple(C<2>{}, C<4>{}), make_tuple(C<1>{}, C<8>{})));
}
} // namespace

TEST(LogicalDivide, TwoDSeedExample)
{
    const auto ld = logical_divide(seed_a_2d(), seed_tiler_2d());
    EXPECT_EQ(str(ld), "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
    // The first mode of each mode is the composition.
    EXPECT_EQ(str(composition(seed_a_2d(), seed_tiler_2d())), "(_3,(_2,_4)):(_177,(_13,_2))");
    EXPECT_TRUE(make_layout(get<0, 0>(ld), get<1, 0>(ld)) ==
                composition(seed_a_2d(), seed_tiler_2d()));
}

TEST(ZippedDivide, SeedExample)
{
    const auto zd = zipped_divide(seed_a_2d(), seed_tiler_2d());
    EXPECT_EQ(str(zd), "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
    EXPECT_EQ(size<0>(zd), 24);
    EXPECT_EQ(size<1>(zd), 12);
    EXPECT_TRUE(get<0>(zd) == composition(seed_a_2d(), seed_tiler_2d()));
    // Offsets of the 3rd, the 7th and the (1,2)th tile (the 7th is the (1,2)th: 7 = 1 + 3*2).
    EXPECT_EQ(zd(0, 3), 13 * 2);
    EXPECT_EQ(zd(0, 7), 59 + 1);
    EXPECT_EQ(zd(0, make_tuple(1, 2)), 59 + 1);
    EXPECT_EQ(zd(0, make_tuple(2, 3)), 2 * 59 + 26 + 1);
}

TEST(TiledDivide, SeedExample)
{
    EXPECT_EQ(str(tiled_divide(seed_a_2d(), seed_tiler_2d())),
              "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))");
}

TEST(FlatDivide, SeedExample)
{
    EXPECT_EQ(str(flat_divide(seed_a_2d(), seed_tiler_2d())),
              "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))");
}

TEST(ZippedDivide, ExtraModesGoToTheRest)
{
    // (M, N, L) tiled by <TileM, TileN>: L joins the rest mode.
    const auto a  = make_layout(make_tuple(C<8>{}, C<6>{}, C<5>{}));
    const auto zd = zipped_divide(a, make_tile(C<4>{}, C<3>{}));
    EXPECT_EQ(str(zd), "((_4,_3),(_2,_2,_5)):((_1,_8),(_4,_24,_48))");
    EXPECT_EQ(str(tiled_divide(a, make_tile(C<4>{}, C<3>{}))),
              "((_4,_3),_2,_2,_5):((_1,_8),_4,_24,_48)");
    EXPECT_EQ(str(flat_divide(a, make_tile(C<4>{}, C<3>{}))),
              "(_4,_3,_2,_2,_5):(_1,_8,_4,_24,_48)");
    // A 1-D tiler: (tile, rest) already.
    EXPECT_EQ(str(zipped_divide(make_layout(C<24>{}), make_layout(C<4>{}, C<2>{}))),
              "(_4,(_2,_3)):(_2,(_1,_8))");
    EXPECT_EQ(str(tiled_divide(make_layout(C<24>{}), make_layout(C<4>{}, C<2>{}))),
              "(_4,_2,_3):(_2,_1,_8)");
}

// ---- product --------------------------------------------------------------------------------

TEST(LogicalProduct, OneDSeedExamples)
{
    const auto a = make_layout(make_tuple(C<2>{}, C<2>{}), make_tuple(C<4>{}, C<1>{}));
    EXPECT_EQ(str(complement(a, C<24>{})), "(_2,_3):(_2,_8)");
    EXPECT_EQ(str(logical_product(a, make_layout(C<6>{}, C<1>{}))),
              "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
    // Identical to the 1-D logical divide example.
    EXPECT_TRUE(logical_product(a, make_layout(C<6>{}, C<1>{})) ==
                logical_divide(make_layout(make_tuple(C<4>{}, C<2>{}, C<3>{}),
                                           make_tuple(C<2>{}, C<1>{}, C<8>{})),
                               make_layout(C<4>{}, C<2>{})));
    // B = (4,2):(2,1): 8 tiles in a different order.
    EXPECT_EQ(str(logical_product(
                  a, make_layout(make_tuple(C<4>{}, C<2>{}), make_tuple(C<2>{}, C<1>{})))),
              "((_2,_2),(_4,_2)):((_4,_1),(_8,_2))");
}

TEST(BlockedProduct, SeedExample)
{
    // A 2x5 row-major block tiled across a 3x4 column-major arrangement.
    const auto block = make_layout(make_tuple(C<2>{}, C<5>{}), make_tuple(C<5>{}, C<1>{}));
    const auto tiler = make_layout(make_tuple(C<3>{}, C<4>{}), make_tuple(C<1>{}, C<3>{}));
    EXPECT_EQ(str(blocked_product(block, tiler)), "(_6,(_5,_4)):(_5,(_1,_30))");
}

TEST(RakedProduct, SeedExample)
{
    const auto block = make_layout(make_tuple(C<2>{}, C<5>{}), make_tuple(C<5>{}, C<1>{}));
    const auto tiler = make_layout(make_tuple(C<3>{}, C<4>{}), make_tuple(C<1>{}, C<3>{}));
    EXPECT_EQ(str(raked_product(block, tiler)), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
}

TEST(ZippedProduct, ModesRearranged)
{
    const auto a = make_layout(make_tuple(C<2>{}, C<5>{}));
    const auto t = make_tile(make_layout(C<3>{}), make_layout(C<4>{}));
    // Mode 1: 5:2 x 4:1 = (5:2, complement(5:2, 20) o 4:1) = (5,(2,2)):(2,(1,10)).
    EXPECT_EQ(str(logical_product(a, t)), "((_2,_3),(_5,(_2,_2))):((_1,_2),(_2,(_1,_10)))");
    EXPECT_EQ(str(zipped_product(a, t)), "((_2,_5),(_3,(_2,_2))):((_1,_2),(_2,(_1,_10)))");
    EXPECT_EQ(str(tiled_product(a, t)), "((_2,_5),_3,(_2,_2)):((_1,_2),_2,(_1,_10))");
    EXPECT_EQ(str(flat_product(a, t)), "(_2,_5,_3,(_2,_2)):(_1,_2,_2,(_1,_10))");
}
