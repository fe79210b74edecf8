// SPDX-License-Identifier: MIT
// Padded staging of a GEMM operand: a copy into workspace whose rows start on 128-byte lines,
// for kernels whose loads need more alignment than the caller's leading dimension or batch
// stride has (the copy engine's 16-byte strides). The copy reads each element once and writes
// it once, so it costs what streaming the operand through memory twice costs; a kernel that
// otherwise could not run the problem at all (or only on the vector units) gains far more.
//
// An operand here is `batches` matrices of `rows` runs of `run` contiguous elements, runs `ld`
// elements apart and matrices `batch_stride` elements apart. The staged copy has the same
// runs, `staged_ld` elements apart, and packed matrices.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/host/hip_runtime.hpp"
#include "ck_tile/host/kernel_launch.hpp"

#if !defined(CK_TILE_PLATFORM_HOST)
#include "ck_tile/core/arch/arch.hpp"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace ck_tile {

/// The copy: runs of `run` elements of E (an unsigned integer of the element's size, so one
/// kernel serves every type of that size), `batches` x `rows` of them. Each thread moves
/// `per_thread` elements of a run, all loads before the stores; a block covers BlockSize *
/// per_thread elements of one run and walks the runs in steps of the grid's height. Element
/// loads and stores are coalesced across a warp whatever the source's alignment.
template <typename E>
struct gemm_operand_copy
{
    static constexpr index_t BlockSize           = 256;
    static constexpr index_t per_thread          = 8;
    static constexpr std::int64_t max_row_blocks = 65535;

    struct kargs
    {
        const E* src;
        E* dst;
        std::int64_t rows, run, batches;
        std::int64_t src_ld, src_batch_stride, dst_ld, dst_batch_stride;
    };

    CK_TILE_HOST static dim3 grid(const kargs& k)
    {
        const std::int64_t per_block = std::int64_t(BlockSize) * per_thread;
        const std::int64_t x         = (k.run + per_block - 1) / per_block;
        const std::int64_t y         = std::min(k.rows * k.batches, max_row_blocks);
        return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        const std::int64_t c0 =
            std::int64_t(get_block_id()) * BlockSize * per_thread + get_thread_id();
        for(std::int64_t row = get_block_id_y(); row < k.rows * k.batches; row += get_grid_size_y())
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
#endif
};

struct gemm_operand_view
{
    const void* p     = nullptr;
    std::int64_t rows = 0, run = 0, ld = 0, batches = 1, batch_stride = 0;
    std::size_t element_bytes = 1;
};

struct gemm_operand_staging
{
    static constexpr std::size_t line_bytes = 128;

    /// The staged leading dimension: `run` rounded up to whole 128-byte lines.
    /// @post staged_ld(v) * v.element_bytes is a multiple of 128, and staged_ld(v) >= v.run.
    static std::int64_t staged_ld(const gemm_operand_view& v)
    {
        const auto per_line = static_cast<std::int64_t>(line_bytes / v.element_bytes);
        return (v.run + per_line - 1) / per_line * per_line;
    }

    /// Bytes the staged copy takes, a multiple of 256 so copies placed one after the other keep
    /// the copy engine's alignment.
    static std::size_t bytes(const gemm_operand_view& v)
    {
        const auto b =
            static_cast<std::size_t>(staged_ld(v) * v.rows * v.batches) * v.element_bytes;
        return (b + 255) / 256 * 256;
    }

    /// Copies `v` into `to` (bytes(v) bytes, 256-byte aligned) on `stream` with one launch, and
    /// returns the staged view.
    static gemm_operand_view stage(const gemm_operand_view& v, void* to, hipStream_t stream)
    {
        gemm_operand_view s = v;
        s.p                 = to;
        s.ld                = staged_ld(v);
        s.batch_stride      = s.ld * v.rows;
        switch(v.element_bytes)
        {
        case 1:
            copy<std::uint8_t>(v, s, stream);
            break;
        case 2:
            copy<std::uint16_t>(v, s, stream);
            break;
        case 4:
            copy<std::uint32_t>(v, s, stream);
            break;
        default:
            throw std::invalid_argument("gemm_operand_staging: elements of 1, 2 or 4 bytes");
        }
        return s;
    }

    private:
    template <typename E>
    static void copy(const gemm_operand_view& from, const gemm_operand_view& to, hipStream_t stream)
    {
        using K = gemm_operand_copy<E>;
        const typename K::kargs k{static_cast<const E*>(from.p),
                                  static_cast<E*>(const_cast<void*>(to.p)),
                                  from.rows,
                                  from.run,
                                  from.batches,
                                  from.ld,
                                  from.batch_stride,
                                  to.ld,
                                  to.batch_stride};
        launch_kernel(stream_config{stream, false, 0, 0, 1},
                      make_kernel<K::BlockSize, 1>(K{}, K::grid(k), dim3(K::BlockSize), 0u, k));
    }
};

} // namespace ck_tile
