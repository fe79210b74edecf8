// SPDX-License-Identifier: MIT
// The policy half of the Hopper GEMM: block tile, shared-memory stages, the warpgroup roles and
// their register budgets, and the shared-memory plan derived from them for a problem.
//
// With ClusterM = 2, two CTAs with neighbouring M tiles and the same N tile form a cluster: each
// loads half of B's tile and the copy engine multicasts it to both, halving B's L2 traffic.
//
// A block is one producer warpgroup (one thread issues the TMA copies) and consumer warpgroups:
// BlockM / 64 of them for 64- and 128-row tiles, each owning 64 rows of the BlockM x BlockN tile
// and issuing m64nBlockNk* wgmma on it; two for 192-row tiles, each owning BlockN / 2 columns of
// all 192 rows (three 64-row slabs, m64n(BlockN/2)k* wgmma on each). 192x192 does a quarter more
// math per staged byte than 128x192; three consumers of 64 rows each, at 152 registers per
// thread, measured a fifth slower per tile than 128x256 on the H100. The producer gives up
// registers it does not need (setmaxnreg) so the consumers can hold their accumulators (Slabs x
// ConsumerN / 2 per thread: 128 for 128x256, 144 for 192x192) without spilling.
//
// BlockN is 64, 128, 192 or 256, or for 128-row tiles 80, 96, 112, 144, 160 or 176, widths that
// fill the SMs' waves on mid-sized problems: 1536^3 makes 120 tiles of 128x160 on 132 SMs, where
// 128x192 makes 96 and 128x128 a second wave; 2560^3 makes 360 of 128x144 (2.7 waves, where
// 128x256 makes 1.5 and 128x160 2.4), 1280^3 120 of 128x112, 512 x 2560 128 of 128x80 (80 of
// 128x128) and 2304^2 252 of 128x176 (two waves, where 128x256 makes 1.2). A row-major B is read
// in groups of 32 columns (96, 160), or not at all (80, 112, 144, 176: K-major B only).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_b_rows.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_operand.hpp"

#include <cstddef>
#include <cstdint>

