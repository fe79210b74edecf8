// SPDX-License-Identifier: MIT
// number<>, sequence, tuple, array, multi_index, static_for/static_ford, integer math.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace ck_tile;

TEST(IntegralConstant, ArithmeticOnNumbersStaysStatic)
{
    constexpr auto a = number<6>{} * number<7>{};
    static_assert(std::is_same_v<remove_cvref_t<decltype(a)>, number<42>>);
    static_assert(std::is_same_v<decltype(number<7>{} / number<2>{}), number<3>>);
    static_assert(std::is_same_v<decltype(number<7>{} % number<4>{}), number<3>>);
    static_assert(std::is_same_v<decltype(-number<3>{}), number<-3>>);
    static_assert(std::is_same_v<decltype(number<3>{} < number<4>{}), bool_constant<true>>);
    static_assert(is_constant_v<decltype(number<1>{} + number<2>{})>);
    // mixing with a runtime value gives a runtime value of the same number
    index_t r = 5;
    auto m    = number<3>{} * r;
    static_assert(std::is_same_v<decltype(m), index_t>);
    EXPECT_EQ(m, 15);
    EXPECT_EQ(number<3>{}(), 3);
    static_assert(is_static_v<number<3>> && !is_static_v<index_t>);
}

TEST(Math, IntegerHelpers)
{
    static_assert(integer_divide_ceil(7, 2) == 4);
    static_assert(
        std::is_same_v<decltype(integer_divide_ceil(number<7>{}, number<2>{})), number<4>>);
    static_assert(integer_least_multiple(5, 8) == 8);
    static_assert(
        std::is_same_v<decltype(integer_least_multiple(number<5>{}, number<8>{})), number<8>>);
    static_assert(gcd(12, 18) == 6 && lcm(4, 6) == 12 && gcd(0, 5) == 5);
    static_assert(std::is_same_v<decltype(gcd(number<12>{}, number<18>{})), number<6>>);
    static_assert(gcd(12, 18, 8) == 2 && lcm(2, 3, 4) == 12);
    static_assert(max(3, 9, 4) == 9 && min(3, 9, 4) == 3);
    static_assert(std::is_same_v<decltype(max(number<3>{}, number<9>{})), number<9>>);
    static_assert(is_power_of_two_integer(64) && !is_power_of_two_integer(48));
    static_assert(next_power_of_two(33) == 64 && integer_log2_floor(64) == 6);
    std::mt19937 rng(7);
    for(int t = 0; t < 1000; ++t)
    {
        const index_t x = static_cast<index_t>(rng() % 10000),
                      y = 1 + static_cast<index_t>(rng() % 100);
        const index_t m = integer_least_multiple(x, y);
        EXPECT_EQ(m % y, 0);
        EXPECT_GE(m, x);
        EXPECT_LT(m - x, y);
        EXPECT_EQ(integer_divide_ceil(x, y) * y, m);
        const index_t g = gcd(x, y);
        EXPECT_EQ(x % g, 0);
        EXPECT_EQ(y % g, 0);
        EXPECT_EQ(lcm(x + 1, y) % y, 0);
    }
}

TEST(Sequence, AccessAndBasics)
{
    using S = sequence<4, 7, 2>;
    static_assert(S::size() == 3);
    static_assert(S::at(1) == 7 && S{}[2] == 2);
    static_assert(std::is_same_v<decltype(S::at(number<1>{})), number<7>>);
    static_assert(std::is_same_v<decltype(S{}[number<0>{}]), number<4>>);
    static_assert(S::front() == 4 && S::back() == 2);
    static_assert(std::is_same_v<decltype(S::reverse()), sequence<2, 7, 4>>);
    static_assert(std::is_same_v<decltype(S::push_back(number<9>{})), sequence<4, 7, 2, 9>>);
    static_assert(
        std::is_same_v<decltype(S::push_front(sequence<0, 1>{})), sequence<0, 1, 4, 7, 2>>);
    static_assert(std::is_same_v<decltype(S::pop_front()), sequence<7, 2>>);
    static_assert(std::is_same_v<decltype(S::pop_back()), sequence<4, 7>>);
    static_assert(std::is_same_v<decltype(S::extract(sequence<2, 0>{})), sequence<2, 4>>);
    static_assert(std::is_same_v<decltype(S::modify(number<1>{}, number<0>{})), sequence<4, 0, 2>>);
    static_assert(
        std::is_same_v<decltype(S::reorder_new2old(sequence<2, 0, 1>{})), sequence<2, 4, 7>>);
    static_assert(
        std::is_same_v<decltype(S::reorder_old2new(sequence<2, 0, 1>{})), sequence<7, 2, 4>>);
    static_assert(S::sum() == 13 && S::product() == 56);
    static_assert(sequence<>::size() == 0 && sequence<>::sum() == 0);
    // runtime index gives the same value as the compile-time one
    for(index_t i = 0; i < 3; ++i)
        EXPECT_EQ(S::at(i), (std::array<int, 3>{4, 7, 2}[i]));
}

