// SPDX-License-Identifier: MIT
// tensor_view: a buffer_view (where the elements are, with bounds-checked access) plus a
// tensor_descriptor (how a multi-dimensional index becomes an element offset). It owns nothing:
// copies are cheap and many views (row-major, transposed, padded, merged) can share one buffer.
//
// Access goes through a tensor_coordinate of the view's descriptor. A coordinate is valid when
// coordinate_has_valid_offset says so: its top index is inside the lengths and no pad transform
// sees a padded index. Reads at an invalid coordinate give zero (or the buffer's invalid value)
// and writes to it are dropped, so a padded view behaves like a zero-extended tensor without
// any branch in the caller. The buffer's own bounds check still applies on top of that.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/bit_cast.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/tensor/buffer_view.hpp"
#include "ck_tile/core/tensor/tensor_coordinate.hpp"
#include "ck_tile/core/tensor/tensor_descriptor.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/print.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <cstdio>
#include <type_traits>
#include <utility>

namespace ck_tile {

template <typename T>
struct is_buffer_view : std::false_type
{};
template <address_space_enum AS, typename T, typename S, bool Z, amd_buffer_coherence_enum C>
struct is_buffer_view<buffer_view<AS, T, S, Z, C>> : std::true_type
{};
template <typename T>
inline constexpr bool is_buffer_view_v = is_buffer_view<remove_cvref_t<T>>::value;

/// A multi-dimensional view of a buffer. DstInMemOp is how update_vectorized_elements combines
/// with memory (set, atomic_add, ...): part of the type so that an output view of a split-K
/// reduction can be handed to the same store code as a plain one.
template <typename BufferView_, typename TensorDesc_,
          memory_operation_enum DstInMemOp_ = memory_operation_enum::set>
struct tensor_view
{
    using buffer_view_type = remove_cvref_t<BufferView_>;
    using TensorDesc       = remove_cvref_t<TensorDesc_>;
    using DataType         = typename buffer_view_type::type; ///< may be const
    using value_type       = typename buffer_view_type::value_type;
    using TensorIndex      = multi_index<TensorDesc::get_num_of_top_dimension()>;
    using TensorCoord      = decltype(make_tensor_coordinate(std::declval<const TensorDesc&>(),
                                                             std::declval<const TensorIndex&>()));

    static_assert(is_buffer_view_v<buffer_view_type>, "tensor_view: not a buffer_view");
    static_assert(is_tensor_descriptor<TensorDesc>::value, "tensor_view: not a tensor_descriptor");

    static constexpr memory_operation_enum DstInMemOp = DstInMemOp_;

    buffer_view_type buf_;
    TensorDesc desc_;

    CK_TILE_HOST_DEVICE constexpr tensor_view() = default;
    CK_TILE_HOST_DEVICE constexpr tensor_view(const buffer_view_type& buffer,
                                              const TensorDesc& desc)
        : buf_{buffer}, desc_{desc}
    {}

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension()
    {
        return TensorDesc::get_num_of_top_dimension();
    }
    CK_TILE_HOST_DEVICE constexpr const TensorDesc& get_tensor_descriptor() const { return desc_; }
    CK_TILE_HOST_DEVICE constexpr const buffer_view_type& get_buffer_view() const { return buf_; }
    CK_TILE_HOST_DEVICE constexpr buffer_view_type& get_buffer_view() { return buf_; }
    /// The lengths of the top dimensions (number<>s where static).
    CK_TILE_HOST_DEVICE constexpr auto get_lengths() const { return desc_.get_lengths(); }

    /// Whether `coord` addresses an element: inside the lengths and not in a pad.
    CK_TILE_HOST_DEVICE constexpr bool is_valid(const TensorCoord& coord) const
    {
        return coordinate_has_valid_offset(desc_, coord);
    }

    /// X (a scalar or an ext_vector of the buffer's scalars) read at the coordinate's offset
    /// plus linear_offset (elements). Only the coordinate is checked for validity, not each of
    /// X's elements: a caller picks X so that a vector never straddles a pad or a length.
    /// @post the elements there when the coordinate is valid and the access is inside the
    ///       buffer; else every scalar is zero (or the buffer's invalid value).
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE constexpr auto
    get_vectorized_elements(const TensorCoord& coord, index_t linear_offset,
                            bool_constant<oob_conditional_check> = {}) const
    {
        return buf_.template get<X>(coord.get_offset(), linear_offset, is_valid(coord),
                                    bool_constant<oob_conditional_check>{});
    }
    /// The same, with an extra validity the caller computed (e.g. a tile's own mask); the read
    /// is valid only when both are.
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE constexpr auto
    get_vectorized_elements(const TensorCoord& coord, index_t linear_offset, bool is_valid_element,
                            bool_constant<oob_conditional_check> = {}) const
    {
        return buf_.template get<X>(coord.get_offset(), linear_offset,
                                    is_valid_element && is_valid(coord),
                                    bool_constant<oob_conditional_check>{});
    }

