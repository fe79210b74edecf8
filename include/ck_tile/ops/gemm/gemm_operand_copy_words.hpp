// SPDX-License-Identifier: MIT
// The padded copy of GEMM operands a 4-byte word at a time, for elements of any size and
// sources on any byte (gemm_operand_staging launches it). Its work per row is a host-device
// function of the block and thread, so a host test can run every thread of the grid.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/ops/gemm/gemm_operand_transpose_bytes.hpp"

#include "ck_tile/host/hip_runtime.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/arch.hpp"
#endif

#include <algorithm>
#include <cstdint>

namespace ck_tile {

/// The copy in bytes: `batches` x `rows` runs of `run` bytes (the operand's runs times its
/// element size), to a destination whose runs start on 4 bytes (on whole 128-byte lines,
/// gemm_operand_layout::staged_ld). A word of the destination is the source's 4 bytes at its
/// place, which straddle two aligned source words where the run starts off a word, so the
/// thread loads both aligned words (the neighbour's load of the second comes from the same
/// line) and shifts the pair: 4 bytes per access from any start, where element copies moved 1
/// or 2. A warp (here always 32 threads: half a wavefront on AMD) moves `WarpWords`
/// consecutive words of a run, each of its loads and stores one 128-byte line, every load
/// before the stores; a block shares its warps among Warps / warps_per_run runs, so that runs
/// shorter than the block's words keep its warps busy, and walks the runs in steps of the
/// grid's height. Where a warp's aligned words reach outside the source's bytes (the first
/// run's first word and the last run's last, where those are cut) it reads them a byte at a
/// time, so no access leaves the caller's matrices; bytes of the last word past a run are
/// stored as zeros, inside the destination's leading dimension.
///
/// `RunsOffWords`: whether runs may start off a word (else every run's start is on 4 bytes,
/// gemm_operand_layout::runs_on_words, and the copy neither loads nor holds second words).
/// `WordsPerThread`: the words each thread has in flight (gemm_operand_staging takes 8, or 4
/// for copies of few or narrow runs, which that spreads over more warps). A block asks for as
/// many blocks per multiprocessor as its words' registers leave room for: ptxas (sm_90a) needs
/// 44 and 47 registers for 4 and 8 words off words (5 and 4 blocks: caps of 51 and 64), 32 and
/// 39 on words (8 and 6 blocks: caps of 32 and 42); a cap of 8 blocks (32 registers) made the
/// 4-word copy off words spill.
template <bool RunsOffWords, index_t WordsPerThread>
struct gemm_operand_copy_words
{
    static constexpr index_t BlockSize = 256, Warps = BlockSize / 32,
                             WarpWords       = 32 * WordsPerThread,
                             MinBlocks       = RunsOffWords ? (WordsPerThread <= 4 ? 5 : 4)
                                                            : std::min(8, 48 / WordsPerThread);
    static constexpr std::int64_t max_grid_y = 65535;
    static constexpr bool runs_off_words     = RunsOffWords;

    using kargs = gemm_operand_copy_args<std::uint8_t>;

    CK_TILE_HOST_DEVICE static constexpr std::int64_t words(std::int64_t bytes)
    {
        return (bytes + 3) / 4;
    }

    /// The warps of a block that share one run: the fewest, a power of two up to Warps, whose
    /// words cover the run (Warps for longer runs).
    /// @post Warps % warps_per_run(run) == 0.
    CK_TILE_HOST_DEVICE static index_t warps_per_run(std::int64_t run)
    {
        index_t w = 1;
        while(w < Warps && std::int64_t(w) * WarpWords < words(run))
            w *= 2;
        return w;
    }

    /// Blocks along a run, and groups of Warps / warps_per_run runs (a grid-stride walk past
    /// 65535).
    CK_TILE_HOST static dim3 grid(const kargs& k)
    {
        const std::int64_t wpr = warps_per_run(k.run), per_block = wpr * WarpWords;
        const std::int64_t runs_per_block = Warps / wpr;
        const std::int64_t x              = (words(k.run) + per_block - 1) / per_block;
        const std::int64_t y = (k.rows * k.batches + runs_per_block - 1) / runs_per_block;
        return dim3(static_cast<unsigned>(x), static_cast<unsigned>(std::min(y, max_grid_y)));
    }

    /// One past the source's last byte: the end of the last matrix's last run.
    CK_TILE_HOST_DEVICE static const std::uint8_t* source_end(const kargs& k)
    {
        return k.src + (k.batches - 1) * k.src_batch_stride + (k.rows - 1) * k.src_ld + k.run;
    }

    /// The aligned word at `at`, its bytes outside [begin, end) read as zeros (and not read).
    CK_TILE_HOST_DEVICE static std::uint32_t
    load_word_within(const std::uint8_t* at, const std::uint8_t* begin, const std::uint8_t* end)
    {
        const std::int64_t lo = at < begin ? begin - at : 0, hi = end - at < 4 ? end - at : 4;
        if(lo == 0 && hi == 4)
            return gemm_operand_transpose_bytes::load_word(at);
        return lo < hi ? gemm_operand_transpose_bytes::load_cut_word(at + lo, hi - lo) << 8 * lo
                       : 0u;
    }

