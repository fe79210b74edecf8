// SPDX-License-Identifier: MIT
// buffer_view on host memory: bounds-checked scalar and vector get/set with zero or a custom
// invalid value, register buffers, compile-time sizes, and update() with every memory operation.
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/buffer_view.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using namespace ck_tile;
using float2 = ext_vector_t<float, 2>;
using float4 = ext_vector_t<float, 4>;

TEST(BufferView, TypeEncodesAddressSpaceAndSize)
{
    float data[8]        = {1, 2, 3, 4, 5, 6, 7, 8};
    auto bv              = make_buffer_view<address_space_enum::global>(data, number<8>{});
    constexpr auto size  = bv.get_buffer_size();
    constexpr auto space = bv.get_address_space();
    static_assert(size == 8, "Buffer size should be 8");
    static_assert(space == address_space_enum::global, "Should be global memory");
    static_assert(
        std::is_same_v<decltype(bv), buffer_view<address_space_enum::global, float, number<8>>>);

    buffer_view<address_space_enum::global, float, index_t> explicit_buffer{data, 8};
    EXPECT_EQ(explicit_buffer.get_buffer_size(), 8);
    EXPECT_EQ(explicit_buffer.get<float>(0, 7, true).get(0), 8.0f);
}

// The seed's get examples.
TEST(BufferView, ScalarAndVectorGet)
{
    float data[8] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    auto bv       = make_buffer_view<address_space_enum::global>(data, 8);

    auto value_buf = bv.template get<float>(0, 1, true);
    EXPECT_EQ(value_buf.get(0), 2.0f);
    bool valid_flag = false;
    value_buf       = bv.template get<float>(0, 1, valid_flag);
    EXPECT_EQ(value_buf.get(0), 0.0f);

    auto vector_buf = bv.template get<float2>(0, 0, true);
    EXPECT_EQ(vector_buf.get(0), 1.0f);
    EXPECT_EQ(vector_buf.get(1), 2.0f);

    const float4 v = bv.get<float4>(3, 1, true); // elements 4..7
    EXPECT_EQ(v, (float4{5.0f, 6.0f, 7.0f, 8.0f}));
    const float s = bv.get<float>(2, 0, true); // a one-element vector reads as float
    EXPECT_EQ(s, 3.0f);
}

TEST(BufferView, OutOfBoundsAndInvalidReadsGiveZero)
{
    float data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    auto bv       = make_buffer_view<address_space_enum::global>(data, 8);
    EXPECT_EQ(bv.get<float>(0, 8, true).get(0), 0.0f);
    EXPECT_EQ(bv.get<float>(0, 100, true).get(0), 0.0f);
    EXPECT_EQ(bv.get<float>(0, -1, true).get(0), 0.0f);
    EXPECT_EQ(bv.get<float>(-3, 2, true).get(0), 0.0f);
    EXPECT_EQ(bv.get<float>(7, 0, true).get(0), 8.0f);
    EXPECT_EQ(bv.get<float2>(0, 6, true), (float2{7, 8}));
    // A vector reaching past the end is invalid as a whole: never reads outside the buffer.
    EXPECT_EQ(bv.get<float2>(0, 7, true), (float2{0, 0}));
    EXPECT_EQ(bv.get<float4>(0, 6, true), (float4{0, 0, 0, 0}));
    EXPECT_EQ(bv.get<float4>(0, 0, false), (float4{0, 0, 0, 0}));
}

