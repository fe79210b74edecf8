// SPDX-License-Identifier: MIT
// The Hopper GEMM's host-visible pieces: the shared-memory descriptors of each operand layout
// name the bytes the copy engine wrote (checked against the swizzle function, element by
// element, for every K step and slab, whole tiles and the parts a cluster loads), the policy
// picks the MN group its consumers can start on, the persistent scheduler visits every tile of
// every batch once, split-K counts leave no split empty, the units of work (whole tiles, split-K,
// the last wave's split) cover every K tile of every tile once, and the policy's register and
// shared-memory budgets fit an sm_90a SM.
#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_operand.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_policy.hpp"
#include "ck_tile/core/numeric/byte_transpose.hpp"
#include "ck_tile/ops/gemm/gemm_operand_view.hpp"
#include "ck_tile/ops/gemm/gemm_split_k.hpp"
#include "ck_tile/ops/gemm/gemm_tile_partitioner.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_scheduler.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

using namespace ck_tile;

namespace {

/// Byte offset, within a stage, of element (row, k) of an operand tile as the copy engine
/// stores it: K-major, 128-byte rows of K, 128-byte swizzle; MN-major, groups of MnGroup
/// columns one after the other, each K index one row of the group, swizzled at that span.
template <typename Tile, typename T>
uint32_t tma_offset(index_t row, index_t k)
{
    if constexpr(Tile::major == wgmma_major::k)
        return smem_swizzle_offset(smem_swizzle::b128,
                                   static_cast<uint32_t>(row * 128 + k * sizeof(T)));
    else
    {
        constexpr index_t group = Tile::row_bytes / static_cast<index_t>(sizeof(T));
        const uint32_t at       = static_cast<uint32_t>(row / group * Tile::group_bytes);
        return at + smem_swizzle_offset(
                        Tile::swizzle,
                        static_cast<uint32_t>(k * Tile::row_bytes + (row % group) * sizeof(T)));
    }
}

/// Where the descriptor says element (r, kk) of the 64 x k-step operand is: the canonical
/// layouts of the PTX ISA ("Shared Memory Matrix Layout"), swizzled, written out.
uint32_t descriptor_offset(uint64_t desc, wgmma_major major, index_t r, index_t kk, uint32_t elem)
{
    const uint32_t start  = wgmma_smem_descriptor::start_address(desc);
    const uint32_t lbo    = wgmma_smem_descriptor::lbo_bytes(desc);
    const uint32_t sbo    = wgmma_smem_descriptor::sbo_bytes(desc);
    const smem_swizzle sw = wgmma_smem_descriptor::swizzle(desc);
    const uint32_t span   = smem_swizzle_span_bytes(sw);
    uint32_t logical;
    if(major == wgmma_major::k) // row r: 8-row groups SBO apart, rows one span apart
        logical = start + (r / 8) * sbo + (r % 8) * span + kk * elem;
    else // groups of span / elem MN indices LBO apart; K: 8-row groups SBO apart, rows a span
    {
        const index_t g = static_cast<index_t>(span / elem);
        logical         = start + (r / g) * lbo + (kk / 8) * sbo + (kk % 8) * span + (r % g) * elem;
    }
    return smem_swizzle_offset(sw, logical);
}

template <typename T, index_t Rows, bool KMajor, index_t MnGroup = 64, index_t Slab = 64,
          index_t Parts = 1>
void expect_descriptors_name_the_copied_bytes()
{
    using tile             = gemm_wgmma_operand_tile<T, Rows, KMajor, Parts, MnGroup>;
    constexpr index_t step = 32 / sizeof(T);
    for(index_t row0 = 0; row0 < Rows; row0 += Slab)
        for(index_t s = 0; s < tile::k_steps; ++s)
        {
            const uint64_t d = tile::descriptor(0, row0, s);
            EXPECT_EQ(wgmma_smem_descriptor::swizzle(d), tile::swizzle);
            for(index_t r = 0; r < Slab && row0 + r < Rows; ++r)
                for(index_t kk = 0; kk < step; ++kk)
                    ASSERT_EQ(descriptor_offset(d, tile::major, r, kk, sizeof(T)),
                              (tma_offset<tile, T>(row0 + r, s * step + kk)))
                        << "rows " << Rows << " slab " << row0 << " step " << s << " (" << r << ","
                        << kk << ")";
        }
}

/// The consumers build stage 0's descriptor of their first slab once and reach every other
/// one by adding descriptor_offset (and the stage's byte offset): it must give the very
/// descriptor descriptor() builds, for every stage base, first row, slab and K step.
template <typename T, index_t Rows, bool KMajor, index_t MnGroup = 64, index_t Slab = 64>
void expect_offsets_reach_every_descriptor()
{
    using tile = gemm_wgmma_operand_tile<T, Rows, KMajor, 1, MnGroup>;
    for(uint32_t base : {0u, 1024u, 49152u, 4u * 49152u, 229376u - 2u * tile::bytes})
        for(index_t row0 = 0; row0 < Rows; row0 += Slab)
        {
            const uint64_t first = tile::descriptor(base, row0, 0);
            for(index_t rows = 0; row0 + rows < Rows; rows += Slab)
                for(index_t s = 0; s < tile::k_steps; ++s)
                    ASSERT_EQ(
                        wgmma_smem_descriptor::advance(first, tile::descriptor_offset(rows, s)),
                        tile::descriptor(base, row0 + rows, s))
                        << "rows " << Rows << " base " << base << " first row " << row0 << " + "
                        << rows << " step " << s;
        }
}

} // namespace

