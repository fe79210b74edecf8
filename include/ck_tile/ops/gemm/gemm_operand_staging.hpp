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

#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/hip_runtime.hpp"

#include <cstddef>
#include <cstdint>

namespace ck_tile {

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

    /// Copies `v` into `to` (bytes(v) bytes, 256-byte aligned) on `stream`, and returns the
    /// staged view. Matrices that follow each other at `rows * ld` go in one 2-D copy; others
    /// take one copy each.
    static gemm_operand_view stage(const gemm_operand_view& v, void* to, hipStream_t stream)
    {
        gemm_operand_view s       = v;
        s.p                       = to;
        s.ld                      = staged_ld(v);
        s.batch_stride            = s.ld * v.rows;
        const std::size_t e       = v.element_bytes;
        const bool one_copy       = v.batches == 1 || v.batch_stride == v.rows * v.ld;
        const std::int64_t copies = one_copy ? 1 : v.batches;
        const std::int64_t height = one_copy ? v.rows * v.batches : v.rows;
        for(std::int64_t b = 0; b < copies; ++b)
            HIP_CHECK_ERROR(hipMemcpy2DAsync(
                static_cast<char*>(to) + static_cast<std::size_t>(b * s.batch_stride) * e,
                static_cast<std::size_t>(s.ld) * e,
                static_cast<const char*>(v.p) + static_cast<std::size_t>(b * v.batch_stride) * e,
                static_cast<std::size_t>(v.ld) * e, static_cast<std::size_t>(v.run) * e,
                static_cast<std::size_t>(height), hipMemcpyDeviceToDevice, stream));
        return s;
    }
};

} // namespace ck_tile
