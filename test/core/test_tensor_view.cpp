// SPDX-License-Identifier: MIT
// tensor_view on the host: the seed 004 section 7.4 snippets with their documented results,
// padded views (zero in the pad, writes there dropped), and transposed / merged / sliced views
// checked against manual index math over random shapes with a fixed seed.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace ck_tile;

namespace {
std::mt19937& rng()
{
    static std::mt19937 g(20240607);
    return g;
}
index_t rand_in(index_t lo, index_t hi)
{
    return lo + static_cast<index_t>(rng()() % static_cast<unsigned>(hi - lo + 1));
}
std::vector<float> iota_data(std::size_t n, float start = 0.0f)
{
    std::vector<float> v(n);
    std::iota(v.begin(), v.end(), start);
    return v;
}
} // namespace

// ------------------------------------------------------------------ seed 004, 7.4.4

TEST(Seed004TensorView, CreationFromBufferAndDescriptorAndPacked)
{
    float data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

    // Method 1: buffer and descriptor made separately
    auto buffer = make_buffer_view<address_space_enum::global>(data, 12);
    auto desc   = make_tensor_descriptor(make_tuple(3, 4), make_tuple(4, 1));
    auto tensor = make_tensor_view<address_space_enum::global>(buffer, desc);

    // Method 2: the packed convenience function
    auto tensor2 =
        make_naive_tensor_view_packed<address_space_enum::global>(data, make_tuple(3, 4));

    float value = tensor(make_tuple(1, 2));
    EXPECT_EQ(value, 6.0f); // "Returns 6"
    EXPECT_EQ(tensor2(make_tuple(1, 2)), 6.0f);

    tensor(make_tuple(2, 1)) = 99.0f;
    EXPECT_EQ(data[9], 99.0f);
    EXPECT_EQ(tensor2(make_tuple(2, 1)), 99.0f); // both views share the memory

    EXPECT_EQ(tensor.get_num_of_dimension(), 2);
    EXPECT_EQ(tensor.get_tensor_descriptor().get_length(number<0>{}), 3);
    EXPECT_EQ(tensor.get_tensor_descriptor().get_length(number<1>{}), 4);
    EXPECT_EQ(tensor.get_buffer_view().data(), data);
    EXPECT_EQ(tensor2.get_buffer_view().get_buffer_size(), 12);
}

TEST(Seed004TensorView, PointerAndDescriptorFactory)
{
    auto data   = iota_data(12);
    auto desc   = make_naive_tensor_descriptor(make_tuple(3, 4), make_tuple(4, 1));
    auto tensor = make_tensor_view<address_space_enum::global>(data.data(), desc);
    EXPECT_EQ(tensor.get_buffer_view().get_buffer_size(), 12);
    EXPECT_EQ(tensor.get_element(make_multi_index(2, 3)), 11.0f);
    tensor.set_element(make_multi_index(0, 1), -1.0f);
    EXPECT_EQ(data[1], -1.0f);
}

// ------------------------------------------------------------------ seed 004, 7.4.5

TEST(Seed004TensorView, RowMajorColumnMajorTransposedShareMemory)
{
    float data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

    auto row_major =
        make_naive_tensor_view_packed<address_space_enum::global>(data, make_tuple(3, 4));
    auto col_major = make_tensor_view<address_space_enum::global>(
        make_buffer_view<address_space_enum::global>(data, 12),
        make_tensor_descriptor(make_tuple(3, 4), make_tuple(1, 3)));
    auto transposed = make_tensor_view<address_space_enum::global>(
        make_buffer_view<address_space_enum::global>(data, 12),
        make_tensor_descriptor(make_tuple(4, 3), make_tuple(1, 4)));

    // The transposed view is the row-major matrix read with its indices swapped.
    EXPECT_EQ(row_major(make_tuple(1, 2)), 6.0f);
    EXPECT_EQ(transposed(make_tuple(2, 1)), 6.0f);
    for(index_t i = 0; i < 3; ++i)
        for(index_t j = 0; j < 4; ++j)
            EXPECT_EQ(transposed(make_tuple(j, i)), row_major(make_tuple(i, j))) << i << "," << j;

    // The column-major view reads element (r, c) at r + 3 c: the same 12 floats as a 3x4
    // matrix stored by columns, which is not the transpose of the row-major one. The seed's
    // comment "row_major(1,2) == col_major(2,1)" does not hold: col_major(2,1) is element 5.
    EXPECT_EQ(col_major(make_tuple(2, 1)), 5.0f);
    EXPECT_EQ(col_major(make_tuple(0, 2)), 6.0f);
    for(index_t r = 0; r < 3; ++r)
        for(index_t c = 0; c < 4; ++c)
            EXPECT_EQ(col_major(make_tuple(r, c)), data[r + 3 * c]);
}

