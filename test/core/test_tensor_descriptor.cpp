// SPDX-License-Identifier: MIT
// Adaptors, descriptors and coordinates: seed 002's worked descriptor, the seed 003 / seed 004
// (7.8, 7.10, 7.16, 7.18, 7.19) snippets with their documented results, and properties over
// random shapes with fixed seeds.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace ck_tile;

namespace {
std::mt19937& rng()
{
    static std::mt19937 g(1234567);
    return g;
}
index_t rand_in(index_t lo, index_t hi)
{
    return lo + static_cast<index_t>(rng()() % static_cast<unsigned>(hi - lo + 1));
}
template <typename Desc>
multi_index<Desc::get_num_of_dimension()> random_index(const Desc& desc)
{
    multi_index<Desc::get_num_of_dimension()> r{};
    for(index_t d = 0; d < Desc::get_num_of_dimension(); ++d)
        r[d] = rand_in(0, desc.get_length(d) - 1);
    return r;
}
} // namespace

// ------------------------------------------------------------------ seed 002

TEST(Seed002, UnmergeDescriptorOffset8578AndHiddenIndex)
{
    index_t M = 256, K = 128;
    tuple<int, int> up_lengths{4, 64};
    unmerge<decltype(up_lengths)> unmerge_t{up_lengths};
    auto lower_idx = make_multi_index(0);
    unmerge_t.calculate_lower_index(lower_idx, make_multi_index(1, 3));
    EXPECT_EQ(lower_idx[number<0>{}], 67);

    pass_through<index_t> passthrough{K};
    auto tensor_desc = make_naive_tensor_descriptor(make_tuple(M, K), make_tuple(K, 1));
    EXPECT_EQ(tensor_desc.get_length(number<0>{}), 256);
    EXPECT_EQ(tensor_desc.get_length(number<1>{}), 128);

    auto transformed_tensor_desc = transform_tensor_descriptor(
        tensor_desc, make_tuple(unmerge_t, passthrough), make_tuple(sequence<0>{}, sequence<1>{}),
        make_tuple(sequence<0, 1>{}, sequence<2>{}));
    EXPECT_EQ(transformed_tensor_desc.get_length(number<0>{}), 4);
    EXPECT_EQ(transformed_tensor_desc.get_length(number<1>{}), 64);
    EXPECT_EQ(transformed_tensor_desc.get_length(number<2>{}), 128);

    auto coord = make_multi_index(1, 3, 2);
    EXPECT_EQ(transformed_tensor_desc.calculate_offset(coord), 8578);

    auto tensor_coord = make_tensor_coordinate(transformed_tensor_desc, coord);
    auto hidden_idx   = tensor_coord.get_hidden_index();
    std::vector<int> printed;
    static_for<0, hidden_idx.size(), 1>{}([&](auto i) { printed.push_back(hidden_idx[i]); });
    EXPECT_EQ(printed, (std::vector<int>{8578, 67, 2, 1, 3, 2}));
    // the dimension ids of the seed's figure 3
    using D = decltype(transformed_tensor_desc);
    static_assert(std::is_same_v<decltype(D::get_top_dimension_hidden_ids()), sequence<3, 4, 5>>);
    static_assert(std::is_same_v<decltype(D::get_lower_dimension_hidden_idss()),
                                 tuple<sequence<0>, sequence<1>, sequence<2>>>);
    static_assert(std::is_same_v<decltype(D::get_upper_dimension_hidden_idss()),
                                 tuple<sequence<1, 2>, sequence<3, 4>, sequence<5>>>);

    // chaining: merge (64, 128) with the carry-free merge -> (4, 8192)
    auto low_dims = make_tuple(64, 128);
    merge_v4_no_carry<decltype(low_dims)> merge_t{low_dims};
    auto new_transformed_tensor_desc = transform_tensor_descriptor(
        transformed_tensor_desc, make_tuple(make_pass_through_transform(4), merge_t),
        make_tuple(sequence<0>{}, sequence<1, 2>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    EXPECT_EQ(new_transformed_tensor_desc.get_length(number<0>{}), 4);
    EXPECT_EQ(new_transformed_tensor_desc.get_length(number<1>{}), 8192);
    EXPECT_EQ(new_transformed_tensor_desc.calculate_offset(make_multi_index(1, 3 * 128 + 2)), 8578);
}

// ------------------------------------------------------------------ seed 004 section 7.10

TEST(Seed004Descriptors, CustomStridesPackedAligned)
{
    constexpr auto M = 3, N = 4, RowStride = 8;
    auto descriptor = make_naive_tensor_descriptor(make_tuple(M, N), make_tuple(RowStride, 1));
    multi_index<2> coord{1, 2};
    EXPECT_EQ(descriptor.calculate_offset(coord), 10);
    // the last valid offset is (2, 3) -> 19: the offsets span 20 elements
    EXPECT_EQ(descriptor.get_element_space_size(), 20);

    auto descriptor_packed = make_naive_tensor_descriptor_packed(make_tuple(3, 4));
    EXPECT_EQ(descriptor_packed.calculate_offset(coord), 6);
    EXPECT_EQ(descriptor_packed.get_element_space_size(), 12);

    constexpr auto align    = 8;
    auto descriptor_aligned = make_naive_tensor_descriptor_aligned(make_tuple(4, 5), align);
    EXPECT_EQ(descriptor_aligned.calculate_offset(make_multi_index(1, 0)), 8); // row stride 8
    EXPECT_EQ(descriptor_aligned.calculate_offset(make_multi_index(0, 1)), 1);
    EXPECT_EQ(descriptor_aligned.get_element_space_size(), 32);
    // 3-D: strides (5*8, 8, 1)
    auto aligned3 = make_naive_tensor_descriptor_aligned(make_tuple(2, 5, 5), number<8>{});
    EXPECT_EQ(aligned3.calculate_offset(make_multi_index(1, 2, 3)), 40 + 16 + 3);
    EXPECT_EQ(aligned3.get_element_space_size(), 80);
}

TEST(Seed004Descriptors, TwoBySixAsTwoByTwoByThree)
{
    auto base_descriptor        = make_naive_tensor_descriptor_packed(make_tuple(2, 6));
    auto transformed_descriptor = transform_tensor_descriptor(
        base_descriptor,
        make_tuple(make_pass_through_transform(2), make_unmerge_transform(make_tuple(2, 3))),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1, 2>{}));
    EXPECT_EQ(transformed_descriptor.get_length(number<0>{}), 2);
    EXPECT_EQ(transformed_descriptor.get_length(number<1>{}), 2);
    EXPECT_EQ(transformed_descriptor.get_length(number<2>{}), 3);
    EXPECT_EQ(transformed_descriptor.get_element_space_size(), 12);
    // same memory, row-major: (i, j, k) -> i*6 + j*3 + k
    for(index_t i = 0; i < 2; ++i)
        for(index_t j = 0; j < 2; ++j)
            for(index_t k = 0; k < 3; ++k)
                EXPECT_EQ(transformed_descriptor.calculate_offset(make_multi_index(i, j, k)),
                          i * 6 + j * 3 + k);
}

TEST(Seed004Descriptors, FiveDToThreeDBlock)
{
    constexpr auto Block_M = 256, NumWarps = 8, WarpSize = 64, KVector = 4, wavesPerK = 2;
    constexpr auto wavesPerM = NumWarps / wavesPerK;
    constexpr auto NumIssues = Block_M / wavesPerM;
    auto base_descriptor     = make_naive_tensor_descriptor_packed(
            make_tuple(NumIssues, wavesPerM, wavesPerK, WarpSize, KVector));
    auto transformed_descriptor = transform_tensor_descriptor(
        base_descriptor,
        make_tuple(make_pass_through_transform(NumIssues),
                   make_merge_transform(make_tuple(wavesPerM, wavesPerK)),
                   make_merge_transform(make_tuple(WarpSize, KVector))),
        make_tuple(sequence<0>{}, sequence<1, 2>{}, sequence<3, 4>{}),
        make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}));
    EXPECT_EQ(transformed_descriptor.get_length(number<0>{}), NumIssues);
    EXPECT_EQ(transformed_descriptor.get_length(number<1>{}), wavesPerM * wavesPerK);
    EXPECT_EQ(transformed_descriptor.get_length(number<2>{}), WarpSize * KVector);
    // the data layout is unchanged: offsets are still row-major over the merged shape
    for(int t = 0; t < 100; ++t)
    {
        const auto idx = random_index(transformed_descriptor);
        EXPECT_EQ(transformed_descriptor.calculate_offset(idx),
                  (idx[0] * (wavesPerM * wavesPerK) + idx[1]) * (WarpSize * KVector) + idx[2]);
    }
}

