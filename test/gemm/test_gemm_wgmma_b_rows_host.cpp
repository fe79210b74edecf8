// SPDX-License-Identifier: MIT
// A B fed by the Hopper GEMM's producer threads (gemm_wgmma_b_rows), on the host: the copy
// engine's residue boxes (emulated, boxes_on_host) put each row's nine 16-byte lines in its
// raw row, and after the four producer warps' lanes have shifted their chunks the stage must
// hold each row's 128 bytes of K at their swizzled places, zeros past K and past N, for leading
// dimensions on every offset of 2- and 4-byte elements, batches, every K tile, and operands that
// end where an unreadable page begins (a read past the operand faults).
#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/ops/gemm/gemm_wgmma_b_rows.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ck_tile;

namespace {

/// 16-byte aligned bytes, filled with `fill`.
struct aligned_bytes
{
    explicit aligned_bytes(std::size_t n, unsigned char fill)
        : p(static_cast<unsigned char*>(std::aligned_alloc(1024, (n + 1023) / 1024 * 1024)))
    {
        std::memset(p.get(), fill, (n + 1023) / 1024 * 1024);
    }
    struct release
    {
        void operator()(unsigned char* q) const { std::free(q); }
    };
    std::unique_ptr<unsigned char, release> p;
};

/// `n` bytes (n a multiple of 16) that end where a page the process may not touch begins.
class bytes_at_page_end
{
    public:
    explicit bytes_at_page_end(std::size_t n)
        : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))),
          length_((n + page_ - 1) / page_ * page_ + page_),
          base_(static_cast<unsigned char*>(
              mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))),
          n_(n)
    {
        if(base_ == MAP_FAILED || mprotect(base_ + length_ - page_, page_, PROT_NONE) != 0)
            throw std::runtime_error("bytes_at_page_end: mmap or mprotect failed");
    }
    ~bytes_at_page_end() { munmap(base_, length_); }
    bytes_at_page_end(const bytes_at_page_end&)            = delete;
    bytes_at_page_end& operator=(const bytes_at_page_end&) = delete;
    unsigned char* data() { return base_ + length_ - page_ - n_; }

    private:
    std::size_t page_, length_;
    unsigned char* base_;
    std::size_t n_;
};

struct rows_case
{
    int rows;             // the tile's: 64 or 128
    std::int64_t n, k;    // elements
    std::int64_t ld;      // elements
    std::int64_t batches; // with batch_stride elements apart
    std::int64_t batch_stride;
    int element_bytes;
    std::int32_t n0;
    bool at_page_end;
};

std::string describe(const rows_case& c)
{
    std::ostringstream s;
    s << c.rows << "-row tile, N " << c.n << ", K " << c.k << ", ld " << c.ld << ", " << c.batches
      << " batches " << c.batch_stride << " apart, " << c.element_bytes << "-byte elements, n0 "
      << c.n0 << (c.at_page_end ? ", at a page end" : "");
    return s.str();
}

/// What the copy engine's residue boxes write into `slot` for the K window from k_byte0 of
/// tile rows from n0 (a multiple of 8), through the rows' own window(): raw row raw_row_of(r)
/// holds the 144 bytes from row n0 + r's window's line start on, zeros from the row's end of K
/// on and for rows past N.
template <index_t Rows>
void boxes_on_host(unsigned char* slot, const gemm_wgmma_b_source& b, std::int32_t n0,
                   std::int32_t batch, std::int64_t k_byte0)
{
    using rows = gemm_wgmma_b_rows<Rows>;
    for(index_t row = 0; row < Rows; ++row)
    {
        const gemm_wgmma_b_row_window w = rows::window(b, n0, row, batch, k_byte0);
        unsigned char* raw              = slot + rows::raw_row_of(row) * rows::raw_row_bytes;
        const unsigned char* line       = b.p + std::int64_t(batch) * b.batch_stride +
                                    (std::int64_t(n0) + row) * b.ld + k_byte0 - w.shift;
        const std::int64_t end = std::int64_t(w.shift) + (b.k_bytes - k_byte0);
        for(index_t j = 0; j < rows::raw_row_bytes; ++j)
            raw[j] = w.reach > 0 && j < end ? line[j] : 0;
    }
}