TEST(GemmWgmmaOperand, KMajorDescriptorsNameTheCopiedBytes)
{
    expect_descriptors_name_the_copied_bytes<half_t, 128, true>();
    expect_descriptors_name_the_copied_bytes<half_t, 256, true>();
    expect_descriptors_name_the_copied_bytes<fp8_t, 128, true>();
    expect_descriptors_name_the_copied_bytes<int8_t, 256, true>();
}

TEST(GemmWgmmaOperand, MnMajorDescriptorsNameTheCopiedBytes)
{
    expect_descriptors_name_the_copied_bytes<half_t, 128, false>();
    expect_descriptors_name_the_copied_bytes<bf16_t, 256, false>();
    // 32-column groups (64-byte swizzle): a 192-column B read by two consumers of 96 columns,
    // each MMA starting on a group.
    using narrow = gemm_wgmma_operand_tile<half_t, 192, false, 1, 32>;
    EXPECT_EQ(narrow::swizzle, smem_swizzle::b64);
    EXPECT_EQ(narrow::boxes, 6);
    EXPECT_EQ(narrow::box_inner, 32u);
    expect_descriptors_name_the_copied_bytes<half_t, 192, false, 32, 96>();
    expect_descriptors_name_the_copied_bytes<bf16_t, 128, false, 32, 32>();
}

TEST(GemmWgmmaOperand, OffsetsFromTheFirstDescriptorReachEveryDescriptor)
{
    expect_offsets_reach_every_descriptor<half_t, 128, true>();
    expect_offsets_reach_every_descriptor<half_t, 256, true>();
    expect_offsets_reach_every_descriptor<half_t, 192, true>();
    expect_offsets_reach_every_descriptor<fp8_t, 128, true>();
    expect_offsets_reach_every_descriptor<half_t, 128, false>();
    expect_offsets_reach_every_descriptor<bf16_t, 256, false>();
    expect_offsets_reach_every_descriptor<half_t, 192, false, 32, 96>();
    // A stage base far enough on that the start address field is near its top.
    using tile           = gemm_wgmma_operand_tile<half_t, 256, true>;
    const uint64_t first = tile::descriptor(200704u, 0, 0);
    EXPECT_EQ(wgmma_smem_descriptor::start_address(
                  wgmma_smem_descriptor::advance(first, tile::descriptor_offset(192, 3))),
              200704u + 192u * 128u + 96u);
    EXPECT_EQ(wgmma_smem_descriptor::advance(first, 16u * 1024u) >> 32, first >> 32);
}

TEST(GemmWgmmaOperand, BoxesCoverTheStage)
{
    using kmaj = gemm_wgmma_operand_tile<half_t, 256, true>;
    EXPECT_EQ(kmaj::boxes, 1);
    EXPECT_EQ(kmaj::box_inner, 64u);
    EXPECT_EQ(kmaj::box_outer, 256u);
    using mn = gemm_wgmma_operand_tile<half_t, 256, false>;
    EXPECT_EQ(mn::boxes, 4);
    EXPECT_EQ(mn::box_inner, 64u);
    EXPECT_EQ(mn::box_outer, 64u);
    EXPECT_EQ(mn::bytes, 256 * 128);
    EXPECT_EQ((gemm_wgmma_operand_tile<fp8_t, 128, true>::block_k), 128);
}

namespace {

/// Every part's boxes, as the copy engine writes them (each box's rows one after the other
/// from its offset, swizzled on the shared address), put each element of the tile where the
/// descriptors read it, and together write every byte of the stage once.
template <typename T, index_t Rows, bool KMajor, index_t Parts, index_t MnGroup = 64>
void expect_parts_fill_the_tile()
{
    using tile = gemm_wgmma_operand_tile<T, Rows, KMajor, Parts, MnGroup>;
    std::vector<int> written(tile::bytes, 0);
    for(index_t part = 0; part < Parts; ++part)
        for(index_t j = 0; j < tile::boxes_per_part; ++j)
        {
            const uint32_t offset = static_cast<uint32_t>(tile::box_offset(part, j));
            ASSERT_EQ(offset % (8 * tile::row_bytes), 0u) << "a box starts on the swizzle repeat";
            for(uint32_t o = 0; o < tile::box_outer; ++o)
                for(uint32_t i = 0; i < tile::box_inner; ++i)
                {
                    const index_t row =
                        tile::box_mn(part, j) + static_cast<index_t>(KMajor ? o : i);
                    const index_t k = tile::box_k(part, j) + static_cast<index_t>(KMajor ? i : o);
                    const uint32_t at =
                        offset +
                        smem_swizzle_offset(tile::swizzle,
                                            o * tile::box_inner * sizeof(T) + i * sizeof(T));
                    ASSERT_EQ(at, (tma_offset<tile, T>(row, k)))
                        << "part " << part << " box " << j << " (" << row << "," << k << ")";
                    for(std::size_t b = 0; b < sizeof(T); ++b)
                        ++written[at + b];
                }
        }
    for(std::size_t b = 0; b < written.size(); ++b)
        ASSERT_EQ(written[b], 1) << "byte " << b;
}

} // namespace

