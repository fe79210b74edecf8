// SPDX-License-Identifier: MIT
// The staging copies that move words, run on the host (the padded copy's tests are at the end).
// The word-wise transposed copy of 1-byte operands: every block of its grid, each block's
// threads through the first phase, then (as the barrier orders them) through the second, with
// the kernel's own phase functions. Random sources, a poisoned destination, edge extents (1,
// primes, one past a tile, 4097), loose leading dimensions and batch strides, and grids too
// low for the tiles (the grid-stride walk over rows and batches). Exactness against the
// source, zeros from a run's end to its last word's end and untouched bytes after them (a
// marker past the source catches rows read beyond it and used, a source that ends at an
// unreadable page any read past it), nothing written past the staged matrices. The device
// runs the same copies in GemmOperandStagingGpu.TransposedCopyIsExact and
// GemmOperandStagingGpu.PaddedCopyIsExact.
#include "ck_tile/ops/gemm/gemm_operand_copy_words.hpp"
#include "ck_tile/ops/gemm/gemm_operand_transpose_bytes.hpp"
#include "ck_tile/ops/gemm/gemm_operand_view.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using copy = ck_tile::gemm_operand_transpose_bytes;
using ck_tile::gemm_operand_layout;
using ck_tile::gemm_operand_view;

constexpr std::uint8_t poison = 0xa5;

/// `n` bytes, marked, that end where a page the process may not touch begins, so that a read
/// past them faults.
class bytes_before_guard_page
{
    public:
    explicit bytes_before_guard_page(std::size_t n)
        : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))),
          length_((n + page_ - 1) / page_ * page_ + page_),
          base_(static_cast<std::uint8_t*>(
              mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))),
          n_(n)
    {
        if(base_ == MAP_FAILED || mprotect(base_ + length_ - page_, page_, PROT_NONE) != 0)
            throw std::runtime_error("bytes_before_guard_page: mmap or mprotect failed");
        std::memset(base_, 0x5a, length_ - page_);
    }
    ~bytes_before_guard_page() { munmap(base_, length_); }
    bytes_before_guard_page(const bytes_before_guard_page&)            = delete;
    bytes_before_guard_page& operator=(const bytes_before_guard_page&) = delete;

    std::uint8_t* data() { return base_ + length_ - page_ - n_; }

    private:
    std::size_t page_, length_;
    std::uint8_t* base_;
    std::size_t n_;
};

/// The copy of `k` by a grid `grid_y` x `grid_z` high (at most grid(k)'s), block by block.
void run_on_host(const copy::kargs& k, unsigned grid_y, unsigned grid_z)
{
    const dim3 g = copy::grid(k);
    struct shared
    {
        copy::tile_words words;
    };
    auto tile = std::make_unique<shared>();
    for(unsigned z = 0; z < std::min(grid_z, g.z); ++z)
        for(unsigned y = 0; y < std::min(grid_y, g.y); ++y)
            for(unsigned x = 0; x < g.x; ++x)
                copy::for_each_tile(k, x, y, z, std::min(grid_y, g.y), std::min(grid_z, g.z),
                                    [&](std::int64_t b, std::int64_t r0, std::int64_t c0) {
                                        // Stale words from the last tile, as shared memory would
                                        // hold them.
                                        for(int t = 0; t < copy::BlockSize; ++t)
                                            copy::stage_tile(k, k.src + b * k.src_batch_stride, r0,
                                                             c0, t, tile->words);
                                        for(int t = 0; t < copy::BlockSize; ++t)
                                            copy::store_tile(k, k.dst + b * k.dst_batch_stride, r0,
                                                             c0, t, tile->words);
                                    });
}

struct byte_case
{
    std::int64_t rows, run, ld, batches, batch_stride;
    unsigned grid_y = 65535, grid_z = 65535;
};