TEST(Seed004Descriptors, TransposePadSlicePatterns)
{
    const index_t M = 5, N = 7;
    auto original_matrix = make_naive_tensor_descriptor_packed(make_tuple(M, N));
    auto transposed      = transform_tensor_descriptor(
             original_matrix, make_tuple(make_pass_through_transform(N), make_pass_through_transform(M)),
             make_tuple(sequence<1>{}, sequence<0>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    EXPECT_EQ(transposed.get_length(number<0>{}), N);
    EXPECT_EQ(transposed.get_length(number<1>{}), M);
    EXPECT_EQ(transposed.calculate_offset(make_multi_index(3, 2)), 2 * N + 3);

    const index_t Nb = 2, C = 3, H = 4, W = 5, pad_h = 1, pad_w = 2;
    auto input_tensor = make_naive_tensor_descriptor_packed(make_tuple(Nb, C, H, W));
    auto padded       = transform_tensor_descriptor(
              input_tensor,
              make_tuple(make_pass_through_transform(Nb), make_pass_through_transform(C),
                         make_pad_transform(H, pad_h, pad_h), make_pad_transform(W, pad_w, pad_w)),
              make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}, sequence<3>{}),
              make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}, sequence<3>{}));
    EXPECT_EQ(padded.get_length(number<2>{}), H + 2 * pad_h);
    EXPECT_EQ(padded.get_length(number<3>{}), W + 2 * pad_w);
    auto c =
        make_tensor_coordinate(padded, make_multi_index(1, 2, 1, 2)); // first real element of (1,2)
    EXPECT_TRUE(coordinate_has_valid_offset(padded, c));
    EXPECT_EQ(c.get_offset(), (1 * C + 2) * H * W);
    auto cp = make_tensor_coordinate(padded, make_multi_index(1, 2, 0, 3)); // top padding row
    EXPECT_FALSE(coordinate_has_valid_offset(padded, cp));

    const index_t start_m = 1, end_m = 4, start_n = 2, end_n = 6;
    auto slice = transform_tensor_descriptor(original_matrix,
                                             make_tuple(make_slice_transform(M, start_m, end_m),
                                                        make_slice_transform(N, start_n, end_n)),
                                             make_tuple(sequence<0>{}, sequence<1>{}),
                                             make_tuple(sequence<0>{}, sequence<1>{}));
    EXPECT_EQ(slice.get_length(number<0>{}), 3);
    EXPECT_EQ(slice.get_length(number<1>{}), 4);
    EXPECT_EQ(slice.calculate_offset(make_multi_index(0, 0)), start_m * N + start_n);
}

