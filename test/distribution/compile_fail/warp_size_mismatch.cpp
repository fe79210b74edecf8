// SPDX-License-Identifier: MIT
// A device window with the hardware partition index over a distribution written for the other
// vendor's warp size must not compile, and the error must name both numbers. CKTILE_CASE 0 is
// the control (lanes derived from get_warp_size()), which must compile.
#include <ck_tile/core.hpp>

using namespace ck_tile;

#if CKTILE_CASE == 0
constexpr index_t lanes = get_warp_size();
#else
constexpr index_t lanes = get_warp_size() == 32 ? 64 : 32;
#endif

// 4 warps x (lanes / 8 rows x 8 columns of lanes), 4 values per lane along a row.
using Enc =
    tile_distribution_encoding<sequence<>, tuple<sequence<4, lanes / 8>, sequence<8, 4>>,
                               tuple<sequence<1>, sequence<1, 2>>,
                               tuple<sequence<0>, sequence<1, 0>>, sequence<2>, sequence<1>>;

CK_TILE_GLOBAL void load_with_hardware_partition_index(const float* p, float* out)
{
    const auto view = make_naive_tensor_view_packed<address_space_enum::global>(
        p, make_tuple(number<4 * lanes / 8>{}, number<32>{}));
    const auto window    = make_tile_window(view, make_tuple(number<4 * lanes / 8>{}, number<32>{}),
                                            {0, 0}, make_static_tile_distribution(Enc{}));
    const auto tile      = load_tile(window);
    out[get_thread_id()] = tile[0];
}
