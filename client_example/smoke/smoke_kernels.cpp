// SPDX-License-Identifier: MIT
#include "smoke_kernels.hpp"

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/host/kernel_launch.hpp"
#include "ck_tile/ops/copy/vector_copy_kernel.hpp"

namespace cktile_smoke {
namespace {

template <int Bytes>
struct element
{
    unsigned char b[Bytes];
};

struct thread_id_kernel
{
    CK_TILE_DEVICE void operator()(int32_t* out, int n) const
    {
        const int t = ck_tile::get_thread_id();
        out[t]      = ck_tile::get_lane_id();
        out[n + t]  = ck_tile::get_warp_id();
        if(t == 0)
            out[2 * n] = ck_tile::get_warp_size();
    }
};

struct warp_sum_kernel
{
    CK_TILE_DEVICE void operator()(const float* in, float* out) const
    {
        const int t = ck_tile::get_thread_id();
        float v     = in[t];
        for(int mask = ck_tile::get_warp_size() / 2; mask > 0; mask /= 2)
            v += ck_tile::warp_shuffle_xor(v, mask);
        out[t] = v;
    }
};

template <int Bytes>
hipError_t copy_as(const void* src, void* dst, std::size_t n, hipStream_t stream)
{
    using T             = element<Bytes>;
    constexpr int block = 256;
    // Enough blocks to fill any current GPU several times over; the grid-stride loop does the rest.
    const std::size_t vectors = (n * Bytes + 15) / 16;
    const unsigned grid =
        static_cast<unsigned>(std::min<std::size_t>((vectors + block - 1) / block + 1, 4096));
    ck_tile::make_kernel<block>(ck_tile::vector_copy_kernel<T>{}, dim3(grid), dim3(block), 0u,
                                static_cast<const T*>(src), static_cast<T*>(dst),
                                static_cast<ck_tile::long_index_t>(n))(stream);
    return hipGetLastError();
}

} // namespace

hipError_t launch_vector_copy(const void* src, void* dst, std::size_t n, int elem_bytes,
                              hipStream_t stream)
{
    switch(elem_bytes)
    {
    case 1:
        return copy_as<1>(src, dst, n, stream);
    case 2:
        return copy_as<2>(src, dst, n, stream);
    case 4:
        return copy_as<4>(src, dst, n, stream);
    case 8:
        return copy_as<8>(src, dst, n, stream);
    case 16:
        return copy_as<16>(src, dst, n, stream);
    default:
        return hipErrorInvalidValue;
    }
}

hipError_t launch_thread_ids(int32_t* out, int threads, hipStream_t stream)
{
    ck_tile::make_kernel<1024>(thread_id_kernel{}, dim3(1), dim3(threads), 0u, out,
                               threads)(stream);
    return hipGetLastError();
}

hipError_t launch_warp_sum(const float* in, float* out, int threads, hipStream_t stream)
{
    ck_tile::make_kernel<1024>(warp_sum_kernel{}, dim3(1), dim3(threads), 0u, in, out)(stream);
    return hipGetLastError();
}

} // namespace cktile_smoke
