// SPDX-License-Identifier: MIT
// Post-conditions of the layout algebra as properties over many random layouts (fixed seeds):
// each test is named after the operation whose @post comment it checks.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ck_tile;
using namespace ck_tile::wrapper;
using wt::C;
using wt::str;

namespace {
// Shape types (all runtime integers) the random layouts take.
using S1 = index_t;
using S2 = tuple<index_t, index_t>;
using S3 = tuple<index_t, tuple<index_t, index_t>>;
using S4 = tuple<tuple<index_t, index_t>, index_t, index_t>;

constexpr int kTrials = 300;

// Fills every integer of an int-tuple with f().
template <typename T, typename F>
void fill(T& t, F&& f)
{
    if constexpr(is_tuple_v<T>)
        static_for<0, T::size(), 1>{}([&](auto i) { fill(t.at(i), f); });
    else
        t = f();
}

// Any layout: shapes in [1, 4], strides in [0, 12].
template <typename S>
auto random_layout(std::mt19937& g)
{
    S s{};
    S d{};
    fill(s, [&] { return static_cast<index_t>(1 + g() % 4); });
    fill(d, [&] { return static_cast<index_t>(g() % 13); });
    return make_layout(s, d);
}

// Power-of-two shapes and strides (stride 0 now and then): composition's divisibility
// conditions always hold between powers of two.
template <typename S>
auto random_pow2_layout(std::mt19937& g, bool allow_zero_stride)
{
    S s{};
    S d{};
    fill(s, [&] { return static_cast<index_t>(1 << (g() % 3)); });
    fill(d, [&] {
        if(allow_zero_stride && g() % 8 == 0)
            return index_t{0};
        return static_cast<index_t>(1 << (g() % 5));
    });
    return make_layout(s, d);
}

// An injective layout whose sorted strides divide one another (complementable): modes in a
// random order, each starting at the extent of the ones below times a gap. Power-of-two
// shapes and gaps unless `general`.
template <typename S>
auto random_complementable(std::mt19937& g, bool general)
{
    S s{};
    fill(s, [&] { return static_cast<index_t>(general ? 1 + g() % 4 : 1 << (g() % 3)); });
    auto fs             = wrapper::detail::flatten_to_tuple(s);
    constexpr index_t n = decltype(fs)::size();
    std::vector<index_t> shapes(n), order(n), strides(n);
    static_for<0, n, 1>{}([&](auto i) { shapes[i] = fs[i]; });
    for(index_t i = 0; i < n; ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), g);
    index_t cur = 1;
    for(index_t k = 0; k < n; ++k)
    {
        const index_t gap = general ? 1 + g() % 3 : 1 << (g() % 2);
        strides[order[k]] = cur * gap;
        cur               = cur * gap * shapes[order[k]];
    }
    S d{};
    index_t pos = 0;
    fill(d, [&] { return strides[pos++]; });
    return make_layout(s, d);
}

template <typename L>
bool injective(const L& l)
{
    std::set<index_t> seen;
    for(index_t i = 0; i < size(l); ++i)
        if(!seen.insert(l(i)).second)
            return false;
    return true;
}

template <typename F>
void for_each_shape_type(F&& f)
{
    f(S1{});
    f(S2{});
    f(S3{});
    f(S4{});
}
} // namespace