template <index_t Rows>
std::string check_rows(const rows_case& c, std::mt19937& rng)
{
    using rows                = gemm_wgmma_b_rows<Rows>;
    const std::int64_t es     = c.element_bytes;
    const std::int64_t extent = ((c.batches - 1) * c.batch_stride + (c.n - 1) * c.ld + c.k) * es;
    // The operand: random bytes, 16-byte aligned, ending at a guard page or followed by bytes
    // that would show up in the stage if a copy reached them.
    std::vector<unsigned char> bytes(static_cast<std::size_t>(extent));
    for(auto& b : bytes)
        b = static_cast<unsigned char>(rng());
    std::unique_ptr<bytes_at_page_end> guarded;
    aligned_bytes plain(static_cast<std::size_t>(extent) + 64, 0x7f);
    unsigned char* src = plain.p.get();
    if(c.at_page_end)
    {
        guarded = std::make_unique<bytes_at_page_end>(static_cast<std::size_t>(extent));
        src     = guarded->data();
        if(reinterpret_cast<std::uintptr_t>(src) % 16 != 0)
            return "test setup: the operand's start is off 16 bytes";
    }
    std::memcpy(src, bytes.data(), bytes.size());
    const gemm_wgmma_b_source b{src, c.ld * es, c.batches > 1 ? c.batch_stride * es : 0, c.k * es,
                                static_cast<std::int32_t>(c.n)};
    aligned_bytes slot(rows::slot_bytes, 0xcd), stage(Rows * 128, 0xee);
    const auto fail = [&](std::int64_t batch, std::int64_t k_byte0, const char* what, index_t r,
                          index_t j, int got, int want) {
        std::ostringstream s;
        s << describe(c) << ": batch " << batch << ", K byte " << k_byte0 << ", " << what << " "
          << r << ", byte " << j << ": " << got << " instead of " << want;
        return s.str();
    };
    for(std::int64_t batch = 0; batch < c.batches; ++batch)
        for(std::int64_t k_byte0 = 0; k_byte0 < c.k * es; k_byte0 += 128)
        {
            const auto bt = static_cast<std::int32_t>(batch);
            std::memset(slot.p.get(), 0xcd, rows::slot_bytes);
            boxes_on_host<Rows>(slot.p.get(), b, c.n0, bt, k_byte0);
            // The copy engine's boxes, residue by residue: each row's nine lines from its
            // window's line start, zeros from its end of K on and past N (nothing read there).
            for(index_t r = 0; r < Rows; ++r)
            {
                const std::int64_t n = c.n0 + r;
                const unsigned char* start =
                    n < c.n ? src + batch * c.batch_stride * es + n * c.ld * es + k_byte0 : nullptr;
                const std::int64_t at  = start ? reinterpret_cast<std::uintptr_t>(start) % 16 : 0;
                const std::int64_t end = start ? at + c.k * es - k_byte0 : 0;
                const index_t raw_row  = (r % 8) * (Rows / 8) + r / 8;
                for(index_t j = 0; j < rows::raw_row_bytes; ++j)
                {
                    const unsigned char want = j < end ? start[j - at] : 0;
                    const unsigned char got  = slot.p.get()[raw_row * rows::raw_row_bytes + j];
                    if(got != want)
                        return fail(batch, k_byte0, "raw row", r, j, got, want);
                }
            }
            // (Warp 0's issuing lane takes no chunks: its other 31 share them.)
            for(index_t warp = 0; warp < rows::warps; ++warp)
                for(index_t lane = warp == 0 ? 1 : 0; lane < 32; ++lane)
                    rows::shift(stage.p.get(), slot.p.get(), b, c.n0, bt, k_byte0, warp,
                                warp == 0 ? lane - 1 : lane, warp == 0 ? 31 : 32);
            for(index_t r = 0; r < Rows; ++r)
                for(index_t j = 0; j < 128; ++j)
                {
                    const std::int64_t n = c.n0 + r, kb = k_byte0 + j;
                    const unsigned char want =
                        n < c.n && kb < c.k * es
                            ? bytes[static_cast<std::size_t>(batch * c.batch_stride * es +
                                                             n * c.ld * es + kb)]
                            : 0;
                    const unsigned char got = stage.p.get()[smem_swizzle_offset(
                        smem_swizzle::b128, static_cast<uint32_t>(r * 128 + j))];
                    if(got != want)
                        return fail(batch, k_byte0, "row", r, j, got, want);
                }
        }
    return "";
}