// ------------------------------------------------------------------ seed 003 / seed 004 7.8

TEST(Seed003Adaptors, TransposeMergeChainPadBroadcast)
{
    // transpose [0, 1, 2] -> [2, 0, 1]: the new dimensions are the old dimensions 2, 0, 1
    auto original_desc   = make_naive_tensor_descriptor_packed(make_tuple(2, 3, 4));
    auto transposed_desc = transform_tensor_descriptor(
        original_desc,
        make_tuple(make_pass_through_transform(original_desc.get_length(number<2>{})),
                   make_pass_through_transform(original_desc.get_length(number<0>{})),
                   make_pass_through_transform(original_desc.get_length(number<1>{}))),
        make_tuple(sequence<2>{}, sequence<0>{}, sequence<1>{}),
        make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}));
    EXPECT_TRUE((transposed_desc.get_lengths() == make_tuple(4, 2, 3)));
    // the same permutation as an adaptor: top dim j is bottom dim perm[j]
    auto t_adaptor = make_transpose_adaptor<3>(sequence<2, 0, 1>{});
    multi_index<3> top_coord{0, 1, 2};
    EXPECT_TRUE((t_adaptor.calculate_bottom_index(top_coord) == make_multi_index(1, 2, 0)));
    EXPECT_EQ(transposed_desc.calculate_offset(top_coord),
              original_desc.calculate_offset(t_adaptor.calculate_bottom_index(top_coord)));
    auto identity = make_identity_tensor_adaptor<3>();
    EXPECT_TRUE((identity.calculate_bottom_index(top_coord) == top_coord));

    // merge 2x3 into one dimension: 5 -> row 1, col 2
    auto base_desc = make_naive_tensor_descriptor_packed(make_tuple(2, 3));
    auto merged_desc =
        transform_tensor_descriptor(base_desc, make_tuple(make_merge_transform(make_tuple(2, 3))),
                                    make_tuple(sequence<0, 1>{}), make_tuple(sequence<0>{}));
    multi_index<1> top1{5};
    auto mc = make_tensor_coordinate(merged_desc, top1);
    EXPECT_EQ(mc.get_hidden_index()[1], 1); // row
    EXPECT_EQ(mc.get_hidden_index()[2], 2); // col
    EXPECT_EQ(mc.get_offset(), 5);

    // merge then unmerge again: identity
    auto final_desc = transform_tensor_descriptor(
        merged_desc, make_tuple(make_unmerge_transform(make_tuple(2, 3))),
        make_tuple(sequence<0>{}), make_tuple(sequence<0, 1>{}));
    for(index_t i = 0; i < 2; ++i)
        for(index_t j = 0; j < 3; ++j)
            EXPECT_EQ(final_desc.calculate_offset(make_multi_index(i, j)),
                      base_desc.calculate_offset(make_multi_index(i, j)));

    // padding over transposed strides: (1, 2) in padded space -> (0, 2) -> 0*1 + 2*3
    auto tb          = make_naive_tensor_descriptor(make_tuple(3, 4), make_tuple(1, 3));
    auto padded_desc = transform_tensor_descriptor(
        tb, make_tuple(make_pad_transform(3, 1, 1), make_pad_transform(4, 0, 0)),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    multi_index<2> padded_coord{1, 2};
    EXPECT_EQ(padded_desc.get_length(number<0>{}), 5);
    EXPECT_EQ(padded_desc.calculate_offset(padded_coord), 6);

    // 64x64 block as [TM, TN, VM, VN]
    constexpr auto BlockM = 64, BlockN = 64, VectorM = 8, VectorN = 8;
    constexpr auto ThreadM = BlockM / VectorM, ThreadN = BlockN / VectorN;
    auto block_desc = transform_tensor_descriptor(
        make_naive_tensor_descriptor_packed(make_tuple(number<BlockM>{}, number<BlockN>{})),
        make_tuple(make_unmerge_transform(make_tuple(number<ThreadM>{}, number<VectorM>{})),
                   make_unmerge_transform(make_tuple(number<ThreadN>{}, number<VectorN>{}))),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0, 2>{}, sequence<1, 3>{}));
    static_assert(decltype(block_desc)::is_static());
    static_assert(
        std::is_same_v<remove_cvref_t<decltype(block_desc.get_length(number<2>{}))>, number<8>>);
    EXPECT_EQ(block_desc.calculate_offset(make_multi_index(1, 2, 3, 4)),
              (1 * 8 + 3) * 64 + 2 * 8 + 4);

    // broadcasting a scalar over M x N
    auto scalar = make_naive_tensor_descriptor_packed(make_tuple());
    auto broadcast =
        transform_tensor_descriptor(scalar, make_tuple(make_replicate_transform(make_tuple(3, 4))),
                                    make_tuple(sequence<>{}), make_tuple(sequence<0, 1>{}));
    EXPECT_EQ(broadcast.get_length(number<1>{}), 4);
    EXPECT_EQ(broadcast.calculate_offset(make_multi_index(2, 3)), 0);
}

