// SPDX-License-Identifier: MIT
// XOR-swizzled shared-memory layout for an M x K tile (seed 004, 7.17 "index swapping").
//
// Shared memory is cut into banks of 4 bytes; a warp's accesses that land on different
// addresses of one bank serialize. A row-major M x K tile whose row is a multiple of the bank
// line puts column block k0 of every row on the same banks, so a warp reading one column block
// of consecutive rows (what a transposing or MMA-feeding read does) conflicts. The swizzle
// keeps each KPack-element vector intact and permutes the vectors within a row by XOR with the
// row: column block k0 of row m is stored at block k0 ^ (m % blocks per row). The vectors of
// one column block then spread over all bank groups.
//
// The layout is built from transforms, so it is an ordinary descriptor: tile windows, tensor
// coordinates and the vectorization analysis work on it unchanged.
//
//   base      (K0 * MLdsLayer, M / MLdsLayer, KPack), strides (KPack, KPerBlock * MLdsLayer, 1):
//             MLdsLayer rows of K share one physical row (better bank use for short rows)
//   permuted  xor on (M / MLdsLayer, K0 * MLdsLayer): K0' = K0 ^ (M' % (K0 * MLdsLayer))
//   final     K0 * MLdsLayer unmerged into (MLdsLayer, K0): (L, M', K0, KPack)
//   tile      (M, K) with M = M' * MLdsLayer + L and K = K0 * KPack + k: what windows use
#pragma once

#include "ck_tile/core/algorithm/coordinate_transform.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/tensor/tensor_descriptor.hpp"

namespace ck_tile {

namespace detail {
template <typename Desc, index_t VectorLength, index_t VectorStride>
struct with_last_dimension_vector;
template <typename Transforms, typename Lower, typename Upper, typename Top, typename Size,
          typename VL, typename VS, index_t VectorLength, index_t VectorStride>
struct with_last_dimension_vector<tensor_descriptor<Transforms, Lower, Upper, Top, Size, VL, VS>,
                                  VectorLength, VectorStride>
{
    static constexpr index_t last = Top::back();
    using type                    = tensor_descriptor<Transforms, Lower, Upper, Top, Size,
                                   decltype(VL::modify(number<last>{}, number<VectorLength>{})),
                                   decltype(VS::modify(number<last>{}, number<VectorStride>{}))>;
};
} // namespace detail

/// The same descriptor, recording that VectorLength consecutive elements of its last top
/// dimension (starting at a multiple of VectorLength) are VectorStride apart in memory.
/// @pre that is true of the layout; tile windows vectorize on it.
template <index_t VectorLength, index_t VectorStride, typename Desc>
CK_TILE_HOST_DEVICE constexpr auto with_last_dimension_vector(const Desc& desc)
{
    using out = typename detail::with_last_dimension_vector<Desc, VectorLength, VectorStride>::type;
    return out{desc.get_transforms(), desc.get_element_space_size()};
}

/// The seed's LdsIndexSwapping: the descriptors of an XOR-swizzled MPerBlock x KPerBlock tile
/// stored as vectors of KPack elements, MLdsLayer logical rows per physical row.
template <index_t KPerBlock, index_t KPack, index_t MLdsLayer, index_t MPerBlock>
struct lds_index_swapping
{
    static_assert(KPerBlock % KPack == 0 && MPerBlock % MLdsLayer == 0,
                  "lds_index_swapping: KPack must divide KPerBlock, MLdsLayer MPerBlock");
    static constexpr index_t KPerBlock_over_KPack     = KPerBlock / KPack;
    static constexpr index_t MPerBlock_over_MLdsLayer = MPerBlock / MLdsLayer;
    static constexpr index_t num_vectors_per_row      = KPerBlock_over_KPack * MLdsLayer;
    // XOR stays inside [0, n) only for a power of two n.
    static_assert((num_vectors_per_row & (num_vectors_per_row - 1)) == 0,
                  "lds_index_swapping: KPerBlock / KPack * MLdsLayer must be a power of two");

    /// (K0 * MLdsLayer, M / MLdsLayer, KPack), unswizzled.
    CK_TILE_HOST_DEVICE static constexpr auto base_descriptor()
    {
        return make_naive_tensor_descriptor(
            make_tuple(number<num_vectors_per_row>{}, number<MPerBlock_over_MLdsLayer>{},
                       number<KPack>{}),
            make_tuple(number<KPack>{}, number<KPerBlock * MLdsLayer>{}, number<1>{}));
    }
    /// The base with the vector column XORed by the physical row.
    /// @post offset(k0, m, k) == base offset(k0 ^ (m % (K0 * MLdsLayer)), m, k).
    CK_TILE_HOST_DEVICE static constexpr auto permuted_descriptor()
    {
        return transform_tensor_descriptor(
            base_descriptor(),
            make_tuple(make_xor_transform(make_tuple(number<MPerBlock_over_MLdsLayer>{},
                                                     number<num_vectors_per_row>{})),
                       make_pass_through_transform(number<KPack>{})),
            make_tuple(sequence<1, 0>{}, sequence<2>{}),
            make_tuple(sequence<1, 0>{}, sequence<2>{}));
    }
    /// (L, M / MLdsLayer, K0, KPack): the row-sharing index L split out of the vector column.
    CK_TILE_HOST_DEVICE static constexpr auto final_descriptor()
    {
        return transform_tensor_descriptor(
            permuted_descriptor(),
            make_tuple(make_unmerge_transform(
                           make_tuple(number<MLdsLayer>{}, number<KPerBlock_over_KPack>{})),
                       make_pass_through_transform(number<MPerBlock_over_MLdsLayer>{}),
                       make_pass_through_transform(number<KPack>{})),
            make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}),
            make_tuple(sequence<0, 2>{}, sequence<1>{}, sequence<3>{}));
    }
    /// (M, K), the logical tile: M = M' * MLdsLayer + L, K = K0 * KPack + k. Its last dimension
    /// is recorded as KPack-contiguous, so windows move whole KPack vectors.
    /// @post a bijection of [0, M) x [0, K) onto [0, M * K).
    CK_TILE_HOST_DEVICE static constexpr auto tile_descriptor()
    {
        const auto mk = transform_tensor_descriptor(
            final_descriptor(),
            make_tuple(
                make_merge_transform(
                    make_tuple(number<MPerBlock_over_MLdsLayer>{}, number<MLdsLayer>{})),
                make_merge_transform(make_tuple(number<KPerBlock_over_KPack>{}, number<KPack>{}))),
            make_tuple(sequence<1, 0>{}, sequence<2, 3>{}),
            make_tuple(sequence<0>{}, sequence<1>{}));
        return with_last_dimension_vector<KPack, 1>(mk);
    }
};

/// The XOR-swizzled (M, K) shared-memory descriptor of an MPerBlock x KPerBlock tile moved in
/// vectors of KPack elements (lds_index_swapping<...>::tile_descriptor()).
template <index_t MPerBlock, index_t KPerBlock, index_t KPack, index_t MLdsLayer = 1>
CK_TILE_HOST_DEVICE constexpr auto make_xor_swizzled_lds_descriptor()
{
    return lds_index_swapping<KPerBlock, KPack, MLdsLayer, MPerBlock>::tile_descriptor();
}

} // namespace ck_tile