/// The copy of `c`, its source followed by a marker, or (`at_guard_page`) ending where an
/// unreadable page begins, where that leaves its start on a word (else nothing is checked).
std::string check(const byte_case& c, std::mt19937& rng, bool at_guard_page = false)
{
    const std::size_t src_bytes =
        static_cast<std::size_t>((c.batches - 1) * c.batch_stride + (c.rows - 1) * c.ld + c.run);
    // A marker past the source: a read beyond it would land in a staged row as a byte that is
    // neither zero nor the poison.
    std::vector<std::uint8_t> src(src_bytes + 4096, 0x5a);
    for(std::size_t i = 0; i < src_bytes; ++i)
        src[i] = static_cast<std::uint8_t>(rng());
    bytes_before_guard_page guarded(at_guard_page ? src_bytes : 0);
    std::memcpy(guarded.data(), src.data(), at_guard_page ? src_bytes : 0);
    const std::uint8_t* from = at_guard_page ? guarded.data() : src.data();
    gemm_operand_view v;
    v.p = from, v.rows = c.rows, v.run = c.run, v.ld = c.ld, v.batches = c.batches;
    v.batch_stride  = c.batch_stride;
    v.element_bytes = 1;
    if(at_guard_page && !gemm_operand_layout::transposes_by_words(v))
        return "";
    if(!gemm_operand_layout::transposes_by_words(v))
        return "the case is not one for the word copy";
    const gemm_operand_view t = gemm_operand_layout::transposed(v);
    std::vector<std::uint8_t> dst(gemm_operand_layout::bytes(t) + 512, poison);
    const copy::kargs k{from, dst.data(),     v.rows, v.run,         v.batches,
                        v.ld, v.batch_stride, t.ld,   t.batch_stride};
    run_on_host(k, c.grid_y, c.grid_z);
    for(std::int64_t b = 0; b < c.batches; ++b)
        for(std::int64_t r = 0; r < t.rows; ++r)
        {
            const std::uint8_t* row = &dst[static_cast<std::size_t>(b * t.batch_stride + r * t.ld)];
            for(std::int64_t e = 0; e < t.run; ++e)
                if(row[e] != src[static_cast<std::size_t>(b * c.batch_stride + e * c.ld + r)])
                {
                    std::ostringstream m;
                    m << "batch " << b << ", staged run " << r << ", element " << e;
                    return m.str();
                }
            // The last word's bytes past the run are zeros; the rest is untouched.
            for(std::int64_t e = t.run; e < t.ld; ++e)
                if(row[e] != (e < (t.run + 3) / 4 * 4 ? 0 : poison))
                    return "byte " + std::to_string(e) + " after a staged run is not " +
                           (e < (t.run + 3) / 4 * 4 ? "zero" : "untouched");
        }
    for(std::size_t i = static_cast<std::size_t>(t.batches * t.batch_stride); i < dst.size(); ++i)
        if(dst[i] != poison)
            return "byte " + std::to_string(i) + " past the staged matrices was written";
    return "";
}

} // namespace

TEST(GemmOperandTransposeBytes, HostRunOfTheKernelIsExact)
{
    std::mt19937 rng(21);
    const std::int64_t shapes[][2] = {{1, 1},     {1, 200},   {200, 1},   {3, 5},
                                      {128, 128}, {129, 131}, {256, 64},  {70, 136},
                                      {4097, 33}, {33, 4097}, {300, 1000}};
    int ran                        = 0;
    for(const auto& s : shapes)
    {
        const std::int64_t rows = s[0], run = s[1], on4 = (run + 3) / 4 * 4;
        for(std::int64_t ld : {on4, on4 + 4})
            for(std::int64_t batches : {1, 3})
                for(std::int64_t extra : {0, 8})
                {
                    if(batches == 1 && extra != 0)
                        continue;
                    const byte_case c{rows, run, ld, batches, ld * rows + extra};
                    EXPECT_EQ(check(c, rng), "")
                        << batches << " x " << rows << " runs of " << run << ", ld " << ld;
                    EXPECT_EQ(check(c, rng, true), "")
                        << batches << " x " << rows << " runs of " << run << ", ld " << ld
                        << ", at a guard page";
                    ++ran;
                }
    }
    EXPECT_GT(ran, 50);
}

// Grids lower than the tiles: a block walks several tiles of rows and several matrices.
TEST(GemmOperandTransposeBytes, GridStrideWalksEveryTile)
{
    std::mt19937 rng(22);
    for(unsigned gy : {1u, 2u})
        for(unsigned gz : {1u, 2u})
        {
            const byte_case c{515, 260, 260, 5, 515 * 260 + 4, gy, gz};
            EXPECT_EQ(check(c, rng), "") << "grid height " << gy << ", depth " << gz;
        }
}