TEST(GemmWgmmaOperand, PartsOfAClusterFillTheTileOnce)
{
    expect_parts_fill_the_tile<half_t, 256, true, 2>();
    expect_parts_fill_the_tile<half_t, 256, false, 2>(); // two whole boxes each
    expect_parts_fill_the_tile<half_t, 192, false, 2>(); // K halves of three boxes
    expect_parts_fill_the_tile<bf16_t, 192, false, 1>();
    expect_parts_fill_the_tile<half_t, 192, false, 2, 32>(); // three 32-column boxes each
    using split = gemm_wgmma_operand_tile<half_t, 192, false, 2>;
    EXPECT_TRUE(split::k_split);
    EXPECT_EQ(split::boxes_per_part, 3);
    EXPECT_EQ(split::box_outer, 32u);
    EXPECT_EQ(split::box_k(1, 0), 32);
    EXPECT_FALSE((gemm_wgmma_operand_tile<half_t, 256, false, 2>::k_split));
    EXPECT_FALSE((gemm_wgmma_operand_tile<half_t, 192, false, 2, 32>::k_split));
    // The descriptors of a split tile read what its parts wrote (and the fill test above puts
    // every part's bytes where tma_offset says).
    expect_descriptors_name_the_copied_bytes<half_t, 192, false, 64, 64, 2>();
    expect_descriptors_name_the_copied_bytes<half_t, 192, false, 32, 96, 2>();
}

// The decode by magic divisors gives the partitioner's order, batch after batch, so every tile
// once; whole and partial groups of tile rows, one row, one column, and groups of 4, 8 and 16.
template <index_t GroupM>
void expect_scheduler_matches_partitioner(std::int64_t tm, std::int64_t tn, std::int64_t batches)
{
    const auto s = gemm_wgmma_scheduler<GroupM>::make(tm, tn, batches);
    ASSERT_EQ(s.tiles(), tm * tn * batches);
    std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> seen;
    for(std::int64_t t = 0; t < s.tiles(); ++t)
    {
        const auto w        = s(t);
        const auto expected = gemm_tile_partitioner<GroupM>{tm, tn}(t % (tm * tn));
        ASSERT_EQ(w.batch, t / (tm * tn)) << tm << " " << tn << " " << t;
        ASSERT_EQ(w.m, expected.m) << tm << " " << tn << " " << t;
        ASSERT_EQ(w.n, expected.n) << tm << " " << tn << " " << t;
        seen.insert({w.batch, w.m, w.n});
    }
    EXPECT_EQ(static_cast<std::int64_t>(seen.size()), tm * tn * batches);
}

TEST(GemmWgmmaScheduler, VisitsEveryTileOfEveryBatchOnce)
{
    for(auto [tm, tn, batches] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{1, 1, 1},
                                  {9, 5, 1},
                                  {32, 16, 1},
                                  {3, 7, 4},
                                  {16, 16, 2},
                                  {17, 3, 3},
                                  {40, 1, 1},
                                  {1, 40, 2},
                                  {23, 29, 1},
                                  {8, 9, 5}})
    {
        expect_scheduler_matches_partitioner<4>(tm, tn, batches);
        expect_scheduler_matches_partitioner<8>(tm, tn, batches);
        expect_scheduler_matches_partitioner<16>(tm, tn, batches);
    }
    // The largest grids: the last tile of a launch just under gemm_wgmma_max_units.
    const auto big = gemm_wgmma_scheduler<16>::make(46341, 46340, 1); // 2,147,441,940 tiles
    const std::int64_t last = big.tiles() - 1;
    const auto w            = big(last);
    const auto expected     = gemm_tile_partitioner<16>{46341, 46340}(last);
    EXPECT_EQ(w.m, expected.m);
    EXPECT_EQ(w.n, expected.n);
    EXPECT_EQ(w.batch, 0);
    EXPECT_EQ((gemm_wgmma_scheduler<8>::grid_size(512, 132)), 132);
    EXPECT_EQ((gemm_wgmma_scheduler<8>::grid_size(32, 132)), 32);
}

// The H100 runs consecutive blocks in one GPC (16 or 18 SMs) and merges the GPC's identical L2
// requests: single blocks walk groups of 4 tile rows, so every 16 consecutive tiles of a full
// group are a 4 x 4 square (4 tiles of A rows and 4 of B columns, not 16 and 1). Pairs, whose
// clusters go to the GPCs in turn, keep groups of 8 cluster rows.
TEST(GemmWgmmaScheduler, SixteenConsecutiveTilesOfSingleBlocksAreASquare)
{
    using single = gemm_wgmma_policy<64, 128, 8, 1, gemm_wgmma_schedule::pingpong>;
    EXPECT_EQ(single::GroupM, 4);
    EXPECT_EQ((gemm_wgmma_policy<128, 256, 4>::GroupM), 4);
    EXPECT_EQ((gemm_wgmma_policy<192, 192, 4, 2>::GroupM), 8);
    const auto s = gemm_wgmma_scheduler<single::GroupM>::make(16, 8, 1); // fp16 1024^3 on 64x128
    for(std::int64_t first = 0; first < s.tiles(); first += 16)
    {
        std::set<std::int64_t> rows, cols;
        for(std::int64_t t = first; t < first + 16; ++t)
        {
            rows.insert(s(t).m);
            cols.insert(s(t).n);
        }
        EXPECT_EQ(rows.size(), 4u) << "tiles " << first << "..";
        EXPECT_EQ(cols.size(), 4u) << "tiles " << first << "..";
    }
}