TEST(Coalesce, PreservesFunctionAndFlattens)
{
    std::mt19937 g(1);
    for_each_shape_type([&](auto st) {
        for(int t = 0; t < kTrials; ++t)
        {
            const auto l = random_layout<decltype(st)>(g);
            const auto c = coalesce(l);
            ASSERT_EQ(size(c), size(l)) << str(l);
            ASSERT_LE(decltype(depth(c))::value, 1) << str(l);
            ASSERT_TRUE(wt::same_function(c, l, size(l))) << str(l) << " -> " << str(c);
        }
    });
    // Static layouts do merge; check the function on a few.
    const auto s = make_layout(make_tuple(C<2>{}, make_tuple(C<3>{}, C<1>{}), C<4>{}),
                               make_tuple(C<1>{}, make_tuple(C<2>{}, C<9>{}), C<6>{}));
    EXPECT_EQ(str(coalesce(s)), "_24:_1");
    const auto s2 =
        make_layout(make_tuple(C<2>{}, C<3>{}, C<4>{}), make_tuple(C<3>{}, C<6>{}, C<1>{}));
    EXPECT_EQ(str(coalesce(s2)), "(_6,_4):(_3,_1)");
    EXPECT_TRUE(wt::same_function(coalesce(s2), s2, 24));
}

// B's modes are distributed over (A o (B0, B1) == (A o B0, A o B1)), which is A o B only when
// the sums B0(i) + B1(j) do not carry between A's modes: B injective (its stride-0 modes
// aside). That is composition's precondition; the tests draw B accordingly.

// The layout with its stride-0 modes shrunk to size 1 (they add nothing to an index).
template <typename L>
auto without_stride_zero(const L& l)
{
    const auto fsh = wrapper::detail::flatten_to_tuple(l.shape());
    const auto fst = wrapper::detail::flatten_to_tuple(l.stride());
    std::vector<index_t> shapes;
    static_for<0, decltype(fsh)::size(), 1>{}(
        [&](auto i) { shapes.push_back(fst[i] == 0 ? index_t{1} : static_cast<index_t>(fsh[i])); });
    auto s    = l.shape();
    index_t k = 0;
    fill(s, [&] { return shapes[k++]; });
    return make_layout(s, l.stride());
}

TEST(Composition, CompatibleWithBAndEqualsAOfB)
{
    std::mt19937 g(2);
    int checked = 0;
    for_each_shape_type([&](auto sa) {
        for_each_shape_type([&](auto sb) {
            for(int t = 0; t < kTrials / 4; ++t)
            {
                const auto a = random_pow2_layout<decltype(sa)>(g, false);
                const auto b = random_pow2_layout<decltype(sb)>(g, true);
                const auto r = composition(a, b);
                ASSERT_TRUE(compatible(b, r)) << str(a) << " o " << str(b) << " = " << str(r);
                ASSERT_EQ(size(r), size(b));
                if(!injective(without_stride_zero(b)))
                    continue;
                for(index_t i = 0; i < size(b); ++i)
                    ASSERT_EQ(r(i), a(b(i)))
                        << str(a) << " o " << str(b) << " = " << str(r) << " at " << i;
                ++checked;
            }
        });
    });
    EXPECT_GT(checked, 2 * kTrials);
}

TEST(Composition, GeneralIntegersThrowOrAreRight)
{
    // Arbitrary shapes: when a divisibility condition fails the call throws; when it does
    // not, the result must be exactly A o B.
    std::mt19937 g(3);
    int ok = 0, rejected = 0;
    for(int t = 0; t < 20 * kTrials; ++t)
    {
        const auto a = random_layout<S3>(g);
        const auto b = random_layout<S2>(g);
        try
        {
            const auto r = composition(a, b);
            ASSERT_TRUE(compatible(b, r)) << str(a) << " o " << str(b) << " = " << str(r);
            if(!injective(without_stride_zero(b)))
                continue;
            for(index_t i = 0; i < size(b); ++i)
                ASSERT_EQ(r(i), a(b(i))) << str(a) << " o " << str(b) << " = " << str(r);
            ++ok;
        }
        catch(const std::invalid_argument&)
        {
            ++rejected;
        }
    }
    EXPECT_GT(ok, kTrials / 2);
    EXPECT_GT(rejected, 0);
}

