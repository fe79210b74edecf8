// SPDX-License-Identifier: MIT
// Space-filling curves (seed 004, 7.13): the seed's tables for plain, vectorized, column-major,
// snake, GEMM, 3-D and non-divisible curves, and the properties every curve has: a bijection
// onto the access grid, steps that add up, and snake steps of one access in one dimension.
#include <ck_tile/core/algorithm/space_filling_curve.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

using namespace ck_tile;

namespace {

template <typename SFC>
std::vector<std::vector<index_t>> visits()
{
    std::vector<std::vector<index_t>> out;
    for(index_t i = 0; i < SFC::get_num_of_access(); ++i)
    {
        const auto idx = SFC::get_index(i);
        out.emplace_back(idx.begin(), idx.end());
    }
    return out;
}

using V = std::vector<std::vector<index_t>>;

// Every access starts at a distinct multiple of scalars_per_access inside the lengths, and
// together they are all of them.
template <typename SFC>
void expect_bijection_onto_access_grid()
{
    std::set<std::vector<index_t>> seen;
    for(const auto& v : visits<SFC>())
    {
        for(index_t d = 0; d < SFC::ndim; ++d)
        {
            EXPECT_EQ(v[d] % SFC::scalars_per_access[d], 0);
            EXPECT_GE(v[d], 0);
            EXPECT_LT(v[d], SFC::tensor_lengths[d]);
        }
        EXPECT_TRUE(seen.insert(v).second);
    }
    EXPECT_EQ(static_cast<index_t>(seen.size()), SFC::get_num_of_access());
    EXPECT_EQ(SFC::get_num_of_access(), SFC::access_lengths_type::product());
}

// Consecutive accesses of a snake differ by exactly one access in exactly one dimension.
template <typename SFC>
void expect_unit_snake_steps()
{
    for(index_t i = 0; i + 1 < SFC::get_num_of_access(); ++i)
    {
        const auto step = SFC::get_forward_step(i);
        index_t moved   = 0;
        for(index_t d = 0; d < SFC::ndim; ++d)
        {
            if(step[d] != 0)
            {
                ++moved;
                EXPECT_EQ(std::abs(step[d]), SFC::scalars_per_access[d]) << "access " << i;
            }
        }
        EXPECT_EQ(moved, 1) << "access " << i;
    }
}

template <typename SFC>
void expect_steps_add_up()
{
    const index_t n = SFC::get_num_of_access();
    for(index_t a = 0; a < n; ++a)
        for(index_t b = 0; b < n; b += 3)
        {
            const auto s = SFC::get_step_between(a, b);
            const auto x = SFC::get_index(a);
            const auto y = SFC::get_index(b);
            for(index_t d = 0; d < SFC::ndim; ++d)
                EXPECT_EQ(x[d] + s[d], y[d]);
        }
    for(index_t i = 1; i < n; ++i)
    {
        const auto back = SFC::get_backward_step(i);
        const auto fwd  = SFC::get_forward_step(i - 1);
        for(index_t d = 0; d < SFC::ndim; ++d)
            EXPECT_EQ(back[d], -fwd[d]);
    }
}

// 7.13.4
using RowMajorCurve = space_filling_curve<2, sequence<4, 6>, sequence<0, 1>, sequence<1, 1>, false>;
using VectorizedCurve =
    space_filling_curve<2, sequence<4, 8>, sequence<0, 1>, sequence<1, 4>, false>;
using ColMajor = space_filling_curve<2, sequence<4, 6>, sequence<1, 0>, sequence<1, 1>, false>;
// 7.13.5
using SnakeCurve = space_filling_curve<2, sequence<4, 8>, sequence<0, 1>, sequence<1, 1>, true>;
using GemmTileCurve =
    space_filling_curve<2, sequence<16, 32>, sequence<1, 0>, sequence<1, 8>, false>;
using Tensor3D =
    space_filling_curve<3, sequence<4, 8, 16>, sequence<0, 1, 2>, sequence<1, 2, 4>, false>;
// 7.13.7
using EdgeCaseCurve = space_filling_curve<2, sequence<5, 7>, sequence<0, 1>, sequence<2, 3>, false>;

} // namespace