// An operand whose tiles have few enough readers to be loaded as read once (L2 replaces its
// lines first) must have those readers next to each other in the walk, so that the last of them
// still finds the lines: at most GroupM tiles apart, for B's readers (one per tile row) and A's
// (one per tile column), whatever the other extent.
template <index_t GroupM>
void expect_read_once_readers_are_neighbours()
{
    for(std::int64_t readers = 1; readers <= 2 * GroupM; ++readers)
    {
        if(!gemm_wgmma_read_once(readers, 1.0, 1.0))
            continue;
        for(std::int64_t other : {1, 2, 3, 5, 16, 17, 133})
            for(const bool of_b : {true, false})
            {
                const std::int64_t tm = of_b ? readers : other, tn = of_b ? other : readers;
                const auto s = gemm_wgmma_scheduler<GroupM>::make(tm, tn, 1);
                EXPECT_EQ(of_b ? s.readers_of_b() : s.readers_of_a(), readers);
                std::vector<std::int64_t> first(other, -1), last(other, -1);
                for(std::int64_t t = 0; t < s.tiles(); ++t)
                {
                    const auto w          = s(t);
                    const std::int64_t id = of_b ? w.n : w.m; // the operand's tile
                    if(first[id] < 0)
                        first[id] = t;
                    last[id] = t;
                }
                for(std::int64_t id = 0; id < other; ++id)
                    EXPECT_LE(last[id] - first[id], GroupM)
                        << (of_b ? "B" : "A") << " tile " << id << " of " << tm << " x " << tn
                        << " tiles, groups of " << GroupM;
            }
    }
}

TEST(GemmWgmmaScheduler, ReadOnceOperandsHaveNeighbouringReaders)
{
    // Only operands at least the L2's size: smaller ones may serve the next call from L2.
    EXPECT_TRUE(gemm_wgmma_read_once(1, 128.0 * (1 << 20), 50.0 * (1 << 20)));
    EXPECT_FALSE(gemm_wgmma_read_once(1, 32.0 * (1 << 20), 50.0 * (1 << 20)));
    expect_read_once_readers_are_neighbours<4>();
    expect_read_once_readers_are_neighbours<8>();
}

TEST(GemmWgmmaPolicy, RowMajorBGroupsStartWhereTheConsumersDo)
{
    // Two consumers of 96 columns each: 32-column groups; B column-major keeps 128-byte rows.
    using pair192 = gemm_wgmma_policy<192, 192, 4, 2>;
    using rr      = pair192::of<half_t, half_t, true, false>;
    EXPECT_EQ(rr::b_group, 32);
    EXPECT_EQ(rr::b_tile::swizzle, smem_swizzle::b64);
    EXPECT_EQ(rr::b_tile::boxes_per_part, 3);
    EXPECT_FALSE(rr::b_tile::k_split);
    EXPECT_EQ((pair192::of<half_t, half_t, true, true>::b_tile::swizzle), smem_swizzle::b128);
    // 128 rows take all 192 columns in one consumer: 64-column groups, split along K in a pair.
    using rr128 = gemm_wgmma_policy<128, 192, 5, 2>::of<bf16_t, bf16_t, true, false>;
    EXPECT_EQ(rr128::b_group, 64);
    EXPECT_TRUE(rr128::b_tile::k_split);
    EXPECT_EQ(rr128::b_tile::box_outer, 32u);
    EXPECT_EQ((gemm_wgmma_policy<128, 256, 4, 2>::of<half_t, half_t, true, false>::b_group), 64);
}

TEST(GemmWgmmaPolicy, BudgetsFitAnSm90aMultiprocessor)
{
    using two = gemm_wgmma_policy<128, 256, 4>;
    EXPECT_EQ(two::BlockSize, 384);
    // setmaxnreg moves registers within the block's launch allocation (168 a thread for 384
    // threads): what the producer gives back is exactly what the consumers take.
    EXPECT_EQ(two::LaunchRegisters, 168u);
    EXPECT_EQ(two::ConsumerRegisters, 232u);
    EXPECT_EQ(128 * two::ProducerRegisters + 256 * two::ConsumerRegisters, 384u * 168u);
    // The ping-pong and 192-row tiles have two consumers as well.
    EXPECT_EQ((gemm_wgmma_policy<64, 128, 8, 1, gemm_wgmma_schedule::pingpong>::ConsumerRegisters),
              232u);
    EXPECT_EQ((gemm_wgmma_policy<192, 192, 4, 2>::ConsumerRegisters), 232u);
    using plan = two::of<half_t, half_t, true, true>;
    EXPECT_EQ(plan::stage_bytes, (128 + 256) * 128);
    EXPECT_LE(plan::shared_memory_bytes, 227u * 1024u);
    EXPECT_EQ(plan::staging_offset % 8, 0u);
    // The copy engine's output chunks: two per consumer where the stages leave room, on the
    // swizzle repeat, then the staging memory, then the barriers. The plain epilogue's wide
    // boxes (two slots of 16 x 128 bytes per consumer warp) fit in the first two.
    EXPECT_EQ(plan::d_buffers, 2);
    EXPECT_EQ(plan::d_offset % 1024, 0u);
    EXPECT_EQ(plan::staging_offset, plan::d_offset + 2 * 2 * plan::d_chunk_bytes);
    EXPECT_EQ(plan::barrier_offset, plan::staging_offset + 2 * plan::staging_bytes_per_consumer);
    EXPECT_TRUE(plan::wide_boxes);
    EXPECT_GE(plan::barrier_offset - plan::d_offset, 2u * 4u * 2u * 2048u);
    EXPECT_TRUE((gemm_wgmma_policy<192, 192, 4, 2>::of<half_t, half_t, true, true>::wide_boxes));
    using pingpong = gemm_wgmma_policy<64, 256, 5, 1, gemm_wgmma_schedule::pingpong>;
    using pp_plan  = pingpong::of<half_t, half_t, true, true>;
    EXPECT_EQ(pp_plan::d_buffers, 1);
    EXPECT_LE(pp_plan::shared_memory_bytes, 227u * 1024u);
    EXPECT_FALSE(pp_plan::wide_boxes); // one output chunk per consumer
    // The 64x128 ping-pong tile of small problems has room for them.
    EXPECT_TRUE(
        (gemm_wgmma_policy<64, 128, 8, 1, gemm_wgmma_schedule::pingpong>::of<half_t, half_t, true,
                                                                             true>::wide_boxes));
    using fp32_out = two::of<half_t, half_t, true, true, float>;
    EXPECT_EQ(fp32_out::d_chunk_bytes, 64u * 32u * 4u);
    EXPECT_FALSE(fp32_out::wide_boxes); // 32 columns already fill a 128-byte row
    EXPECT_LE(fp32_out::shared_memory_bytes, 227u * 1024u);
    using one = gemm_wgmma_policy<64, 256, 5>;
    EXPECT_EQ(one::BlockSize, 256);
}