// The walk itself: every (matrix, row tile, run tile) exactly once over the grid, also where the
// grid is capped below the tiles.
TEST(GemmOperandTransposeBytes, ForEachTileCoversEveryTileOnce)
{
    copy::kargs k{};
    k.rows = 1000, k.run = 300, k.batches = 7;
    for(unsigned gy : {1u, 3u, 8u})
        for(unsigned gz : {1u, 4u, 7u})
        {
            const dim3 g = copy::grid(k);
            std::vector<int> seen(7 * 8 * 3, 0);
            for(unsigned z = 0; z < gz; ++z)
                for(unsigned y = 0; y < gy; ++y)
                    for(unsigned x = 0; x < g.x; ++x)
                        copy::for_each_tile(
                            k, x, y, z, gy, gz,
                            [&](std::int64_t b, std::int64_t r0, std::int64_t c0) {
                                ++seen[(b * 8 + r0 / copy::Tile) * 3 + c0 / copy::Tile];
                            });
            EXPECT_EQ(g.x, 3u);
            EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 7 * 8 * 3)
                << "grid " << gy << " x " << gz;
        }
}

// The padded copy a word at a time (gemm_operand_copy_words), every thread of its grid run on
// the host: elements of 1, 2 and 4 bytes as bytes, sources starting on each byte of a word,
// leading dimensions on and off 4 bytes, packed and loose batches, a grid capped below the
// runs. Exactness, zeros from a run's end to its last word's end, untouched bytes after them
// and past the staged matrices; a marker before and after the source catches bytes read
// outside it and used, and a source that ends at an unreadable page any read past it.
namespace {

// The copies for runs on any byte; those for runs on words run where those apply. Both numbers
// of words per thread.
using words_copy = ck_tile::gemm_operand_copy_words<true, 8>;
template <bool RunsOffWords>
using few_words_copy     = ck_tile::gemm_operand_copy_words<RunsOffWords, 4>;
using aligned_words_copy = ck_tile::gemm_operand_copy_words<false, 8>;

struct padded_case
{
    std::int64_t rows, run, ld, batches, batch_stride; // in elements
    std::size_t element_bytes, offset_bytes;
    unsigned grid_y = 65535;

