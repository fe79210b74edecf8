// SPDX-License-Identifier: MIT
// The GEMM operand staging copies on the device, byte for byte against the source: the padded
// copy and the transposed one, for elements of 1, 2 and 4 bytes, at edge extents (1, primes,
// one past a tile), leading dimensions on and off 4 bytes, sources that start off a word, and
// batches with packed and loose strides. The transposed copy of 1-byte elements takes its
// word path where the source's start, leading dimension and batch stride are on 4 bytes and
// its byte path elsewhere (which case takes which is checked on the host,
// GemmOperandStaging.ByteTransposeTakesWordsWhereAligned); both are covered here. Random
// sources followed by a marker; the destination is poisoned, and past each staged run only the
// word copies write (zeros, up to their last word's end: the padded copy always moves words,
// the transposed one on its word path); nothing past the staged matrices.
#include "staging_kernels.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/ops/gemm/gemm_operand_copy_words.hpp"
#include "ck_tile/ops/gemm/gemm_operand_view.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ck_tile::gemm_operand_layout;
using ck_tile::gemm_operand_view;

constexpr std::uint8_t poison = 0xa5;

struct staging_case
{
    std::int64_t rows, run, ld, batches, batch_stride;
    std::size_t element_bytes, offset_elements;

    std::string describe() const
    {
        std::ostringstream s;
        s << element_bytes << "-byte elements, " << batches << " x " << rows << " runs of " << run
          << ", ld " << ld << ", batch stride " << batch_stride << ", source offset "
          << offset_elements;
        return s.str();
    }
};

/// Every case: the extents, four leading dimensions (the run itself, the run rounded up to 4
/// elements, that plus 4, that plus 1), a source on its allocation's start or one element past
/// it, one batch or three (packed, 4 elements apart, 3 elements apart).
std::vector<staging_case> cases(std::size_t element_bytes)
{
    const std::int64_t shapes[][2] = {{1, 1},     {1, 200},   {200, 1},   {3, 5},
                                      {128, 128}, {129, 131}, {256, 64},  {70, 136},
                                      {4097, 33}, {33, 4097}, {1000, 300}};
    std::vector<staging_case> out;
    for(const auto& s : shapes)
    {
        const std::int64_t rows = s[0], run = s[1], on4 = (run + 3) / 4 * 4;
        for(std::int64_t ld : {run, on4, on4 + 4, on4 + 1})
            for(std::size_t offset : {std::size_t(0), std::size_t(1)})
                for(std::int64_t batches : {1, 3})
                    for(std::int64_t extra : {std::int64_t(0), std::int64_t(4), std::int64_t(3)})
                    {
                        if(batches == 1 && extra != 0)
                            continue;
                        out.push_back(
                            {rows, run, ld, batches, ld * rows + extra, element_bytes, offset});
                    }
    }
    return out;
}

std::size_t source_elements(const staging_case& c)
{
    return c.offset_elements +
           static_cast<std::size_t>((c.batches - 1) * c.batch_stride + (c.rows - 1) * c.ld + c.run);
}

enum class copy_kind
{
    padded,
    transposed
};

