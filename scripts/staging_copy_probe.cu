// SPDX-License-Identifier: MIT
// How fast does the padded staging copy (gemm_operand_staging::stage, the word copy of
// gemm_operand_copy_words.hpp) move GEMM operands whose leading dimensions are off 16 bytes,
// next to the copy of one element per access that it replaced (kept below as the reference)?
// Per shape: the median of 30 launches between events, the rate in TB/s of bytes read plus
// written, the ratio, which of the word copy's variants the staging took, and whether both
// copies hold the source's runs.
//
//   nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -DCK_TILE_HOST_WARP_SIZE=32 \
//       -DCK_TILE_RUNTIME_CUDA -Iinclude --expt-relaxed-constexpr --extended-lambda -std=c++20 \
//       -x cu scripts/staging_copy_probe.cu -o staging_copy_probe
//   ./staging_copy_probe
#include "ck_tile/ops/gemm/gemm_operand_staging.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using ck_tile::index_t;

/// The reference: `per_thread` elements of a run per thread, one element per access.
template <typename E>
struct element_copy
{
    static constexpr index_t BlockSize = 256, MinBlocks = 1;
    static constexpr index_t per_thread          = 8;
    static constexpr std::int64_t max_row_blocks = 65535;

    using kargs = ck_tile::gemm_operand_copy_args<E>;

    static dim3 grid(const kargs& k)
    {
        const std::int64_t per_block = std::int64_t(BlockSize) * per_thread;
        const std::int64_t x         = (k.run + per_block - 1) / per_block;
        const std::int64_t y         = std::min(k.rows * k.batches, max_row_blocks);
        return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
    }

    CK_TILE_DEVICE void operator()(kargs k) const
    {
        const std::int64_t c0 = std::int64_t(ck_tile::get_block_id()) * BlockSize * per_thread +
                                ck_tile::get_thread_id();
        for(std::int64_t row = ck_tile::get_block_id_y(); row < k.rows * k.batches;
            row += ck_tile::get_grid_size_y())
        {
            const std::int64_t b = row / k.rows, r = row - b * k.rows;
            const E* from = k.src + b * k.src_batch_stride + r * k.src_ld;
            E* to         = k.dst + b * k.dst_batch_stride + r * k.dst_ld;
            E v[per_thread];
#pragma unroll
            for(index_t j = 0; j < per_thread; ++j)
            {
                const std::int64_t c = c0 + std::int64_t(j) * BlockSize;
                if(c < k.run)
                    v[j] = from[c];
            }
#pragma unroll
            for(index_t j = 0; j < per_thread; ++j)
            {
                const std::int64_t c = c0 + std::int64_t(j) * BlockSize;
                if(c < k.run)
                    to[c] = v[j];
            }
        }
    }
};