// 128-row tiles 80, 96, 112, 144 and 176 columns wide (the wave-filling widths of mid-sized
// problems): B is K-major, a whole number of 8-row swizzle atoms that a pair splits into halves
// (72 and 56 rows for 144 and 112), read by one m64nN MMA per K step from its first row; the
// output leaves in 16-column chunks after the 64-column boxes where N is off the multiples of
// 32, and the plan keeps room for those boxes.
TEST(GemmWgmmaPolicy, TilesOffTheMultiplesOf32)
{
    expect_descriptors_name_the_copied_bytes<half_t, 144, true, 64, 144>();
    expect_descriptors_name_the_copied_bytes<half_t, 112, true, 64, 112>();
    expect_descriptors_name_the_copied_bytes<fp8_t, 144, true, 64, 144>();
    expect_parts_fill_the_tile<half_t, 144, true, 2>();
    expect_parts_fill_the_tile<half_t, 112, true, 2>();
    expect_parts_fill_the_tile<half_t, 144, true, 1>();
    using half144 = gemm_wgmma_operand_tile<half_t, 144, true, 2>;
    EXPECT_EQ(half144::box_outer, 72u);
    EXPECT_EQ(half144::box_offset(1, 0), 72 * 128);
    EXPECT_EQ(gemm_wgmma_chunk_cols(144), 16);
    EXPECT_EQ(gemm_wgmma_chunk_cols(112), 16);
    EXPECT_EQ(gemm_wgmma_chunk_cols(160), 32);
    EXPECT_EQ(gemm_wgmma_chunk_cols(256), 32);
    using p144 = gemm_wgmma_policy<128, 144, 5, 2>::of<half_t, half_t, true, true>;
    EXPECT_EQ(p144::stage_bytes, (128 + 144) * 128);
    EXPECT_EQ(p144::d_buffers, 2);
    EXPECT_TRUE(p144::wide_boxes);
    EXPECT_LE(p144::shared_memory_bytes, 227u * 1024u);
    using p112 = gemm_wgmma_policy<128, 112, 6, 2>::of<half_t, half_t, true, true>;
    EXPECT_EQ(p112::stage_bytes, (128 + 112) * 128);
    EXPECT_EQ(p112::d_buffers, 2);
    EXPECT_TRUE(p112::wide_boxes);
    EXPECT_LE(p112::shared_memory_bytes, 227u * 1024u);
    // Six stages of 128x144 leave no room for the output chunks: the generator's families take
    // five.
    EXPECT_EQ((gemm_wgmma_policy<128, 144, 6, 2>::of<half_t, half_t, true, true>::d_buffers), 0);
    // 80 and 176 columns (a pair's halves of 40 and 88 rows: 5 and 11 atoms), 96 (three groups
    // of 32 when B is row-major).
    expect_descriptors_name_the_copied_bytes<half_t, 80, true, 64, 80>();
    expect_descriptors_name_the_copied_bytes<half_t, 176, true, 64, 176>();
    expect_parts_fill_the_tile<half_t, 80, true, 2>();
    expect_parts_fill_the_tile<half_t, 96, true, 2>();
    expect_parts_fill_the_tile<half_t, 176, true, 2>();
    // A row-major B of 96 columns: three groups of 32 (the generator accepts it; no instance of
    // the sets builds it).
    expect_parts_fill_the_tile<half_t, 96, false, 1, 32>();
    expect_parts_fill_the_tile<half_t, 96, false, 2, 32>();
    expect_descriptors_name_the_copied_bytes<half_t, 96, false, 32, 96>();
    expect_descriptors_name_the_copied_bytes<half_t, 96, false, 32, 96, 2>();
    EXPECT_EQ((gemm_wgmma_policy<128, 96, 6, 2>::of<half_t, half_t, true, false>::b_group), 32);
    EXPECT_EQ(gemm_wgmma_chunk_cols(80), 16);
    EXPECT_EQ(gemm_wgmma_chunk_cols(96), 32);
    EXPECT_EQ(gemm_wgmma_chunk_cols(176), 16);
    using p80  = gemm_wgmma_policy<128, 80, 7, 2>::of<half_t, half_t, true, true>;
    using p96  = gemm_wgmma_policy<128, 96, 6, 2>::of<half_t, half_t, true, true>;
    using p176 = gemm_wgmma_policy<128, 176, 5, 2>::of<half_t, half_t, true, true>;
    EXPECT_EQ(p80::stage_bytes, (128 + 80) * 128);
    EXPECT_EQ(p176::stage_bytes, (128 + 176) * 128);
    EXPECT_EQ(p80::d_buffers, 2);
    EXPECT_EQ(p96::d_buffers, 2);
    EXPECT_EQ(p176::d_buffers, 2);
    EXPECT_TRUE(p80::wide_boxes && p96::wide_boxes && p176::wide_boxes);
    EXPECT_LE(p176::shared_memory_bytes, 227u * 1024u);
    // One stage more would leave no room for two output chunks: the families take 7, 6 and 5.
    EXPECT_EQ((gemm_wgmma_policy<128, 80, 8, 2>::of<half_t, half_t, true, true>::d_buffers), 0);
    EXPECT_EQ((gemm_wgmma_policy<128, 96, 7, 2>::of<half_t, half_t, true, true>::d_buffers), 1);
}