TEST(Seed003Adaptors, SingleStageAndChainedAdaptors)
{
    // Merge[2,3] (bottom [0,1] -> top [0]) chained with Unmerge[2,3] (bottom [0] -> top [0,1])
    auto a1 =
        make_single_stage_tensor_adaptor(make_tuple(make_merge_transform(make_tuple(2, 3))),
                                         make_tuple(sequence<0, 1>{}), make_tuple(sequence<0>{}));
    auto a2 =
        make_single_stage_tensor_adaptor(make_tuple(make_unmerge_transform(make_tuple(2, 3))),
                                         make_tuple(sequence<0>{}), make_tuple(sequence<0, 1>{}));
    auto chained = chain_tensor_adaptors(a1, a2);
    static_assert(decltype(chained)::get_num_of_bottom_dimension() == 2);
    static_assert(decltype(chained)::get_num_of_top_dimension() == 2);
    for(index_t i = 0; i < 2; ++i)
        for(index_t j = 0; j < 3; ++j)
            EXPECT_TRUE(
                (chained.calculate_bottom_index(make_multi_index(i, j)) == make_multi_index(i, j)));
    // transform_tensor_adaptor adds a stage (pad on both dims here)
    auto padded = transform_tensor_adaptor(
        chained, make_tuple(make_pad_transform(2, 1, 0), make_pad_transform(3, 0, 2)),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    EXPECT_TRUE((padded.calculate_bottom_index(make_multi_index(2, 1)) == make_multi_index(1, 1)));
    EXPECT_EQ(padded.get_top_dimension_length(number<1>{}), 5);
    auto pc = make_tensor_adaptor_coordinate(padded, make_multi_index(0, 1));
    EXPECT_FALSE(adaptor_coordinate_is_valid(padded, pc));
    auto vc = make_tensor_adaptor_coordinate(padded, make_multi_index(1, 1));
    EXPECT_TRUE(adaptor_coordinate_is_valid(padded, vc));
}

// ------------------------------------------------------------------ seed 004 7.16 / 7.19

TEST(Seed004Coordinates, TensorAndAdaptorCoordinates)
{
    auto desc  = make_naive_tensor_descriptor(make_tuple(number<4>{}, number<3>{}),
                                              make_tuple(number<3>{}, number<1>{}));
    auto coord = make_tensor_coordinate(desc, make_multi_index(2, 1));
    EXPECT_TRUE((coord.get_index() == make_multi_index(2, 1)));
    EXPECT_EQ(coord.get_offset(), 7);

    auto adaptor = make_transpose_adaptor<2>(sequence<1, 0>{});
    auto acoord  = make_tensor_adaptor_coordinate(adaptor, make_multi_index(2, 3));
    EXPECT_TRUE((acoord.get_top_index() == make_multi_index(2, 3)));
    EXPECT_TRUE((acoord.get_bottom_index() == make_multi_index(3, 2)));
    auto bdiff = move_tensor_adaptor_coordinate(adaptor, acoord, make_multi_index(1, 0));
    EXPECT_TRUE((bdiff == make_multi_index(0, 1)));
    EXPECT_TRUE((acoord.get_bottom_index() == make_multi_index(3, 3)));
}

TEST(Seed004Coordinates, RowWiseTiledAndSnakeMovement)
{
    const index_t rows = 6, cols = 5;
    auto desc  = make_naive_tensor_descriptor(make_tuple(rows, cols), make_tuple(cols, 1));
    auto coord = make_tensor_coordinate(desc, make_multi_index(1, 3));
    // row-wise traversal with wrap: 4 steps from (1,3)
    std::vector<index_t> offs;
    for(index_t i = 0; i < 4; ++i)
    {
        offs.push_back(coord.get_offset());
        move_tensor_coordinate(desc, coord, make_multi_index(0, 1));
        if(coord.get_index()[1] >= cols)
            move_tensor_coordinate(desc, coord, make_multi_index(1, -cols));
    }
    EXPECT_EQ(offs, (std::vector<index_t>{8, 9, 10, 11}));
    // tiled: TileM x TileN from (2, 1) visits row-major offsets of the tile
    constexpr index_t TileM = 3, TileN = 4;
    auto tc = make_tensor_coordinate(desc, make_multi_index(2, 1));
    for(index_t i = 0; i < TileM; ++i)
        for(index_t j = 0; j < TileN; ++j)
        {
            if(i == 0 && j == 0)
            {
                // first element: already positioned
            }
            else if(j == 0)
            {
                move_tensor_coordinate(desc, tc, make_multi_index(1, -(TileN - 1)));
            }
            else
            {
                move_tensor_coordinate(desc, tc, make_multi_index(0, 1));
            }
            EXPECT_EQ(tc.get_offset(), (2 + i) * cols + 1 + j);
        }
    // snake over a 4x4 block: visits every element of the block once
    auto sc = make_tensor_coordinate(desc, make_multi_index(0, 0));
    std::vector<int> seen(rows * cols, 0);
    constexpr index_t B = 4;
    for(index_t r = 0; r < B; ++r)
    {
        for(index_t c = 0; c < B; ++c)
        {
            ++seen[sc.get_offset()];
            if(c < B - 1)
                move_tensor_coordinate(desc, sc, make_multi_index(0, r % 2 == 0 ? 1 : -1));
        }
        if(r < B - 1)
            move_tensor_coordinate(desc, sc, make_multi_index(1, 0));
    }
    for(index_t r = 0; r < rows; ++r)
        for(index_t c = 0; c < cols; ++c)
            EXPECT_EQ(seen[r * cols + c], (r < B && c < B) ? 1 : 0);
}

TEST(Seed004Morton, MergeOfBitsGivesTheMortonTable)
{
    // 4x4 tile stored in Morton order: (y1, x1, y0, x0) packed, viewed as (y, x)
    auto bits = make_naive_tensor_descriptor_packed(
        make_tuple(number<2>{}, number<2>{}, number<2>{}, number<2>{}));
    auto morton = transform_tensor_descriptor(
        bits,
        make_tuple(make_merge_transform(sequence<2, 2>{}), make_merge_transform(sequence<2, 2>{})),
        make_tuple(sequence<0, 2>{}, sequence<1, 3>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    const int table[4][4] = {{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}};
    for(index_t y = 0; y < 4; ++y)
        for(index_t x = 0; x < 4; ++x)
            EXPECT_EQ(morton.calculate_offset(make_multi_index(y, x)), table[y][x]);
}

TEST(Seed004Lds, XorSwizzledLdsDescriptorIsABijection)
{
    // K0' = K0 ^ (M % (KPerBlock/KPack*MLdsLayer)); dims (K0*MLdsLayer, M/MLdsLayer, KPack)
    constexpr index_t KPerBlock = 32, KPack = 4, MLdsLayer = 2, MPerBlock = 16;
    constexpr index_t K0 = KPerBlock / KPack;
    auto base            = make_naive_tensor_descriptor(
                   make_tuple(number<K0 * MLdsLayer>{}, number<MPerBlock / MLdsLayer>{}, number<KPack>{}),
                   make_tuple(number<KPack>{}, number<KPerBlock * MLdsLayer>{}, number<1>{}));
    auto permuted = transform_tensor_descriptor(
        base,
        make_tuple(make_xor_transform(
                       make_tuple(number<MPerBlock / MLdsLayer>{}, number<K0 * MLdsLayer>{})),
                   make_pass_through_transform(number<KPack>{})),
        make_tuple(sequence<1, 0>{}, sequence<2>{}), make_tuple(sequence<1, 0>{}, sequence<2>{}));
    static_assert(decltype(permuted)::is_static());
    std::vector<int> hit(permuted.get_element_space_size(), 0);
    for(index_t k0 = 0; k0 < K0 * MLdsLayer; ++k0)
        for(index_t m = 0; m < MPerBlock / MLdsLayer; ++m)
            for(index_t k1 = 0; k1 < KPack; ++k1)
            {
                const index_t off = permuted.calculate_offset(make_multi_index(k0, m, k1));
                ASSERT_GE(off, 0);
                ASSERT_LT(off, static_cast<index_t>(hit.size()));
                ++hit[off];
                // the swizzle only permutes k0 within the row of m
                const index_t k0s = k0 ^ (m % (K0 * MLdsLayer));
                ASSERT_EQ(off, k0s * KPack + m * KPerBlock * MLdsLayer + k1);
            }
    for(int h : hit)
        ASSERT_EQ(h, 1);
}

// ------------------------------------------------------------------ properties

namespace {
// A random 3-level descriptor: naive (strided) -> pad + merge + pass -> unmerge + pass.
template <typename L>
auto make_random_chain(const L& ls, index_t stride_pad, index_t lp, index_t rp)
{
    const index_t l0 = ls[0], l1 = ls[1], l2 = ls[2], l3 = ls[3];
    auto d0 = make_naive_tensor_descriptor(
        make_tuple(l0, l1, l2, l3),
        make_tuple(l1 * l2 * (l3 + stride_pad), l2 * (l3 + stride_pad), l3 + stride_pad, 1));
    auto d1 = transform_tensor_descriptor(
        d0,
        make_tuple(make_pad_transform(l0, lp, rp), make_merge_transform(make_tuple(l1, l2)),
                   make_pass_through_transform(l3)),
        make_tuple(sequence<0>{}, sequence<1, 2>{}, sequence<3>{}),
        make_tuple(sequence<1>{}, sequence<0>{}, sequence<2>{}));
    auto d2 = transform_tensor_descriptor(
        d1,
        make_tuple(make_unmerge_transform(make_tuple(l1, l2)),
                   make_pass_through_transform(l0 + lp + rp), make_pass_through_transform(l3)),
        make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}),
        make_tuple(sequence<2, 1>{}, sequence<0>{}, sequence<3>{}));
    return d2; // top: (l0 padded, l2, l1, l3)
}
} // namespace

TEST(DescriptorProperties, IncrementalMovesEqualRecomputation)
{
    for(int trial = 0; trial < 60; ++trial)
    {
        const array<index_t, 4> ls{rand_in(1, 5), rand_in(1, 5), rand_in(1, 5), rand_in(1, 6)};
        const index_t lp = rand_in(0, 2), rp = rand_in(0, 2);
        const auto desc = make_random_chain(ls, rand_in(0, 3), lp, rp);
        auto idx        = random_index(desc);
        auto coord      = make_tensor_coordinate(desc, idx);
        for(int m = 0; m < 40; ++m)
        {
            const auto target = random_index(desc);
            const auto step   = target - idx;
            if(m % 2 == 0)
                move_tensor_coordinate(desc, coord, step);
            else
                move_tensor_coordinate(desc, coord, make_tensor_coordinate_step(desc, step));
            const auto fresh = make_tensor_coordinate(desc, target);
            ASSERT_TRUE(coord.get_hidden_index() == fresh.get_hidden_index());
            ASSERT_TRUE(coord.get_index() == target);
            ASSERT_EQ(coordinate_has_valid_offset(desc, coord),
                      coordinate_has_valid_offset(desc, fresh));
            idx = target;
        }
    }
}

TEST(DescriptorProperties, StepSkipsOnlyTransformsItDoesNotReach)
{
    auto desc = make_random_chain(array<index_t, 4>{3, 4, 5, 6}, 1, 1, 1);
    // moving only the last top dimension touches the pass-throughs and the embed, not the
    // merge/unmerge/pad of the other dimensions
    auto step = make_tensor_coordinate_step(desc, make_multi_index(0, 0, 0, 1));
    // transforms: embed, pad, merge, pass(l3), unmerge, pass(l0), pass(l3)
    EXPECT_TRUE(step.do_transforms_[0]);
    EXPECT_FALSE(step.do_transforms_[1]);
    EXPECT_FALSE(step.do_transforms_[2]);
    EXPECT_TRUE(step.do_transforms_[3]);
    EXPECT_FALSE(step.do_transforms_[4]);
    EXPECT_FALSE(step.do_transforms_[5]);
    EXPECT_TRUE(step.do_transforms_[6]);
}

TEST(DescriptorProperties, PadMarksExactlyThePaddedCoordinatesInvalid)
{
    for(int trial = 0; trial < 40; ++trial)
    {
        const index_t h = rand_in(1, 6), w = rand_in(1, 6), ph = rand_in(0, 2), pw = rand_in(0, 3);
        auto base = make_naive_tensor_descriptor_packed(make_tuple(h, w));
        auto pd   = transform_tensor_descriptor(
              base, make_tuple(make_pad_transform(h, ph, ph), make_right_pad_transform(w, pw)),
              make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1>{}));
        // merged on top, so the pads sit below a merge
        auto md = transform_tensor_descriptor(
            pd, make_tuple(make_merge_transform(make_tuple(h + 2 * ph, w + pw))),
            make_tuple(sequence<0, 1>{}), make_tuple(sequence<0>{}));
        for(index_t u = 0; u < (h + 2 * ph) * (w + pw); ++u)
        {
            const index_t y = u / (w + pw) - ph, x = u % (w + pw);
            const bool real = y >= 0 && y < h && x < w;
            auto c          = make_tensor_coordinate(md, make_multi_index(u));
            ASSERT_EQ(coordinate_has_valid_offset_assuming_top_index_is_valid(md, c), real);
            ASSERT_EQ(coordinate_has_valid_offset(md, c), real);
            if(real)
            {
                ASSERT_EQ(c.get_offset(), y * w + x);
            }
        }
        // outside the top lengths is invalid too
        auto out = make_tensor_coordinate(md, make_multi_index((h + 2 * ph) * (w + pw)));
        ASSERT_FALSE(coordinate_has_valid_offset(md, out));
    }
}

