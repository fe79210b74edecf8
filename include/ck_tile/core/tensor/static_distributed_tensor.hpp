// SPDX-License-Identifier: MIT
// static_distributed_tensor: one thread's share of a tile, held in registers.
//
// A tile distribution says which tile elements a thread owns (its Y index box) and where each
// one sits in the thread's buffer (the Y -> D descriptor). This type is that buffer plus the
// distribution as a type: it has no other state, so it costs exactly its registers.
//
// Elements are reached three ways, all resolved at compile time when the index is:
//   t(idx)       idx is a tuple of tile_distributed_index, one per X dimension, as sweep_tile
//                hands them out (a bare index for a 1-D tile);
//   t.at(y...)   by Y index;
//   t[i]         by position in the thread buffer (D).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <type_traits>

namespace ck_tile {

/// A thread's register storage: N elements of T, uninitialised until written (zero-filling
/// a whole accumulator first would cost one instruction per register).
template <typename T, index_t N>
using thread_buffer = array<T, N>;

template <typename DataType_, typename StaticTileDistribution_>
struct static_distributed_tensor
{
    using DataType               = remove_cvref_t<DataType_>;
    using StaticTileDistribution = remove_cvref_t<StaticTileDistribution_>;

    static_assert(is_tile_distribution<StaticTileDistribution>::value &&
                      StaticTileDistribution::is_static(),
                  "static_distributed_tensor: needs a static tile_distribution");

    using ThreadTensorDesc =
        remove_cvref_t<decltype(StaticTileDistribution{}.get_ys_to_d_descriptor())>;

    static constexpr index_t NDimX = StaticTileDistribution::get_num_of_dimension_x();
    static constexpr index_t NDimY = StaticTileDistribution::get_num_of_dimension_y();
    /// Elements per thread: the size of the Y -> D descriptor's element space.
    static constexpr index_t kThreadElementSpaceSize =
        static_cast<index_t>(ThreadTensorDesc{}.get_element_space_size());
    static constexpr index_t kNumElements = kThreadElementSpaceSize;

    static_assert(kThreadElementSpaceSize ==
                      StaticTileDistribution::get_num_of_element_per_thread(),
                  "static_distributed_tensor: the Y -> D descriptor must be dense");

    thread_buffer<DataType, kThreadElementSpaceSize> thread_buf_;

    CK_TILE_HOST_DEVICE static constexpr auto get_tile_distribution()
    {
        return StaticTileDistribution{};
    }
    CK_TILE_HOST_DEVICE static constexpr auto get_distributed_spans()
    {
        return StaticTileDistribution::get_distributed_spans();
    }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension() { return NDimX; }
    /// Tile lengths (the whole tile, not this thread's part), number<>s.
    CK_TILE_HOST_DEVICE static constexpr auto get_lengths()
    {
        return StaticTileDistribution::get_lengths();
    }
    CK_TILE_HOST_DEVICE static constexpr index_t get_thread_buffer_size()
    {
        return kThreadElementSpaceSize;
    }
    /// The seeds' name for get_thread_buffer_size().
    CK_TILE_HOST_DEVICE static constexpr index_t size() { return kThreadElementSpaceSize; }