TEST(Sequence, Generators)
{
    static_assert(std::is_same_v<make_index_sequence<4>, sequence<0, 1, 2, 3>>);
    static_assert(std::is_same_v<make_index_sequence<0>, sequence<>>);
    static_assert(std::is_same_v<arithmetic_sequence_gen<2, 11, 3>::type, sequence<2, 5, 8>>);
    static_assert(std::is_same_v<arithmetic_sequence_gen<5, 0, -2>::type, sequence<5, 3, 1>>);
    static_assert(std::is_same_v<uniform_sequence_gen_t<3, 7>, sequence<7, 7, 7>>);
    static_assert(std::is_same_v<decltype(merge_sequences(sequence<1>{}, sequence<>{},
                                                          sequence<2, 3>{}, sequence<4>{})),
                                 sequence<1, 2, 3, 4>>);
    static_assert(std::is_same_v<sequence_split<sequence<1, 2, 3, 4>, 1>::left, sequence<1>>);
    static_assert(
        std::is_same_v<sequence_split<sequence<1, 2, 3, 4>, 1>::right, sequence<2, 3, 4>>);
}

TEST(Sequence, ScansAndReductions)
{
    using L = sequence<2, 3, 4>;
    static_assert(
        std::is_same_v<decltype(reverse_exclusive_scan_sequence(L{}, multiplies{}, number<1>{})),
                       sequence<12, 4, 1>>);
    static_assert(
        std::is_same_v<decltype(reverse_inclusive_scan_sequence(L{}, multiplies{}, number<1>{})),
                       sequence<24, 12, 4>>);
    static_assert(std::is_same_v<decltype(inclusive_scan_sequence(L{}, plus{}, number<0>{})),
                                 sequence<2, 5, 9>>);
    static_assert(std::is_same_v<decltype(exclusive_scan_sequence(L{}, plus{}, number<0>{})),
                                 sequence<0, 2, 5>>);
    static_assert(std::is_same_v<decltype(prefix_sum_sequence(L{})), sequence<0, 2, 5, 9>>);
    // the seed's use: constexpr index_t x0_size = reduce_on_sequence(hs_lengths, multiplies{},
    // number<1>{})
    constexpr index_t x0_size = reduce_on_sequence(sequence<2, 2>{}, multiplies{}, number<1>{});
    static_assert(x0_size == 4);
    static_assert(reduce_on_sequence(L{}, plus{}, number<0>{}) == 9);
    static_assert(reduce_on_sequence(sequence<3, 9, 1>{}, maximize{}, number<0>{}) == 9);
    static_assert(sequence_all_of(L{}, [](index_t x) { return x > 1; }));
    static_assert(!sequence_any_of(L{}, [](index_t x) { return x > 4; }));
    static_assert(sequence_find(L{}, 4) == 2 && sequence_find(L{}, 5) == -1);
}