TEST(AdaptorProperties, ChainedAdaptorsEqualNestedApplication)
{
    for(int trial = 0; trial < 60; ++trial)
    {
        const index_t a = rand_in(1, 5), b = rand_in(1, 5), c = rand_in(1, 5);
        // a0: (a*b, c) top over (a, b, c) bottom
        auto a0 = make_single_stage_tensor_adaptor(
            make_tuple(make_merge_transform(make_tuple(a, b)), make_pass_through_transform(c)),
            make_tuple(sequence<0, 1>{}, sequence<2>{}), make_tuple(sequence<0>{}, sequence<1>{}));
        // a1: (c, a*b) top over a0's top, transposed, with an offset on the merged dim
        auto a1 = make_single_stage_tensor_adaptor(
            make_tuple(make_pass_through_transform(c), make_slice_transform(a * b, 0, a * b)),
            make_tuple(sequence<1>{}, sequence<0>{}), make_tuple(sequence<0>{}, sequence<1>{}));
        // a2: unmerge c into (1, c)
        auto a2 = make_single_stage_tensor_adaptor(
            make_tuple(make_unmerge_transform(make_tuple(1, c)),
                       make_pass_through_transform(a * b)),
            make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0, 1>{}, sequence<2>{}));
        auto chained = chain_tensor_adaptors(a0, a1, a2);
        for(int k = 0; k < 20; ++k)
        {
            const auto top    = make_multi_index(0, rand_in(0, c - 1), rand_in(0, a * b - 1));
            const auto nested = a0.calculate_bottom_index(
                a1.calculate_bottom_index(a2.calculate_bottom_index(top)));
            ASSERT_TRUE(chained.calculate_bottom_index(top) == nested);
            auto coord = make_tensor_adaptor_coordinate(chained, top);
            ASSERT_TRUE(coord.get_bottom_index() == nested);
            // move and compare with nested application again
            const auto top2 = make_multi_index(0, rand_in(0, c - 1), rand_in(0, a * b - 1));
            const auto bd   = move_tensor_adaptor_coordinate(chained, coord, top2 - top);
            const auto n2   = a0.calculate_bottom_index(
                  a1.calculate_bottom_index(a2.calculate_bottom_index(top2)));
            ASSERT_TRUE(coord.get_bottom_index() == n2);
            ASSERT_TRUE(bd == n2 - nested);
        }
    }
}

