// SPDX-License-Identifier: MIT
// Tile windows: a tile-sized view into a tensor view at a movable origin, and, given a tile
// distribution, the loads and stores that move each thread's share between memory and its
// registers (a static_distributed_tensor).
//
//   tile_window_with_static_lengths       view + lengths + origin; no distribution (a place
//                                         to point at, e.g. an LDS buffer before its layout
//                                         for registers is chosen)
//   tile_window_with_static_distribution  the same plus a distribution and this thread's
//                                         precomputed coordinate: load, store, update
//
// A load or store walks the thread's accesses in load_store_traits' order. The coordinate of
// the first access is computed once (when the window is made or its origin set); each later
// access is reached by a constant step, derived at compile time from the Y step between the
// two accesses: X is linear in Y (a Y names one H factor, and X is the row-major combination
// of its H factors), so the X step does not depend on the thread.
//
// Edges: every access checks its coordinate against the view (inside the lengths, outside
// any pad). Reads there give zero, writes are dropped, so one window code path serves the
// tiles on a tensor's border. A vector access is checked as a whole by its first element;
// load_store_traits only vectorizes as far as the view promises whole vectors.
//
// The thread's partition index comes from the hardware (warp and lane id) on the device; on
// the host (or to emulate another thread) pass it explicitly.
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"
#include "ck_tile/core/tensor/load_store_traits.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tensor_coordinate.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/utility/type_traits.hpp"

#include <type_traits>

namespace ck_tile {

namespace detail {
template <index_t N, typename Idx>
CK_TILE_HOST_DEVICE constexpr multi_index<N> to_window_index(const Idx& idx)
{
    static_assert(remove_cvref_t<Idx>::size() == N, "tile_window: index of the wrong size");
    return to_multi_index(idx);
}
template <index_t N>
CK_TILE_HOST_DEVICE constexpr multi_index<N> to_window_index(const multi_index<N>& idx)
{
    return idx;
}
} // namespace detail

/// A window of a tensor view: lengths and an origin, no distribution.
template <typename BottomTensorView_, typename WindowLengths_>
struct tile_window_with_static_lengths
{
    using BottomTensorView = remove_cvref_t<BottomTensorView_>;
    using WindowLengths    = remove_cvref_t<WindowLengths_>;
    using DataType         = typename BottomTensorView::value_type;

    static_assert(is_tensor_view_v<BottomTensorView>, "tile_window: not a tensor_view");
    static constexpr index_t NDimBottomTensor = BottomTensorView::get_num_of_dimension();
    static_assert(WindowLengths::size() == NDimBottomTensor,
                  "tile_window: one window length per dimension of the view");
    using BottomTensorIndex = multi_index<NDimBottomTensor>;

