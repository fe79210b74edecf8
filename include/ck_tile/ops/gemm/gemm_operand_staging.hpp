// SPDX-License-Identifier: MIT
// Staging of a GEMM operand: a copy into workspace whose rows start on 128-byte lines, padded
// for kernels whose loads need more alignment than the caller's leading dimension or batch
// stride has (the copy engine's 16-byte strides), or transposed for kernels that read an
// operand along K only where the caller stores it along M or N (the Hopper kernels of 8-bit
// and TF32 inputs). A copy reads each element once and writes it once, so it costs what
// streaming the operand through memory twice costs; a kernel that otherwise could not run the
// problem at all (or only on slower units) gains far more.
//
// Operands are gemm_operand_view's runs; the staged copy has the same runs (padded) or the
// other side's (transposed), `staged_ld` elements apart, and packed matrices.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/ops/gemm/gemm_operand_copy_words.hpp"
#include "ck_tile/ops/gemm/gemm_operand_transpose_bytes.hpp"
#include "ck_tile/ops/gemm/gemm_operand_view.hpp"
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

/// The transposing copy: `batches` matrices of `rows` runs of `run` elements become matrices of
/// `run` runs of `rows` elements. A block moves a 64 x 64 tile through shared memory (a column
/// of padding keeps the transposed reads of 4-byte elements off one bank), so both the loads
/// and the stores are coalesced; each thread issues all its 16 loads before it stores, as a
/// copy of narrow elements needs many bytes in flight. The grid's second dimension walks the
/// tiles along `rows` (more than its 65535 blocks where K is that long), the third the batches.
template <typename E>
struct gemm_operand_transpose
{
    static constexpr index_t Tile = 64, BlockSize = 256, MinBlocks = 1,
                             RowsPerPass = BlockSize / Tile, PerThread = Tile / RowsPerPass;
    static constexpr std::int64_t max_grid_yz = 65535;

    using kargs = gemm_operand_copy_args<E>;

    CK_TILE_HOST static dim3 grid(const kargs& k)
    {
        return dim3(static_cast<unsigned>((k.run + Tile - 1) / Tile),
                    static_cast<unsigned>(std::min((k.rows + Tile - 1) / Tile, max_grid_yz)),
                    static_cast<unsigned>(std::min(k.batches, max_grid_yz)));
    }

#if !defined(CK_TILE_PLATFORM_HOST)
    CK_TILE_DEVICE void operator()(kargs k) const
    {
        __shared__ E tile[Tile][Tile + 1];
        const index_t tx = get_thread_id() % Tile, ty = get_thread_id() / Tile;
        const std::int64_t c0 = std::int64_t(get_block_id()) * Tile;
        for(std::int64_t b = get_block_id_z(); b < k.batches; b += get_grid_size_z())
            for(std::int64_t r0 = std::int64_t(get_block_id_y()) * Tile; r0 < k.rows;
                r0 += std::int64_t(get_grid_size_y()) * Tile)
            {
                const E* from  = k.src + b * k.src_batch_stride;
                E* to          = k.dst + b * k.dst_batch_stride;
                E v[PerThread] = {};
#pragma unroll
                for(index_t i = 0; i < PerThread; ++i)
                {
                    const index_t j = ty + i * RowsPerPass;
                    if(r0 + j < k.rows && c0 + tx < k.run)
                        v[i] = from[(r0 + j) * k.src_ld + c0 + tx];
                }
#pragma unroll
                for(index_t i = 0; i < PerThread; ++i)
                    tile[ty + i * RowsPerPass][tx] = v[i];
                block_sync_lds();
#pragma unroll
                for(index_t i = 0; i < PerThread; ++i)
                    v[i] = tile[tx][ty + i * RowsPerPass];
#pragma unroll
                for(index_t i = 0; i < PerThread; ++i)
                {
                    const index_t j = ty + i * RowsPerPass;
                    if(c0 + j < k.run && r0 + tx < k.rows)
                        to[(c0 + j) * k.dst_ld + r0 + tx] = v[i];
                }
                block_sync_lds();
            }
    }
#endif
};