    std::string describe() const
    {
        std::ostringstream s;
        s << element_bytes << "-byte elements, " << batches << " x " << rows << " runs of " << run
          << ", ld " << ld << ", batch stride " << batch_stride << ", source at byte "
          << offset_bytes << " of a word, grid height " << grid_y;
        return s.str();
    }
};

/// The copy of `c` by `Copy`, every thread of its grid. The source starts at byte
/// c.offset_bytes of a word between markers, or (`at_guard_page`) ends where an unreadable page
/// begins, wherever in a word that puts its start.
template <typename Copy>
std::string check_padded_with(const padded_case& c, std::mt19937& rng, bool at_guard_page)
{
    const auto eb               = static_cast<std::int64_t>(c.element_bytes);
    const std::size_t src_bytes = static_cast<std::size_t>(
        ((c.batches - 1) * c.batch_stride + (c.rows - 1) * c.ld + c.run) * eb);
    constexpr std::size_t margin = 64;
    std::vector<std::uint8_t> buffer(margin + src_bytes + margin, 0x5a);
    bytes_before_guard_page guarded(at_guard_page ? src_bytes + margin : 0);
    // The source at byte offset_bytes of a word (the vector's data is on at least 4 bytes).
    std::uint8_t* src =
        at_guard_page ? guarded.data() + margin : buffer.data() + margin + c.offset_bytes;
    for(std::size_t i = 0; i < src_bytes; ++i)
        src[i] = static_cast<std::uint8_t>(rng());
    gemm_operand_view v;
    v.p = src, v.rows = c.rows, v.run = c.run, v.ld = c.ld, v.batches = c.batches;
    v.batch_stride               = c.batch_stride;
    v.element_bytes              = c.element_bytes;
    const std::int64_t staged_ld = gemm_operand_layout::staged_ld(v) * eb; // bytes
    const std::int64_t staged_bs = staged_ld * c.rows;
    std::vector<std::uint8_t> dst(static_cast<std::size_t>(staged_bs * c.batches) + 512, poison);
    if(!Copy::runs_off_words && !gemm_operand_layout::runs_on_words(v))
        return "";
    const typename Copy::kargs k{src,       dst.data(),          c.rows,    c.run * eb, c.batches,
                                 c.ld * eb, c.batch_stride * eb, staged_ld, staged_bs};
    const dim3 g      = Copy::grid(k);
    const auto grid_y = static_cast<int>(std::min(c.grid_y, g.y));
    for(int y = 0; y < grid_y; ++y)
        for(unsigned x = 0; x < g.x; ++x)
            for(int t = 0; t < Copy::BlockSize; ++t)
                Copy::for_each_run(k, y, grid_y, t, [&](std::int64_t row, int warp, int lane) {
                    Copy::copy_run(k, row, static_cast<int>(x), warp, lane);
                });
    const std::int64_t run_bytes = c.run * eb, word_end = (run_bytes + 3) / 4 * 4;
    for(std::int64_t b = 0; b < c.batches; ++b)
        for(std::int64_t r = 0; r < c.rows; ++r)
        {
            const std::uint8_t* to = &dst[static_cast<std::size_t>(b * staged_bs + r * staged_ld)];
            const std::uint8_t* from = src + (b * c.batch_stride + r * c.ld) * eb;
            for(std::int64_t i = 0; i < staged_ld; ++i)
            {
                const std::uint8_t want = i < run_bytes ? from[i] : i < word_end ? 0 : poison;
                if(to[i] != want)
                {
                    std::ostringstream m;
                    m << "batch " << b << ", run " << r << ", byte " << i
                      << (i < run_bytes  ? " differs from the source"
                          : i < word_end ? " is not the last word's zero"
                                         : " was written");
                    return m.str();
                }
            }
        }
    for(std::size_t i = static_cast<std::size_t>(staged_bs * c.batches); i < dst.size(); ++i)
        if(dst[i] != poison)
            return "byte " + std::to_string(i) + " past the staged matrices was written";
    return "";
}

/// Every copy where it applies; the first failure, prefixed with the copy's kind.
std::string check_padded(const padded_case& c, std::mt19937& rng)
{
    const std::pair<const char*, std::string> runs[] = {
        {"runs on any byte, 8 words: ", check_padded_with<words_copy>(c, rng, false)},
        {"runs on words, 8 words: ", check_padded_with<aligned_words_copy>(c, rng, false)},
        {"runs on any byte, 4 words: ", check_padded_with<few_words_copy<true>>(c, rng, false)},
        {"runs on words, 4 words: ", check_padded_with<few_words_copy<false>>(c, rng, false)},
        {"at a guard page, runs on any byte, 8 words: ",
         check_padded_with<words_copy>(c, rng, true)},
        {"at a guard page, runs on any byte, 4 words: ",
         check_padded_with<few_words_copy<true>>(c, rng, true)}};
    for(const auto& r : runs)
        if(!r.second.empty())
            return r.first + r.second;
    return "";
}

} // namespace

TEST(GemmOperandCopyWords, HostRunOfTheKernelIsExact)
{
    std::mt19937 rng(23);
    // Runs from one word to several blocks' columns, a block's threads shared by 32 runs down
    // to one.
    const std::int64_t shapes[][2] = {{1, 1},    {1, 7},    {5, 1},    {3, 5},
                                      {300, 3},  {64, 128}, {17, 131}, {70, 100},
                                      {4, 1025}, {2, 4097}, {9, 2049}, {3, 20000}};
    int ran                        = 0;
    for(std::size_t eb : {1, 2, 4})
        for(const auto& s : shapes)
            for(std::int64_t ld : {s[1], s[1] + 1, s[1] + 3, (s[1] + 7) / 8 * 8})
                for(std::size_t offset : {0, 1, 2, 3})
                    for(std::int64_t batches : {1, 3})
                        for(std::int64_t extra : {0, 1, 5})
                        {
                            if((batches == 1 && extra != 0) || offset % eb != 0)
                                continue;
                            const padded_case c{s[0], s[1],  ld, batches, ld * s[0] + extra,
                                                eb,   offset};
                            EXPECT_EQ(check_padded(c, rng), "") << c.describe();
                            ++ran;
                        }
    EXPECT_GT(ran, 400);
}

TEST(GemmOperandCopyWords, GridStrideWalksEveryRun)
{
    std::mt19937 rng(24);
    for(unsigned gy : {1u, 2u, 7u})
        for(std::int64_t run : {3, 300})
        {
            const padded_case c{33, run, run + 1, 3, 33 * (run + 1) + 2, 1, 3, gy};
            EXPECT_EQ(check_padded(c, rng), "") << c.describe();
        }
}