    /// Bytes `shift` .. `shift` + 3 of the pair (lo, hi), lo's first.
    /// @post for shift == 0 the result is lo, and byte i of the result is byte shift + i of
    ///       the 8-byte little-endian value hi:lo.
    CK_TILE_HOST_DEVICE static std::uint32_t funnel_bytes(std::uint32_t lo, std::uint32_t hi,
                                                          index_t shift)
    {
        return static_cast<std::uint32_t>((std::uint64_t(hi) << 32 | lo) >> 8 * shift);
    }

    /// `v` with its bytes from `bytes` on zeroed (all of it kept for 4 or more).
    CK_TILE_HOST_DEVICE static std::uint32_t keep_bytes(std::uint32_t v, std::int64_t bytes)
    {
        return bytes < 4 ? v & ((std::uint32_t(1) << 8 * bytes) - 1) : v;
    }

    /// Lane `lane` of warp `warp` of the warps_per_run(k.run) that block column `x` gives run
    /// `row` (matrix row / rows, run row % rows) copies its words: words x * warps_per_run *
    /// WarpWords + warp * WarpWords + lane + 32 j of the run, j < WordsPerThread, those that
    /// start before its end, bytes past the end stored as zeros.
    /// @post over lane < 32, warp < warps_per_run(k.run) and x < grid(k).x, bytes
    ///       [0, words(run) * 4) of the staged run hold the run's bytes followed by zeros, and
    ///       no other byte of `k.dst` is written.
    CK_TILE_HOST_DEVICE static void copy_run(const kargs& k, std::int64_t row, index_t x,
                                             index_t warp, index_t lane)
    {
        const std::int64_t first =
            (std::int64_t(x) * warps_per_run(k.run) + warp) * WarpWords; // the warp's first word
        const std::int64_t n = words(k.run);
        if(first >= n)
            return;
        const std::int64_t b = row / k.rows, r = row - b * k.rows;
        const std::uint8_t* from = k.src + b * k.src_batch_stride + r * k.src_ld;
        const index_t shift =
            RunsOffWords ? static_cast<index_t>(reinterpret_cast<std::uintptr_t>(from) % 4) : 0;
        const std::uint8_t* in = from - shift + 4 * (first + lane); // aligned
        std::uint8_t* out      = k.dst + b * k.dst_batch_stride + r * k.dst_ld + 4 * (first + lane);
        const std::int64_t left   = k.run - 4 * (first + lane); // the run's bytes from `out` on
        const std::int64_t last   = std::min(n, first + WarpWords) + (shift != 0); // words read
        const std::uint8_t *begin = k.src, *end = source_end(k);
        std::uint32_t lo[WordsPerThread], hi[WordsPerThread];
        // All loads first, then the stores; the same walk twice, so that the loads of a warp
        // inside the source are one straight stretch (a run cut by the source's bounds, its
        // first or last, checks each word).
        const auto load_all = [&](auto load) {
            static_for<0, WordsPerThread>{}([&](auto j) {
                const bool live = 128 * j < left;
                lo[j]           = live ? load(in + 128 * j) : 0u;
                hi[j]           = live && shift != 0 ? load(in + 128 * j + 4) : 0u;
            });
        };
        if(from - shift >= begin && from - shift + 4 * last <= end)
            load_all(
                [](const std::uint8_t* at) { return gemm_operand_transpose_bytes::load_word(at); });
        else
            load_all([&](const std::uint8_t* at) { return load_word_within(at, begin, end); });
        static_for<0, WordsPerThread>{}([&](auto j) {
            if(128 * j < left)
                gemm_operand_transpose_bytes::store_word(
                    out + 128 * j, keep_bytes(funnel_bytes(lo[j], hi[j], shift), left - 128 * j));
        });
    }

    /// Calls f(row, warp, lane) for the runs that thread `t` of block row `y` of a grid
    /// `grid_y` high serves, with its warp among the run's warps and its lane.
    /// @post over t < BlockSize and y < grid_y, every run below rows * batches is served by
    ///       each lane of each of its warps exactly once.
    template <typename F>
    CK_TILE_HOST_DEVICE static void for_each_run(const kargs& k, index_t y, index_t grid_y,
                                                 index_t t, F&& f)
    {
        const index_t wpr = warps_per_run(k.run), runs_per_block = Warps / wpr, warp = t / 32;
        for(std::int64_t row = std::int64_t(y) * runs_per_block + warp / wpr;
            row < k.rows * k.batches; row += std::int64_t(grid_y) * runs_per_block)
            f(row, warp % wpr, t % 32);
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        for_each_run(k, get_block_id_y(), get_grid_size_y(), get_thread_id(),
                     [&](std::int64_t row, index_t warp, index_t lane) {
                         copy_run(k, row, get_block_id(), warp, lane);
                     });
    }
#endif
};

/// Whether the padded copy of `runs` runs of `run` bytes moves 4 words per thread rather than
/// 8: where 8 would give fewer than 4096 warps' shares (a few MiB, or M = 16 to 128 runs of K),
/// or runs of at most 128 words, most of whose lanes 8 would leave idle. On an H200 the 4-word
/// copy ran such copies 1.1-1.3 times as fast, and large ones at 0.75-0.9 of the 8-word copy's
/// speed.
inline bool gemm_operand_copy_few_words(std::int64_t runs, std::int64_t run)
{
    using eight              = gemm_operand_copy_words<true, 8>;
    const std::int64_t words = eight::words(run);
    return runs * ((words + eight::WarpWords - 1) / eight::WarpWords) < 4096 || words <= 128;
}

} // namespace ck_tile
