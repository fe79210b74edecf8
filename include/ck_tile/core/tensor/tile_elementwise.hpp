// SPDX-License-Identifier: MIT
// Element-wise operations on register tiles that share one distribution.
//
// Tiles with the same distribution hold the same elements in the same buffer positions, so an
// element-wise operation is a loop over thread-buffer positions: no index math, no
// communication, and (being unrolled over a compile-time length) no loop at all.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <type_traits>

namespace ck_tile {

namespace detail {
template <typename T, typename... Ts>
CK_TILE_HOST_DEVICE constexpr void check_same_distribution()
{
    static_assert((is_static_distributed_tensor_v<T> && ... && is_static_distributed_tensor_v<Ts>),
                  "tile_elementwise: expects static_distributed_tensors");
    static_assert((std::is_same_v<typename remove_cvref_t<T>::StaticTileDistribution,
                                  typename remove_cvref_t<Ts>::StaticTileDistribution> &&
                   ...),
                  "tile_elementwise: every tile must have the same distribution");
}
} // namespace detail

/// f(t0[i], t1[i], ...) for every buffer position i, with references: f may write.
/// @post f was called once per element, in buffer order.
template <typename F, typename Tensor, typename... Tensors>
CK_TILE_HOST_DEVICE constexpr void tile_elementwise_inout(const F& f, Tensor& t, Tensors&... ts)
{
    detail::check_same_distribution<Tensor, Tensors...>();
    constexpr index_t n = remove_cvref_t<Tensor>::get_thread_buffer_size();
    static_for<0, n, 1>{}(
        [&](auto i) { f(t.get_thread_buffer()[i], ts.get_thread_buffer()[i]...); });
}

/// A new tile with f(t0[i], t1[i], ...) at every buffer position; its element type is f's
/// result type.
/// @post result[i] == f(t0[i], t1[i], ...), result has the inputs' distribution.
template <typename F, typename Tensor, typename... Tensors>
CK_TILE_HOST_DEVICE constexpr auto tile_elementwise_in(const F& f, const Tensor& t,
                                                       const Tensors&... ts)
{
    detail::check_same_distribution<Tensor, Tensors...>();
    using tensor_t = remove_cvref_t<Tensor>;
    using out_t =
        remove_cvref_t<decltype(f(t.get_thread_buffer()[0], ts.get_thread_buffer()[0]...))>;
    static_distributed_tensor<out_t, typename tensor_t::StaticTileDistribution> out;
    constexpr index_t n = tensor_t::get_thread_buffer_size();
    static_for<0, n, 1>{}([&](auto i) {
        out.get_thread_buffer()[i] = f(t.get_thread_buffer()[i], ts.get_thread_buffer()[i]...);
    });
    return out;
}

/// @post every element of t == type_convert<element type>(v).
template <typename Tensor, typename T>
CK_TILE_HOST_DEVICE constexpr void set_tile(Tensor& t, const T& v)
{
    using data_t = typename remove_cvref_t<Tensor>::DataType;
    t.fill(type_convert<data_t>(v));
}

/// @post every element of t is zero.
template <typename Tensor>
CK_TILE_HOST_DEVICE constexpr void clear_tile(Tensor& t)
{
    t.clear();
}

/// The tile with every element converted to DstType (same distribution).
/// @post result[i] == type_convert<DstType>(t[i]).
template <typename DstType, typename Tensor>
CK_TILE_HOST_DEVICE constexpr auto cast_tile(const Tensor& t)
{
    return tile_elementwise_in([](const auto& x) { return type_convert<DstType>(x); }, t);
}

} // namespace ck_tile