// The warps a run takes, and the walk: every lane of every warp of every run exactly once,
// also where the grid is capped below the runs.
TEST(GemmOperandCopyWords, ForEachRunServesEveryLaneOnce)
{
    constexpr std::int64_t warp_bytes = 4 * words_copy::WarpWords;
    EXPECT_EQ(words_copy::warps_per_run(1), 1);
    EXPECT_EQ(words_copy::warps_per_run(warp_bytes), 1);
    EXPECT_EQ(words_copy::warps_per_run(warp_bytes + 1), 2);
    EXPECT_EQ(words_copy::warps_per_run(4 * warp_bytes + 1), 8);
    EXPECT_EQ(words_copy::warps_per_run(std::int64_t(1) << 30), words_copy::Warps);
    for(std::int64_t run :
        {std::int64_t(1), std::int64_t(100), warp_bytes + 1, std::int64_t(100000)})
    {
        words_copy::kargs k{};
        k.rows = 37, k.batches = 3, k.run = run;
        const int wpr  = words_copy::warps_per_run(run);
        const dim3 g   = words_copy::grid(k);
        const int runs = words_copy::Warps / wpr;
        EXPECT_EQ(words_copy::Warps % wpr, 0);
        EXPECT_EQ(g.y, static_cast<unsigned>((37 * 3 + runs - 1) / runs)) << "run " << run;
        EXPECT_GE(std::int64_t(g.x) * wpr * words_copy::WarpWords, words_copy::words(run));
        for(int grid_y : {1, 2, static_cast<int>(g.y)})
        {
            std::vector<int> seen(static_cast<std::size_t>(37 * 3 * wpr * 32), 0);
            for(int y = 0; y < grid_y; ++y)
                for(int t = 0; t < words_copy::BlockSize; ++t)
                    words_copy::for_each_run(
                        k, y, grid_y, t, [&](std::int64_t row, int warp, int lane) {
                            ++seen[static_cast<std::size_t>((row * wpr + warp) * 32 + lane)];
                        });
            EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 37 * 3 * wpr * 32)
                << "run " << run << ", grid height " << grid_y;
        }
    }
}

// Words cut by the source's bounds: only the bytes inside them count, the rest are zeros.
TEST(GemmOperandCopyWords, WordsCutByTheSourceReadOnlyItsBytes)
{
    alignas(4) std::uint8_t bytes[12] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
                                         0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc};
    EXPECT_EQ(words_copy::load_word_within(bytes + 4, bytes, bytes + 12), 0x88776655u);
    EXPECT_EQ(words_copy::load_word_within(bytes + 4, bytes + 6, bytes + 12), 0x88770000u);
    EXPECT_EQ(words_copy::load_word_within(bytes + 4, bytes, bytes + 5), 0x00000055u);
    EXPECT_EQ(words_copy::load_word_within(bytes + 8, bytes, bytes + 8), 0u);
    EXPECT_EQ(words_copy::funnel_bytes(0x44332211u, 0x88776655u, 0), 0x44332211u);
    EXPECT_EQ(words_copy::funnel_bytes(0x44332211u, 0x88776655u, 1), 0x55443322u);
    EXPECT_EQ(words_copy::funnel_bytes(0x44332211u, 0x88776655u, 3), 0x77665544u);
}

// The staging takes 4 words per thread for copies of few shares or narrow runs, 8 elsewhere.
TEST(GemmOperandCopyWords, FewOrNarrowRunsTakeFourWordsPerThread)
{
    using ck_tile::gemm_operand_copy_few_words;
    EXPECT_TRUE(gemm_operand_copy_few_words(16, 2 * 8191));   // M = 16 rows of fp16 K
    EXPECT_TRUE(gemm_operand_copy_few_words(1024, 2 * 1023)); // 2 MiB
    EXPECT_TRUE(gemm_operand_copy_few_words(65536, 200));     // runs of 50 words
    EXPECT_FALSE(gemm_operand_copy_few_words(4096, 2 * 4095));
    EXPECT_FALSE(gemm_operand_copy_few_words(16384, 2000));
    EXPECT_FALSE(gemm_operand_copy_few_words(8 * 1024, 2 * 1023)); // batches of runs count
}
