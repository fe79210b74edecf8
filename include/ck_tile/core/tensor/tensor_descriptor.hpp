// SPDX-License-Identifier: MIT
// Tensor descriptors: an adaptor whose bottom is a single dimension, the element offset in a
// buffer (hidden id 0), plus the size of the element space that offsets live in.
//
// A descriptor is built by one of the naive factories (one embed or unmerge from the offset to
// the user's dimensions) and then extended with transform_tensor_descriptor, stage by stage.
// Lengths, strides and the element space size keep their static/dynamic nature: a descriptor
// made only of number<>s is a type with no runtime state (is_static()).
#pragma once

#include "ck_tile/core/algorithm/coordinate_transform.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/container_helper.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/tensor/tensor_adaptor.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/print.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <cstdio>

namespace ck_tile {

/// GuaranteedVectorLengths / GuaranteedVectorStrides: one entry per hidden dimension, -1 where
/// nothing is known. They record what the user promised about the innermost dimension (how
/// many consecutive elements are contiguous and with which stride) for vectorized access.
template <typename Transforms, typename LowerDimensionHiddenIdss, typename UpperDimensionHiddenIdss,
          typename TopDimensionHiddenIds, typename ElementSpaceSize,
          typename GuaranteedVectorLengths, typename GuaranteedVectorStrides>
struct tensor_descriptor
    : tensor_adaptor<Transforms, LowerDimensionHiddenIdss, UpperDimensionHiddenIdss, sequence<0>,
                     TopDimensionHiddenIds>
{
    using base     = tensor_adaptor<Transforms, LowerDimensionHiddenIdss, UpperDimensionHiddenIdss,
                                sequence<0>, TopDimensionHiddenIds>;
    using TopIndex = typename base::TopIndex;

    static_assert(GuaranteedVectorLengths::size() == base::ndim_hidden &&
                      GuaranteedVectorStrides::size() == base::ndim_hidden,
                  "one guaranteed vector length and stride per hidden dimension");

    ElementSpaceSize element_space_size_;

    CK_TILE_HOST_DEVICE constexpr tensor_descriptor() = default;
    CK_TILE_HOST_DEVICE constexpr tensor_descriptor(const Transforms& transforms,
                                                    const ElementSpaceSize& element_space_size)
        : base(transforms), element_space_size_(element_space_size)
    {}

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension()
    {
        return base::get_num_of_top_dimension();
    }
    /// Length of dimension I (a number<> when static).
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr auto get_length(number<I>) const
    {
        static_assert(I >= 0 && I < get_num_of_dimension(), "dimension out of range");
        return base::get_top_dimension_length(number<I>{});
    }
    /// Runtime dimension number; the result is always an index_t.
    CK_TILE_HOST_DEVICE constexpr index_t get_length(index_t i) const
    {
        index_t r = 0;
        static_for<0, get_num_of_dimension(), 1>{}([&](auto d) {
            if(d == i)
                r = get_length(d);
        });
        return r;
    }
    CK_TILE_HOST_DEVICE constexpr auto get_lengths() const
    {
        return base::get_top_dimension_lengths();
    }
    /// Number of elements the offsets address: every valid offset is in [0, this).
    CK_TILE_HOST_DEVICE constexpr auto get_element_space_size() const
    {
        return element_space_size_;
    }

    /// Offset of a top index: calculate_bottom_index(idx)[0].
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr index_t calculate_offset(const Idx& idx_top) const
    {
        return base::calculate_hidden_index(idx_top)[number<0>{}];
    }
    CK_TILE_HOST_DEVICE constexpr index_t calculate_offset(const TopIndex& idx_top) const
    {
        return base::calculate_hidden_index(idx_top)[number<0>{}];
    }

    CK_TILE_HOST_DEVICE static constexpr auto get_guaranteed_vector_lengths()
    {
        return GuaranteedVectorLengths{};
    }
    CK_TILE_HOST_DEVICE static constexpr auto get_guaranteed_vector_strides()
    {
        return GuaranteedVectorStrides{};
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_known_at_compile_time()
    {
        return base::is_known_at_compile_time() && is_static_v<ElementSpaceSize>;
    }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return is_known_at_compile_time(); }

    CK_TILE_HOST_DEVICE void print() const
    {
        printf("tensor_descriptor{lengths: ");
        ck_tile::print(get_lengths());
        printf(", element_space_size: ");
        ck_tile::print(element_space_size_);
        printf(", transforms: ");
        ck_tile::print(this->transforms_);
        base::print_ids();
        printf("}");
    }
};

template <typename T>
struct is_tensor_descriptor : std::false_type
{};
template <typename... Ts>
struct is_tensor_descriptor<tensor_descriptor<Ts...>> : std::true_type
{};

namespace detail {
template <index_t N, index_t Last>
using uniform_then_last = decltype(uniform_sequence_gen_t<N, -1>::push_back(number<Last>{}));

template <typename Transform, typename Lengths, typename ElementSpaceSize, index_t VectorLength,
          index_t VectorStride>
CK_TILE_HOST_DEVICE constexpr auto make_single_transform_descriptor(const Transform& t,
                                                                    const ElementSpaceSize& size)
{
    constexpr index_t N = Lengths::size();
    using Top           = typename arithmetic_sequence_gen<1, N + 1, 1>::type;
    return tensor_descriptor<tuple<Transform>, tuple<sequence<0>>, tuple<Top>, Top,
                             ElementSpaceSize, uniform_then_last<N, VectorLength>,
                             uniform_then_last<N, VectorStride>>{tuple<Transform>(t), size};
}
} // namespace detail

/// A strided tensor: offset(idx) = sum_i idx[i] * strides[i].
/// @post get_element_space_size() == 1 + sum_i (lengths[i] - 1) * strides[i], the span that
///       the offsets of valid indices cover (static when all lengths and strides are).
template <typename Lengths, typename Strides, index_t GuaranteedLastDimensionVectorLength = -1,
          index_t GuaranteedLastDimensionVectorStride = -1>
CK_TILE_HOST_DEVICE constexpr auto
make_naive_tensor_descriptor(const Lengths& lengths, const Strides& strides,
                             number<GuaranteedLastDimensionVectorLength> = {},
                             number<GuaranteedLastDimensionVectorStride> = {})
{
    static_assert(Lengths::size() == Strides::size(), "one stride per length");
    const auto embed_t = make_embed_transform(lengths, strides);
    const auto& ls     = embed_t.get_upper_lengths();
    const auto& ss     = embed_t.get_coefficients();
    const auto size =
        container_reduce(generate_tuple([&](auto i) { return (ls[i] - number<1>{}) * ss[i]; },
                                        number<Lengths::size()>{}),
                         plus{}, number<1>{});
    return detail::make_single_transform_descriptor<
        remove_cvref_t<decltype(embed_t)>, Lengths, remove_cvref_t<decltype(size)>,
        GuaranteedLastDimensionVectorLength, GuaranteedLastDimensionVectorStride>(embed_t, size);
}

/// The spelling of make_naive_tensor_descriptor used by the tensor-view examples.
template <typename Lengths, typename Strides>
CK_TILE_HOST_DEVICE constexpr auto make_tensor_descriptor(const Lengths& lengths,
                                                          const Strides& strides)
{
    return make_naive_tensor_descriptor(lengths, strides);
}

/// Packed row-major: the last dimension is contiguous.
/// @post get_element_space_size() == product of lengths; offset(idx) is the row-major index.
template <typename Lengths, index_t GuaranteedLastDimensionVectorLength = -1>
CK_TILE_HOST_DEVICE constexpr auto
make_naive_tensor_descriptor_packed(const Lengths& lengths,
                                    number<GuaranteedLastDimensionVectorLength> = {})
{
    const auto unmerge_t = make_unmerge_transform(lengths);
    const auto size = container_reduce(unmerge_t.get_upper_lengths(), multiplies{}, number<1>{});
    return detail::make_single_transform_descriptor<remove_cvref_t<decltype(unmerge_t)>, Lengths,
                                                    remove_cvref_t<decltype(size)>,
                                                    GuaranteedLastDimensionVectorLength, 1>(
        unmerge_t, size);
}

/// Row-major with each row (the second-to-last stride) rounded up to a multiple of `align`
/// elements; strides further out are packed over that padded row.
/// @post stride[n-1] == 1, stride[n-2] == integer_least_multiple(lengths[n-1], align),
///       stride[i] == lengths[i+1] * stride[i+1] below that, and
///       get_element_space_size() == lengths[0] * stride[0]: whole padded rows, the memory to
///       allocate (4x5 with align 8: strides (8, 1), 32 elements).
template <typename Lengths, typename Align>
CK_TILE_HOST_DEVICE constexpr auto make_naive_tensor_descriptor_aligned(const Lengths& lengths,
                                                                        Align align)
{
    constexpr index_t N = Lengths::size();
    const auto ls       = detail::to_lengths(lengths);
    const auto a        = detail::to_index_like(align);
    if constexpr(N == 1)
    {
        return make_naive_tensor_descriptor(ls, make_tuple(number<1>{}));
    }
    else
    {
        const auto row = integer_least_multiple(ls[number<N - 1>{}], a);
        // strides from the inside out: 1, row, row * l[n-2], ...
        const auto inner   = make_tuple(row, number<1>{});
        const auto strides = [&]() {
            if constexpr(N == 2)
                return inner;
            else
            {
                const auto outer_lengths =
                    generate_tuple([&](auto i) { return ls[number<i + 1>{}]; }, number<N - 2>{});
                const auto outer =
                    container_reverse_inclusive_scan(outer_lengths, multiplies{}, row);
                return tuple_cat(generate_tuple([&](auto i) { return outer[i]; }, number<N - 2>{}),
                                 inner);
            }
        }();
        const auto embed_t = make_embed_transform(ls, strides);
        const auto size    = ls[number<0>{}] * strides[number<0>{}];
        return detail::make_single_transform_descriptor<remove_cvref_t<decltype(embed_t)>, Lengths,
                                                        remove_cvref_t<decltype(size)>, -1, -1>(
            embed_t, size);
    }
}

/// A descriptor on top of an adaptor whose single bottom dimension is the offset.
template <typename Adaptor, typename ElementSpaceSize>
CK_TILE_HOST_DEVICE constexpr auto
make_tensor_descriptor_from_adaptor(const Adaptor& adaptor,
                                    const ElementSpaceSize& element_space_size)
{
    static_assert(Adaptor::get_num_of_bottom_dimension() == 1, "descriptor bottom is one offset");
    // Renumber so that the offset is hidden id 0, as every descriptor assumes: chaining onto
    // a 1-d identity does that.
    const auto a         = chain_tensor_adaptors(make_identity_tensor_adaptor<1>(), adaptor);
    using A              = remove_cvref_t<decltype(a)>;
    constexpr index_t nh = A::get_num_of_hidden_dimension();
    return tensor_descriptor<remove_cvref_t<decltype(a.get_transforms())>,
                             remove_cvref_t<decltype(A::get_lower_dimension_hidden_idss())>,
                             remove_cvref_t<decltype(A::get_upper_dimension_hidden_idss())>,
                             remove_cvref_t<decltype(A::get_top_dimension_hidden_ids())>,
                             ElementSpaceSize, uniform_sequence_gen_t<nh, -1>,
                             uniform_sequence_gen_t<nh, -1>>{a.get_transforms(),
                                                             element_space_size};
}

/// A new stage of transforms on top of a descriptor, in the descriptor's top dimension
/// numbering: transform k consumes old top dimensions NewLowerDimensionOldTopIdss[k] and
/// produces new top dimensions NewUpperDimensionNewTopIdss[k]. Every old dimension must be
/// consumed exactly once and every new one produced exactly once. The element space is kept.
template <typename OldDesc, typename NewTransforms, typename NewLowerIdss, typename NewUpperIdss>
CK_TILE_HOST_DEVICE constexpr auto transform_tensor_descriptor(const OldDesc& old_desc,
                                                               const NewTransforms& new_transforms,
                                                               NewLowerIdss, NewUpperIdss)
{
    static_assert(is_tensor_descriptor<OldDesc>::value,
                  "transform_tensor_descriptor: not a descriptor");
    const auto a = transform_tensor_adaptor(static_cast<const typename OldDesc::base&>(old_desc),
                                            new_transforms, NewLowerIdss{}, NewUpperIdss{});
    using A      = remove_cvref_t<decltype(a)>;
    constexpr index_t n_new = A::get_num_of_hidden_dimension() - OldDesc::base::ndim_hidden;
    using VL                = decltype(OldDesc::get_guaranteed_vector_lengths().push_back(
                       uniform_sequence_gen_t<n_new, -1>{}));
    using VS                = decltype(OldDesc::get_guaranteed_vector_strides().push_back(
                       uniform_sequence_gen_t<n_new, -1>{}));
    return tensor_descriptor<remove_cvref_t<decltype(a.get_transforms())>,
                             remove_cvref_t<decltype(A::get_lower_dimension_hidden_idss())>,
                             remove_cvref_t<decltype(A::get_upper_dimension_hidden_idss())>,
                             remove_cvref_t<decltype(A::get_top_dimension_hidden_ids())>,
                             remove_cvref_t<decltype(old_desc.get_element_space_size())>, VL, VS>{
        a.get_transforms(), old_desc.get_element_space_size()};
}

} // namespace ck_tile