TEST(DescriptorProperties, StaticAndDynamicLengthsGiveTheSameOffsets)
{
    auto ds = transform_tensor_descriptor(
        make_naive_tensor_descriptor(make_tuple(number<6>{}, number<8>{}),
                                     make_tuple(number<9>{}, number<1>{})),
        make_tuple(make_unmerge_transform(make_tuple(number<2>{}, number<3>{})),
                   make_pad_transform(number<8>{}, number<1>{}, number<2>{})),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0, 1>{}, sequence<2>{}));
    auto dd = transform_tensor_descriptor(
        make_naive_tensor_descriptor(make_tuple(6, 8), make_tuple(9, 1)),
        make_tuple(make_unmerge_transform(make_tuple(2, 3)), make_pad_transform(8, 1, 2)),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0, 1>{}, sequence<2>{}));
    static_assert(decltype(ds)::is_static());
    static_assert(!decltype(dd)::is_static());
    static_assert(
        std::is_same_v<remove_cvref_t<decltype(ds.get_element_space_size())>, number<53>>);
    static_assert(std::is_same_v<remove_cvref_t<decltype(ds.get_length(number<2>{}))>, number<11>>);
    EXPECT_EQ(dd.get_element_space_size(), 53); // 1 + 5*9 + 7*1
    // a static descriptor is fully described by its type
    const decltype(ds) ds_default{};
    for(index_t i = 0; i < 2; ++i)
        for(index_t j = 0; j < 3; ++j)
            for(index_t k = 0; k < 11; ++k)
            {
                const auto idx = make_multi_index(i, j, k);
                ASSERT_EQ(ds.calculate_offset(idx), dd.calculate_offset(idx));
                ASSERT_EQ(ds_default.calculate_offset(idx), dd.calculate_offset(idx));
                auto cs = make_tensor_coordinate(ds, idx);
                auto cd = make_tensor_coordinate(dd, idx);
                ASSERT_EQ(coordinate_has_valid_offset(ds, cs), coordinate_has_valid_offset(dd, cd));
                ASSERT_EQ(coordinate_has_valid_offset(ds, cs), k >= 1 && k < 9);
            }
    // constexpr evaluation of a static descriptor
    constexpr auto cdesc =
        make_naive_tensor_descriptor_packed(make_tuple(number<3>{}, number<4>{}));
    static_assert(cdesc.calculate_offset(make_multi_index(2, 1)) == 9);
}