std::string check(const rows_case& c, std::mt19937& rng)
{
    return c.rows == 64 ? check_rows<64>(c, rng) : check_rows<128>(c, rng);
}

} // namespace

TEST(GemmWgmmaBRows, ShiftTakesSixteenBytesFromAnyStart)
{
    std::mt19937 rng(7);
    for(uint32_t shift = 0; shift < 16; ++shift)
        for(int trial = 0; trial < 20; ++trial)
        {
            uint32_t lo[4], hi[4];
            unsigned char all[32];
            for(int i = 0; i < 4; ++i)
                lo[i] = static_cast<uint32_t>(rng()), hi[i] = static_cast<uint32_t>(rng());
            std::memcpy(all, lo, 16);
            std::memcpy(all + 16, hi, 16);
            const gemm_wgmma_chunk c = gemm_wgmma_shift_lines(lo, hi, shift);
            unsigned char got[16];
            std::memcpy(got, c.w, 16);
            for(uint32_t b = 0; b < 16; ++b)
                ASSERT_EQ(got[b], all[shift + b]) << "shift " << shift << ", byte " << b;
        }
}

TEST(GemmWgmmaBRows, KeepBytesZeroesTheRest)
{
    for(std::int64_t keep = -5; keep <= 20; ++keep)
    {
        gemm_wgmma_chunk c{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}};
        c = gemm_wgmma_keep_bytes(c, keep);
        unsigned char got[16];
        std::memcpy(got, c.w, 16);
        for(std::int64_t b = 0; b < 16; ++b)
            ASSERT_EQ(got[b], b < keep ? 0xff : 0) << "keep " << keep << ", byte " << b;
    }
}

TEST(GemmWgmmaBRows, StageHoldsEveryRowsWindowFromAnyStart)
{
    std::mt19937 rng(11);
    std::vector<rows_case> cases;
    for(int rows : {64, 128})
        for(int es : {2, 4})
            for(std::int64_t k : {std::int64_t(1), std::int64_t(7), std::int64_t(128 / es),
                                  std::int64_t(300 / es + 1), std::int64_t(1001)})
                for(std::int64_t pad : {0, 1, 3, 5})
                {
                    const std::int64_t ld = k + pad;
                    // Rows past N in the tile; a second tile; batches whose stride is odd too.
                    cases.push_back({rows, rows - 5, k, ld, 1, 0, es, 0, false});
                    cases.push_back({rows, rows + 9, k, ld, 1, 0, es, rows, false});
                    // (Batches 16 bytes apart: the threads' path needs them so.)
                    const std::int64_t stride = (9 * ld * es + 16 + 15) / 16 * 16 / es;
                    cases.push_back({rows, 9, k, ld, 3, stride, es, 0, false});
                }
    for(const rows_case& c : cases)
    {
        const std::string why = check(c, rng);
        ASSERT_TRUE(why.empty()) << why;
    }
}

TEST(GemmWgmmaBRows, CopiesReadNothingPastTheOperand)
{
    // Operands whose last byte ends a 16-byte line, right before an unreadable page: the last
    // row's window reaches past it for every K tile but the last, and a copy of a whole line
    // there would fault. (ld 8191 and 1001 of fp16, 77 of fp32: N a multiple of 8, or 4, puts
    // the end on 16 bytes.)
    std::mt19937 rng(13);
    for(const rows_case& c : {rows_case{64, 64, 8191, 8191, 1, 0, 2, 0, true},
                              rows_case{128, 136, 1001, 1001, 1, 0, 2, 128, true},
                              rows_case{64, 8, 1001, 1001, 1, 0, 2, 0, true},
                              rows_case{64, 16, 301, 301, 2, 16 * 301, 2, 0, true},
                              rows_case{128, 4, 77, 77, 1, 0, 4, 0, true}})
    {
        const std::string why = check(c, rng);
        ASSERT_TRUE(why.empty()) << why;
    }
}