TEST(GemmWgmmaPolicy, ShortATilesLeaveTheStagesToB)
{
    // M <= 16: 16 rows of A per stage, 19 stages (152 KiB of B in flight) where 64-row A tiles
    // fit 12.
    using short_a = gemm_wgmma_policy<64, 64, 19, 1, gemm_wgmma_schedule::pingpong, 8, 16>;
    EXPECT_TRUE(short_a::ShortA);
    EXPECT_EQ(short_a::RowsA, 16);
    using plan = short_a::of<half_t, half_t, true, true>;
    EXPECT_EQ(plan::a_tile::rows, 16);
    EXPECT_EQ(plan::a_tile::box_outer, 16u);
    EXPECT_EQ(plan::a_tile::bytes, 16 * 128);
    EXPECT_EQ(plan::stage_bytes, (16 + 64) * 128);
    // The MMA reads 64 rows from A's start: they stay inside the stage (A's, then B's).
    EXPECT_GE(plan::stage_bytes, 64 * 128);
    EXPECT_LE(plan::shared_memory_bytes, 227u * 1024u);
    EXPECT_EQ(plan::d_buffers, 2);
    EXPECT_GT(19u * (64u + 64u) * 128u, 227u * 1024u); // 19 stages of 64-row A tiles
    EXPECT_FALSE((gemm_wgmma_policy<64, 64, 12, 1, gemm_wgmma_schedule::pingpong>::ShortA));
    // A short tile's descriptor starts at the stage for every K step, as a full one's does.
    using tile = plan::a_tile;
    for(index_t step = 0; step < tile::k_steps; ++step)
        EXPECT_EQ(tile::descriptor(0, 0, step),
                  (gemm_wgmma_operand_tile<half_t, 64, true>::descriptor(0, 0, step)));
}

TEST(GemmSplitK, TailSplitsOnlyAPartialLastWave)
{
    EXPECT_EQ(tail_k_splits(100, 132, 64, 4, 16), 1);  // one wave
    EXPECT_EQ(tail_k_splits(264, 132, 64, 4, 16), 1);  // whole waves
    EXPECT_EQ(tail_k_splits(512, 132, 64, 4, 16), 1);  // 4096^3 on 128x256: 116 left, no room
    EXPECT_EQ(tail_k_splits(288, 132, 47, 4, 16), 5);  // 3000^3 on 128x256: 24 left
    EXPECT_EQ(tail_k_splits(144, 66, 47, 4, 16), 5);   // the same in clusters of two
    EXPECT_EQ(tail_k_splits(133, 132, 64, 4, 16), 16); // capped by max_splits
    EXPECT_EQ(tail_k_splits(133, 132, 7, 4, 16), 1);   // too little K to split
    for(std::int64_t tiles = 1; tiles < 700; tiles += 7)
        for(std::int64_t k_tiles : {1, 5, 8, 9, 47, 64, 300})
        {
            const std::int64_t s = tail_k_splits(tiles, 132, k_tiles, 4, 16);
            ASSERT_GE(s, 1);
            if(s == 1)
                continue;
            ASSERT_GT(tiles, 132);
            ASSERT_LE(tiles % 132 * s, 132) << tiles << " " << k_tiles; // a slot per split
            const std::int64_t per = (k_tiles + s - 1) / s;
            ASSERT_GE(per, 4);
            ASSERT_GT(k_tiles - (s - 1) * per, 0); // no empty split
        }
}

TEST(GemmSplitK, TailSplitCapBalancesMathAndSums)
{
    EXPECT_EQ(tail_split_cap(1), 1);
    EXPECT_EQ(tail_split_cap(3), 2);
    EXPECT_EQ(tail_split_cap(16), 3);  // 1024 deep on 64-deep K tiles
    EXPECT_EQ(tail_split_cap(47), 5);  // 3000 deep
    EXPECT_EQ(tail_split_cap(64), 6);  // 4096 deep
    EXPECT_EQ(tail_split_cap(128), 8); // 8192 deep
    for(std::int64_t k = 1; k < 2000; ++k)
    {
        const std::int64_t s = tail_split_cap(k);
        ASSERT_GE(2 * s * s, k);
        ASSERT_LT(2 * (s - 1) * (s - 1), k);
    }
}

// The H100 measurements behind the rule (fp16 128x256, fixed cost 4.3 K tiles; 64x128, 17).
TEST(GemmSplitK, TailSplitPaysOnlyOnLongK)
{
    EXPECT_FALSE(tail_split_pays(64, 1, 4.3));
    EXPECT_FALSE(tail_split_pays(16, 3, 4.3)); // measured 3 us slower
    EXPECT_FALSE(tail_split_pays(24, 4, 4.3)); // measured even
    EXPECT_TRUE(tail_split_pays(32, 4, 4.3));  // measured 3.4 us faster
    EXPECT_TRUE(tail_split_pays(47, 5, 4.3));  // 3008^3: 9.5 us faster
    EXPECT_FALSE(tail_split_pays(32, 4, 17));  // 64x128: measured even
    EXPECT_TRUE(tail_split_pays(64, 6, 17));   // 64x128: measured 3 us faster
}