namespace ck_tile {

/// How B's tiles reach the stages. copy_engine: TMA boxes, which need B's leading dimension and
/// batch stride on 16 bytes (an operand off them is copied padded into workspace first, which
/// reads and writes it once more than the GEMM reads it). threads: the producer warpgroup's
/// four warps copy each row's 128 bytes of K from its 16-byte line start on (asynchronous
/// 16-byte copies into a ring of raw rows, gemm_wgmma_b_rows), then shift every row by its own
/// offset into the swizzled stage: a K-major B with any leading dimension or batch stride is
/// read once, straight from the caller's memory. For problems that stream B (few rows of A, a
/// large weight matrix with an odd K) the staging copy costs more than the GEMM.
enum class gemm_wgmma_b_feed
{
    copy_engine,
    threads
};

/// How the consumer warpgroups share the work. cooperative: BlockM / 64 consumers split every
/// tile by rows (192-row tiles: two consumers by columns). pingpong: two consumers take
/// alternate 64-row tiles, so one's epilogue runs while the other's MMAs keep the tensor cores
/// busy (the producer fills the ring in tile order, which staggers the two by one tile with no
/// further synchronization).
enum class gemm_wgmma_schedule
{
    cooperative,
    pingpong
};

/// Columns per output chunk of the Hopper epilogue (the copy engine's narrow D boxes and the
/// staged epilogue's pass) for a consumer's share of `consumer_n` columns: 32, or 16 where the
/// share is not a whole number of 32 (80, 112, 144 and 176 columns: 5, 7, 9 and 11 chunks).
/// @post consumer_n % result == 0 for every instantiated BlockN
CK_TILE_HOST_DEVICE constexpr index_t gemm_wgmma_chunk_cols(index_t consumer_n)
{
    return consumer_n % 32 == 0 ? 32 : 16;
}

/// GroupM_: the scheduler's groups of tile rows (of clusters' rows with ClusterM_ > 1). Single
/// blocks take 4: the H100 places consecutive block indices in one GPC until it is full (16 or
/// 18 SMs) and merges the GPC's identical L2 requests, so 16 consecutive tiles should be a 4 x 4
/// square (4 panels of A and 4 of B per K step) rather than a column of 16 (16 of A, 1 of B):
/// fp16 1024 x 1024 x 4096 ran 19% faster on 64x128 ping-pong tiles, 2048 x 1024 x 4096 13 to
/// 17% on 128x128, large problems the same (at 4096^3 a wave then reads all of B, 187 MB from
/// DRAM instead of 149, which did not show in its time). Clusters are placed one per GPC in
/// turn, so the pairs keep 8 (16 tile rows); 16 pairs made fp16 3000^3 with B row-major 1.5%
/// slower on the H100.
/// RowsA_: the rows of A a tile loads, BlockM unless the instance is for M <= RowsA_ only (a
/// short K-major A tile, 8 to 56 rows, with BlockM 64; see gemm_wgmma_operand_tile).
/// BFeed_: how B reaches the stages (gemm_wgmma_b_feed).
template <index_t BlockM_, index_t BlockN_, index_t Stages_, index_t ClusterM_ = 1,
          gemm_wgmma_schedule Schedule_ = gemm_wgmma_schedule::cooperative,
          index_t GroupM_ = ClusterM_ == 1 ? 4 : 16 / ClusterM_, index_t RowsA_ = BlockM_,
          gemm_wgmma_b_feed BFeed_ = gemm_wgmma_b_feed::copy_engine>
struct gemm_wgmma_policy
{
    static constexpr index_t BlockM               = BlockM_;
    static constexpr index_t BlockN               = BlockN_;
    static constexpr index_t Stages               = Stages_;
    static constexpr index_t ClusterM             = ClusterM_;
    static constexpr gemm_wgmma_schedule Schedule = Schedule_;
    static constexpr bool Pingpong                = Schedule == gemm_wgmma_schedule::pingpong;
    static constexpr index_t GroupM               = GroupM_;
    static constexpr index_t RowsA                = RowsA_;
    static constexpr bool ShortA                  = RowsA < BlockM;
    static constexpr bool BFromThreads            = BFeed_ == gemm_wgmma_b_feed::threads;
    /// Consumers split 192-row tiles by columns, the others by rows.
    static constexpr bool SplitN       = BlockM == 192;
    static constexpr index_t Consumers = Pingpong || SplitN ? 2 : BlockM / 64;
    /// Each consumer's share of a tile: Slabs 64-row slabs of ConsumerN columns.
    static constexpr index_t Slabs     = SplitN ? BlockM / 64 : 1;
    static constexpr index_t ConsumerN = SplitN ? BlockN / 2 : BlockN;
    /// Consumer warpgroups that read each stage (and release it).
    static constexpr index_t ConsumersPerStage = Pingpong ? 1 : Consumers;
    static constexpr index_t BlockSize         = 128 * (Consumers + 1);

    /// The first row and column of `consumer`'s share, relative to the tile.
    CK_TILE_HOST_DEVICE static constexpr index_t consumer_row(index_t consumer)
    {
        return Pingpong || SplitN ? 0 : 64 * consumer;
    }
    CK_TILE_HOST_DEVICE static constexpr index_t consumer_col(index_t consumer)
    {
        return SplitN ? ConsumerN * consumer : 0;
    }

    static_assert(BlockM == 64 || BlockM == 128 || BlockM == 192,
                  "BlockM is 64 or 128 (one consumer per 64 rows) or 192 (two consumers, each "
                  "taking half the columns)");
    static_assert(!Pingpong || BlockM == 64, "ping-pong tiles are 64 rows, one per consumer");
    static_assert(BlockN == 64 || BlockN == 80 || BlockN == 96 || BlockN == 112 || BlockN == 128 ||
                      BlockN == 144 || BlockN == 160 || BlockN == 176 || BlockN == 192 ||
                      BlockN == 256,
                  "BlockN is a wgmma N instantiated in wgmma.hpp: a multiple of 64, or 80, 96, "
                  "112, 144, 160 or 176");
    static_assert(BlockN % 64 == 0 || (BlockM == 128 && !Pingpong),
                  "80 to 176 columns off the multiples of 64 are 128-row cooperative tiles' (one "
                  "consumer's MMA each, not split)");
    static_assert(!SplitN || BlockN == 128 || BlockN == 192 || BlockN == 256,
                  "a 192-row tile's consumers take BlockN / 2 columns each: 64, 96 or 128");
    static_assert(Stages >= 2 && Stages <= 32, "2 to 32 shared-memory stages");
    static_assert(!SplitN || !Pingpong, "192-row tiles are cooperative");
    static_assert(!ShortA || (BlockM == 64 && ClusterM == 1),
                  "a short A tile is read by one 64-row MMA per consumer, without clusters");
    static_assert(ClusterM == 1 || ClusterM == 2,
                  "clusters of 1 or 2 CTAs along M (the pair shares B's tile)");
    static_assert(!BFromThreads || (ClusterM == 1 && BlockN <= 128 && BlockN % 64 == 0),
                  "a B fed by the threads is one CTA's (no multicast), 64 or 128 rows: the "
                  "producer's four warps take a quarter each");