// ------------------------------------------------------------------ seed 004, 7.4.6

TEST(Seed004TensorView, SubviewOfFiveByFiveAtTwoThree)
{
    auto data = iota_data(100);
    auto tensor =
        make_naive_tensor_view_packed<address_space_enum::global>(data.data(), make_tuple(10, 10));
    // The seed's sketch passes pass-through transforms and an offset tuple; a window of 5x5
    // at (2, 3) is a slice of each dimension.
    auto subview = make_tensor_view<address_space_enum::global>(
        tensor.get_buffer_view(),
        transform_tensor_descriptor(
            tensor.get_tensor_descriptor(),
            make_tuple(make_slice_transform(10, 2, 7), make_slice_transform(10, 3, 8)),
            make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1>{})));
    EXPECT_EQ(subview.get_tensor_descriptor().get_length(number<0>{}), 5);
    EXPECT_EQ(subview.get_tensor_descriptor().get_length(number<1>{}), 5);
    for(index_t i = 0; i < 5; ++i)
        for(index_t j = 0; j < 5; ++j)
            EXPECT_EQ(subview(make_tuple(i, j)), data[(2 + i) * 10 + 3 + j]);
    // Outside the window's lengths nothing is read or written, although memory is there.
    EXPECT_EQ(subview(make_tuple(5, 0)), 0.0f);
    subview(make_tuple(0, 5)) = -1.0f;
    EXPECT_EQ(data[2 * 10 + 8], 28.0f);

    // The same through transform_tensor_view.
    auto subview2 = transform_tensor_view(
        tensor, make_tuple(make_slice_transform(10, 2, 7), make_slice_transform(10, 3, 8)),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    EXPECT_EQ(subview2(make_tuple(4, 4)), data[6 * 10 + 7]);
}

TEST(Seed004TensorView, VectorizedGetSetOfFourFloats)
{
    auto data = iota_data(256);
    auto tensor =
        make_naive_tensor_view_packed<address_space_enum::global>(data.data(), make_tuple(16, 16));
    auto coord = make_tensor_coordinate(tensor.get_tensor_descriptor(), make_tuple(4, 0));

    using float4 = vector_type<float, 4>::type;
    auto vec4    = tensor.get_vectorized_elements<float4>(coord, 0);
    static_assert(std::is_same_v<decltype(vec4), float4>);
    for(index_t k = 0; k < 4; ++k)
    {
        EXPECT_EQ(vec4[k], 64.0f + k);
        vec4[k] *= 2.0f; // the seed's vec4.x, .y, .z, .w
    }
    tensor.set_vectorized_elements<float4>(coord, 0, vec4);
    for(index_t i = 0; i < 256; ++i)
        EXPECT_EQ(data[i], (i >= 64 && i < 68) ? 2.0f * i : static_cast<float>(i)) << i;

    // linear_offset moves along the offset without a new coordinate: 4 floats further.
    const auto next = tensor.get_vectorized_elements<float4>(coord, 4);
    EXPECT_EQ(next[0], 68.0f);
}

// ------------------------------------------------------------------ seed 004, 7.4.7

TEST(Seed004TensorView, CompileTimeShapeResolvesOffsetAtCompileTime)
{
    constexpr auto shape   = make_tuple(number<256>{}, number<256>{});
    constexpr auto strides = make_tuple(number<256>{}, number<1>{});
    constexpr auto desc    = make_tensor_descriptor(shape, strides);
    static_assert(decltype(desc)::is_static());
    constexpr auto coord = make_tuple(number<5>{}, number<10>{});
    static_assert(desc.calculate_offset(coord) == 5 * 256 + 10);
    static_assert(is_constant_v<decltype(desc.get_element_space_size())>);

    std::vector<float> data = iota_data(256 * 256);
    auto buffer =
        make_buffer_view<address_space_enum::global>(data.data(), desc.get_element_space_size());
    auto tensor = make_tensor_view<address_space_enum::global>(buffer, desc);
    // Every length and stride is in the descriptor's type, so the view's offsets are too.
    static_assert(decltype(tensor)::TensorDesc::is_static());
    auto value = tensor(coord);
    EXPECT_EQ(static_cast<float>(value), 5.0f * 256 + 10);
}