    /// Writes x at the coordinate's offset plus linear_offset.
    /// @post the elements there are x when the coordinate is valid and the access is inside
    ///       the buffer; otherwise memory is unchanged.
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE constexpr void
    set_vectorized_elements(const TensorCoord& coord, index_t linear_offset, const X& x,
                            bool_constant<oob_conditional_check> = {})
    {
        buf_.template set<X>(coord.get_offset(), linear_offset, is_valid(coord), x,
                             bool_constant<oob_conditional_check>{});
    }
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE constexpr void
    set_vectorized_elements(const TensorCoord& coord, index_t linear_offset, bool is_valid_element,
                            const X& x, bool_constant<oob_conditional_check> = {})
    {
        buf_.template set<X>(coord.get_offset(), linear_offset, is_valid_element && is_valid(coord),
                             x, bool_constant<oob_conditional_check>{});
    }

    /// Combines x into memory as DstInMemOp says; invalid coordinates change nothing.
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE constexpr void
    update_vectorized_elements(const TensorCoord& coord, index_t linear_offset, const X& x,
                               bool_constant<oob_conditional_check> = {})
    {
        buf_.template update<DstInMemOp, X>(coord.get_offset(), linear_offset, is_valid(coord), x,
                                            bool_constant<oob_conditional_check>{});
    }

    /// One element by top index (a tuple, multi_index or array). Zero when the index is invalid.
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr value_type get_element(const Idx& idx) const
    {
        return bit_cast<value_type>(
            get_vectorized_elements<value_type>(make_tensor_coordinate(desc_, idx), 0));
    }
    /// Writes one element by top index; dropped when the index is invalid.
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr void set_element(const Idx& idx, const value_type& v)
    {
        set_vectorized_elements<value_type>(make_tensor_coordinate(desc_, idx), 0, v);
    }

    /// An element of a view seen as an lvalue: reads and writes keep the view's validity rules
    /// (a plain reference could not read zero in a pad or drop a write to it).
    struct element_reference
    {
        buffer_view_type buf_;
        index_t offset_;
        bool valid_;

        CK_TILE_HOST_DEVICE constexpr operator value_type() const
        {
            return bit_cast<value_type>(buf_.template get<value_type>(offset_, 0, valid_));
        }
        CK_TILE_HOST_DEVICE constexpr element_reference& operator=(const value_type& v)
        {
            buf_.template set<value_type>(offset_, 0, valid_, v);
            return *this;
        }
    };

    /// view(idx): the element at a top index, read-only here (zero when invalid).
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr value_type operator()(const Idx& idx) const
    {
        return get_element(idx);
    }
    /// view(idx) = v writes, and view(idx) reads, with the validity rules of the view.
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr element_reference operator()(const Idx& idx)
    {
        const auto coord = make_tensor_coordinate(desc_, idx);
        return element_reference{buf_, coord.get_offset(), is_valid(coord)};
    }