TEST(Complement, OrderedDisjointBounded)
{
    std::mt19937 g(4);
    for_each_shape_type([&](auto st) {
        for(int t = 0; t < kTrials; ++t)
        {
            const auto a    = random_complementable<decltype(st)>(g, t % 2 == 1);
            const index_t m = 1 + static_cast<index_t>(g() % (2 * cosize(a) + 1));
            const auto r    = complement(a, m);
            const std::string msg =
                "complement(" + str(a) + ", " + std::to_string(m) + ") = " + str(r);
            for(index_t i = 1; i < size(r); ++i)
                ASSERT_LT(r(i - 1), r(i)) << msg; // ordered
            std::set<index_t> image_a;
            for(index_t j = 0; j < size(a); ++j)
                image_a.insert(a(j));
            for(index_t i = 1; i < size(r); ++i)
                ASSERT_EQ(image_a.count(r(i)), 0u) << msg;  // disjoint
            ASSERT_GE(cosize(make_layout(a, r)), m) << msg; // reaches the cotarget
            if(cosize(a) <= m)
            {
                ASSERT_LE(size(r), m) << msg; // bounded by the cotarget
            }
            ASSERT_TRUE(injective(make_layout(a, r))) << msg;
        }
    });
}

TEST(LogicalDivide, ConservesSizeFirstModeIsComposition)
{
    std::mt19937 g(5);
    for_each_shape_type([&](auto sa) {
        for_each_shape_type([&](auto sb) {
            for(int t = 0; t < kTrials / 4; ++t)
            {
                const auto a = random_pow2_layout<decltype(sa)>(g, false);
                const auto b = random_complementable<decltype(sb)>(g, false);
                if(cosize(b) > size(a))
                    continue; // the tile must fit in A for the tiles to cover A exactly
                const auto d          = logical_divide(a, b);
                const std::string msg = str(a) + " / " + str(b) + " = " + str(d);
                ASSERT_EQ(size(d), size(a)) << msg;
                ASSERT_TRUE(get<0>(d) == composition(a, b)) << msg;
                ASSERT_TRUE(get<0>(zipped_divide(a, b)) == composition(a, b)) << msg;
                ASSERT_EQ(size(tiled_divide(a, b)), size(a)) << msg;
                ASSERT_EQ(size(flat_divide(a, b)), size(a)) << msg;
                // A divide only permutes A's elements.
                std::multiset<index_t> x, y;
                for(index_t i = 0; i < size(a); ++i)
                {
                    x.insert(a(i));
                    y.insert(d(i));
                }
                ASSERT_TRUE(x == y) << msg;
            }
        });
    });
}

TEST(ZippedDivide, TwoDTilerFirstModeIsComposition)
{
    std::mt19937 g(6);
    for(int t = 0; t < kTrials; ++t)
    {
        const auto a  = random_pow2_layout<S4>(g, false);
        const auto b0 = random_complementable<S1>(g, false);
        const auto b1 = random_complementable<S2>(g, false);
        if(cosize(b0) > size<0>(a) || cosize(b1) > size<1>(a))
            continue;
        const auto tiler      = make_tile(b0, b1);
        const auto zd         = zipped_divide(a, tiler);
        const std::string msg = str(a) + " / <" + str(b0) + "," + str(b1) + "> = " + str(zd);
        ASSERT_EQ(size(zd), size(a)) << msg;
        ASSERT_TRUE(get<0>(zd) ==
                    make_layout(composition(get<0>(a), b0), composition(get<1>(a), b1)))
            << msg;
        ASSERT_EQ(size<0>(zd), size(b0) * size(b1)) << msg;
        ASSERT_EQ(size(tiled_divide(a, tiler)), size(a)) << msg;
        ASSERT_EQ(size(flat_divide(a, tiler)), size(a)) << msg;
        ASSERT_TRUE(get<0>(logical_divide(a, tiler)) == logical_divide(get<0>(a), b0)) << msg;
    }
}