// Every K tile of every output tile in exactly one unit, a tile's units adjacent, tail units
// numbered from 0 in tile order.
TEST(GemmWorkUnits, CoverEveryKTileOnce)
{
    struct shape
    {
        std::int64_t tiles, k_tiles, splits, tail_splits;
    };
    for(const shape& sh : {shape{10, 7, 1, 1}, shape{3, 64, 16, 1}, shape{5, 33, 7, 1},
                           shape{288, 47, 1, 5}, shape{133, 9, 1, 2}, shape{140, 100, 1, 15}})
    {
        const std::int64_t tail_first = sh.tail_splits > 1 ? sh.tiles - sh.tiles % 132 : sh.tiles;
        const auto w =
            gemm_work_units::make(sh.tiles, sh.k_tiles, sh.splits, tail_first, sh.tail_splits);
        std::vector<int> seen(static_cast<std::size_t>(sh.tiles * sh.k_tiles), 0);
        std::int64_t previous_tile = -1, tails = 0;
        for(std::int64_t u = 0; u < w.count(); ++u)
        {
            const auto x = w(u);
            ASSERT_GE(x.tile, previous_tile);
            ASSERT_GT(x.k_tiles, 0);
            ASSERT_EQ(x.tail >= 0, sh.tail_splits > 1 && x.tile >= tail_first);
            if(x.tail >= 0)
            {
                ASSERT_EQ(x.tail, x.tile - tail_first);
                tails += x.split == 0;
            }
            previous_tile = x.tile;
            for(std::int32_t k = x.k_first; k < x.k_first + x.k_tiles; ++k)
                ++seen[static_cast<std::size_t>(x.tile * sh.k_tiles + k)];
        }
        for(int c : seen)
            ASSERT_EQ(c, 1) << sh.tiles << " " << sh.k_tiles;
        EXPECT_EQ(tails, sh.tail_splits > 1 ? sh.tiles - tail_first : 0);
    }
}

// The decode's 32-bit indices reach the last unit of the largest launch.
TEST(GemmWorkUnits, DecodesTheLargestLaunch)
{
    const std::int64_t tiles = gemm_wgmma_max_units / 16;
    const auto split_k       = gemm_work_units::make(tiles, 64, 16, tiles, 1);
    ASSERT_LE(split_k.count(), gemm_wgmma_max_units);
    const auto last = split_k(split_k.count() - 1);
    EXPECT_EQ(last.tile, tiles - 1);
    EXPECT_EQ(last.split, 15);
    EXPECT_EQ(last.k_first, 60);
    EXPECT_EQ(last.k_tiles, 4);

    const std::int64_t tail_first = tiles - 7;
    const auto tail               = gemm_work_units::make(tiles, 64, 1, tail_first, 16);
    const auto x                  = tail(tail.count() - 2);
    EXPECT_EQ(x.tile, tiles - 1);
    EXPECT_EQ(x.split, 14);
    EXPECT_EQ(x.tail, 6);
}

TEST(GemmSplitK, ClampKeepsEverySplitWorthABlock)
{
    EXPECT_EQ(clamp_k_splits(1, 1000, 4, 16), 1);
    EXPECT_EQ(clamp_k_splits(4, 128, 4, 16), 4);   // M=128, N=K=8192 on 128x256 tiles
    EXPECT_EQ(clamp_k_splits(132, 64, 4, 16), 16); // capped by MaxSplits
    EXPECT_EQ(clamp_k_splits(132, 33, 4, 16), 7);  // 8 wished, 5 K tiles each: 7 splits
    EXPECT_EQ(clamp_k_splits(5, 3, 4, 16), 1);     // too little K to split
    for(std::int64_t k_tiles = 1; k_tiles < 300; ++k_tiles)
        for(std::int64_t wish : {1, 2, 3, 5, 16, 132})
        {
            const std::int64_t s = clamp_k_splits(wish, k_tiles, 4, 16);
            ASSERT_GE(s, 1);
            ASSERT_LE(s, 16);
            const std::int64_t per = (k_tiles + s - 1) / s;
            ASSERT_GT(k_tiles - (s - 1) * per, 0) << k_tiles << " " << wish; // no empty split
        }
}

// An operand stored along M or N (fp32 B row-major: 1000 rows of K, runs of 300 along N) staged
// for a K-major reader: 300 runs of K, each on whole 128-byte lines, matrices packed.
TEST(GemmOperandStaging, TransposedViewSwapsRunsAndRowsOnWholeLines)
{
    ck_tile::gemm_operand_view v;
    v.rows = 1000, v.run = 300, v.ld = 304, v.batches = 3, v.batch_stride = 304 * 1000 + 16;
    v.element_bytes = 4;
    const auto t    = ck_tile::gemm_operand_layout::transposed(v);
    EXPECT_EQ(t.rows, 300);
    EXPECT_EQ(t.run, 1000);
    EXPECT_EQ(t.ld, 1024); // 1000 floats rounded up to 128-byte lines of 32
    EXPECT_EQ(t.batch_stride, 1024 * 300);
    EXPECT_EQ(t.batches, 3);
    EXPECT_EQ(ck_tile::gemm_operand_layout::bytes(t), std::size_t(1024) * 300 * 3 * 4);
    // Staging it again leaves the view as it is: its rows are already on whole lines.
    EXPECT_EQ(ck_tile::gemm_operand_layout::staged_ld(t), t.ld);
    v.element_bytes = 1; // fp8: 1000 bytes round up to 1024 as well
    EXPECT_EQ(ck_tile::gemm_operand_layout::transposed(v).ld, 1024);
}