    CK_TILE_HOST_DEVICE constexpr auto& get_thread_buffer() { return thread_buf_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_thread_buffer() const { return thread_buf_; }

    /// Buffer position of a Y index. @post a bijection of the Y box onto [0, size()).
    template <typename YIdx>
    CK_TILE_HOST_DEVICE static constexpr index_t calculate_offset_from_y(const YIdx& ys)
    {
        return ThreadTensorDesc{}.calculate_offset(ys);
    }
    /// Buffer position of a distributed index, a compile-time constant.
    template <typename DistributedIndices>
    CK_TILE_HOST_DEVICE static constexpr index_t calculate_offset(DistributedIndices)
    {
        static_assert(!is_tile_distributed_index_v<DistributedIndices> || NDimX == 1,
                      "static_distributed_tensor: a bare distributed index addresses a 1-D tile "
                      "only; pass a tuple with one index per X dimension");
        constexpr auto ys =
            StaticTileDistribution::get_y_indices_from_distributed_indices(DistributedIndices{});
        return ThreadTensorDesc{}.calculate_offset(ys);
    }

    /// Element at a distributed index (a tuple with one tile_distributed_index per X
    /// dimension; a bare tile_distributed_index for a 1-D tile).
    template <typename DistributedIndices>
    CK_TILE_HOST_DEVICE constexpr DataType& operator()(DistributedIndices)
    {
        return thread_buf_[number<calculate_offset(DistributedIndices{})>{}];
    }
    template <typename DistributedIndices>
    CK_TILE_HOST_DEVICE constexpr const DataType& operator()(DistributedIndices) const
    {
        return thread_buf_[number<calculate_offset(DistributedIndices{})>{}];
    }
    /// The seeds' spellings: get_element(idx) reads, set_element(idx, v) writes.
    template <typename DistributedIndices>
    CK_TILE_HOST_DEVICE constexpr const DataType& get_element(DistributedIndices idx) const
    {
        return (*this)(idx);
    }
    template <typename DistributedIndices>
    CK_TILE_HOST_DEVICE constexpr void set_element(DistributedIndices idx, const DataType& v)
    {
        (*this)(idx) = v;
    }

    /// Element at a Y index given as NDimY integers.
    template <typename... Ys>
    CK_TILE_HOST_DEVICE constexpr DataType& at(Ys... ys)
    {
        static_assert(sizeof...(Ys) == NDimY, "static_distributed_tensor: one index per Y");
        return thread_buf_[calculate_offset_from_y(make_multi_index(ys...))];
    }
    template <typename... Ys>
    CK_TILE_HOST_DEVICE constexpr const DataType& at(Ys... ys) const
    {
        static_assert(sizeof...(Ys) == NDimY, "static_distributed_tensor: one index per Y");
        return thread_buf_[calculate_offset_from_y(make_multi_index(ys...))];
    }

    /// Element i of the thread buffer.
    CK_TILE_HOST_DEVICE constexpr DataType& operator[](index_t i) { return thread_buf_[i]; }
    CK_TILE_HOST_DEVICE constexpr const DataType& operator[](index_t i) const
    {
        return thread_buf_[i];
    }

    /// @post every element == v.
    CK_TILE_HOST_DEVICE constexpr void fill(const DataType& v) { thread_buf_.fill(v); }
    /// @post every element == DataType{} (zero for the numeric types).
    CK_TILE_HOST_DEVICE constexpr void clear() { fill(DataType{}); }

    /// The elements of the Y box [origins, origins + lengths), packed row-major over the box.
    /// @post result[k] == at(origins + the k-th index of the box, last Y fastest).
    template <index_t... YSliceOrigins, index_t... YSliceLengths>
    CK_TILE_HOST_DEVICE constexpr auto get_y_sliced_thread_data(sequence<YSliceOrigins...>,
                                                                sequence<YSliceLengths...>) const
    {
        using lengths = sequence<YSliceLengths...>;
        check_slice<sequence<YSliceOrigins...>, lengths>();
        thread_buffer<DataType, lengths::product()> out;
        index_t k = 0;
        static_ford<lengths>{}([&](auto idx) {
            constexpr auto y = to_multi_index(sequence<YSliceOrigins...>{} + decltype(idx){});
            out[k++]         = thread_buf_[number<calculate_offset_from_y(y)>{}];
        });
        return out;
    }
    /// Writes `data` (packed row-major over the box) into the Y box.
    /// @post get_y_sliced_thread_data(origins, lengths) == data.
    template <index_t... YSliceOrigins, index_t... YSliceLengths, typename Data>
    CK_TILE_HOST_DEVICE constexpr void set_y_sliced_thread_data(sequence<YSliceOrigins...>,
                                                                sequence<YSliceLengths...>,
                                                                const Data& data)
    {
        using lengths = sequence<YSliceLengths...>;
        check_slice<sequence<YSliceOrigins...>, lengths>();
        static_assert(Data::size() == lengths::product(),
                      "set_y_sliced_thread_data: data of the wrong size");
        index_t k = 0;
        static_ford<lengths>{}([&](auto idx) {
            constexpr auto y = to_multi_index(sequence<YSliceOrigins...>{} + decltype(idx){});
            thread_buf_[number<calculate_offset_from_y(y)>{}] = data[k++];
        });
    }

    private:
    template <typename Origins, typename Lengths>
    CK_TILE_HOST_DEVICE static constexpr void check_slice()
    {
        static_assert(Origins::size() == NDimY && Lengths::size() == NDimY,
                      "y slice: one origin and one length per Y");
        using ys_lengths = typename StaticTileDistribution::DstrEncode::detail::ys_lengths;
        static_assert(sequence_all_of(Origins{} + Lengths{} - ys_lengths{} + number<1>{},
                                      [](index_t v) { return v <= 1; }),
                      "y slice: the box must lie inside the Y lengths");
    }
};

template <typename T>
struct is_static_distributed_tensor : std::false_type
{};
template <typename T, typename D>
struct is_static_distributed_tensor<static_distributed_tensor<T, D>> : std::true_type
{};
template <typename T>
inline constexpr bool is_static_distributed_tensor_v =
    is_static_distributed_tensor<remove_cvref_t<T>>::value;

/// An uninitialised register tile of DataType distributed as `distribution`.
template <typename DataType, typename StaticTileDistribution>
CK_TILE_HOST_DEVICE constexpr auto make_static_distributed_tensor(const StaticTileDistribution&)
{
    return static_distributed_tensor<remove_cvref_t<DataType>,
                                     remove_cvref_t<StaticTileDistribution>>{};
}
/// The same, with the distribution given as a type (make_static_distributed_tensor<T, D>()).
template <typename DataType, typename StaticTileDistribution>
CK_TILE_HOST_DEVICE constexpr auto make_static_distributed_tensor()
{
    return static_distributed_tensor<remove_cvref_t<DataType>,
                                     remove_cvref_t<StaticTileDistribution>>{};
}

} // namespace ck_tile