TEST(Sequence, PickSortMapsArithmetic)
{
    static_assert(std::is_same_v<decltype(pick_sequence_elements_by_ids(sequence<5, 6, 7>{},
                                                                        sequence<2, 2, 0>{})),
                                 sequence<7, 7, 5>>);
    static_assert(std::is_same_v<decltype(pick_sequence_elements_by_mask(sequence<5, 6, 7>{},
                                                                         sequence<1, 0, 1>{})),
                                 sequence<5, 7>>);
    static_assert(std::is_same_v<decltype(modify_sequence_elements_by_ids(
                                     sequence<5, 6, 7>{}, sequence<0>{}, sequence<1>{})),
                                 sequence<5, 0, 7>>);
    using Sorted = sequence_sort<sequence<3, 1, 2, 1>>;
    static_assert(std::is_same_v<Sorted::type, sequence<1, 1, 2, 3>>);
    static_assert(std::is_same_v<Sorted::sorted2unsorted_map, sequence<1, 3, 2, 0>>);
    using U = sequence_unique_sort<sequence<3, 1, 2, 1, 3>>;
    static_assert(std::is_same_v<U::type, sequence<1, 2, 3>>);
    static_assert(is_valid_sequence_map<sequence<2, 0, 1>>::value);
    static_assert(!is_valid_sequence_map<sequence<2, 0, 0>>::value);
    static_assert(std::is_same_v<sequence_map_inverse<sequence<2, 0, 1>>::type, sequence<1, 2, 0>>);
    static_assert(
        std::is_same_v<decltype(sequence<1, 2>{} + sequence<10, 20>{}), sequence<11, 22>>);
    static_assert(std::is_same_v<decltype(sequence<1, 2>{} * number<3>{}), sequence<3, 6>>);
    static_assert(std::is_same_v<decltype(number<10>{} - sequence<1, 2>{}), sequence<9, 8>>);
    static_assert(decltype(sequence<1, 2>{} == sequence<1, 2>{})::value);
    static_assert(
        std::is_same_v<decltype(transform_sequences(plus{}, sequence<1, 2>{}, sequence<3, 4>{})),
                       sequence<4, 6>>);
}

TEST(Sequence, RandomPermutationsInvert)
{
    // a fixed set of permutations is enough: the algorithm is the same for every one
    using P   = sequence<3, 0, 4, 1, 2>;
    using Inv = sequence_map_inverse<P>::type;
    static_for<0, 5, 1>{}([](auto i) { static_assert(Inv::at(P::at(i)) == i); });
    using V = sequence<10, 11, 12, 13, 14>;
    static_assert(std::is_same_v<decltype(V::reorder_new2old(P{}).reorder_new2old(Inv{})), V>);
}

TEST(Tuple, AccessAndMake)
{
    auto t = make_tuple(number<2>{}, 3, 4.5f);
    static_assert(decltype(t)::size() == 3);
    static_assert(!decltype(t)::is_static());
    static_assert(decltype(make_tuple(number<1>{}, number<2>{}))::is_static());
    static_assert(std::is_same_v<remove_cvref_t<decltype(t[number<0>{}])>, number<2>>);
    EXPECT_EQ(t[number<1>{}], 3);
    t(number<1>{}) = 7;
    EXPECT_EQ(t.at(number<1>{}), 7);
    EXPECT_EQ(get<1>(t), 7);
    EXPECT_FLOAT_EQ(get<2>(t), 4.5f);
    auto [a, b, c] = t;
    EXPECT_EQ(a, 2);
    EXPECT_EQ(b, 7);
    EXPECT_FLOAT_EQ(c, 4.5f);
    int x = 0, y = 0;
    tie(x, y) = make_tuple(5, 6);
    EXPECT_EQ(x, 5);
    EXPECT_EQ(y, 6);
    tuple<int, int> ti{1, 2}; // seed 002: Tuple<int, int>{x + i, y}
    EXPECT_EQ(ti[number<0>{}] + ti[number<1>{}], 3);
    EXPECT_TRUE(make_tuple(1, 2) == make_tuple(1, 2));
    EXPECT_TRUE(make_tuple(1, 2) != make_tuple(1, 3));
}

