// SPDX-License-Identifier: MIT
// shuffle_tile between distributions that give threads different elements must not compile,
// and the error must say why and point to shared memory. CKTILE_CASE picks the pair; case 0
// is the control (a register permutation), which must compile.
#include <ck_tile/core.hpp>

using namespace ck_tile;

// 8 x 16 tile, 2 x 8 threads; each thread 2 x 2 rows x 4 columns.
using EncA = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 4>>, tuple<sequence<0>, sequence<1, 2>>,
    tuple<sequence<0>, sequence<1, 0>>, sequence<1, 1, 2>, sequence<0, 2, 1>>;
#if CKTILE_CASE == 0 // Ys in another order: a register permutation
using EncOut = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 4>>, tuple<sequence<0>, sequence<1, 2>>,
    tuple<sequence<0>, sequence<1, 0>>, sequence<2, 1, 1>, sequence<1, 0, 2>>;
#elif CKTILE_CASE == 1 // lanes merged in the other order
using EncOut = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 2>, sequence<4, 4>>, tuple<sequence<0>, sequence<2, 1>>,
    tuple<sequence<0>, sequence<0, 1>>, sequence<1, 1, 2>, sequence<0, 2, 1>>;
#elif CKTILE_CASE == 2 // no replication: half the elements per thread
using EncOut =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2, 2>, sequence<4, 4>>,
                               tuple<sequence<1>, sequence<1, 2>>,
                               tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<2, 1>>;
#elif CKTILE_CASE == 3 // 4 x 4 threads
using EncOut =
    tile_distribution_encoding<sequence<>, tuple<sequence<4, 2>, sequence<4, 4>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;
#endif

void shuffle(
    const static_distributed_tensor<float, decltype(make_static_tile_distribution(EncA{}))>& in,
    static_distributed_tensor<float, decltype(make_static_tile_distribution(EncOut{}))>& out)
{
    shuffle_tile(out, in);
}
