// SPDX-License-Identifier: MIT
// to_tensor_descriptor: the descriptor gives the layout's offsets, for random layouts.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace ck_tile;
using namespace ck_tile::wrapper;
using wt::C;
using wt::str;

namespace {
template <typename T, typename F>
void fill(T& t, F&& f)
{
    if constexpr(is_tuple_v<T>)
        static_for<0, T::size(), 1>{}([&](auto i) { fill(t.at(i), f); });
    else
        t = f();
}

// Every coordinate (c0, c1, ...) of a layout with R top-level modes, as 1-D mode coordinates.
template <typename L, typename Desc>
void expect_same_offsets(const L& l, const Desc& desc)
{
    constexpr index_t r = decltype(rank(l))::value;
    for(index_t i = 0; i < size(l); ++i)
    {
        // Split i colexicographically over the top-level modes.
        index_t rest = i;
        array<index_t, r> c{};
        static_for<0, r, 1>{}([&](auto k) {
            const index_t m = size<decltype(k)::value>(l);
            c[k]            = (decltype(k)::value == r - 1) ? rest : rest % m;
            rest /= m;
        });
        const auto coord = generate_tuple([&](auto k) { return c[k]; }, number<r>{});
        const auto idx   = unpack([](auto... xs) { return make_multi_index(xs...); }, coord);
        if constexpr(r == 1)
            ASSERT_EQ(desc.calculate_offset(idx), l(c[0])) << str(l);
        else
            ASSERT_EQ(desc.calculate_offset(idx), l(coord)) << str(l) << " at " << i;
    }
}

template <typename S>
void random_layouts(std::mt19937& g, int trials)
{
    for(int t = 0; t < trials; ++t)
    {
        S s{}, d{};
        fill(s, [&] { return static_cast<index_t>(1 + g() % 4); });
        fill(d, [&] { return static_cast<index_t>(g() % 20); });
        const auto l = make_layout(s, d);
        expect_same_offsets(l, to_tensor_descriptor(l));
    }
}
} // namespace

TEST(ToTensorDescriptor, RandomLayoutsSameOffsets)
{
    std::mt19937 g(9);
    random_layouts<index_t>(g, 50);
    random_layouts<tuple<index_t, index_t>>(g, 100);
    random_layouts<tuple<index_t, tuple<index_t, index_t>>>(g, 100);
    random_layouts<tuple<tuple<index_t, index_t, index_t>, index_t, tuple<index_t, index_t>>>(g,
                                                                                              100);
}

TEST(ToTensorDescriptor, StaticLayoutAndAlgebraResults)
{
    const auto a  = make_layout(make_tuple(C<9>{}, make_tuple(C<4>{}, C<8>{})),
                                make_tuple(C<59>{}, make_tuple(C<13>{}, C<1>{})));
    const auto zd = zipped_divide(
        a, make_tile(make_layout(C<3>{}, C<3>{}),
                     make_layout(make_tuple(C<2>{}, C<4>{}), make_tuple(C<1>{}, C<8>{}))));
    expect_same_offsets(zd, to_tensor_descriptor(zd));
    const auto desc = to_tensor_descriptor(a);
    static_assert(decltype(desc)::get_num_of_top_dimension() == 2);
    EXPECT_EQ(desc.calculate_offset(make_multi_index(2, 9)), a(2, 9));
}
