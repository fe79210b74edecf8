// SPDX-License-Identifier: MIT
// The wrapper tensor: seed 004 chapter 13's example, element access, memory types, slicing.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <array>
#include <sstream>
#include <stdexcept>

namespace ck = ck_tile;
using wt::C;
using wt::str;

TEST(Tensor, SeedExamplePrintsDocumentedOutput)
{
    // Seed 004, "Composable Kernel wrapper", with ck:: spelled ck_tile::.
    std::ostringstream out;
    const auto shape_4x2x4    = ck::make_tuple(4, ck::make_tuple(2, 4));
    const auto strides_s2x1x8 = ck::make_tuple(2, ck::make_tuple(1, 8));
    const auto layout         = ck::wrapper::make_layout(shape_4x2x4, strides_s2x1x8);

    std::array<ck::index_t, 32> data;
    auto tensor = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Generic>(&data[0], layout);

    for(ck::index_t w = 0; w < size(tensor); w++)
    {
        tensor(w) = w;
    }

    // slice() == slice(0, -1) (whole dimension)
    auto tensor_slice = tensor(ck::wrapper::slice(1, 3),
                               ck::make_tuple(ck::wrapper::slice(), ck::wrapper::slice()));
    out << "dims:2,(2,4) strides:2,(1,8)" << std::endl;
    for(ck::index_t h = 0; h < ck::wrapper::size<0>(tensor_slice); h++)
    {
        for(ck::index_t w = 0; w < ck::wrapper::size<1>(tensor_slice); w++)
        {
            out << tensor_slice(h, w) << " ";
        }
        out << std::endl;
    }

    // The documented output (the program ends each value with a space).
    EXPECT_EQ(out.str(), "dims:2,(2,4) strides:2,(1,8)\n"
                         "1 5 9 13 17 21 25 29 \n"
                         "2 6 10 14 18 22 26 30 \n");
    EXPECT_EQ(str(tensor_slice.get_layout()), "(2,(2,4)):(2,(1,8))");
}

TEST(Tensor, ElementAccessMatchesLayout)
{
    std::array<float, 64> data{};
    const auto l = ck::wrapper::make_layout(ck::make_tuple(C<4>{}, ck::make_tuple(C<2>{}, C<4>{})),
                                            ck::make_tuple(C<2>{}, ck::make_tuple(C<1>{}, C<8>{})));
    auto t       = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Global>(data.data(), l);
    t(3, ck::make_tuple(1, 2)) = 7.f;
    EXPECT_EQ(data[3 * 2 + 1 + 2 * 8], 7.f);
    EXPECT_EQ(t(3, 5), 7.f);      // partially hierarchical
    EXPECT_EQ(t(3 + 4 * 5), 7.f); // 1-D
    EXPECT_EQ(t[3 + 4 * 5], 7.f);
    static_assert(decltype(ck::wrapper::size(t))::value == 32);
    static_assert(decltype(t)::memory_type == ck::wrapper::MemoryTypeEnum::Global);
    EXPECT_EQ(ck::wrapper::cosize(t), 32);
}

TEST(Tensor, MemoryTypes)
{
    int x[8]     = {0, 1, 2, 3, 4, 5, 6, 7};
    const auto l = ck::wrapper::make_layout(C<4>{}, C<2>{});
    auto g       = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Generic>(x, l);
    auto gl      = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Global>(x, l);
    auto s       = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::LDS>(x, l);
    static_assert(ck::wrapper::MemoryTypeEnum::Shared == ck::wrapper::MemoryTypeEnum::LDS);
    EXPECT_EQ(g(3), 6);
    EXPECT_EQ(gl(2), 4);
    EXPECT_EQ(s(1), 2);
}

TEST(Slice, RangesWholeDimensionsAndFixedCoordinates)
{
    std::array<int, 48> data{};
    for(int i = 0; i < 48; ++i)
        data[i] = i;
    // (6,8):(8,1), row-major 6x8.
    auto t = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Generic>(
        data.data(), ck::wrapper::make_layout(ck::make_tuple(6, 8), ck::make_tuple(8, 1)));
    auto rows = t(ck::wrapper::slice(2, 5), ck::wrapper::slice());
    EXPECT_EQ(str(rows.get_layout()), "(3,8):(8,1)");
    EXPECT_EQ(rows(0, 0), 16);
    EXPECT_EQ(rows(2, 7), 39);
    auto cols = t(ck::wrapper::slice(), ck::wrapper::slice(3));
    EXPECT_EQ(str(cols.get_layout()), "(6,3):(8,1)");
    EXPECT_EQ(cols(5, 2), 42);
    auto tail = t(ck::wrapper::slice(), ck::wrapper::slice(5, -1)); // 5 .. end
    EXPECT_EQ(ck::wrapper::size<1>(tail), 3);
    EXPECT_EQ(tail(1, 0), 13);
    auto row4 = t(4, ck::wrapper::slice(2, 6)); // a fixed coordinate removes its mode
    EXPECT_EQ(str(row4.get_layout()), "4:1");
    EXPECT_EQ(row4(3), 37);
}

TEST(Slice, StaticWholeSliceKeepsStaticShape)
{
    int data[64] = {};
    auto t       = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Generic>(
        data, ck::wrapper::make_layout(ck::make_tuple(C<8>{}, C<8>{})));
    auto s = t(ck::wrapper::slice(), 3);
    EXPECT_EQ(str(s.get_layout()), "_8:_1");
    EXPECT_EQ(s.data(), data + 24);
    auto s2 = t(ck::wrapper::slice(C<2>{}, C<6>{}), ck::wrapper::slice(C<4>{}));
    EXPECT_EQ(str(s2.get_layout()), "(_4,_4):(_1,_8)");
}

TEST(Slice, OutOfRangeAndPartialNestedThrow)
{
    int data[32] = {};
    auto t       = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Generic>(
        data, ck::wrapper::make_layout(ck::make_tuple(4, ck::make_tuple(2, 4))));
    EXPECT_THROW(t(ck::wrapper::slice(1, 5), ck::wrapper::slice()), std::invalid_argument);
    EXPECT_THROW(t(ck::wrapper::slice(3, 2), ck::wrapper::slice()), std::invalid_argument);
    EXPECT_THROW(t(ck::wrapper::slice(), ck::wrapper::slice(1, 3)), std::invalid_argument);
    EXPECT_NO_THROW(t(ck::wrapper::slice(), ck::wrapper::slice(0, 8)));
}