    /// Registers per thread at launch: one block per SM (__launch_bounds__(BlockSize, 1)), so
    /// ptxas gives every thread the register file's share, in its allocation unit of 8.
    static constexpr uint32_t LaunchRegisters = [] {
        const uint32_t r = 65536u / static_cast<uint32_t>(BlockSize) / 8u * 8u;
        return r > 248u ? 248u : r;
    }();
    /// Registers per thread after setmaxnreg: the producer keeps 40 (80 where its warps copy
    /// and shift B's rows) and the consumers take what it gives back, in multiples of 8 (at
    /// most 240). setmaxnreg only moves registers within the block's launch allocation: a
    /// consumer asking for more than that pool holds would wait for them forever. (Two
    /// consumers: 128 x 40 + 256 x 232 = 384 x 168.)
    static constexpr uint32_t ProducerRegisters = BFromThreads ? 80 : 40;
    static constexpr uint32_t ConsumerRegisters = [] {
        const uint32_t pool = LaunchRegisters * static_cast<uint32_t>(Consumers + 1);
        const uint32_t r = (pool - ProducerRegisters) / static_cast<uint32_t>(Consumers) / 8u * 8u;
        return r > 240u ? 240u : r;
    }();
    static_assert(Consumers < 2 || (ProducerRegisters + Consumers * ConsumerRegisters <=
                                    LaunchRegisters * (Consumers + 1)),
                  "setmaxnreg cannot hand out more registers than the block launched with");