    CK_TILE_HOST_DEVICE void print() const
    {
        printf("tensor_view{buffer: {size: ");
        ck_tile::print(buf_.get_buffer_size());
        printf("}, desc: ");
        desc_.print();
        printf("}");
    }
};

template <typename T>
struct is_tensor_view : std::false_type
{};
template <typename B, typename D, memory_operation_enum Op>
struct is_tensor_view<tensor_view<B, D, Op>> : std::true_type
{};
template <typename T>
inline constexpr bool is_tensor_view_v = is_tensor_view<remove_cvref_t<T>>::value;

/// A view of the elements at p laid out by desc; the buffer spans desc's element space.
template <address_space_enum BufferAddressSpace,
          memory_operation_enum DstInMemOp    = memory_operation_enum::set,
          amd_buffer_coherence_enum Coherence = amd_buffer_coherence_enum::coherence_default,
          typename T, typename Desc>
requires(is_tensor_descriptor<remove_cvref_t<Desc>>::value) CK_TILE_HOST_DEVICE
    constexpr auto make_tensor_view(T* p, const Desc& desc)
{
    const auto buffer =
        make_buffer_view<BufferAddressSpace, Coherence>(p, desc.get_element_space_size());
    return tensor_view<decltype(buffer), Desc, DstInMemOp>{buffer, desc};
}

/// A view of an existing buffer laid out by desc (several views may share the buffer).
/// @pre desc's offsets that should be readable lie inside the buffer; others read zero.
template <address_space_enum BufferAddressSpace,
          memory_operation_enum DstInMemOp = memory_operation_enum::set, typename Buffer,
          typename Desc>
requires(is_buffer_view_v<Buffer>&& is_tensor_descriptor<remove_cvref_t<Desc>>::value)
    CK_TILE_HOST_DEVICE constexpr auto make_tensor_view(const Buffer& buffer, const Desc& desc)
{
    static_assert(remove_cvref_t<Buffer>::get_address_space() == BufferAddressSpace,
                  "make_tensor_view: the buffer lives in another address space");
    return tensor_view<remove_cvref_t<Buffer>, Desc, DstInMemOp>{buffer, desc};
}

/// A strided view: element idx is at p[sum_i idx[i] * strides[i]]. The optional numbers record
/// how many elements of the last dimension are contiguous and with which stride, for
/// vectorized access (see make_naive_tensor_descriptor).
template <address_space_enum BufferAddressSpace,
          memory_operation_enum DstInMemOp    = memory_operation_enum::set,
          amd_buffer_coherence_enum Coherence = amd_buffer_coherence_enum::coherence_default,
          typename T, typename Lengths, typename Strides,
          index_t GuaranteedLastDimensionVectorLength = -1,
          index_t GuaranteedLastDimensionVectorStride = -1>
CK_TILE_HOST_DEVICE constexpr auto
make_naive_tensor_view(T* p, const Lengths& lengths, const Strides& strides,
                       number<GuaranteedLastDimensionVectorLength> = {},
                       number<GuaranteedLastDimensionVectorStride> = {})
{
    const auto desc = make_naive_tensor_descriptor(lengths, strides,
                                                   number<GuaranteedLastDimensionVectorLength>{},
                                                   number<GuaranteedLastDimensionVectorStride>{});
    return make_tensor_view<BufferAddressSpace, DstInMemOp, Coherence>(p, desc);
}

/// A packed row-major view: the last dimension is contiguous.
template <address_space_enum BufferAddressSpace,
          memory_operation_enum DstInMemOp    = memory_operation_enum::set,
          amd_buffer_coherence_enum Coherence = amd_buffer_coherence_enum::coherence_default,
          typename T, typename Lengths, index_t GuaranteedLastDimensionVectorLength = -1>
CK_TILE_HOST_DEVICE constexpr auto
make_naive_tensor_view_packed(T* p, const Lengths& lengths,
                              number<GuaranteedLastDimensionVectorLength> = {})
{
    const auto desc =
        make_naive_tensor_descriptor_packed(lengths, number<GuaranteedLastDimensionVectorLength>{});
    return make_tensor_view<BufferAddressSpace, DstInMemOp, Coherence>(p, desc);
}

/// The same buffer seen through a new stage of transforms (the arguments of
/// transform_tensor_descriptor, in the view's top dimension numbering).
/// @post result.get_tensor_descriptor() ==
///       transform_tensor_descriptor(old.get_tensor_descriptor(), ...) and the buffer is shared.
template <typename OldView, typename NewTransforms, typename NewLowerDimensionOldTopIdss,
          typename NewUpperDimensionNewTopIdss>
CK_TILE_HOST_DEVICE constexpr auto
transform_tensor_view(const OldView& old_view, const NewTransforms& new_transforms,
                      NewLowerDimensionOldTopIdss, NewUpperDimensionNewTopIdss)
{
    static_assert(is_tensor_view_v<OldView>, "transform_tensor_view: not a tensor_view");
    const auto new_desc =
        transform_tensor_descriptor(old_view.get_tensor_descriptor(), new_transforms,
                                    NewLowerDimensionOldTopIdss{}, NewUpperDimensionNewTopIdss{});
    using Old = remove_cvref_t<OldView>;
    return tensor_view<typename Old::buffer_view_type, remove_cvref_t<decltype(new_desc)>,
                       Old::DstInMemOp>{old_view.get_buffer_view(), new_desc};
}

/// Each dimension i with DoPads[i] right-padded up to a multiple of tile_lengths[i], so that a
/// grid of whole tiles covers the view; the padded elements read zero and drop writes.
/// @post result length i == integer_least_multiple(length i, tile_lengths[i]) where DoPads[i],
///       else length i; result(idx) == view(idx) wherever idx is inside the old lengths.
template <typename View, typename TileLengths, typename DoPads>
CK_TILE_HOST_DEVICE constexpr auto pad_tensor_view(const View& view,
                                                   const TileLengths& tile_lengths, DoPads)
{
    using Old           = remove_cvref_t<View>;
    constexpr index_t N = Old::get_num_of_dimension();
    static_assert(is_sequence_v<DoPads> && DoPads::size() == N,
                  "pad_tensor_view: one DoPad per dimension, as a sequence");
    static_assert(TileLengths::size() == N, "pad_tensor_view: one tile length per dimension");

    const auto& desc      = view.get_tensor_descriptor();
    const auto transforms = generate_tuple(
        [&](auto i) {
            const auto len = desc.get_length(i);
            if constexpr(DoPads::at(i) != 0)
            {
                const auto tile = detail::to_index_like(tile_lengths[i]);
                return make_right_pad_transform(len, integer_least_multiple(len, tile) - len);
            }
            else
                return make_pass_through_transform(len);
        },
        number<N>{});
    const auto dims = generate_tuple([](auto i) { return sequence<i>{}; }, number<N>{});
    return transform_tensor_view(view, transforms, dims, dims);
}

} // namespace ck_tile