TEST(DescriptorProperties, EmbedDescriptorOffsetsAreDotProducts)
{
    for(int trial = 0; trial < 100; ++trial)
    {
        const auto lengths = make_tuple(rand_in(1, 6), rand_in(1, 6), rand_in(1, 6));
        const auto strides = make_tuple(rand_in(0, 100), rand_in(0, 10), rand_in(1, 3));
        const auto desc    = make_naive_tensor_descriptor(lengths, strides);
        index_t max_off    = 0;
        for(int k = 0; k < 20; ++k)
        {
            const auto idx    = random_index(desc);
            const index_t off = desc.calculate_offset(idx);
            ASSERT_EQ(off, dot(idx, strides));
            max_off = max_off > off ? max_off : off;
        }
        ASSERT_LT(max_off, desc.get_element_space_size());
    }
}

TEST(DescriptorPrint, DescriptorPrintsLengthsTransformsAndIds)
{
    auto d = transform_tensor_descriptor(
        make_naive_tensor_descriptor_packed(make_tuple(number<2>{}, 6)),
        make_tuple(make_pass_through_transform(number<2>{}),
                   make_unmerge_transform(make_tuple(2, number<3>{}))),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1, 2>{}));
    testing::internal::CaptureStdout();
    print(d);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(
        out,
        "tensor_descriptor{lengths: tuple<number<2>, 2, number<3>>, element_space_size: 12, "
        "transforms: tuple<unmerge{up_lengths: tuple<number<2>, 6>, up_lengths_scan: tuple<6, "
        "number<1>>}, pass_through{up_lengths: tuple<number<2>>}, unmerge{up_lengths: tuple<2, "
        "number<3>>, up_lengths_scan: tuple<number<3>, number<1>>}>, lower_dimension_hidden_idss: "
        "tuple<sequence<0>, sequence<1>, sequence<2>>, upper_dimension_hidden_idss: "
        "tuple<sequence<1, 2>, sequence<3>, sequence<4, 5>>, bottom_dimension_hidden_ids: "
        "sequence<0>, top_dimension_hidden_ids: sequence<3, 4, 5>}");
    testing::internal::CaptureStdout();
    print(make_tensor_coordinate(d, make_multi_index(1, 1, 2)));
    EXPECT_EQ(
        testing::internal::GetCapturedStdout(),
        "tensor_coordinate{index: array{1, 1, 2}, offset: 11, hidden: array{11, 1, 5, 1, 1, 2}}");
}