TEST(Tuple, Algorithms)
{
    auto lengths = make_tuple(number<2>{}, 3, number<4>{});
    auto strides = container_reverse_exclusive_scan(lengths, multiplies{}, number<1>{});
    // static stays static as far as it can: the last two strides are number<>s
    static_assert(std::is_same_v<decltype(strides), tuple<index_t, number<4>, number<1>>>);
    EXPECT_EQ(strides[number<0>{}], 12);
    auto all_static = container_reverse_exclusive_scan(
        make_tuple(number<2>{}, number<3>{}, number<4>{}), multiplies{}, number<1>{});
    static_assert(std::is_same_v<decltype(all_static), tuple<number<12>, number<4>, number<1>>>);
    static_assert(std::is_same_v<decltype(container_reduce(make_tuple(number<2>{}, number<3>{}),
                                                           multiplies{}, number<1>{})),
                                 number<6>>);
    EXPECT_EQ(container_reduce(lengths, multiplies{}, number<1>{}), 24);
    auto inc = container_inclusive_scan(make_tuple(1, 2, 3), plus{}, 0);
    EXPECT_EQ(inc[number<2>{}], 6);
    auto exc = container_exclusive_scan(make_tuple(1, 2, 3), plus{}, 0);
    EXPECT_EQ(exc[number<2>{}], 3);
    auto rinc = container_reverse_inclusive_scan(make_tuple(1, 2, 3), plus{}, 0);
    EXPECT_EQ(rinc[number<0>{}], 6);

    auto g = generate_tuple([](auto i) { return number<i * i>{}; }, number<4>{});
    static_assert(std::is_same_v<decltype(g), tuple<number<0>, number<1>, number<4>, number<9>>>);
    static_assert(std::is_same_v<decltype(to_sequence(g)), sequence<0, 1, 4, 9>>);
    static_assert(std::is_same_v<decltype(generate_sequence_v2(
                                     [](auto i) { return i + number<1>{}; }, number<3>{})),
                                 sequence<1, 2, 3>>);
    EXPECT_EQ(unpack([](auto... xs) { return (xs + ... + 0); }, make_tuple(1, 2, number<3>{})), 6);
    EXPECT_EQ(unpack2([](auto... xs) { return (xs * ... * 1); }, make_tuple(2, 3), make_tuple(4)),
              24);
    auto sub = get_container_subset(make_tuple(10, number<11>{}, 12), sequence<2, 1>{});
    EXPECT_EQ(sub[number<0>{}], 12);
    static_assert(std::is_same_v<remove_cvref_t<decltype(sub[number<1>{}])>, number<11>>);
    auto cat = tuple_cat(make_tuple(1), make_tuple(2, 3), make_tuple(4));
    static_assert(decltype(cat)::size() == 4);
    EXPECT_EQ(cat[number<3>{}], 4);
    auto rev = tuple_reverse(make_tuple(1, 2, 3));
    EXPECT_EQ(rev[number<0>{}], 3);
    auto re = container_reorder_given_new2old(make_tuple(1, 2, 3), sequence<2, 0, 1>{});
    EXPECT_TRUE(re == make_tuple(3, 1, 2));
    auto re2 = container_reorder_given_old2new(make_tuple(1, 2, 3), sequence<2, 0, 1>{});
    EXPECT_TRUE(re2 == make_tuple(2, 3, 1));
    auto sum = transform_tuples([](auto x, auto y) { return x + y; }, make_tuple(1, number<2>{}),
                                make_tuple(3, number<4>{}));
    static_assert(std::is_same_v<remove_cvref_t<decltype(sum[number<1>{}])>, number<6>>);
    EXPECT_EQ(sum[number<0>{}], 4);
}

TEST(Array, AggregateAndAccess)
{
    array<index_t, 3> a{1, 2, 3};
    EXPECT_EQ(a[0] + a[number<1>{}] + a.get<2>(), 6);
    a(1) = 5;
    EXPECT_EQ(a.at(1), 5);
    static_assert(array<index_t, 3>::size() == 3);
    array b{1, 2, 3, 4};
    static_assert(decltype(b)::size() == 4);
    auto c = make_array<index_t>(1, 2);
    EXPECT_EQ(c[1], 2);
    auto u = make_uniform_array(7, number<3>{});
    EXPECT_EQ(u[2], 7);
    array<index_t, 0> empty{};
    static_assert(decltype(empty)::size() == 0);
    index_t s = 0;
    for(auto x : a)
        s += x;
    EXPECT_EQ(s, 9);
    auto pb = container_push_back(a, 9);
    EXPECT_EQ(pb[3], 9);
    auto cc = container_concat(a, make_array<index_t>(4, 5));
    static_assert(decltype(cc)::size() == 5);
    EXPECT_EQ(cc[4], 5);
    auto scan = container_reverse_exclusive_scan(array<index_t, 3>{2, 3, 4}, multiplies{}, 1);
    EXPECT_TRUE((scan == array<index_t, 3>{12, 4, 1}));
}

