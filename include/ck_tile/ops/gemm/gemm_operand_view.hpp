// SPDX-License-Identifier: MIT
// A GEMM operand as runs of contiguous elements, and the layout of its staged copies in
// workspace (gemm_operand_staging.hpp): host arithmetic only.
//
// An operand is `batches` matrices of `rows` runs of `run` contiguous elements, runs `ld`
// elements apart and matrices `batch_stride` elements apart.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ck_tile {

struct gemm_operand_view
{
    const void* p     = nullptr;
    std::int64_t rows = 0, run = 0, ld = 0, batches = 1, batch_stride = 0;
    std::size_t element_bytes = 1;
};

struct gemm_operand_layout
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

    /// The view of `v` transposed: its `run` side becomes the runs' count and its rows the
    /// runs, with the staged leading dimension (whole 128-byte lines) and packed matrices.
    /// @post transposed(v).run == v.rows, transposed(v).rows == v.run, and
    ///       staged_ld(transposed(v)) == transposed(v).ld.
    static gemm_operand_view transposed(const gemm_operand_view& v)
    {
        gemm_operand_view t = v;
        t.rows = v.run, t.run = v.rows;
        t.ld           = staged_ld(t);
        t.batch_stride = t.ld * t.rows;
        return t;
    }

    /// Whether every run of `v` starts on 4 bytes: its start, leading dimension (with more
    /// than one run) and batch stride (with more than one matrix) are.
    static bool runs_on_words(const gemm_operand_view& v)
    {
        const auto e = static_cast<std::int64_t>(v.element_bytes);
        return reinterpret_cast<std::uintptr_t>(v.p) % 4 == 0 &&
               (v.rows == 1 || v.ld * e % 4 == 0) &&
               (v.batches == 1 || v.batch_stride * e % 4 == 0);
    }

    /// Whether the transposed copy of `v` moves its 1-byte elements a 4-byte word at a time:
    /// where its start, leading dimension (with more than one run) and batch stride (with more
    /// than one matrix) are on 4 bytes. The copy's destination, transposed(v), always is (rows
    /// on whole lines), and its rows hold the last word's bytes past `v.rows`, as zeros.
    static bool transposes_by_words(const gemm_operand_view& v)
    {
        return v.element_bytes == 1 && runs_on_words(v);
    }
};

} // namespace ck_tile