// ------------------------------------------------------------------ padding

TEST(TensorViewPad, PaddedViewReadsZeroInPadAndDropsWrites)
{
    for(int trial = 0; trial < 20; ++trial)
    {
        const index_t M = rand_in(1, 23), N = rand_in(1, 23);
        const index_t TM = rand_in(1, 8), TN = rand_in(1, 8);
        auto data       = iota_data(M * N, 1.0f); // no zeros: a zero read means the pad
        const auto orig = data;
        auto view       = make_naive_tensor_view<address_space_enum::global>(
            data.data(), make_tuple(M, N), make_tuple(N, 1));
        auto padded      = pad_tensor_view(view, make_tuple(TM, TN), sequence<true, true>{});
        const index_t PM = (M + TM - 1) / TM * TM, PN = (N + TN - 1) / TN * TN;
        ASSERT_EQ(padded.get_tensor_descriptor().get_length(number<0>{}), PM);
        ASSERT_EQ(padded.get_tensor_descriptor().get_length(number<1>{}), PN);

        for(index_t i = 0; i < PM; ++i)
            for(index_t j = 0; j < PN; ++j)
            {
                const bool inside = i < M && j < N;
                EXPECT_EQ(padded(make_tuple(i, j)), inside ? orig[i * N + j] : 0.0f)
                    << M << "x" << N << " at " << i << "," << j;
            }
        // Writes everywhere in the padded shape: only the inside lands. A pad column of row i
        // has the offset of row i + 1's first columns, so a missing check would show here.
        for(index_t i = 0; i < PM; ++i)
            for(index_t j = 0; j < PN; ++j)
                padded(make_tuple(i, j)) =
                    (i < M && j < N) ? -static_cast<float>(i * N + j) : 1.0e6f;
        for(index_t k = 0; k < M * N; ++k)
            EXPECT_EQ(data[k], -static_cast<float>(k)) << M << "x" << N << " k " << k;
    }
}

TEST(TensorViewPad, PadOnlyTheRequestedDimensionsAndStaticTiles)
{
    auto data = iota_data(5 * 7, 1.0f);
    auto view =
        make_naive_tensor_view_packed<address_space_enum::global>(data.data(), make_tuple(5, 7));
    auto padded =
        pad_tensor_view(view, make_tuple(number<4>{}, number<4>{}), sequence<false, true>{});
    EXPECT_EQ(padded.get_tensor_descriptor().get_length(number<0>{}), 5);
    EXPECT_EQ(padded.get_tensor_descriptor().get_length(number<1>{}), 8);
    EXPECT_EQ(padded(make_tuple(4, 6)), 35.0f);
    EXPECT_EQ(padded(make_tuple(4, 7)), 0.0f);
    EXPECT_EQ(padded(make_tuple(5, 0)), 0.0f); // outside the (unpadded) first length
}

TEST(TensorViewPad, LeftAndRightPadThroughTransformTensorView)
{
    auto data = iota_data(6, 1.0f);
    auto view =
        make_naive_tensor_view_packed<address_space_enum::global>(data.data(), make_tuple(6));
    auto padded = transform_tensor_view(view, make_tuple(make_pad_transform(6, 2, 3)),
                                        make_tuple(sequence<0>{}), make_tuple(sequence<0>{}));
    ASSERT_EQ(padded.get_tensor_descriptor().get_length(number<0>{}), 11);
    const float expect[11] = {0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0};
    for(index_t i = 0; i < 11; ++i)
        EXPECT_EQ(padded(make_tuple(i)), expect[i]) << i;
    for(index_t i = 0; i < 11; ++i)
        padded(make_tuple(i)) = 100.0f + i;
    for(index_t i = 0; i < 6; ++i)
        EXPECT_EQ(data[i], 102.0f + i);
}