TEST(MultiIndex, MakeAndArithmetic)
{
    // seed 004 7.19.3
    auto coord = make_multi_index(1, 2, 3);
    EXPECT_EQ(coord[0], 1);
    EXPECT_EQ(coord[1], 2);
    EXPECT_EQ(coord[2], 3);
    auto coord_static = make_multi_index(number<1>{}, number<2>{}, number<3>{});
    EXPECT_TRUE(coord_static == coord);
    auto shape  = make_tuple(128, 256, 64);
    auto coord2 = to_multi_index(shape);
    EXPECT_EQ(coord2[1], 256);
    auto new_coord = coord;
    new_coord[0]   = 5;
    EXPECT_EQ(new_coord[0], 5);
    multi_index<3> top_coord{0, 1, 2}; // seed 003
    EXPECT_EQ(top_coord[2], 2);
    auto z = make_zero_multi_index<4>();
    for(index_t i = 0; i < 4; ++i)
        EXPECT_EQ(z[i], 0);
    auto s = coord + make_multi_index(10, 10, 10);
    EXPECT_TRUE((s == make_multi_index(11, 12, 13)));
    s -= make_tuple(1, number<2>{}, 3);
    EXPECT_TRUE((s == make_multi_index(10, 10, 10)));
    EXPECT_TRUE((coord * 2 == make_multi_index(2, 4, 6)));
    EXPECT_TRUE((-coord == make_multi_index(-1, -2, -3)));
    EXPECT_EQ(dot(coord, make_tuple(100, 10, number<1>{})), 123);
}

TEST(StaticFor, VisitsEveryIndexInOrder)
{
    std::vector<int> seen;
    static_for<0, 5, 1>{}([&](auto i) {
        static_assert(is_constant_v<decltype(i)>);
        seen.push_back(i);
    });
    EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4}));
    seen.clear();
    static_for<7, 0, -3>{}([&](auto i) { seen.push_back(i); });
    EXPECT_EQ(seen, (std::vector<int>{7, 4, 1}));
    seen.clear();
    static_for<3, 3, 1>{}([&](auto i) { seen.push_back(i); });
    EXPECT_TRUE(seen.empty());
    // seed 002: nested loop whose bound is the outer induction variable
    int swaps = 0;
    static_for<0, 4, 1>{}([&](auto i) { static_for<0, i, 1>{}([&](auto) { ++swaps; }); });
    EXPECT_EQ(swaps, 6);
}

TEST(StaticFord, VisitsTheBoxInTheGivenOrder)
{
    std::vector<std::pair<int, int>> seen;
    static_ford<sequence<2, 3>>{}([&](auto idx) {
        static_assert(is_sequence_v<decltype(idx)>);
        seen.emplace_back(idx[number<0>{}], idx[number<1>{}]);
    });
    EXPECT_EQ(seen,
              (std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
    seen.clear();
    static_ford<sequence<2, 3>, sequence<1, 0>>{}(
        [&](auto idx) { seen.emplace_back(idx[number<0>{}], idx[number<1>{}]); });
    EXPECT_EQ(seen,
              (std::vector<std::pair<int, int>>{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}));
    int count = 0;
    static_ford<sequence<2, 3, 4>, sequence<2, 0, 1>>{}([&](auto) { ++count; });
    EXPECT_EQ(count, 24);
}

TEST(Print, ContainersPrintReadably)
{
    testing::internal::CaptureStdout();
    print(sequence<1, 2, 3>{});
    printf("|");
    print(make_tuple(number<4>{}, 5));
    printf("|");
    print(make_multi_index(7, 8));
    printf("|");
    print(bool_constant<true>{});
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(out, "sequence<1, 2, 3>|tuple<number<4>, 5>|array{7, 8}|bool_constant<true>");
}
