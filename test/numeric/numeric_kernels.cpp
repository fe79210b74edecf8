// SPDX-License-Identifier: MIT
#include "numeric_kernels.hpp"

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/buffer_view.hpp"
#include "ck_tile/host/kernel_launch.hpp"

#include <algorithm>

namespace cktile_numeric_test {
namespace {

using ck_tile::overflow_mode;
using ck_tile::type_convert;

constexpr int block = 256;

unsigned grid_for(std::size_t n)
{
    return static_cast<unsigned>(std::min<std::size_t>((n + block - 1) / block, 8192));
}

struct narrow_kernel
{
    CK_TILE_DEVICE void operator()(const float* in, uint16_t* out, std::size_t n) const
    {
        const std::size_t stride =
            std::size_t(ck_tile::get_grid_size()) * ck_tile::get_block_size();
        for(std::size_t i = std::size_t(ck_tile::get_block_id()) * ck_tile::get_block_size() +
                            ck_tile::get_thread_id();
            i < n; i += stride)
        {
            const float x  = in[i];
            out[0 * n + i] = type_convert<ck_tile::half_t>(x).data;
            out[1 * n + i] = type_convert<ck_tile::bf16_t>(x).data;
            out[2 * n + i] = type_convert<ck_tile::fp8_t>(x).data;
            out[3 * n + i] = type_convert<ck_tile::bf8_t>(x).data;
            out[4 * n + i] = type_convert<ck_tile::fp8_t, overflow_mode::non_saturate>(x).data;
            out[5 * n + i] = type_convert<ck_tile::bf8_t, overflow_mode::non_saturate>(x).data;
        }
    }
};

struct widen_kernel
{
    CK_TILE_DEVICE void operator()(const uint16_t* codes, float* out, std::size_t n) const
    {
        const std::size_t stride =
            std::size_t(ck_tile::get_grid_size()) * ck_tile::get_block_size();
        for(std::size_t i = std::size_t(ck_tile::get_block_id()) * ck_tile::get_block_size() +
                            ck_tile::get_thread_id();
            i < n; i += stride)
        {
            const uint16_t c = codes[i];
            const auto low   = static_cast<uint8_t>(c);
            out[0 * n + i]   = type_convert<float>(ck_tile::half_t::from_bits(c));
            out[1 * n + i]   = type_convert<float>(ck_tile::bf16_t::from_bits(c));
            out[2 * n + i]   = type_convert<float>(ck_tile::fp8_t::from_bits(low));
            out[3 * n + i]   = type_convert<float>(ck_tile::bf8_t::from_bits(low));
        }
    }
};

struct buffer_view_kernel
{
    CK_TILE_DEVICE void operator()(const float* src, int src_size, float* scratch,
                                   buffer_view_results* res) const
    {
        using namespace ck_tile;
        using float4 = ext_vector_t<float, 4>;
        const int t  = get_thread_id();

        // Global reads: whole vectors in bounds, the straddling one and those past the end zero.
        const auto in  = make_buffer_view<address_space_enum::global>(src, src_size);
        const float4 v = in.get<float4>(4 * t, 0, true);
        auto out       = make_buffer_view<address_space_enum::global>(res->loaded, 4 * 256);
        out.set<float4>(4 * t, 0, true, v);

        __shared__ float lds[2];
        __shared__ half_t lds_h[2];
        auto lv = make_buffer_view<address_space_enum::lds>(lds, 2);
        auto lh = make_buffer_view<address_space_enum::lds>(lds_h, 2);
        if(t == 0)
        {
            lv.set<float>(0, 0, true, 0.0f);
            lv.set<float>(0, 1, true, -1.0f);
            lh.set<ext_vector_t<half_t, 2>>(0, 0, true, ext_vector_t<half_t, 2>{});
        }
        block_sync_lds();
        lv.update<memory_operation_enum::atomic_add, float>(0, 0, true, 1.0f);
        lv.update<memory_operation_enum::atomic_max, float>(0, 1, true, static_cast<float>(t));
        lh.update<memory_operation_enum::atomic_add, half_t>(1, 0, true,
                                                             type_convert<half_t>(0.5f));
        lv.update<memory_operation_enum::atomic_add, float>(0, 2, true, 100.0f); // out of bounds

        // scratch: [0] float sum, [1] guard, [2] int32 max, [3] two bf16 (the second summed)
        auto gs = make_buffer_view<address_space_enum::global>(scratch, 1);
        gs.update<memory_operation_enum::atomic_add, float>(0, 0, true, 1.0f);
        gs.update<memory_operation_enum::atomic_add, float>(0, 1, true, 1.0f); // dropped
        auto gi = make_buffer_view<address_space_enum::global>(
            reinterpret_cast<int32_t*>(scratch + 2), 1);
        gi.update<memory_operation_enum::atomic_max, int32_t>(0, 0, true, t);
        auto gb =
            make_buffer_view<address_space_enum::global>(reinterpret_cast<bf16_t*>(scratch + 3), 2);
        gb.atomic_add<bf16_t>(1, 0, true, type_convert<bf16_t>(1.0f));
        block_sync();

        if(t == 0)
        {
            res->lds_sum         = lv.get<float>(0, 0, true);
            res->lds_max         = lv.get<float>(0, 1, true);
            res->lds_half_sum    = type_convert<float>(lh.get<half_t>(0, 1, true).get(0));
            res->global_sum      = scratch[0];
            res->oob_untouched   = scratch[1];
            res->global_max      = reinterpret_cast<int32_t*>(scratch)[2];
            res->global_bf16_sum = type_convert<float>(reinterpret_cast<bf16_t*>(scratch + 3)[1]);
            const auto inv    = make_buffer_view<address_space_enum::global>(src, src_size, -7.0f);
            res->invalid_read = inv.get<float>(src_size, 0, true);
        }
    }
};

} // namespace

hipError_t launch_buffer_view_ops(const float* src, int src_size, float* scratch,
                                  buffer_view_results* res, int threads, hipStream_t stream)
{
    const hipError_t e = hipMemset(scratch, 0, 8 * sizeof(float));
    if(e != hipSuccess)
        return e;
    ck_tile::make_kernel<block>(buffer_view_kernel{}, dim3(1), dim3(threads), 0u, src, src_size,
                                scratch, res)(stream);
    return hipGetLastError();
}

hipError_t launch_narrow_from_float(const float* in, uint16_t* out, std::size_t n,
                                    hipStream_t stream)
{
    ck_tile::make_kernel<block>(narrow_kernel{}, dim3(grid_for(n)), dim3(block), 0u, in, out,
                                n)(stream);
    return hipGetLastError();
}

hipError_t launch_widen_to_float(const uint16_t* codes, float* out, std::size_t n,
                                 hipStream_t stream)
{
    ck_tile::make_kernel<block>(widen_kernel{}, dim3(grid_for(n)), dim3(block), 0u, codes, out,
                                n)(stream);
    return hipGetLastError();
}

} // namespace cktile_numeric_test