TEST(TensorViewPad, VectorsAndInvalidValueAndCallerValidity)
{
    // 3 x 6 padded to 3 x 8: a 2-vector at an even column never straddles the pad.
    std::vector<float> data = iota_data(18, 1.0f);
    auto view               = make_tensor_view<address_space_enum::global>(
        make_buffer_view<address_space_enum::global>(data.data(), 18, -5.0f),
        make_naive_tensor_descriptor(make_tuple(3, 6), make_tuple(6, 1)));
    auto padded   = pad_tensor_view(view, make_tuple(1, 4), sequence<false, true>{});
    using float2  = ext_vector_t<float, 2>;
    const auto& d = padded.get_tensor_descriptor();

    auto in_row =
        padded.get_vectorized_elements<float2>(make_tensor_coordinate(d, make_tuple(1, 4)), 0);
    EXPECT_EQ(in_row[0], 11.0f);
    EXPECT_EQ(in_row[1], 12.0f);
    // In the pad: the buffer's invalid value, not the next row's elements.
    auto in_pad =
        padded.get_vectorized_elements<float2>(make_tensor_coordinate(d, make_tuple(1, 6)), 0);
    EXPECT_EQ(in_pad[0], -5.0f);
    EXPECT_EQ(in_pad[1], -5.0f);
    // The caller's own validity is combined with the coordinate's.
    auto masked = padded.get_vectorized_elements<float2>(
        make_tensor_coordinate(d, make_tuple(0, 0)), 0, false);
    EXPECT_EQ(masked[0], -5.0f);
    padded.set_vectorized_elements<float2>(make_tensor_coordinate(d, make_tuple(0, 0)), 0, false,
                                           float2{7.0f, 7.0f});
    EXPECT_EQ(data[0], 1.0f);
    padded.set_vectorized_elements<float2>(make_tensor_coordinate(d, make_tuple(2, 6)), 0,
                                           float2{7.0f, 7.0f});
    for(index_t k = 0; k < 18; ++k)
        EXPECT_EQ(data[k], k + 1.0f);
}

TEST(TensorViewUpdate, AtomicAddViewAccumulatesAndSkipsThePad)
{
    std::vector<float> data(4 * 3, 1.0f);
    auto view =
        make_naive_tensor_view<address_space_enum::global, memory_operation_enum::atomic_add>(
            data.data(), make_tuple(4, 3), make_tuple(3, 1));
    static_assert(decltype(view)::DstInMemOp == memory_operation_enum::atomic_add);
    auto padded = pad_tensor_view(view, make_tuple(4, 4), sequence<true, true>{});
    static_assert(decltype(padded)::DstInMemOp == memory_operation_enum::atomic_add);
    const auto& d = padded.get_tensor_descriptor();
    for(index_t i = 0; i < 4; ++i)
        for(index_t j = 0; j < 4; ++j)
            padded.update_vectorized_elements<float>(make_tensor_coordinate(d, make_tuple(i, j)), 0,
                                                     2.5f);
    for(index_t k = 0; k < 12; ++k)
        EXPECT_EQ(data[k], 3.5f) << k;
}

// ------------------------------------------------------------------ transposed / merged views

TEST(TensorViewProperties, TransposedViewAddressesTheSameMemoryAsManualMath)
{
    for(int trial = 0; trial < 20; ++trial)
    {
        const index_t A = rand_in(1, 7), B = rand_in(1, 7), C = rand_in(1, 7);
        // strides with gaps: rows padded by random amounts
        const index_t s2 = 1, s1 = C + rand_in(0, 3), s0 = B * s1 + rand_in(0, 5);
        const index_t size = (A - 1) * s0 + (B - 1) * s1 + (C - 1) * s2 + 1;
        auto data          = iota_data(size, 1.0f);
        auto view          = make_naive_tensor_view<address_space_enum::global>(
            data.data(), make_tuple(A, B, C), make_tuple(s0, s1, s2));
        // top dimensions (c, a, b): top 0 is old dimension 2, and so on
        auto transposed = transform_tensor_view(
            view,
            make_tuple(make_pass_through_transform(C), make_pass_through_transform(A),
                       make_pass_through_transform(B)),
            make_tuple(sequence<2>{}, sequence<0>{}, sequence<1>{}),
            make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}));
        for(index_t c = 0; c < C; ++c)
            for(index_t a = 0; a < A; ++a)
                for(index_t b = 0; b < B; ++b)
                    ASSERT_EQ(transposed(make_tuple(c, a, b)), data[a * s0 + b * s1 + c * s2]);
        // a write through the transposed view lands where the manual math says
        const index_t a = rand_in(0, A - 1), b = rand_in(0, B - 1), c = rand_in(0, C - 1);
        transposed(make_tuple(c, a, b)) = -3.0f;
        EXPECT_EQ(data[a * s0 + b * s1 + c * s2], -3.0f);
    }
}