    /// The shared-memory plan for element types A and B, operand majors and output type D.
    template <typename A, typename B, bool AKMajor, bool BKMajor, typename D = A>
    struct of
    {
        using a_tile = gemm_wgmma_operand_tile<A, RowsA, AKMajor>;
        /// A row-major B is read in groups of 64 columns, or 32 where a consumer's columns
        /// start inside a group of 64 (two consumers of 192 columns: 96 each) or end inside one
        /// (160 columns).
        static constexpr index_t b_group = BKMajor || ConsumerN % 64 == 0 ? 64 : 32;
        static_assert(BKMajor || ConsumerN % 32 == 0,
                      "a row-major B is read in groups of 32 or 64 columns: 80, 112, 144 and "
                      "176 columns take a column-major B");
        using b_tile = gemm_wgmma_operand_tile<B, BlockN, BKMajor, ClusterM, b_group>;
        static_assert(a_tile::block_k == b_tile::block_k, "A and B take the same K per stage");
        static_assert(BKMajor || ConsumerN % b_group == 0,
                      "an MN-major B tile is read in groups of 32 or 64 columns: a consumer's "
                      "columns start on one");
        static constexpr index_t block_k     = a_tile::block_k;
        static constexpr index_t stage_bytes = a_tile::bytes + b_tile::bytes;
        /// A B fed by the threads: a ring of raw_stages slots, each BlockN rows of the nine
        /// 16-byte lines that hold a row's 128 bytes of K from any start, after
        /// the stages (gemm_wgmma_b_rows). Deep enough for about 72 KiB in flight, at most 8.
        static constexpr std::size_t raw_slot_bytes = [] {
            if constexpr(BFromThreads) // (the rows' shapes hold for its tiles only)
                return std::size_t(gemm_wgmma_b_rows<BlockN>::slot_bytes);
            else
                return std::size_t(1);
        }();
        static constexpr index_t raw_stages     = !BFromThreads ? 0
                                                  : 73728 / raw_slot_bytes >= 8
                                                      ? 8
                                                      : index_t(73728 / raw_slot_bytes);
        static constexpr std::size_t raw_offset = std::size_t(Stages) * stage_bytes;
        /// After the slots, two barriers per slot (its boxes have landed; its four producer
        /// warps have read it), in a KiB that keeps what follows on the swizzle repeat.
        static constexpr std::size_t raw_barrier_offset =
            raw_offset + std::size_t(raw_stages) * raw_slot_bytes;
        static constexpr std::size_t raw_bytes =
            BFromThreads ? std::size_t(raw_stages) * raw_slot_bytes + 1024 : 0;
        static_assert(2 * raw_stages * sizeof(uint64_t) <= 1024, "the raw barriers fit their KiB");
        /// Arrivals that complete a stage's full barrier: the copy engine's (the thread that
        /// announces its bytes), and with a B fed by the threads one per producer warp.
        static constexpr uint32_t full_arrivals = BFromThreads ? 5u : 1u;
        static_assert(!ShortA || (AKMajor && stage_bytes >= 64 * 128),
                      "a short A tile is K-major, and the 64 rows the MMA reads from its start "
                      "stay inside the stage");
        static constexpr std::size_t budget = 227 * 1024;
        /// Stages (and B's raw ring); then per consumer d_buffers output chunks of 64 rows x
        /// d_chunk_cols of D, the shared-memory side of the copy engine's stores
        /// (gemm_wgmma_epilogue), each d_chunk_cols * sizeof(D) = 32, 64 or 128 bytes per row,
        /// swizzled at that span; then per consumer a 64 x 33 chunk of 4-byte accumulators for the
        /// staged epilogue; then 2 barriers per stage, one per consumer (its output buffer's loads
        /// of C or D0 land on it) and two per consumer warp (the register epilogue's loads of
        /// its input into the warp's boxes); plus 1 KiB to align the dynamic window to the swizzle
        /// repeat. The output chunks take what the stages leave, at most two per consumer (a
        /// store may still read one while the other is written); none disables the path.
        /// The output chunks and the staging memory are adjacent: the plain epilogue, which
        /// uses neither as such, takes both for its wide boxes where they hold them.
        static constexpr std::size_t staging_bytes_per_consumer = 64 * 33 * 4;
        /// Room for chunks of 32 columns even where the epilogue's are 16 wide
        /// (gemm_wgmma_chunk_cols): the plain epilogue's wide boxes take this room.
        static constexpr index_t d_chunk_cols      = 32;
        static constexpr std::size_t d_chunk_bytes = 64 * d_chunk_cols * sizeof(D);
        static constexpr index_t input_barriers    = Consumers * (1 + 4 * 2);
        static constexpr std::size_t fixed_bytes =
            std::size_t(Stages) * stage_bytes + raw_bytes +
            (2 * Stages + input_barriers) * sizeof(uint64_t) +
            Consumers * staging_bytes_per_consumer + 1024;
        static constexpr index_t d_buffers = [] {
            if(sizeof(D) > 4 || fixed_bytes > budget)
                return index_t(0);
            const std::size_t fit = (budget - fixed_bytes) / (Consumers * d_chunk_bytes);
            return index_t(fit >= 2 ? 2 : fit);
        }();
        static constexpr std::size_t d_offset = raw_offset + raw_bytes;
        static constexpr std::size_t staging_offset =
            d_offset + std::size_t(Consumers) * d_buffers * d_chunk_bytes;
        static constexpr std::size_t barrier_offset =
            staging_offset + Consumers * staging_bytes_per_consumer;
        static constexpr std::size_t input_barrier_offset =
            barrier_offset + 2 * Stages * sizeof(uint64_t);
        static constexpr std::size_t shared_memory_bytes =
            input_barrier_offset + input_barriers * sizeof(uint64_t) + 1024;
        /// Wide boxes for the plain epilogue (gemm_wgmma_epilogue::wide_boxes): D of at most
        /// 16 bits (8-bit D's chunks and staging leave too little room), two output chunks per
        /// consumer, and room from d_offset on for every consumer warp's two slots of 16 rows
        /// x 128 bytes.
        static constexpr bool wide_boxes =
            sizeof(D) <= 2 && d_buffers == 2 &&
            barrier_offset - d_offset >= std::size_t(Consumers) * 4 * 2 * 16 * 128;
        static_assert(stage_bytes % 1024 == 0, "stages stay on the 1024-byte swizzle repeat");
        static_assert(!BFromThreads || BKMajor, "the threads feed a K-major B only");
        static_assert(!BFromThreads || sizeof(B) >= 2,
                      "rows 8 apart are 16 bytes apart for elements of 2 bytes or more only");
        static_assert(!BFromThreads || raw_stages >= 2, "two raw slots at least");
        static_assert(raw_bytes % 1024 == 0, "the output chunks after the raw ring stay on their "
                                             "swizzle repeat");
        static_assert(barrier_offset % 8 == 0, "barriers are 8-byte words");
        static_assert(d_chunk_bytes % 1024 == 0,
                      "output chunks stay on their swizzle repeat (at most 1024 bytes)");
        static_assert(shared_memory_bytes <= budget,
                      "more shared memory than an sm_90 block may have (227 KiB)");
    };
};

} // namespace ck_tile