/// Runs one staging copy of `c` and returns the first mismatch, or "" where the copy is exact.
/// The source's allocation ends `marker` bytes after it.
std::string run_case(const staging_case& c, copy_kind kind, std::mt19937& rng,
                     std::size_t marker = 4096)
{
    const std::size_t eb = c.element_bytes;
    // A marker past the source: a read beyond it would land in a staged row's padding as a
    // byte that is neither zero nor the poison.
    const std::size_t src_bytes = source_elements(c) * eb;
    std::vector<std::uint8_t> src(src_bytes + marker, 0x5a);
    for(std::size_t i = 0; i < src_bytes; ++i)
        src[i] = static_cast<std::uint8_t>(rng());
    ck_tile::DeviceMem src_dev(src.size());
    HIP_CHECK_ERROR(
        hipMemcpy(src_dev.GetDeviceBuffer(), src.data(), src.size(), hipMemcpyHostToDevice));

    gemm_operand_view v;
    v.p    = static_cast<const std::uint8_t*>(src_dev.GetDeviceBuffer()) + c.offset_elements * eb;
    v.rows = c.rows, v.run = c.run, v.ld = c.ld, v.batches = c.batches;
    v.batch_stride  = c.batch_stride;
    v.element_bytes = eb;

    const gemm_operand_view expected_view =
        kind == copy_kind::transposed ? gemm_operand_layout::transposed(v) : [&] {
            gemm_operand_view s = v;
            s.ld                = gemm_operand_layout::staged_ld(v);
            s.batch_stride      = s.ld * v.rows;
            return s;
        }();
    constexpr std::size_t guard = 4096;
    const std::size_t staged    = gemm_operand_layout::bytes(expected_view);
    ck_tile::DeviceMem dst_dev(staged + guard);
    HIP_CHECK_ERROR(hipMemset(dst_dev.GetDeviceBuffer(), poison, staged + guard));

    const gemm_operand_view s =
        kind == copy_kind::transposed
            ? cktile_staging_test::stage_transposed(v, dst_dev.GetDeviceBuffer(), nullptr)
            : cktile_staging_test::stage(v, dst_dev.GetDeviceBuffer(), nullptr);
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    if(s.rows != expected_view.rows || s.run != expected_view.run || s.ld != expected_view.ld ||
       s.batch_stride != expected_view.batch_stride || s.p != dst_dev.GetDeviceBuffer())
        return "the returned view is not the staged layout";

    std::vector<std::uint8_t> dst(staged + guard);
    HIP_CHECK_ERROR(
        hipMemcpy(dst.data(), dst_dev.GetDeviceBuffer(), dst.size(), hipMemcpyDeviceToHost));
    for(std::int64_t b = 0; b < c.batches; ++b)
        for(std::int64_t r = 0; r < s.rows; ++r)
            for(std::int64_t e = 0; e < s.run; ++e)
            {
                // Element e of staged run r is element (e, r) of the source if transposed.
                const std::int64_t sr = kind == copy_kind::transposed ? e : r;
                const std::int64_t se = kind == copy_kind::transposed ? r : e;
                const std::size_t from =
                    (c.offset_elements +
                     static_cast<std::size_t>(b * c.batch_stride + sr * c.ld + se)) *
                    eb;
                const std::size_t to =
                    static_cast<std::size_t>(b * s.batch_stride + r * s.ld + e) * eb;
                if(std::memcmp(&src[from], &dst[to], eb) != 0)
                {
                    std::ostringstream m;
                    m << "batch " << b << ", staged run " << r << ", element " << e
                      << " differs from the source";
                    return m.str();
                }
            }
    // Between a staged run's end and its leading dimension: untouched, except for the zeros
    // that complete the word copy's last word (up to the next multiple of 4 bytes).
    const bool words = kind == copy_kind::padded || gemm_operand_layout::transposes_by_words(v);
    const std::size_t zeros_to = words ? (static_cast<std::size_t>(s.run) * eb + 3) / 4 * 4
                                       : static_cast<std::size_t>(s.run) * eb;
    for(std::int64_t b = 0; b < c.batches; ++b)
        for(std::int64_t r = 0; r < s.rows; ++r)
            for(std::size_t i = static_cast<std::size_t>(s.run) * eb;
                i < static_cast<std::size_t>(s.ld) * eb; ++i)
            {
                const std::uint8_t x =
                    dst[static_cast<std::size_t>(b * s.batch_stride + r * s.ld) * eb + i];
                if(x != (i < zeros_to ? 0 : poison))
                    return "byte " + std::to_string(i) + " after staged run " + std::to_string(r) +
                           (i < zeros_to ? " is not the word copy's zero"
                                         : " was written (a read past the source's rows?)");
            }
    const std::size_t end = static_cast<std::size_t>(s.batches * s.batch_stride) * eb;
    for(std::size_t i = end; i < dst.size(); ++i)
        if(dst[i] != poison)
            return "byte " + std::to_string(i) + " past the staged matrices (" +
                   std::to_string(end) + " bytes) was written";
    return "";
}

void run_all(copy_kind kind)
{
    std::mt19937 rng(kind == copy_kind::transposed ? 11 : 12);
    int ran = 0;
    for(std::size_t eb : {1, 2, 4})
        for(const staging_case& c : cases(eb))
        {
            const std::string failure = run_case(c, kind, rng);
            EXPECT_EQ(failure, "") << c.describe();
            ++ran;
        }
    EXPECT_GT(ran, 300);
}

} // namespace

TEST(GemmOperandStagingGpu, TransposedCopyIsExact)
{
    CKTILE_SKIP_WITHOUT_GPU();
    run_all(copy_kind::transposed);
}

TEST(GemmOperandStagingGpu, PaddedCopyIsExact)
{
    CKTILE_SKIP_WITHOUT_GPU();
    run_all(copy_kind::padded);
}

// Sources that end where their allocation ends, off a word, and start one element into it: the
// words that reach outside them are read a byte at a time (compute-sanitizer's memcheck, run on
// this test, reports any access past the allocation).
TEST(GemmOperandStagingGpu, CopiesReadNothingPastTheSource)
{
    CKTILE_SKIP_WITHOUT_GPU();
    std::mt19937 rng(13);
    for(std::size_t eb : {1, 2})
        for(const staging_case& c : {staging_case{7, 13, 13, 1, 91, eb, 1},
                                     staging_case{3, 4097, 4099, 2, 3 * 4099 + 1, eb, 1},
                                     staging_case{130, 129, 129, 1, 130 * 129, eb, 1}})
            for(copy_kind kind : {copy_kind::padded, copy_kind::transposed})
                EXPECT_EQ(run_case(c, kind, rng, 0), "")
                    << c.describe() << (kind == copy_kind::padded ? ", padded" : ", transposed");
}

// Copies of many runs wider than 128 words, which the padded copy moves 8 words per thread
// (the cases above are small enough for its 4-word variant), on and off words.
TEST(GemmOperandStagingGpu, PaddedCopyOfManyWideRunsIsExact)
{
    CKTILE_SKIP_WITHOUT_GPU();
    std::mt19937 rng(14);
    int ran = 0;
    for(std::size_t eb : {1, 2, 4})
    {
        const std::int64_t run = 600 / static_cast<std::int64_t>(eb) + 1;
        for(std::int64_t ld : {run, run + 1, (run + 3) / 4 * 4})
            for(std::size_t offset : {std::size_t(0), std::size_t(1)})
            {
                const staging_case c{4100, run, ld, 2, ld * 4100 + 1, eb, offset};
                ASSERT_FALSE(ck_tile::gemm_operand_copy_few_words(
                    c.rows * c.batches, c.run * static_cast<std::int64_t>(eb)))
                    << c.describe();
                EXPECT_EQ(run_case(c, copy_kind::padded, rng), "") << c.describe();
                ++ran;
            }
    }
    EXPECT_EQ(ran, 18);
}