    BottomTensorView bottom_tensor_view_;
    WindowLengths window_lengths_;
    BottomTensorIndex window_origin_;

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension() { return NDimBottomTensor; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_window_lengths() const { return window_lengths_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_bottom_tensor_view() const
    {
        return bottom_tensor_view_;
    }
    CK_TILE_HOST_DEVICE constexpr auto& get_bottom_tensor_view() { return bottom_tensor_view_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_window_origin() const { return window_origin_; }

    /// @post get_window_origin() == origin.
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr void set_window_origin(const Idx& origin)
    {
        window_origin_ = detail::to_window_index<NDimBottomTensor>(origin);
    }
    CK_TILE_HOST_DEVICE constexpr void set_window_origin(const BottomTensorIndex& origin)
    {
        window_origin_ = origin;
    }
    /// @post get_window_origin() == old origin + step.
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr void move(const Idx& step)
    {
        window_origin_ += detail::to_window_index<NDimBottomTensor>(step);
    }
    CK_TILE_HOST_DEVICE constexpr void move(const BottomTensorIndex& step)
    {
        window_origin_ += step;
    }
};

/// A window with a distribution: each thread's coordinate is precomputed.
template <typename BottomTensorView_, typename WindowLengths_, typename StaticTileDistribution_>
struct tile_window_with_static_distribution
{
    using BottomTensorView = remove_cvref_t<BottomTensorView_>;
    using WindowLengths    = remove_cvref_t<WindowLengths_>;
    using TileDstr         = remove_cvref_t<StaticTileDistribution_>;
    using BottomTensorDesc = typename BottomTensorView::TensorDesc;
    using DataType         = typename BottomTensorView::value_type;

    static_assert(is_tensor_view_v<BottomTensorView>, "tile_window: not a tensor_view");
    static_assert(is_tile_distribution<TileDstr>::value && TileDstr::is_static(),
                  "tile_window: needs a static tile_distribution");

    static constexpr index_t NDimBottomTensor = BottomTensorView::get_num_of_dimension();
    static constexpr index_t NDimX            = TileDstr::get_num_of_dimension_x();
    static constexpr index_t NDimY            = TileDstr::get_num_of_dimension_y();
    static constexpr index_t NDimP            = TileDstr::get_num_of_dimension_p();
    static_assert(NDimX == NDimBottomTensor,
                  "tile_window: the distribution's X dimensions must match the view's");
    static_assert(WindowLengths::size() == NDimBottomTensor,
                  "tile_window: one window length per dimension of the view");

    using BottomTensorIndex = multi_index<NDimBottomTensor>;
    using BottomTensorCoord = typename BottomTensorView::TensorCoord;
    using PartitionIndex    = multi_index<NDimP>;

    /// What the view promises along its last dimension bounds the vector length.
    using Traits =
        load_store_traits<TileDstr, DataType,
                          get_guaranteed_last_dimension_vector_length<BottomTensorDesc>()>;
    using SFC_Ys   = typename Traits::sfc_type;
    using vector_t = typename Traits::vector_t;

    static constexpr index_t num_access        = Traits::num_access;
    static constexpr index_t scalar_per_vector = Traits::scalar_per_vector;
    static constexpr index_t vector_dim_y      = Traits::vector_dim_y;

    using tile_type = static_distributed_tensor<DataType, TileDstr>;

    BottomTensorView bottom_tensor_view_;
    WindowLengths window_lengths_;
    BottomTensorIndex window_origin_;
    TileDstr tile_dstr_;
    /// X index of this thread's first element relative to the window origin.
    BottomTensorIndex thread_x_origin_;
    /// View coordinate of this thread's first access (window origin + thread_x_origin_).
    BottomTensorCoord pre_computed_coord_;

    CK_TILE_HOST_DEVICE constexpr tile_window_with_static_distribution(
        const BottomTensorView& view, const WindowLengths& lengths, const BottomTensorIndex& origin,
        const TileDstr& dstr, const PartitionIndex& ps_idx)
        : bottom_tensor_view_{view}, window_lengths_{lengths}, window_origin_{origin},
          tile_dstr_{dstr}, thread_x_origin_{dstr.calculate_index(ps_idx)},
          pre_computed_coord_{
              make_tensor_coordinate(view.get_tensor_descriptor(), origin + thread_x_origin_)}
    {}

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension() { return NDimBottomTensor; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_access() { return num_access; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_window_lengths() const { return window_lengths_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_tile_distribution() const { return tile_dstr_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_bottom_tensor_view() const
    {
        return bottom_tensor_view_;
    }
    CK_TILE_HOST_DEVICE constexpr auto& get_bottom_tensor_view() { return bottom_tensor_view_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_window_origin() const { return window_origin_; }
    /// The view coordinate of this thread's first access.
    CK_TILE_HOST_DEVICE constexpr const auto& get_pre_computed_coord() const
    {
        return pre_computed_coord_;
    }

    /// @post get_window_origin() == origin; the thread coordinate is recomputed.
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr void set_window_origin(const Idx& origin)
    {
        window_origin_      = detail::to_window_index<NDimBottomTensor>(origin);
        pre_computed_coord_ = make_tensor_coordinate(bottom_tensor_view_.get_tensor_descriptor(),
                                                     window_origin_ + thread_x_origin_);
    }
    CK_TILE_HOST_DEVICE constexpr void set_window_origin(const BottomTensorIndex& origin)
    {
        set_window_origin<BottomTensorIndex>(origin);
    }

    /// @post get_window_origin() == old origin + step; the thread coordinate moves by step
    ///       (incrementally: cheaper than recomputing it).
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr void move(const Idx& step)
    {
        const auto s = detail::to_window_index<NDimBottomTensor>(step);
        window_origin_ += s;
        move_tensor_coordinate(bottom_tensor_view_.get_tensor_descriptor(), pre_computed_coord_, s);
    }
    CK_TILE_HOST_DEVICE constexpr void move(const BottomTensorIndex& step)
    {
        move<BottomTensorIndex>(step);
    }
    /// The seeds' name for move().
    template <typename Idx>
    CK_TILE_HOST_DEVICE constexpr void move_slice_window(const Idx& step)
    {
        move(step);
    }

    /// Buffer position of element j of access I.
    template <index_t I, index_t J>
    CK_TILE_HOST_DEVICE static constexpr index_t d_offset_of()
    {
        auto ys = SFC_Ys::get_index(I);
        if constexpr(NDimY > 0)
            ys[vector_dim_y] += J;
        return tile_type::calculate_offset_from_y(ys);
    }
    /// X step from access I to access I + 1 (the same for every thread).
    template <index_t I>
    CK_TILE_HOST_DEVICE static constexpr BottomTensorIndex x_step_after()
    {
        constexpr TileDstr dstr{};
        const auto p0 = make_zero_multi_index<NDimP>();
        return dstr.calculate_index(p0, SFC_Ys::get_index(I + 1)) -
               dstr.calculate_index(p0, SFC_Ys::get_index(I));
    }

    /// Reads this thread's elements into dst.
    /// @post dst's element at Y index y == the view's element at origin + X(p, y), or zero
    ///       where that index is outside the view or in a pad.
    template <typename DstData>
    CK_TILE_HOST_DEVICE constexpr void load(static_distributed_tensor<DstData, TileDstr>& dst) const
    {
        for_each_access([&](auto i_access, const BottomTensorCoord& coord) {
            constexpr index_t I = decltype(i_access)::value;
            const vector_t v =
                bottom_tensor_view_.template get_vectorized_elements<vector_t>(coord, 0);
            static_for<0, scalar_per_vector, 1>{}([&](auto j) {
                constexpr index_t d                  = d_offset_of<I, decltype(j)::value>();
                dst.get_thread_buffer()[number<d>{}] = type_convert<DstData>(v[j]);
            });
        });
    }
    /// A new register tile with this thread's elements (see load(dst)).
    CK_TILE_HOST_DEVICE constexpr auto load() const
    {
        tile_type dst;
        load(dst);
        return dst;
    }

    /// Writes this thread's elements (converted to the view's type).
    /// @post the view's element at origin + X(p, y) == src's element at Y index y wherever
    ///       that index is inside the view and not in a pad; nothing else is written.
    template <typename SrcData>
    CK_TILE_HOST_DEVICE constexpr void
    store(const static_distributed_tensor<SrcData, TileDstr>& src)
    {
        for_each_access([&](auto i_access, const BottomTensorCoord& coord) {
            bottom_tensor_view_.template set_vectorized_elements<vector_t>(
                coord, 0, gather<decltype(i_access)::value>(src));
        });
    }

    /// Combines this thread's elements into memory with the view's memory operation
    /// (atomic_add for a view made with memory_operation_enum::atomic_add).
    /// @post as store(), with `combine` in place of overwrite.
    template <typename SrcData>
    CK_TILE_HOST_DEVICE constexpr void
    update(const static_distributed_tensor<SrcData, TileDstr>& src)
    {
        for_each_access([&](auto i_access, const BottomTensorCoord& coord) {
            bottom_tensor_view_.template update_vectorized_elements<vector_t>(
                coord, 0, gather<decltype(i_access)::value>(src));
        });
    }

    private:
    // Calls f(number<I>, coordinate of access I) for every access, in curve order.
    template <typename F>
    CK_TILE_HOST_DEVICE constexpr void for_each_access(const F& f) const
    {
        auto coord       = pre_computed_coord_;
        const auto& desc = bottom_tensor_view_.get_tensor_descriptor();
        static_for<0, num_access, 1>{}([&](auto i_access) {
            constexpr index_t I = decltype(i_access)::value;
            f(i_access, coord);
            if constexpr(I + 1 < num_access)
            {
                constexpr auto step = x_step_after<I>();
                move_tensor_coordinate(desc, coord, make_tensor_coordinate_step(desc, step));
            }
        });
    }

    template <index_t I, typename SrcData>
    CK_TILE_HOST_DEVICE static constexpr vector_t
    gather(const static_distributed_tensor<SrcData, TileDstr>& src)
    {
        vector_t v;
        static_for<0, scalar_per_vector, 1>{}([&](auto j) {
            constexpr index_t d = d_offset_of<I, decltype(j)::value>();
            v[j]                = type_convert<DataType>(src.get_thread_buffer()[number<d>{}]);
        });
        return v;
    }
};

template <typename T>
struct is_tile_window_with_static_distribution : std::false_type
{};
template <typename V, typename L, typename D>
struct is_tile_window_with_static_distribution<tile_window_with_static_distribution<V, L, D>>
    : std::true_type
{};

/// A window of `view` with the given lengths at `origin` (a multi_index, a tuple or a braced
/// list such as {1, 3}).
/// @post get_window_origin() == origin.
template <typename TensorView, typename WindowLengths>
requires(is_tensor_view_v<TensorView>) CK_TILE_HOST_DEVICE
    constexpr auto make_tile_window(const TensorView& view, const WindowLengths& lengths,
                                    const multi_index<TensorView::get_num_of_dimension()>& origin)
{
    return tile_window_with_static_lengths<TensorView, WindowLengths>{view, lengths, origin};
}
template <typename TensorView, typename WindowLengths, typename... Os>
requires(is_tensor_view_v<TensorView>) CK_TILE_HOST_DEVICE
    constexpr auto make_tile_window(const TensorView& view, const WindowLengths& lengths,
                                    const tuple<Os...>& origin)
{
    return make_tile_window(view, lengths,
                            detail::to_window_index<TensorView::get_num_of_dimension()>(origin));
}

/// A distributed window for the thread with partition index `ps_idx` (host emulation, or a
/// thread acting for another).
/// @post the thread's first access is at origin + distribution.calculate_index(ps_idx).
template <typename TensorView, typename WindowLengths, typename StaticTileDistribution>
CK_TILE_HOST_DEVICE constexpr auto
make_tile_window(const TensorView& view, const WindowLengths& lengths,
                 const multi_index<TensorView::get_num_of_dimension()>& origin,
                 const StaticTileDistribution& distribution,
                 const multi_index<StaticTileDistribution::get_num_of_dimension_p()>& ps_idx)
{
    return tile_window_with_static_distribution<TensorView, WindowLengths, StaticTileDistribution>{
        view, lengths, origin, distribution, ps_idx};
}
template <typename TensorView, typename WindowLengths, typename StaticTileDistribution,
          typename... Os>
CK_TILE_HOST_DEVICE constexpr auto
make_tile_window(const TensorView& view, const WindowLengths& lengths, const tuple<Os...>& origin,
                 const StaticTileDistribution& distribution,
                 const multi_index<StaticTileDistribution::get_num_of_dimension_p()>& ps_idx)
{
    return make_tile_window(view, lengths,
                            detail::to_window_index<TensorView::get_num_of_dimension()>(origin),
                            distribution, ps_idx);
}
/// A distributed window of a lengths-only window, at its origin.
template <typename TensorView, typename WindowLengths, typename StaticTileDistribution>
CK_TILE_HOST_DEVICE constexpr auto
make_tile_window(const tile_window_with_static_lengths<TensorView, WindowLengths>& window,
                 const StaticTileDistribution& distribution,
                 const multi_index<StaticTileDistribution::get_num_of_dimension_p()>& ps_idx)
{
    return make_tile_window(window.get_bottom_tensor_view(), window.get_window_lengths(),
                            window.get_window_origin(), distribution, ps_idx);
}

#if !defined(CK_TILE_PLATFORM_HOST)
/// A distributed window for the calling thread (partition index from warp and lane id; fails
/// to compile when the distribution's lane P length is not this target's warp size, see
/// tile_distribution::get_partition_index()).
template <typename TensorView, typename WindowLengths, typename StaticTileDistribution>
CK_TILE_DEVICE constexpr auto
make_tile_window(const TensorView& view, const WindowLengths& lengths,
                 const multi_index<TensorView::get_num_of_dimension()>& origin,
                 const StaticTileDistribution& distribution)
{
    return make_tile_window(view, lengths, origin, distribution,
                            StaticTileDistribution::get_partition_index());
}
template <typename TensorView, typename WindowLengths, typename StaticTileDistribution,
          typename... Os>
CK_TILE_DEVICE constexpr auto make_tile_window(const TensorView& view, const WindowLengths& lengths,
                                               const tuple<Os...>& origin,
                                               const StaticTileDistribution& distribution)
{
    return make_tile_window(view, lengths,
                            detail::to_window_index<TensorView::get_num_of_dimension()>(origin),
                            distribution);
}
template <typename TensorView, typename WindowLengths, typename StaticTileDistribution>
CK_TILE_DEVICE constexpr auto
make_tile_window(const tile_window_with_static_lengths<TensorView, WindowLengths>& window,
                 const StaticTileDistribution& distribution)
{
    return make_tile_window(window.get_bottom_tensor_view(), window.get_window_lengths(),
                            window.get_window_origin(), distribution);
}
#endif

/// @post window.get_window_origin() == old origin + step.
template <typename Window, typename Step>
CK_TILE_HOST_DEVICE constexpr void move_tile_window(Window& window, const Step& step)
{
    window.move(step);
}

/// The window's tile for the calling thread, in registers.
template <typename Window>
CK_TILE_HOST_DEVICE constexpr auto load_tile(const Window& window)
{
    return window.load();
}
/// Loads into an existing register tile (its element type may differ: converted).
template <typename DstTensor, typename Window>
CK_TILE_HOST_DEVICE constexpr void load_tile(DstTensor& dst, const Window& window)
{
    window.load(dst);
}
/// Writes a register tile through the window.
template <typename Window, typename SrcTensor>
CK_TILE_HOST_DEVICE constexpr void store_tile(Window& window, const SrcTensor& src)
{
    window.store(src);
}
/// Combines a register tile into memory with the view's memory operation.
template <typename Window, typename SrcTensor>
CK_TILE_HOST_DEVICE constexpr void update_tile(Window& window, const SrcTensor& src)
{
    window.update(src);
}

} // namespace ck_tile
