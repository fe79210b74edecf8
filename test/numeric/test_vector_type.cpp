// SPDX-License-Identifier: MIT
// ext_vector_t / vector_type / vector_traits: layout, element access, flattening, custom types.
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

namespace {

using namespace ck_tile;

// The custom type of the precision chapter: a complex number of two halves.
struct complex_half_t
{
    using type = half_t;
    type real;
    type img;

    complex_half_t() : real{type{}}, img{type{}} {}
    complex_half_t(type real_init, type img_init) : real{real_init}, img{img_init} {}
};

// Alignment is the vector's size, so a 16-byte vector is one 16-byte memory instruction.
static_assert(sizeof(ext_vector_t<float, 4>) == 16 && alignof(ext_vector_t<float, 4>) == 16);
static_assert(sizeof(ext_vector_t<half_t, 8>) == 16 && alignof(ext_vector_t<half_t, 8>) == 16);
static_assert(sizeof(ext_vector_t<fp8_t, 16>) == 16 && alignof(ext_vector_t<fp8_t, 16>) == 16);
static_assert(sizeof(ext_vector_t<bf16_t, 2>) == 4 && alignof(ext_vector_t<bf16_t, 2>) == 4);
static_assert(sizeof(ext_vector_t<int8_t, 8>) == 8 && alignof(ext_vector_t<int8_t, 8>) == 8);
static_assert(sizeof(ext_vector_t<double, 2>) == 16 && alignof(ext_vector_t<double, 2>) == 16);
static_assert(sizeof(ext_vector_t<float, 8>) == 32 && alignof(ext_vector_t<float, 8>) == 32);
static_assert(sizeof(ext_vector_t<float, 1>) == 4 && alignof(ext_vector_t<float, 1>) == 4);
// Not a power of two: the largest power of two dividing the size.
static_assert(sizeof(ext_vector_t<float, 3>) == 12 && alignof(ext_vector_t<float, 3>) == 4);
static_assert(sizeof(ext_vector_t<half_t, 6>) == 12 && alignof(ext_vector_t<half_t, 6>) == 4);
static_assert(sizeof(ext_vector_t<complex_half_t, 4>) == 16 &&
              alignof(ext_vector_t<complex_half_t, 4>) == 16);
static_assert(std::is_trivially_copyable_v<ext_vector_t<half_t, 8>>);
static_assert(std::is_trivially_default_constructible_v<ext_vector_t<fp8_t, 4>>);

// Nested vectors flatten into one wider vector of the scalar type.
static_assert(std::is_same_v<ext_vector_t<ext_vector_t<half_t, 2>, 4>, ext_vector<half_t, 8>>);
static_assert(
    std::is_same_v<ext_vector_t<ext_vector_t<ext_vector_t<float, 2>, 2>, 2>, ext_vector<float, 8>>);
static_assert(std::is_same_v<vector_type<float, 4>::type, ext_vector<float, 4>>);
static_assert(std::is_same_v<vector_type_t<ext_vector_t<bf8_t, 4>, 2>, ext_vector<bf8_t, 8>>);
static_assert(std::is_same_v<vector_type<ext_vector_t<int8_t, 4>, 4>::scalar_type, int8_t>);
static_assert(vector_type<ext_vector_t<int8_t, 4>, 4>::vector_size == 16);

static_assert(std::is_same_v<vector_traits<float>::scalar_type, float>);
static_assert(vector_traits<float>::vector_size == 1);
static_assert(std::is_same_v<vector_traits<ext_vector_t<fp8_t, 16>>::scalar_type, fp8_t>);
static_assert(vector_traits<ext_vector_t<fp8_t, 16>>::vector_size == 16);
static_assert(vector_traits<const ext_vector_t<half_t, 4>&>::vector_size == 4);
static_assert(std::is_same_v<vector_traits<complex_half_t>::scalar_type, complex_half_t>);
static_assert(vector_traits<ext_vector_t<complex_half_t, 2>>::vector_size == 2);

// Element access is constexpr.
constexpr ext_vector_t<int32_t, 4> iota4{0, 1, 2, 3};
static_assert(iota4.get(2) == 2 && iota4[3] == 3 && iota4.size() == 4);
static_assert(iota4 == ext_vector_t<int32_t, 4>{0, 1, 2, 3});
static_assert(iota4 != ext_vector_t<int32_t, 4>{0, 1, 2, 4});
static_assert(ext_vector_t<float, 2>{}.get(0) == 0.0f && ext_vector_t<float, 2>{}.get(1) == 0.0f);

TEST(VectorType, ElementsReadAndWrite)
{
    ext_vector_t<float, 4> v{1.0f, 2.0f, 3.0f, 4.0f};
    v[1] *= 10.0f;
    v.set(3, -1.0f);
    EXPECT_EQ(v.get(0), 1.0f);
    EXPECT_EQ(v.get(1), 20.0f);
    EXPECT_EQ(v[2], 3.0f);
    EXPECT_EQ(v[3], -1.0f);
    EXPECT_EQ(v.data()[2], 3.0f);
}

TEST(VectorType, OneElementVectorReadsAsItsScalar)
{
    const ext_vector_t<float, 1> v{2.5f};
    const float f = v;
    EXPECT_EQ(f, 2.5f);
    EXPECT_EQ(v.get(0), 2.5f);
}

TEST(VectorType, NarrowFloatElementsKeepTheirCodes)
{
    ext_vector_t<half_t, 8> h{};
    for(index_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(h[i].data, 0u); // value-initialized to +0
        h.set(i, type_convert<half_t>(static_cast<float>(i) * 0.5f));
    }
    for(index_t i = 0; i < 8; ++i)
        EXPECT_EQ(type_convert<float>(h[i]), static_cast<float>(i) * 0.5f);
}

TEST(VectorType, GetAsReinterpretsTheBytes)
{
    ext_vector_t<fp8_t, 4> q{fp8_t::from_bits(0x01), fp8_t::from_bits(0x02), fp8_t::from_bits(0x03),
                             fp8_t::from_bits(0x04)};
    const auto w = q.get_as<uint32_t>();
    static_assert(std::is_same_v<std::remove_cv_t<decltype(w)>, ext_vector<uint32_t, 1>>);
    EXPECT_EQ(w.get(0), 0x04030201u); // little-endian
    const auto hh = ext_vector_t<uint32_t, 2>{0x3c003800u, 0xbc000000u}.get_as<half_t>();
    EXPECT_EQ(type_convert<float>(hh[0]), 0.5f);
    EXPECT_EQ(type_convert<float>(hh[1]), 1.0f);
    EXPECT_EQ(type_convert<float>(hh[3]), -1.0f);
}

TEST(VectorType, CustomTypeElements)
{
    ext_vector_t<complex_half_t, 2> c;
    c.set(0, complex_half_t{type_convert<half_t>(1.0f), type_convert<half_t>(-2.0f)});
    c.set(1, complex_half_t{});
    EXPECT_EQ(type_convert<float>(c[0].real), 1.0f);
    EXPECT_EQ(type_convert<float>(c[0].img), -2.0f);
    EXPECT_EQ(type_convert<float>(c[1].img), 0.0f);
    const auto raw = c.get_as<uint16_t>();
    EXPECT_EQ(raw.size(), 4);
    EXPECT_EQ(raw[0], 0x3c00u);
    EXPECT_EQ(raw[1], 0xc000u);
}

} // namespace