struct gemm_operand_staging : gemm_operand_layout
{
    /// Copies `v` into `to` (bytes(v) bytes, 256-byte aligned) on `stream` with one launch, and
    /// returns the staged view.
    static gemm_operand_view stage(const gemm_operand_view& v, void* to, hipStream_t stream)
    {
        gemm_operand_view s = v;
        s.p                 = to;
        s.ld                = staged_ld(v);
        s.batch_stride      = s.ld * v.rows;
        // The copy in bytes: runs on words need no second word, few or narrow runs fewer words
        // per thread.
        const gemm_operand_view src = in_bytes(v), dst = in_bytes(s);
        const bool few_words = gemm_operand_copy_few_words(src.rows * src.batches, src.run);
        if(runs_on_words(v))
            few_words ? launch<gemm_operand_copy_words<false, 4>, std::uint8_t>(src, dst, stream)
                      : launch<gemm_operand_copy_words<false, 8>, std::uint8_t>(src, dst, stream);
        else
            few_words ? launch<gemm_operand_copy_words<true, 4>, std::uint8_t>(src, dst, stream)
                      : launch<gemm_operand_copy_words<true, 8>, std::uint8_t>(src, dst, stream);
        return s;
    }

    /// Copies `v` transposed into `to` (bytes(transposed(v)) bytes, 256-byte aligned) on
    /// `stream` with one launch, and returns the staged view: for kernels that read an operand
    /// only along one side (K-major) from a caller who stores it along the other.
    static gemm_operand_view stage_transposed(const gemm_operand_view& v, void* to,
                                              hipStream_t stream)
    {
        gemm_operand_view s = transposed(v);
        s.p                 = to;
        if(transposes_by_words(v))
            launch<gemm_operand_transpose_bytes, std::uint8_t>(v, s, stream);
        else
            launch_for_element<gemm_operand_transpose>(v, s, stream);
        return s;
    }

    private:
    /// `v` as a view of its bytes: runs, leading dimension and batch stride times the element
    /// size.
    static gemm_operand_view in_bytes(gemm_operand_view v)
    {
        v.run *= static_cast<std::int64_t>(v.element_bytes);
        v.ld *= static_cast<std::int64_t>(v.element_bytes);
        v.batch_stride *= static_cast<std::int64_t>(v.element_bytes);
        v.element_bytes = 1;
        return v;
    }

    /// Copy kernel `Kernel` over unsigned integers of `from`'s element size.
    template <template <typename> class Kernel>
    static void launch_for_element(const gemm_operand_view& from, const gemm_operand_view& to,
                                   hipStream_t stream)
    {
        switch(from.element_bytes)
        {
        case 1:
            launch<Kernel<std::uint8_t>, std::uint8_t>(from, to, stream);
            break;
        case 2:
            launch<Kernel<std::uint16_t>, std::uint16_t>(from, to, stream);
            break;
        case 4:
            launch<Kernel<std::uint32_t>, std::uint32_t>(from, to, stream);
            break;
        default:
            throw std::invalid_argument("gemm_operand_staging: elements of 1, 2 or 4 bytes");
        }
    }

    template <typename K, typename E>
    static void launch(const gemm_operand_view& from, const gemm_operand_view& to,
                       hipStream_t stream)
    {
        const typename K::kargs k{static_cast<const E*>(from.p),
                                  static_cast<E*>(const_cast<void*>(to.p)),
                                  from.rows,
                                  from.run,
                                  from.batches,
                                  from.ld,
                                  from.batch_stride,
                                  to.ld,
                                  to.batch_stride};
        launch_kernel(
            stream_config{stream, false, 0, 0, 1},
            make_kernel<K::BlockSize, K::MinBlocks>(K{}, K::grid(k), dim3(K::BlockSize), 0u, k));
    }
};

} // namespace ck_tile