TEST(BufferView, CustomInvalidValue)
{
    float data[8]        = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    float custom_invalid = 13.0f;
    auto bv              = make_buffer_view<address_space_enum::global>(data, 8, custom_invalid);
    EXPECT_EQ(bv.template get<float>(0, 0, false).get(0), 13.0f);
    EXPECT_EQ(bv.template get<float>(0, 100, true).get(0), 13.0f);
    EXPECT_EQ(bv.template get<float>(0, 0, true).get(0), 1.0f);
    EXPECT_EQ(bv.get<float4>(0, 5, true), (float4{13, 13, 13, 13}));
    EXPECT_EQ(bv.get<float4>(0, 4, true), (float4{5, 6, 7, 8}));

    // -inf as the neutral element of a max reduction, in a narrow type.
    std::vector<half_t> h(4, type_convert<half_t>(1.0f));
    auto hv =
        make_buffer_view<address_space_enum::global>(h.data(), 4, -numeric<half_t>::infinity());
    EXPECT_TRUE(is_inf(hv.get<half_t>(0, 4, true).get(0)));
    EXPECT_EQ(type_convert<float>(hv.get<half_t>(0, 3, true).get(0)), 1.0f);
}

// The seed's set examples.
TEST(BufferView, SetWritesOnlyValidInBoundsElements)
{
    float data[8]  = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    float guard[4] = {-1, -1, -1, -1}; // nothing may land here
    auto bv        = make_buffer_view<address_space_enum::global>(data, 8);

    bv.template set<float>(0, 2, true, 99.0f);
    bv.template set<float>(0, 3, false, 777.0f);
    bv.template set<float>(0, 100, true, 555.0f);
    bv.template set<float>(0, -1, true, 555.0f);
    float2 pair_values{100.0f, 200.0f};
    bv.template set<float2>(0, 5, true, pair_values);
    bv.template set<float2>(0, 7, true, pair_values); // straddles the end: dropped
    bv.set<float4>(1, 0, false, float4{9, 9, 9, 9});

    const float expect[8] = {1.0f, 2.0f, 99.0f, 4.0f, 5.0f, 100.0f, 200.0f, 8.0f};
    for(int i = 0; i < 8; ++i)
        EXPECT_EQ(data[i], expect[i]) << i;
    for(float g : guard)
        EXPECT_EQ(g, -1.0f);
}

TEST(BufferView, NarrowTypesAndPackedAccess)
{
    std::vector<fp8_t> q(16);
    for(int i = 0; i < 16; ++i)
        q[i] = type_convert<fp8_t>(static_cast<float>(i));
    auto bv      = make_buffer_view<address_space_enum::global>(q.data(), 16);
    const auto v = bv.get<ext_vector_t<fp8_t, 8>>(8, 0, true);
    for(int i = 0; i < 8; ++i)
        EXPECT_EQ(type_convert<float>(v[i]), static_cast<float>(8 + i));
    bv.set<ext_vector_t<fp8_t, 4>>(0, 0, true, ext_vector_t<fp8_t, 4>{});
    EXPECT_EQ(type_convert<float>(q[3]), 0.0f);
    EXPECT_EQ(type_convert<float>(q[4]), 4.0f);
}

// A buffer whose elements are themselves vectors: indices count those elements.
TEST(BufferView, VectorElementBuffer)
{
    float2 pairs[3] = {{1, 2}, {3, 4}, {5, 6}};
    auto bv         = make_buffer_view<address_space_enum::generic>(pairs, 3);
    EXPECT_EQ(bv.get<float2>(1, 0, true), (float2{3, 4}));
    EXPECT_EQ(bv.get<float4>(1, 0, true), (float4{3, 4, 5, 6}));
    EXPECT_EQ(bv.get<float4>(2, 0, true), (float4{0, 0, 0, 0}));
    bv.set<float2>(0, 2, true, float2{7, 8});
    EXPECT_EQ(pairs[2][1], 8.0f);
}

