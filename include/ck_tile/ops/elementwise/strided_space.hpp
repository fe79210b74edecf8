// SPDX-License-Identifier: MIT
// The iteration space of the memory-bound strided operations (elementwise, permute): the
// output's shape, up to 6 axes, and for each of N tensors its stride along every axis (in
// elements; 0 on an axis where a tensor is broadcast). Tensor 0 is the output.
//
// coalesce() brings the space to its simplest equivalent form before a kernel sees it: axes of
// length 1 are dropped and neighbouring axes merge where every tensor steps through them as
// one (stride[outer] == stride[inner] * length[inner]). A packed tensor becomes one axis; a
// batched transpose becomes (batch, P, Q) whatever the number of axes it was written with.
// Kernels pick their path from the coalesced form: one axis with unit strides (contiguous),
// two axes with unit inner strides (rows of a matrix, row strides free, 0 included), or the
// two innermost axes swapped between input and output (a transpose).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/functional.hpp"

namespace ck_tile {

constexpr index_t max_strided_rank = 6;

template <index_t NumTensors>
struct strided_space
{
    static constexpr index_t num_tensors   = NumTensors;
    index_t rank                           = 0; ///< 0 after coalescing means a single element
    long_index_t lengths[max_strided_rank] = {};
    long_index_t strides[NumTensors][max_strided_rank] = {};

    CK_TILE_HOST_DEVICE long_index_t element_count() const
    {
        long_index_t n = 1;
        for(index_t d = 0; d < rank; ++d)
            n *= lengths[d];
        return n;
    }

    /// @post the same elements in the same order (row-major over the axes) for every tensor;
    ///       no axis of length 1; no two neighbouring axes that every tensor walks as one.
    CK_TILE_HOST_DEVICE void coalesce()
    {
        index_t out = 0;
        for(index_t d = 0; d < rank; ++d)
        {
            if(lengths[d] == 1)
                continue;
            bool merge = out > 0;
            for(index_t t = 0; t < NumTensors && merge; ++t)
                merge = strides[t][out - 1] == strides[t][d] * lengths[d];
            if(merge)
            {
                lengths[out - 1] *= lengths[d];
                for(index_t t = 0; t < NumTensors; ++t)
                    strides[t][out - 1] = strides[t][d];
                continue;
            }
            lengths[out] = lengths[d];
            for(index_t t = 0; t < NumTensors; ++t)
                strides[t][out] = strides[t][d];
            ++out;
        }
        for(index_t d = out; d < rank; ++d)
        {
            lengths[d] = 1;
            for(index_t t = 0; t < NumTensors; ++t)
                strides[t][d] = 0;
        }
        rank = out;
    }

    /// Offsets (in elements) of linear element `i` (row-major over the axes) in every tensor.
    /// The axes are visited at compile-time indices: a kernel that indexed its arguments' arrays
    /// at run time got a 288-byte copy of them in local memory.
    CK_TILE_HOST_DEVICE void offsets(long_index_t i, long_index_t (&off)[NumTensors]) const
    {
        static_for<0, NumTensors, 1>{}([&](auto t) { off[decltype(t)::value] = 0; });
        static_for<0, max_strided_rank, 1>{}([&](auto j) {
            constexpr index_t d = max_strided_rank - 1 - decltype(j)::value;
            if(d < rank)
            {
                const long_index_t len = lengths[d];
                const long_index_t q   = i / len;
                const long_index_t idx = i - q * len;
                i                      = q;
                static_for<0, NumTensors, 1>{}([&](auto t) {
                    off[decltype(t)::value] += idx * strides[decltype(t)::value][d];
                });
            }
        });
    }
};

} // namespace ck_tile