TEST(TensorViewProperties, MergedAndUnmergedViewsAddressTheSameMemoryAsManualMath)
{
    for(int trial = 0; trial < 20; ++trial)
    {
        const index_t A = rand_in(1, 6), B = rand_in(1, 6), C = rand_in(1, 6);
        const index_t s2 = 1, s1 = C + rand_in(0, 2), s0 = B * s1 + rand_in(0, 3);
        const index_t size = (A - 1) * s0 + (B - 1) * s1 + (C - 1) * s2 + 1;
        auto data          = iota_data(size, 1.0f);
        auto view          = make_naive_tensor_view<address_space_enum::global>(
            data.data(), make_tuple(A, B, C), make_tuple(s0, s1, s2));
        // (a, b, c) -> (a * B + b, c)
        auto merged = transform_tensor_view(
            view,
            make_tuple(make_merge_transform(make_tuple(A, B)), make_pass_through_transform(C)),
            make_tuple(sequence<0, 1>{}, sequence<2>{}), make_tuple(sequence<0>{}, sequence<1>{}));
        ASSERT_EQ(merged.get_tensor_descriptor().get_length(number<0>{}), A * B);
        for(index_t m = 0; m < A * B; ++m)
            for(index_t c = 0; c < C; ++c)
                ASSERT_EQ(merged(make_tuple(m, c)), data[(m / B) * s0 + (m % B) * s1 + c * s2]);
        // a merge of all three into one dimension, then an unmerge back to (A*B, C):
        // the round trip reads like `merged`
        auto flat =
            transform_tensor_view(view, make_tuple(make_merge_transform(make_tuple(A, B, C))),
                                  make_tuple(sequence<0, 1, 2>{}), make_tuple(sequence<0>{}));
        auto back =
            transform_tensor_view(flat, make_tuple(make_unmerge_transform(make_tuple(A * B, C))),
                                  make_tuple(sequence<0>{}), make_tuple(sequence<0, 1>{}));
        for(index_t m = 0; m < A * B; ++m)
            for(index_t c = 0; c < C; ++c)
                ASSERT_EQ(back(make_tuple(m, c)), merged(make_tuple(m, c)));
        // out-of-range merged index: invalid, reads zero
        EXPECT_EQ(merged(make_tuple(A * B, 0)), 0.0f);
    }
}

TEST(TensorViewProperties, CoordinateMovesReadLikeFreshCoordinates)
{
    const index_t M = 7, N = 5;
    auto data = iota_data(M * N, 1.0f);
    auto view =
        make_naive_tensor_view_packed<address_space_enum::global>(data.data(), make_tuple(M, N));
    auto padded     = pad_tensor_view(view, make_tuple(4, 4), sequence<true, true>{});
    const auto& d   = padded.get_tensor_descriptor();
    auto coord      = make_tensor_coordinate(d, make_tuple(0, 0));
    const auto step = make_tensor_coordinate_step(d, make_multi_index(1, 1));
    for(index_t k = 0; k < 8; ++k)
    {
        const float expect = (k < M && k < N) ? data[k * N + k] : 0.0f;
        EXPECT_EQ(padded.get_vectorized_elements<float>(coord, 0).get(0), expect) << k;
        move_tensor_coordinate(d, coord, step);
    }
}

TEST(TensorView, PrintNamesBufferAndDescriptor)
{
    float data[6] = {};
    auto view = make_naive_tensor_view_packed<address_space_enum::global>(data, make_tuple(2, 3));
    testing::internal::CaptureStdout();
    view.print();
    fflush(stdout);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_NE(out.find("tensor_view{buffer: {size: 6}"), std::string::npos) << out;
    EXPECT_NE(out.find("tensor_descriptor{lengths:"), std::string::npos) << out;
}
