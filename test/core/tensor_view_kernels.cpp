// SPDX-License-Identifier: MIT
#include "tensor_view_kernels.hpp"

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/host/kernel_launch.hpp"

#include <algorithm>

namespace cktile_tensor_view_test {
namespace {

using namespace ck_tile;

constexpr int block = 256;

unsigned grid_for(long n)
{
    return static_cast<unsigned>(std::min<long>((n + block - 1) / block, 4096));
}

// Seed 002, "Example of Matrix Transpose", with descriptors and buffer views. The seed's 8 x 8
// thread block is a 64-thread block here, split into (tx, ty) by hand: ck_tile exposes one
// thread id per block.
struct register_transpose_kernel
{
    CK_TILE_DEVICE void operator()(const float* src, float* dst, index_t M, index_t K) const
    {
        using float4 = ext_vector_t<float, 4>;

        const auto src_desc = make_naive_tensor_descriptor(make_tuple(M, K), make_tuple(K, 1));
        const auto src_buf =
            make_buffer_view<address_space_enum::global>(src, src_desc.get_element_space_size());
        const auto dst_desc = make_naive_tensor_descriptor(make_tuple(K, M), make_tuple(M, 1));
        auto dst_buf =
            make_buffer_view<address_space_enum::global>(dst, dst_desc.get_element_space_size());

        // The thread's 4x4 sub-matrix: rows x..x+3 of src, columns y..y+3.
        const index_t tx = get_thread_id() % 8, ty = get_thread_id() / 8;
        const index_t x = (get_block_id() * 8 + tx) * 4, y = ty * 4;

        // 16 floats in registers; row i of the sub-matrix is elements 4i..4i+3.
        ext_vector_t<float, 16> regs;
        static_for<0, 4, 1>{}([&](auto i) {
            const float4 row = src_buf.template get<float4>(
                src_desc.calculate_offset(make_tuple(x + i, y)), 0, true);
            static_for<0, 4, 1>{}([&](auto j) { regs[i * 4 + j] = row[j]; });
        });

        // Swap across the diagonal: regs[4i + j] <-> regs[4j + i] for j < i. The indices are
        // compile-time constants, so this is register renaming, not memory traffic.
        static_for<0, 4, 1>{}([&](auto i) {
            static_for<0, i, 1>{}([&](auto j) {
                const float tmp = regs[i * 4 + j];
                regs[i * 4 + j] = regs[j * 4 + i];
                regs[j * 4 + i] = tmp;
            });
        });

        // Row i of the transposed sub-matrix is row y + i of dst, columns x..x+3.
        static_for<0, 4, 1>{}([&](auto i) {
            float4 row;
            static_for<0, 4, 1>{}([&](auto j) { row[j] = regs[i * 4 + j]; });
            dst_buf.template set<float4>(dst_desc.calculate_offset(make_tuple(y + i, x)), 0, true,
                                         row);
        });
    }
};

// Element-wise copy over the padded shape, one element per thread per step of a grid-stride
// loop, through tensor coordinates (as tile windows will do).
template <typename SrcView, typename DstView>
CK_TILE_DEVICE void copy_view(const SrcView& src, DstView& dst, index_t rows, index_t cols)
{
    const long n      = static_cast<long>(rows) * cols;
    const long stride = static_cast<long>(get_grid_size()) * get_block_size();
    for(long e = static_cast<long>(get_block_id()) * get_block_size() + get_thread_id(); e < n;
        e += stride)
    {
        const auto idx =
            make_multi_index(static_cast<index_t>(e / cols), static_cast<index_t>(e % cols));
        const auto v = src.template get_vectorized_elements<float>(
            make_tensor_coordinate(src.get_tensor_descriptor(), idx), 0);
        dst.template set_vectorized_elements<float>(
            make_tensor_coordinate(dst.get_tensor_descriptor(), idx), 0, v.get(0));
    }
}

struct copy_transposed_padded_kernel
{
    CK_TILE_DEVICE void operator()(const float* in, index_t M, index_t N, index_t ld,
                                   index_t tile_m, index_t tile_n, float* out) const
    {
        const auto in_view = make_naive_tensor_view<address_space_enum::global>(
            in, make_tuple(M, N), make_tuple(ld, 1));
        const auto transposed = transform_tensor_view(
            in_view, make_tuple(make_pass_through_transform(N), make_pass_through_transform(M)),
            make_tuple(sequence<1>{}, sequence<0>{}), make_tuple(sequence<0>{}, sequence<1>{}));
        const auto padded =
            pad_tensor_view(transposed, make_tuple(tile_n, tile_m), sequence<true, true>{});

        const index_t PN = padded.get_tensor_descriptor().get_length(number<0>{});
        const index_t PM = padded.get_tensor_descriptor().get_length(number<1>{});
        auto out_view =
            make_naive_tensor_view_packed<address_space_enum::global>(out, make_tuple(PN, PM));
        copy_view(padded, out_view, PN, PM);
    }
};

struct scatter_through_padded_view_kernel
{
    CK_TILE_DEVICE void operator()(const float* src, index_t M, index_t N, index_t ld,
                                   index_t tile_m, index_t tile_n, float* out) const
    {
        auto out_view = make_naive_tensor_view<address_space_enum::global>(out, make_tuple(M, N),
                                                                           make_tuple(ld, 1));
        auto padded = pad_tensor_view(out_view, make_tuple(tile_m, tile_n), sequence<true, true>{});
        const index_t PM = padded.get_tensor_descriptor().get_length(number<0>{});
        const index_t PN = padded.get_tensor_descriptor().get_length(number<1>{});
        const auto src_view =
            make_naive_tensor_view_packed<address_space_enum::global>(src, make_tuple(PM, PN));
        copy_view(src_view, padded, PM, PN);
    }
};

} // namespace

hipError_t launch_register_transpose(const float* src, float* dst, int M, int K, hipStream_t stream)
{
    make_kernel<64>(register_transpose_kernel{}, dim3(M / 32), dim3(64), 0u, src, dst, M,
                    K)(stream);
    return hipGetLastError();
}

hipError_t launch_copy_transposed_padded(const float* in, int M, int N, int ld, int tile_m,
                                         int tile_n, float* out, hipStream_t stream)
{
    const long padded =
        static_cast<long>(integer_least_multiple(N, tile_n)) * integer_least_multiple(M, tile_m);
    make_kernel<block>(copy_transposed_padded_kernel{}, dim3(grid_for(padded)), dim3(block), 0u, in,
                       M, N, ld, tile_m, tile_n, out)(stream);
    return hipGetLastError();
}

hipError_t launch_scatter_through_padded_view(const float* src, int M, int N, int ld, int tile_m,
                                              int tile_n, float* out, hipStream_t stream)
{
    const long padded =
        static_cast<long>(integer_least_multiple(M, tile_m)) * integer_least_multiple(N, tile_n);
    make_kernel<block>(scatter_through_padded_view_kernel{}, dim3(grid_for(padded)), dim3(block),
                       0u, src, M, N, ld, tile_m, tile_n, out)(stream);
    return hipGetLastError();
}

} // namespace cktile_tensor_view_test