TEST(SpaceFillingCurve, Seed7134RowMajorScalar)
{
    static_assert(RowMajorCurve::get_num_of_access() == 24);
    const V first10 = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4},
                       {0, 5}, {1, 0}, {1, 1}, {1, 2}, {1, 3}};
    const auto all  = visits<RowMajorCurve>();
    EXPECT_EQ(V(all.begin(), all.begin() + 10), first10);
    expect_bijection_onto_access_grid<RowMajorCurve>();
}

TEST(SpaceFillingCurve, Seed7134Vectorized)
{
    static_assert(VectorizedCurve::get_num_of_access() == 8);
    static_assert(VectorizedCurve::get_num_of_scalar_per_access() == 4);
    EXPECT_EQ(visits<VectorizedCurve>(),
              (V{{0, 0}, {0, 4}, {1, 0}, {1, 4}, {2, 0}, {2, 4}, {3, 0}, {3, 4}}));
}

TEST(SpaceFillingCurve, Seed7134ColumnMajor)
{
    const auto all = visits<ColMajor>();
    EXPECT_EQ(V(all.begin(), all.begin() + 5), (V{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}}));
    expect_bijection_onto_access_grid<ColMajor>();
}

TEST(SpaceFillingCurve, Seed7135SnakeReversesOddRows)
{
    const auto all = visits<SnakeCurve>();
    ASSERT_EQ(all.size(), 32u);
    for(index_t r = 0; r < 4; ++r)
        for(index_t c = 0; c < 8; ++c)
        {
            const std::vector<index_t> expect = {r, r % 2 == 0 ? c : 7 - c};
            EXPECT_EQ(all[static_cast<size_t>(r * 8 + c)], expect);
        }
    expect_bijection_onto_access_grid<SnakeCurve>();
    expect_unit_snake_steps<SnakeCurve>();
}

TEST(SpaceFillingCurve, Seed7135GemmTileAnd3D)
{
    static_assert(GemmTileCurve::get_num_of_access() == 64);
    // column-major: the row varies fastest, each access 8 columns wide
    EXPECT_EQ(GemmTileCurve::get_index(1)[0], 1);
    EXPECT_EQ(GemmTileCurve::get_index(16)[1], 8);
    expect_bijection_onto_access_grid<GemmTileCurve>();
    static_assert(Tensor3D::get_num_of_access() == 64);
    expect_bijection_onto_access_grid<Tensor3D>();
}

TEST(SpaceFillingCurve, Seed7137NonDivisibleLengthsRoundUp)
{
    static_assert(EdgeCaseCurve::access_lengths[0] == 3);
    static_assert(EdgeCaseCurve::access_lengths[1] == 3);
    static_assert(EdgeCaseCurve::get_num_of_access() == 9);
    EXPECT_EQ(visits<EdgeCaseCurve>(),
              (V{{0, 0}, {0, 3}, {0, 6}, {2, 0}, {2, 3}, {2, 6}, {4, 0}, {4, 3}, {4, 6}}));
    expect_bijection_onto_access_grid<EdgeCaseCurve>();
}

TEST(SpaceFillingCurve, SnakeIn3DWithPermutedOrderAndVectors)
{
    using S = space_filling_curve<3, sequence<3, 4, 8>, sequence<2, 0, 1>, sequence<1, 2, 2>, true>;
    static_assert(S::get_num_of_access() == 3 * 2 * 4);
    expect_bijection_onto_access_grid<S>();
    expect_unit_snake_steps<S>();
    expect_steps_add_up<S>();
    // dimension 2 is outermost: the first 6 accesses stay at column 0
    for(index_t i = 0; i < 6; ++i)
        EXPECT_EQ(S::get_index(i)[2], 0);
}

TEST(SpaceFillingCurve, StepsAddUpForPlainCurves)
{
    expect_steps_add_up<RowMajorCurve>();
    expect_steps_add_up<ColMajor>();
    expect_steps_add_up<Tensor3D>();
}

TEST(SpaceFillingCurve, IndicesAreConstantExpressions)
{
    constexpr auto i = SnakeCurve::get_index(number<9>{});
    static_assert(i[0] == 1 && i[1] == 6);
    constexpr auto s = SnakeCurve::get_forward_step(7);
    static_assert(s[0] == 1 && s[1] == 0);
    using Empty = space_filling_curve<0, sequence<>, sequence<>, sequence<>, true>;
    static_assert(Empty::get_num_of_access() == 1);
    static_assert(Empty::get_index(0).size() == 0);
}