TEST(LogicalProduct, ConservesSizeFirstModeIsA)
{
    std::mt19937 g(7);
    for_each_shape_type([&](auto sa) {
        for_each_shape_type([&](auto sb) {
            for(int t = 0; t < kTrials / 4; ++t)
            {
                const auto a          = random_complementable<decltype(sa)>(g, false);
                const auto b          = random_pow2_layout<decltype(sb)>(g, false);
                const auto p          = logical_product(a, b);
                const std::string msg = str(a) + " x " + str(b) + " = " + str(p);
                ASSERT_TRUE(get<0>(p) == a) << msg;
                ASSERT_TRUE(compatible(b, get<1>(p))) << msg;
                ASSERT_EQ(size(p), size(a) * size(b)) << msg;
                ASSERT_TRUE(get<0>(zipped_product(a, b)) == a) << msg;
                ASSERT_EQ(size(tiled_product(a, b)), size(p)) << msg;
                ASSERT_EQ(size(flat_product(a, b)), size(p)) << msg;
                if(injective(b))
                {
                    ASSERT_TRUE(injective(p)) << msg; // copies of A never overlap
                }
            }
        });
    });
}

TEST(BlockedProduct, SameElementsAsLogicalProduct)
{
    std::mt19937 g(8);
    for(int t = 0; t < kTrials; ++t)
    {
        const auto a = random_complementable<S2>(g, false);
        const auto b = random_pow2_layout<S2>(g, false);
        const auto p = logical_product(a, b);
        for(const bool raked : {false, true})
        {
            const auto q = raked ? wt::str(raked_product(a, b)) : wt::str(blocked_product(a, b));
            std::multiset<index_t> x, y;
            for(index_t i = 0; i < size(p); ++i)
                x.insert(p(i));
            if(raked)
            {
                const auto r = raked_product(a, b);
                static_assert(decltype(rank(r))::value == 2);
                ASSERT_EQ(size(r), size(a) * size(b)) << q;
                ASSERT_EQ(size<0>(r), size<0>(a) * size<0>(b)) << q;
                for(index_t i = 0; i < size(r); ++i)
                    y.insert(r(i));
            }
            else
            {
                const auto r = blocked_product(a, b);
                static_assert(decltype(rank(r))::value == 2);
                ASSERT_EQ(size(r), size(a) * size(b)) << q;
                ASSERT_EQ(size<1>(r), size<1>(a) * size<1>(b)) << q;
                // Blocked: the block A sits at the origin of mode-wise coordinates.
                for(index_t i = 0; i < size<0>(a); ++i)
                    for(index_t j = 0; j < size<1>(a); ++j)
                        ASSERT_EQ(r(i, j), a(i, j)) << q;
                for(index_t i = 0; i < size(r); ++i)
                    y.insert(r(i));
            }
            ASSERT_TRUE(x == y) << q;
        }
    }
}

TEST(Composition, StaticAndDynamicAgree)
{
    // The same algebra on static and on runtime integers gives the same functions.
    const auto as =
        make_layout(make_tuple(C<4>{}, C<2>{}, C<3>{}), make_tuple(C<2>{}, C<1>{}, C<8>{}));
    const auto ad = make_layout(make_tuple(4, 2, 3), make_tuple(2, 1, 8));
    const auto bs = make_layout(C<4>{}, C<2>{});
    const auto bd = make_layout(4, 2);
    EXPECT_TRUE(wt::same_function(logical_divide(as, bs), logical_divide(ad, bd), 24));
    EXPECT_TRUE(wt::same_function(logical_product(bs, make_layout(C<2>{}, C<1>{})),
                                  logical_product(bd, make_layout(2, 1)), 8));
    // 4:2 x 3:1 would need copies at 0, 1 and 8: not a layout. Statically that is a
    // compile-time error; at run time it throws.
    EXPECT_THROW(logical_product(bd, make_layout(3, 1)), std::invalid_argument);
    EXPECT_TRUE(wt::same_function(complement(bs, C<24>{}), complement(bd, 24), 6));
    EXPECT_TRUE(wt::same_function(blocked_product(as, bs), blocked_product(ad, bd), 96));
}