// The register transpose of the byte copy: byte i of word j of the result is byte j of word i,
// for random words (every byte value reaches every position).
TEST(GemmOperandStaging, FourByFourByteTransposeSwapsRowsAndColumns)
{
    std::mt19937 rng(3);
    std::uniform_int_distribution<std::uint32_t> word;
    for(int trial = 0; trial < 1000; ++trial)
    {
        const std::uint32_t w[4] = {word(rng), word(rng), word(rng), word(rng)};
        std::uint32_t t[4], back[4];
        ck_tile::transpose_4x4_bytes(w, t);
        for(int i = 0; i < 4; ++i)
            for(int j = 0; j < 4; ++j)
                ASSERT_EQ(t[j] >> 8 * i & 0xffu, w[i] >> 8 * j & 0xffu) << i << ", " << j;
        ck_tile::transpose_4x4_bytes(t, back); // an involution
        for(int i = 0; i < 4; ++i)
            ASSERT_EQ(back[i], w[i]);
    }
}

// The transposed byte copy reads words where the source's start, leading dimension (with more
// than one run) and batch stride (with more than one matrix) are on 4 bytes; anything else goes a
// byte at a time. Its destination's rows have room for the last word.
namespace {

/// `rows` runs of `run` elements at byte `offset` of a 16-byte aligned buffer.
ck_tile::gemm_operand_view stored_operand(std::size_t offset, std::int64_t rows, std::int64_t run,
                                          std::int64_t ld, std::int64_t batches,
                                          std::int64_t batch_stride, std::size_t element_bytes)
{
    alignas(16) static std::uint8_t src[64];
    ck_tile::gemm_operand_view v;
    v.p = src + offset, v.rows = rows, v.run = run, v.ld = ld, v.batches = batches;
    v.batch_stride  = batch_stride;
    v.element_bytes = element_bytes;
    return v;
}

} // namespace

TEST(GemmOperandStaging, ByteTransposeTakesWordsWhereAligned)
{
    const auto view = [](std::size_t offset, std::int64_t ld, std::int64_t batches,
                         std::int64_t batch_stride, std::size_t element_bytes = 1) {
        return stored_operand(offset, 70, 33, ld, batches, batch_stride, element_bytes);
    };
    using layout = ck_tile::gemm_operand_layout;
    EXPECT_TRUE(layout::transposes_by_words(view(0, 36, 1, 0)));
    EXPECT_TRUE(layout::transposes_by_words(view(4, 36, 3, 36 * 70)));
    EXPECT_TRUE(layout::transposes_by_words(view(0, 36, 1, 3))); // one matrix: stride unused
    EXPECT_FALSE(layout::transposes_by_words(view(1, 36, 1, 0)));
    EXPECT_FALSE(layout::transposes_by_words(view(2, 36, 1, 0)));
    EXPECT_FALSE(layout::transposes_by_words(view(0, 33, 1, 0)));
    EXPECT_FALSE(layout::transposes_by_words(view(0, 34, 1, 0)));
    EXPECT_FALSE(layout::transposes_by_words(view(0, 36, 3, 36 * 70 + 2)));
    EXPECT_FALSE(layout::transposes_by_words(view(0, 36, 1, 0, 2))); // bytes only
    auto one_run = view(0, 33, 1, 0);
    one_run.rows = 1; // its leading dimension is never used
    EXPECT_TRUE(layout::transposes_by_words(one_run));
    const auto t = layout::transposed(view(0, 36, 3, 36 * 70));
    EXPECT_EQ(t.ld % 4, 0);
    EXPECT_EQ(t.batch_stride % 4, 0);
    EXPECT_GE(t.ld, 72); // 70 rows: the last word ends at 72
}

// The padded copy takes its variant without second words where every run starts on 4 bytes:
// counted in bytes, so 2-byte elements need even leading dimensions and 4-byte ones any.
TEST(GemmOperandStaging, RunsOnWordsCountBytes)
{
    const auto view = [](std::size_t offset, std::int64_t ld, std::int64_t batches,
                         std::int64_t batch_stride, std::size_t element_bytes) {
        return stored_operand(offset, 9, 5, ld, batches, batch_stride, element_bytes);
    };
    using layout = ck_tile::gemm_operand_layout;
    EXPECT_TRUE(layout::runs_on_words(view(0, 5, 3, 45, 4)));
    EXPECT_TRUE(layout::runs_on_words(view(0, 6, 3, 54, 2)));
    EXPECT_FALSE(layout::runs_on_words(view(0, 5, 1, 0, 2)));
    EXPECT_FALSE(layout::runs_on_words(view(0, 6, 3, 55, 2)));
    EXPECT_TRUE(layout::runs_on_words(view(0, 6, 1, 55, 2))); // one matrix: stride unused
    EXPECT_FALSE(layout::runs_on_words(view(2, 6, 1, 0, 2)));
    EXPECT_TRUE(layout::runs_on_words(view(0, 8, 1, 0, 1)));
    EXPECT_FALSE(layout::runs_on_words(view(0, 6, 1, 0, 1)));
    auto one_run = view(0, 5, 1, 0, 1);
    one_run.rows = 1;
    EXPECT_TRUE(layout::runs_on_words(one_run));
}
