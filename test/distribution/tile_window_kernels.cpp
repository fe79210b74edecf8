// SPDX-License-Identifier: MIT
#include "tile_window_kernels.hpp"

#include "ck_tile/core.hpp"
#include "ck_tile/host/kernel_launch.hpp"

#include <cstdio>

namespace cktile_tile_window_test {
namespace {

using namespace ck_tile;

constexpr index_t warps    = 4;
constexpr index_t lanes_n  = 8; // lanes across a row
constexpr index_t lanes_m  = get_warp_size() / lanes_n;
constexpr index_t repeat_m = 2;

template <typename T>
constexpr index_t vec = 16 / static_cast<index_t>(sizeof(T));
template <typename T>
constexpr index_t tile_n = lanes_n* vec<T>;
constexpr index_t tile_m = repeat_m * warps * lanes_m;
constexpr index_t block  = warps * get_warp_size();

// A: each thread holds 2 rows (outermost factor of M) x one 16-byte vector.
template <typename T>
using copy_encoding_a =
    tile_distribution_encoding<sequence<>,
                               tuple<sequence<repeat_m, warps, lanes_m>, sequence<lanes_n, vec<T>>>,
                               tuple<sequence<1>, sequence<1, 2>>,
                               tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>;
// B: the same tile with the repeat innermost in M: threads own adjacent row pairs.
template <typename T>
using copy_encoding_b =
    tile_distribution_encoding<sequence<>,
                               tuple<sequence<warps, lanes_m, repeat_m>, sequence<lanes_n, vec<T>>>,
                               tuple<sequence<1>, sequence<1, 2>>,
                               tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<2, 1>>;

// Register shuffles. In: each thread holds 2 consecutive rows x one 16-byte vector, lanes
// derived from the warp size as above. Out: the same elements per thread, with the vector
// split in two halves and the Ys listed (inner half, rows, outer half), so the registers are
// permuted.
constexpr index_t shuffle_rows = 2;
constexpr index_t shuffle_m    = warps * lanes_m * shuffle_rows;
template <typename T>
using shuffle_encoding_in = tile_distribution_encoding<
    sequence<>, tuple<sequence<warps, lanes_m, shuffle_rows>, sequence<lanes_n, vec<T>>>,
    tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>,
    sequence<2, 1>>;
template <typename T>
using shuffle_encoding_out = tile_distribution_encoding<
    sequence<>, tuple<sequence<warps, lanes_m, shuffle_rows>, sequence<lanes_n, vec<T> / 2, 2>>,
    tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<0>, sequence<1, 0>>, sequence<2, 1, 2>,
    sequence<2, 2, 1>>;

template <typename T, bool Vector>
CK_TILE_DEVICE auto make_global_view(T* p, index_t rows, index_t cols, index_t ld)
{
    if constexpr(Vector)
        return make_naive_tensor_view<address_space_enum::global>(
            p, make_tuple(rows, cols), make_tuple(ld, 1), number<vec<T>>{}, number<1>{});
    else
        return make_naive_tensor_view<address_space_enum::global>(p, make_tuple(rows, cols),
                                                                  make_tuple(ld, 1));
}

template <typename T, bool Vector>
struct copy_through_lds_kernel
{
    CK_TILE_DEVICE void operator()(const T* in, T* out, index_t rows, index_t cols,
                                   index_t ld) const
    {
        alignas(16) __shared__ T smem[tile_m * tile_n<T>];

        constexpr auto dstr_a  = make_static_tile_distribution(copy_encoding_a<T>{});
        constexpr auto dstr_b  = make_static_tile_distribution(copy_encoding_b<T>{});
        constexpr auto lengths = make_tuple(number<tile_m>{}, number<tile_n<T>>{});
        const auto origin = make_multi_index(get_block_id_y() * tile_m, get_block_id() * tile_n<T>);

        const auto in_view = make_global_view<const T, Vector>(in, rows, cols, ld);
        auto out_view      = make_global_view<T, Vector>(out, rows, cols, ld);
        auto lds_view      = make_tensor_view<address_space_enum::lds>(
            smem, make_xor_swizzled_lds_descriptor<tile_m, tile_n<T>, vec<T>, 1>());

        const auto in_window = make_tile_window(in_view, lengths, origin, dstr_a);
        auto lds_store       = make_tile_window(lds_view, lengths, {0, 0}, dstr_a);
        auto lds_load        = make_tile_window(lds_view, lengths, {0, 0}, dstr_b);
        auto out_window      = make_tile_window(out_view, lengths, origin, dstr_b);
        static_assert(decltype(lds_store)::scalar_per_vector == vec<T>,
                      "the swizzled layout keeps 16-byte vectors");

        const auto a = load_tile(in_window);
        store_tile(lds_store, a);
        block_sync_lds();
        const auto b = load_tile(lds_load);
        store_tile(out_window, b);
    }
};

template <typename T>
struct transpose_store_kernel
{
    CK_TILE_DEVICE void operator()(const T* in, T* out, index_t rows, index_t cols, index_t ld_in,
                                   index_t ld_out) const
    {
        constexpr auto dstr    = make_static_tile_distribution(copy_encoding_a<T>{});
        constexpr auto lengths = make_tuple(number<tile_m>{}, number<tile_n<T>>{});
        const auto origin = make_multi_index(get_block_id_y() * tile_m, get_block_id() * tile_n<T>);

        const auto in_view = make_global_view<const T, false>(in, rows, cols, ld_in);
        const auto out_nm  = make_naive_tensor_view<address_space_enum::global>(
            out, make_tuple(cols, rows), make_tuple(ld_out, 1));
        auto out_mn = transform_tensor_view(
            out_nm,
            make_tuple(make_pass_through_transform(rows), make_pass_through_transform(cols)),
            make_tuple(sequence<1>{}, sequence<0>{}), make_tuple(sequence<0>{}, sequence<1>{}));

        const auto in_window = make_tile_window(in_view, lengths, origin, dstr);
        auto out_window      = make_tile_window(out_mn, lengths, origin, dstr);
        store_tile(out_window, load_tile(in_window));
    }
};

struct atomic_update_kernel
{
    CK_TILE_DEVICE void operator()(const float* in, float* out, index_t rows, index_t cols,
                                   index_t ld) const
    {
        constexpr auto dstr    = make_static_tile_distribution(copy_encoding_a<float>{});
        constexpr auto lengths = make_tuple(number<tile_m>{}, number<tile_n<float>>{});
        const auto origin =
            make_multi_index(get_block_id_y() * tile_m, get_block_id() * tile_n<float>);
        const auto in_view = make_global_view<const float, false>(in, rows, cols, ld);
        auto acc_view =
            make_naive_tensor_view<address_space_enum::global, memory_operation_enum::atomic_add>(
                out, make_tuple(rows, cols), make_tuple(ld, 1));
        auto acc_window = make_tile_window(acc_view, lengths, origin, dstr);
        update_tile(acc_window, load_tile(make_tile_window(in_view, lengths, origin, dstr)));
    }
};

// out = in through registers: load with one distribution, shuffle_tile into another that
// gives each thread the same elements, store with that one.
template <typename T>
struct shuffle_store_kernel
{
    CK_TILE_DEVICE void operator()(const T* in, T* out, index_t rows, index_t cols,
                                   index_t ld) const
    {
        constexpr auto dstr_in  = make_static_tile_distribution(shuffle_encoding_in<T>{});
        constexpr auto dstr_out = make_static_tile_distribution(shuffle_encoding_out<T>{});
        static_assert(can_shuffle_tile_v<decltype(dstr_out), decltype(dstr_in)>);
        constexpr auto lengths = make_tuple(number<shuffle_m>{}, number<tile_n<T>>{});
        const auto origin =
            make_multi_index(get_block_id_y() * shuffle_m, get_block_id() * tile_n<T>);

        const auto in_view = make_global_view<const T, false>(in, rows, cols, ld);
        auto out_view      = make_global_view<T, false>(out, rows, cols, ld);
        const auto a       = load_tile(make_tile_window(in_view, lengths, origin, dstr_in));
        auto b             = make_static_distributed_tensor<T>(dstr_out);
        shuffle_tile(b, a);
        auto out_window = make_tile_window(out_view, lengths, origin, dstr_out);
        store_tile(out_window, b);
    }
};

// out (cols x rows) = in^T: load an M x N tile, transpose_tile in registers, store the N x M
// tile with the transposed distribution into out at the mirrored origin.
template <typename T>
struct register_transpose_kernel
{
    CK_TILE_DEVICE void operator()(const T* in, T* out, index_t rows, index_t cols, index_t ld_in,
                                   index_t ld_out) const
    {
        constexpr auto dstr = make_static_tile_distribution(shuffle_encoding_in<T>{});
        const index_t m0    = get_block_id_y() * shuffle_m;
        const index_t n0    = get_block_id() * tile_n<T>;

        const auto in_view = make_global_view<const T, false>(in, rows, cols, ld_in);
        auto out_view      = make_global_view<T, false>(out, cols, rows, ld_out);
        const auto a       = load_tile(make_tile_window(
                  in_view, make_tuple(number<shuffle_m>{}, number<tile_n<T>>{}), {m0, n0}, dstr));
        const auto t       = transpose_tile(a);
        auto out_window =
            make_tile_window(out_view, make_tuple(number<tile_n<T>>{}, number<shuffle_m>{}),
                             {n0, m0}, t.get_tile_distribution());
        store_tile(out_window, t);
    }
};

// Seed 004 7.5.6, with the values and ids written out for the host to check.
struct seed_756_kernel
{
    CK_TILE_DEVICE void operator()(const float* global_data, index_t global_shape_0,
                                   index_t global_shape_1, float* values, int* ids,
                                   bool print) const
    {
        if(print && get_thread_id() == 0 && get_block_id() == 0)
            printf("\n=== Tile Distribution Example (Device Kernel) ===\n");
        block_sync_lds();

        auto encoding = tile_distribution_encoding<
            sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>, sequence<2>>,
            tuple<sequence<0>, sequence<0>>, sequence<1, 2>, sequence<1, 1>>{};
        auto distribution = make_static_tile_distribution(encoding);

        constexpr auto hs_lengths_0 = decltype(encoding)::hs_lengthss_[number<0>{}];
        constexpr auto hs_lengths_1 = decltype(encoding)::hs_lengthss_[number<1>{}];
        constexpr index_t x0_size   = reduce_on_sequence(hs_lengths_0, multiplies{}, number<1>{});
        constexpr index_t x1_size   = reduce_on_sequence(hs_lengths_1, multiplies{}, number<1>{});

        if(print && get_thread_id() == 0 && get_block_id() == 0)
        {
            printf("\n- Tile distribution created:\n");
            printf(" X dimensions: %d\n", distribution.get_num_of_dimension_x());
            printf(" Y dimensions: %d\n", distribution.get_num_of_dimension_y());
            printf(" P dimensions: %d\n", distribution.get_num_of_dimension_p());
            printf(" X lengths: [%d, %d]\n", x0_size, x1_size);
        }
        block_sync_lds();

        auto global_view = make_naive_tensor_view_packed<address_space_enum::global>(
            global_data, make_tuple(global_shape_0, global_shape_1));
        auto window_lengths = make_tuple(x0_size, x1_size);

        const index_t warp_id   = get_thread_id() / get_warp_size();
        const index_t thread_id = get_thread_id() % get_warp_size();

        // The seed's 2 x 2 threads are lanes 0 and 1 of warps 0 and 1: its lane P has length 2,
        // not a warp, so the hardware partition index (which asserts a whole warp) does not
        // apply; the seed's own (warp, lane) ids are passed instead.
        auto tile_window = make_tile_window(global_view, window_lengths, {1, 3}, distribution,
                                            make_multi_index(warp_id, thread_id));
        auto distributed_tensor = tile_window.load();

        constexpr index_t max_elements = x0_size * x1_size;
        float collected_values[max_elements];
        index_t value_count = 0;
        sweep_tile(distributed_tensor, [&](auto idx) {
            if(value_count < max_elements)
            {
                collected_values[value_count] = distributed_tensor(idx);
                value_count++;
            }
        });

        // The seed prints threads 0, 1, 64, 65 (warp size 64): lanes 0 and 1 of warps 0, 1.
        const int print_thread_ids[] = {0, 1, get_warp_size(), get_warp_size() + 1};
        for(int k = 0; k < 4; ++k)
        {
            block_sync_lds();
            if(get_thread_id() == print_thread_ids[k])
            {
                ids[2 * k]     = warp_id;
                ids[2 * k + 1] = thread_id;
                for(index_t i = 0; i < value_count && i < 4; i++)
                    values[4 * k + i] = collected_values[i];
                if(print)
                {
                    printf("Partition index: (warp=%d, thread=%d)\n", static_cast<int>(warp_id),
                           static_cast<int>(thread_id));
                    printf("Collected values: ");
                    for(index_t i = 0; i < value_count; i++)
                    {
                        printf("%.0f", collected_values[i]);
                        if(i < value_count - 1)
                            printf(", ");
                    }
                    printf("\n\n");
                }
            }
            block_sync_lds();
        }
    }
};

dim3 tile_grid(int rows, int cols, int tn)
{
    return dim3(static_cast<unsigned>((cols + tn - 1) / tn),
                static_cast<unsigned>((rows + tile_m - 1) / tile_m));
}

template <typename T>
hipError_t copy_typed(const void* in, void* out, int rows, int cols, int ld, bool vector_view,
                      hipStream_t stream)
{
    const auto grid = tile_grid(rows, cols, tile_n<T>);
    if(vector_view)
        make_kernel<block>(copy_through_lds_kernel<T, true>{}, grid, dim3(block), 0u,
                           static_cast<const T*>(in), static_cast<T*>(out), rows, cols, ld)(stream);
    else
        make_kernel<block>(copy_through_lds_kernel<T, false>{}, grid, dim3(block), 0u,
                           static_cast<const T*>(in), static_cast<T*>(out), rows, cols, ld)(stream);
    return hipGetLastError();
}

template <typename T>
hipError_t transpose_typed(const void* in, void* out, int rows, int cols, int ld_in, int ld_out,
                           hipStream_t stream)
{
    make_kernel<block>(transpose_store_kernel<T>{}, tile_grid(rows, cols, tile_n<T>), dim3(block),
                       0u, static_cast<const T*>(in), static_cast<T*>(out), rows, cols, ld_in,
                       ld_out)(stream);
    return hipGetLastError();
}

template <typename T>
hipError_t shuffle_typed(const void* in, void* out, int rows, int cols, int ld, hipStream_t stream)
{
    const auto grid = dim3(static_cast<unsigned>((cols + tile_n<T> - 1) / tile_n<T>),
                           static_cast<unsigned>((rows + shuffle_m - 1) / shuffle_m));
    make_kernel<block>(shuffle_store_kernel<T>{}, grid, dim3(block), 0u, static_cast<const T*>(in),
                       static_cast<T*>(out), rows, cols, ld)(stream);
    return hipGetLastError();
}

template <typename T>
hipError_t register_transpose_typed(const void* in, void* out, int rows, int cols, int ld_in,
                                    int ld_out, hipStream_t stream)
{
    const auto grid = dim3(static_cast<unsigned>((cols + tile_n<T> - 1) / tile_n<T>),
                           static_cast<unsigned>((rows + shuffle_m - 1) / shuffle_m));
    make_kernel<block>(register_transpose_kernel<T>{}, grid, dim3(block), 0u,
                       static_cast<const T*>(in), static_cast<T*>(out), rows, cols, ld_in,
                       ld_out)(stream);
    return hipGetLastError();
}

} // namespace

int shuffle_tile_rows() { return shuffle_m; }

hipError_t launch_shuffle_store(dtype t, const void* in, void* out, int rows, int cols, int ld,
                                hipStream_t stream)
{
    switch(t)
    {
    case dtype::fp16:
        return shuffle_typed<half_t>(in, out, rows, cols, ld, stream);
    case dtype::bf16:
        return shuffle_typed<bf16_t>(in, out, rows, cols, ld, stream);
    case dtype::fp32:
        return shuffle_typed<float>(in, out, rows, cols, ld, stream);
    }
    return hipErrorInvalidValue;
}

hipError_t launch_register_transpose(dtype t, const void* in, void* out, int rows, int cols,
                                     int ld_in, int ld_out, hipStream_t stream)
{
    switch(t)
    {
    case dtype::fp16:
        return register_transpose_typed<half_t>(in, out, rows, cols, ld_in, ld_out, stream);
    case dtype::bf16:
        return register_transpose_typed<bf16_t>(in, out, rows, cols, ld_in, ld_out, stream);
    case dtype::fp32:
        return register_transpose_typed<float>(in, out, rows, cols, ld_in, ld_out, stream);
    }
    return hipErrorInvalidValue;
}

int copy_tile_rows() { return tile_m; }
int copy_tile_cols(dtype t)
{
    switch(t)
    {
    case dtype::fp16:
        return tile_n<half_t>;
    case dtype::bf16:
        return tile_n<bf16_t>;
    case dtype::fp32:
        return tile_n<float>;
    }
    return 0;
}
int device_warp_size() { return get_warp_size(); }

hipError_t launch_copy_through_lds(dtype t, const void* in, void* out, int rows, int cols, int ld,
                                   bool vector_view, hipStream_t stream)
{
    switch(t)
    {
    case dtype::fp16:
        return copy_typed<half_t>(in, out, rows, cols, ld, vector_view, stream);
    case dtype::bf16:
        return copy_typed<bf16_t>(in, out, rows, cols, ld, vector_view, stream);
    case dtype::fp32:
        return copy_typed<float>(in, out, rows, cols, ld, vector_view, stream);
    }
    return hipErrorInvalidValue;
}

hipError_t launch_transpose_store(dtype t, const void* in, void* out, int rows, int cols, int ld_in,
                                  int ld_out, hipStream_t stream)
{
    switch(t)
    {
    case dtype::fp16:
        return transpose_typed<half_t>(in, out, rows, cols, ld_in, ld_out, stream);
    case dtype::bf16:
        return transpose_typed<bf16_t>(in, out, rows, cols, ld_in, ld_out, stream);
    case dtype::fp32:
        return transpose_typed<float>(in, out, rows, cols, ld_in, ld_out, stream);
    }
    return hipErrorInvalidValue;
}

hipError_t launch_atomic_update(const float* in, float* out, int rows, int cols, int ld,
                                hipStream_t stream)
{
    make_kernel<block>(atomic_update_kernel{}, tile_grid(rows, cols, tile_n<float>), dim3(block),
                       0u, in, out, rows, cols, ld)(stream);
    return hipGetLastError();
}

hipError_t launch_seed_756(const float* global, int rows, int cols, float* values, int* ids,
                           bool print, hipStream_t stream)
{
    make_kernel<128>(seed_756_kernel{}, dim3(1), dim3(128), 0u, global, rows, cols, values, ids,
                     print)(stream);
    return hipGetLastError();
}

} // namespace cktile_tile_window_test