TEST(BufferView, RegisterBuffers)
{
    int32_t regs[4] = {10, 20, 30, 40};
    auto rv         = make_buffer_view<address_space_enum::vgpr>(regs, number<4>{});
    static_assert(rv.get_address_space() == address_space_enum::vgpr);
    static_assert(rv.get_buffer_size() == 4);
    EXPECT_EQ(rv.get<int32_t>(0, 3, true).get(0), 40);
    EXPECT_EQ(rv.get<int32_t>(0, 4, true).get(0), 0);
    rv.set<ext_vector_t<int32_t, 2>>(2, 0, true, ext_vector_t<int32_t, 2>{7, 8});
    EXPECT_EQ(regs[2], 7);
    EXPECT_EQ(regs[3], 8);
    rv.update<memory_operation_enum::add>(0, 0, true, ext_vector_t<int32_t, 2>{1, 2});
    EXPECT_EQ(regs[0], 11);
    EXPECT_EQ(regs[1], 22);

    float s[2] = {1.5f, 2.5f};
    auto sv    = make_buffer_view<address_space_enum::sgpr>(s, 2, -1.0f);
    EXPECT_EQ(sv.get<float>(1, 0, true).get(0), 2.5f);
    EXPECT_EQ(sv.get<float>(2, 0, true).get(0), -1.0f);
}

TEST(BufferView, UpdateWithEveryMemoryOperation)
{
    float data[4] = {1, 2, 3, 4};
    auto bv       = make_buffer_view<address_space_enum::global>(data, 4);
    bv.update<memory_operation_enum::set, float>(0, 0, true, 10.0f);
    bv.update<memory_operation_enum::add, float2>(0, 1, true, float2{1, 1});
    bv.update<memory_operation_enum::atomic_add, float>(0, 3, true, 0.5f);
    bv.update<memory_operation_enum::atomic_max, float>(0, 0, true, 5.0f);  // 10 stays
    bv.update<memory_operation_enum::atomic_max, float>(0, 1, true, 50.0f); // 3 -> 50
    bv.update<memory_operation_enum::atomic_add, float>(0, 4, true, 1.0f);  // out of bounds
    bv.update<memory_operation_enum::add, float>(0, 2, false, 1.0f);        // invalid
    const float expect[4] = {10, 50, 4, 4.5f};
    for(int i = 0; i < 4; ++i)
        EXPECT_EQ(data[i], expect[i]) << i;
}

// Atomics through compare-and-swap on the enclosing word: neighbours sharing the word with the
// updated element must be untouched, also under contention.
TEST(BufferView, AtomicsOnNarrowTypesLeaveNeighboursIntact)
{
    std::vector<half_t> h(4, type_convert<half_t>(0.0f));
    std::vector<int8_t> b(4, 0);
    auto hv = make_buffer_view<address_space_enum::global>(h.data(), 4);
    auto bv = make_buffer_view<address_space_enum::global>(b.data(), 4);
    std::vector<std::thread> threads;
    for(int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for(int k = 0; k < 256; ++k)
            {
                hv.atomic_add<half_t>(1, 0, true, type_convert<half_t>(1.0f));
                bv.atomic_add<int8_t>(2, 0, true, int8_t{1});
                bv.atomic_max<int8_t>(1, 0, true, static_cast<int8_t>(k % 100));
            }
        });
    for(auto& t : threads)
        t.join();
    EXPECT_EQ(type_convert<float>(h[1]), 1024.0f);
    EXPECT_EQ(type_convert<float>(h[0]), 0.0f);
    EXPECT_EQ(type_convert<float>(h[2]), 0.0f);
    EXPECT_EQ(b[2], static_cast<int8_t>(1024 % 256));
    EXPECT_EQ(b[1], 99);
    EXPECT_EQ(b[0], 0);
    EXPECT_EQ(b[3], 0);

    std::vector<double> d(2, 0.0);
    auto dv = make_buffer_view<address_space_enum::lds>(d.data(), 2);
    dv.update<memory_operation_enum::atomic_add>(0, 1, true, ext_vector_t<double, 1>{2.5});
    dv.update<memory_operation_enum::atomic_max>(0, 0, true, ext_vector_t<double, 2>{-1.0, 7.0});
    EXPECT_EQ(d[0], 0.0);
    EXPECT_EQ(d[1], 7.0);
}

} // namespace