template <typename Launch>
float median_ms(Launch&& once)
{
    for(int i = 0; i < 3; ++i)
        once();
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> t;
    for(int i = 0; i < 30; ++i)
    {
        cudaEventRecord(a);
        once();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <typename E>
void probe(const char* name, std::int64_t rows, std::int64_t run, std::int64_t ld,
           std::size_t offset_elements)
{
    const std::size_t eb = sizeof(E);
    const std::size_t src_bytes =
        static_cast<std::size_t>((rows - 1) * ld + run) * eb + offset_elements * eb;
    std::uint8_t *src = nullptr, *d_element = nullptr, *d_words = nullptr;
    ck_tile::gemm_operand_view v;
    v.rows = rows, v.run = run, v.ld = ld, v.batches = 1, v.batch_stride = ld * rows;
    v.element_bytes              = eb;
    const std::size_t dst_bytes  = ck_tile::gemm_operand_layout::bytes(v);
    const std::int64_t staged_ld = ck_tile::gemm_operand_layout::staged_ld(v);
    cudaMalloc(&src, src_bytes);
    cudaMalloc(&d_element, dst_bytes);
    cudaMalloc(&d_words, dst_bytes);
    std::vector<std::uint8_t> h(src_bytes);
    for(std::size_t i = 0; i < src_bytes; ++i)
        h[i] = static_cast<std::uint8_t>(i * 2654435761u >> 13);
    cudaMemcpy(src, h.data(), src_bytes, cudaMemcpyHostToDevice);
    v.p = src + offset_elements * eb;

    using K = element_copy<E>;
    const typename K::kargs k{static_cast<const E*>(v.p),
                              reinterpret_cast<E*>(d_element),
                              rows,
                              run,
                              1,
                              ld,
                              ld * rows,
                              staged_ld,
                              staged_ld * rows};
    const float t_element = median_ms([&] {
        ck_tile::launch_kernel(ck_tile::stream_config{nullptr, false, 0, 0, 1},
                               ck_tile::make_kernel<K::BlockSize, K::MinBlocks>(
                                   K{}, K::grid(k), dim3(K::BlockSize), 0u, k));
    });
    const float t_words =
        median_ms([&] { ck_tile::gemm_operand_staging::stage(v, d_words, nullptr); });

    std::vector<std::uint8_t> a(dst_bytes), b(dst_bytes);
    cudaMemcpy(a.data(), d_element, dst_bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), d_words, dst_bytes, cudaMemcpyDeviceToHost);
    bool same = true;
    for(std::int64_t r = 0; r < rows && same; ++r)
    {
        const std::size_t at = static_cast<std::size_t>(r * staged_ld) * eb;
        same                 = std::memcmp(&a[at], &b[at], run * eb) == 0 &&
               std::memcmp(&b[at], &h[(offset_elements + r * ld) * eb], run * eb) == 0;
    }
    const double bytes = 2.0 * static_cast<double>(rows * run) * static_cast<double>(eb);
    const bool few     = ck_tile::gemm_operand_copy_few_words(rows, run * std::int64_t(eb));
    std::printf("%-32s %6lld x %5lld ld %5lld +%zu: element %.4f ms %.2f TB/s, words %.4f ms "
                "%.2f TB/s, x%.2f (%s, %d words) %s\n",
                name, static_cast<long long>(rows), static_cast<long long>(run),
                static_cast<long long>(ld), offset_elements, t_element, bytes / t_element / 1e9,
                t_words, bytes / t_words / 1e9, t_element / t_words,
                ck_tile::gemm_operand_layout::runs_on_words(v) ? "on words" : "off words",
                few ? 4 : 8, same ? "same" : "DIFFERENT");
    cudaFree(src);
    cudaFree(d_element);
    cudaFree(d_words);
}

} // namespace

int main()
{
    probe<std::uint8_t>("e4m3, K odd", 8192, 8191, 8191, 0);
    probe<std::uint8_t>("e4m3, K odd, start off a word", 8192, 8191, 8191, 1);
    probe<std::uint8_t>("e4m3, ld on 4, off 16", 8192, 8192, 8196, 0);
    probe<std::uint8_t>("e4m3, 4096 x 4095", 4096, 4095, 4095, 0);
    probe<std::uint8_t>("e4m3, 1024 x 1023", 1024, 1023, 1023, 0);
    probe<std::uint16_t>("fp16, K odd", 8192, 8191, 8191, 0);
    probe<std::uint16_t>("fp16, K odd, start off a word", 8192, 8191, 8191, 1);
    probe<std::uint16_t>("fp16, ld on 4, off 8", 8192, 8192, 8196, 0);
    probe<std::uint16_t>("fp16, 4096 x 4095", 4096, 4095, 4095, 0);
    probe<std::uint16_t>("fp16, 1024 x 1023", 1024, 1023, 1023, 0);
    probe<std::uint16_t>("fp16, M = 16 rows of K", 16, 8191, 8191, 0);
    probe<std::uint16_t>("fp16, M = 128 rows of K", 128, 8191, 8191, 0);
    probe<std::uint16_t>("fp16, runs of 1000", 16384, 1000, 1001, 0);
    probe<std::uint16_t>("fp16, runs of 100", 65536, 100, 101, 0);
    probe<std::uint8_t>("e4m3, runs of 100", 65536, 100, 101, 0);
    probe<std::uint32_t>("fp32, K odd", 8192, 8191, 8191, 0);
    probe<std::uint32_t>("fp32, 4096 x 4095", 4096, 4095, 4095, 0);
    return 0;
}
