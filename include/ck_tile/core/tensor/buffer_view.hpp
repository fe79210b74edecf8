// SPDX-License-Identifier: MIT
// buffer_view: a pointer, a length and an address space, with bounds-checked scalar and vector
// access (out-of-bounds reads give zero or a chosen invalid value, out-of-bounds writes are
// dropped) and atomic updates.
//
// Indices count elements of T, never bytes. An access at i + linear_offset of a vector X of N
// scalars touches elements [i + linear_offset, i + linear_offset + N).
//
// Memory is reached through plain pointers on every platform, with the bounds check in software.
// (AMD's raw buffer addressing, which checks bounds in hardware, can replace the global path
// later behind the same interface.)
#pragma once

#include "ck_tile/core/arch/atomic.hpp"
#include "ck_tile/core/arch/memory_word.hpp"
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/numeric/vector_type.hpp"

#include <cstring>
#include <type_traits>

namespace ck_tile {

/// Where a buffer lives. Part of the buffer's type, so that e.g. an atomic on registers is a
/// compile error rather than a wrong result.
enum class address_space_enum : uint16_t
{
    generic = 0, ///< any address (host memory, or a flat device address)
    global,      ///< device memory
    lds,         ///< workgroup-shared memory (NVIDIA shared memory)
    sgpr,        ///< uniform (scalar) registers
    vgpr,        ///< per-thread registers
};

/// How a store combines with memory.
enum class memory_operation_enum : uint16_t
{
    set = 0,    ///< overwrite
    atomic_add, ///< atomically add
    atomic_max, ///< atomically take the maximum
    add,        ///< add, not atomic (read, add, write)
};

/// Cache-coherence hints for AMD buffer instructions. Only the default exists: the pointer path
/// takes no hints.
enum class amd_buffer_coherence_enum : uint16_t
{
    coherence_default = 0,
};

namespace detail {
template <typename S>
using buffer_size_storage_t =
    std::conditional_t<is_constant_v<S>, S,
                       std::conditional_t<(sizeof(S) > sizeof(index_t)), long_index_t, index_t>>;

/// Copies X's bytes from p. Host: memcpy, valid at any alignment. Device: one access of X's
/// size, which the hardware requires to be aligned to it.
template <typename X, typename T>
CK_TILE_HOST_DEVICE X load_bytes(const T* p)
{
#if CK_TILE_DEVICE_COMPILE
    // Through native words, so a 16-byte vector of structs is one load (arch/memory_word.hpp).
    using W         = arch::memory_word_t<sizeof(X)>;
    constexpr int n = sizeof(X) / sizeof(W);
    const W* src    = reinterpret_cast<const W*>(p);
    W words[n];
    for(int i = 0; i < n; ++i)
        words[i] = src[i];
    X x;
    __builtin_memcpy(&x, words, sizeof(X));
    return x;
#else
    X x;
    std::memcpy(static_cast<void*>(&x), static_cast<const void*>(p), sizeof(X));
    return x;
#endif
}
template <bool Global, typename X, typename T>
CK_TILE_HOST_DEVICE void store_bytes(T* p, const X& x)
{
#if CK_TILE_DEVICE_COMPILE
    // Through native words, so a 16-byte vector of structs is one store, not one per element.
    using W         = arch::memory_word_t<sizeof(X)>;
    constexpr int n = sizeof(X) / sizeof(W);
    W words[n];
    __builtin_memcpy(words, &x, sizeof(X));
    W* dst = reinterpret_cast<W*>(p);
    for(int i = 0; i < n; ++i)
        if constexpr(Global)
            arch::store_global_word(dst + i, words[i]);
        else
            dst[i] = words[i];
#else
    std::memcpy(static_cast<void*>(p), static_cast<const void*>(&x), sizeof(X));
#endif
}
} // namespace detail

/// A view of `buffer_size` elements of T at `p_data` in address space BufferAddressSpace.
/// Invalid reads (is_valid_element false, or outside [0, buffer_size)) give zero when
/// InvalidElementUseNumericalZeroValue, else the invalid value given at construction.
/// BufferSizeType is an integer, or number<N> for a size known at compile time.
template <address_space_enum BufferAddressSpace, typename T, typename BufferSizeType,
          bool InvalidElementUseNumericalZeroValue = true,
          amd_buffer_coherence_enum Coherence      = amd_buffer_coherence_enum::coherence_default>
struct buffer_view
{
    using type                                   = T;
    using value_type                             = std::remove_cv_t<T>;
    using scalar_type                            = typename vector_traits<value_type>::scalar_type;
    using size_type                              = detail::buffer_size_storage_t<BufferSizeType>;
    static constexpr index_t scalars_per_element = vector_traits<value_type>::vector_size;

    T* p_data_ = nullptr;
    size_type buffer_size_{};
    value_type invalid_element_value_{};

    CK_TILE_HOST_DEVICE constexpr buffer_view() = default;
    CK_TILE_HOST_DEVICE constexpr buffer_view(T* p_data, BufferSizeType buffer_size)
        : p_data_{p_data}, buffer_size_{static_cast<size_type>(buffer_size)},
          invalid_element_value_{}
    {}
    CK_TILE_HOST_DEVICE constexpr buffer_view(T* p_data, BufferSizeType buffer_size,
                                              value_type invalid_element_value)
        : p_data_{p_data}, buffer_size_{static_cast<size_type>(buffer_size)},
          invalid_element_value_{invalid_element_value}
    {}

    CK_TILE_HOST_DEVICE static constexpr address_space_enum get_address_space()
    {
        return BufferAddressSpace;
    }
    /// The size as given: a number<N> stays a compile-time constant.
    CK_TILE_HOST_DEVICE constexpr auto get_buffer_size() const
    {
        if constexpr(is_constant_v<size_type>)
            return size_type{};
        else
            return buffer_size_;
    }
    CK_TILE_HOST_DEVICE constexpr T* data() const { return p_data_; }
    CK_TILE_HOST_DEVICE static constexpr bool is_static_buffer() { return false; }
    CK_TILE_HOST_DEVICE static constexpr bool is_dynamic_buffer() { return true; }

    /// Element i, unchecked. @pre 0 <= i < buffer size.
    CK_TILE_HOST_DEVICE constexpr const T& operator[](index_t i) const { return p_data_[i]; }
    CK_TILE_HOST_DEVICE constexpr T& operator()(index_t i) { return p_data_[i]; }

    /// The vector type X is moved as: ext_vector of X's scalars (a scalar X gives a 1-vector,
    /// which converts to X and has .get(0)).
    template <typename X>
    using access_t = ext_vector_t<typename vector_traits<X>::scalar_type,
                                  vector_traits<std::remove_cvref_t<X>>::vector_size>;

    /// True when the access of X at element `idx` lies inside the buffer.
    template <typename X>
    CK_TILE_HOST_DEVICE constexpr bool in_bounds(index_t idx) const
    {
        constexpr long_index_t n = elements_of<X>();
        return idx >= 0 && long_index_t{idx} + n <= static_cast<long_index_t>(get_buffer_size());
    }

    /// X read at element i + linear_offset.
    /// @post when is_valid_element and the whole access is in bounds: the elements there; else
    ///       every scalar is zero (or the invalid value's scalars). With oob_conditional_check
    ///       false neither is checked: the caller guarantees a valid, in-bounds access.
    /// @pre on device, the address is aligned to alignof(access_t<X>) (vector accesses are
    ///      single instructions).
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE access_t<X> get(index_t i, index_t linear_offset, bool is_valid_element,
                                        bool_constant<oob_conditional_check> = {}) const
    {
        check_access_type<X>();
        using vec_t      = access_t<X>;
        const index_t at = i + linear_offset;
        if constexpr(oob_conditional_check)
        {
            if(!(is_valid_element && in_bounds<X>(at)))
                return invalid_vector<vec_t>();
        }
        return detail::load_bytes<vec_t>(p_data_ + at);
    }

    /// Writes x at element i + linear_offset.
    /// @post when is_valid_element and the whole access is in bounds, the elements there are x;
    ///       otherwise memory is unchanged.
    /// @pre on device, the address is aligned to alignof(access_t<X>).
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE void set(index_t i, index_t linear_offset, bool is_valid_element,
                                 const X& x, bool_constant<oob_conditional_check> = {})
    {
        check_access_type<X>();
        const index_t at = i + linear_offset;
        if constexpr(oob_conditional_check)
            if(!(is_valid_element && in_bounds<X>(at)))
                return;
        detail::store_bytes<BufferAddressSpace == address_space_enum::global>(
            p_data_ + at, bit_cast<access_t<X>>(x));
    }

    /// Combines x into element i + linear_offset as Op says; invalid or out-of-bounds accesses
    /// change nothing.
    template <memory_operation_enum Op, typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE void update(index_t i, index_t linear_offset, bool is_valid_element,
                                    const X& x, bool_constant<oob_conditional_check> = {})
    {
        if constexpr(Op == memory_operation_enum::set)
            set<X>(i, linear_offset, is_valid_element, x, bool_constant<oob_conditional_check>{});
        else if constexpr(Op == memory_operation_enum::atomic_add)
            atomic_add<X>(i, linear_offset, is_valid_element, x,
                          bool_constant<oob_conditional_check>{});
        else if constexpr(Op == memory_operation_enum::atomic_max)
            atomic_max<X>(i, linear_offset, is_valid_element, x,
                          bool_constant<oob_conditional_check>{});
        else
        {
            static_assert(Op == memory_operation_enum::add);
            const index_t at = i + linear_offset;
            if constexpr(oob_conditional_check)
                if(!(is_valid_element && in_bounds<X>(at)))
                    return;
            auto cur       = get<X, false>(i, linear_offset, true);
            const auto add = bit_cast<access_t<X>>(x);
            for(index_t k = 0; k < cur.size(); ++k)
                cur[k] = static_cast<scalar_type>(cur[k] + add[k]);
            set<access_t<X>, false>(i, linear_offset, true, cur);
        }
    }

    /// Atomically adds each scalar of x to the element it lands on (one atomic per scalar).
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE void atomic_add(index_t i, index_t linear_offset, bool is_valid_element,
                                        const X& x, bool_constant<oob_conditional_check> = {})
    {
        atomic_each<X, oob_conditional_check>(
            i + linear_offset, is_valid_element, x,
            [](scalar_type* p, const scalar_type& v) { ck_tile::atomic_add(p, v); });
    }

    /// Atomically takes the maximum of each scalar of x and the element it lands on.
    template <typename X, bool oob_conditional_check = true>
    CK_TILE_HOST_DEVICE void atomic_max(index_t i, index_t linear_offset, bool is_valid_element,
                                        const X& x, bool_constant<oob_conditional_check> = {})
    {
        atomic_each<X, oob_conditional_check>(
            i + linear_offset, is_valid_element, x,
            [](scalar_type* p, const scalar_type& v) { ck_tile::atomic_max(p, v); });
    }

    private:
    template <typename X>
    CK_TILE_HOST_DEVICE static constexpr long_index_t elements_of()
    {
        return vector_traits<std::remove_cvref_t<X>>::vector_size / scalars_per_element;
    }

    template <typename X>
    CK_TILE_HOST_DEVICE static constexpr void check_access_type()
    {
        using x_traits = vector_traits<std::remove_cvref_t<X>>;
        static_assert(std::is_same_v<typename x_traits::scalar_type, scalar_type>,
                      "buffer_view: the accessed type must have the buffer's scalar type");
        static_assert(x_traits::vector_size % scalars_per_element == 0,
                      "buffer_view: an access must cover whole elements of the buffer");
    }

    template <typename V>
    CK_TILE_HOST_DEVICE constexpr V invalid_vector() const
    {
        V v{}; // value-initialized: numerical zero for every arithmetic and narrow float type
        if constexpr(!InvalidElementUseNumericalZeroValue)
        {
            const auto inv = bit_cast<access_t<value_type>>(invalid_element_value_);
            for(index_t k = 0; k < v.size(); ++k)
                v[k] = inv[k % scalars_per_element];
        }
        return v;
    }

    template <typename X, bool oob_conditional_check, typename Op>
    CK_TILE_HOST_DEVICE void atomic_each(index_t at, bool is_valid_element, const X& x, Op op)
    {
        static_assert(BufferAddressSpace == address_space_enum::global ||
                          BufferAddressSpace == address_space_enum::lds ||
                          BufferAddressSpace == address_space_enum::generic,
                      "buffer_view: atomics need global, lds or generic memory, not registers");
        check_access_type<X>();
        if constexpr(oob_conditional_check)
            if(!(is_valid_element && in_bounds<X>(at)))
                return;
        const auto v  = bit_cast<access_t<X>>(x);
        auto* scalars = reinterpret_cast<scalar_type*>(p_data_ + at);
        for(index_t k = 0; k < v.size(); ++k)
            op(scalars + k, v[k]);
    }
};

/// A view of `buffer_size` elements at p; invalid reads give zero.
template <address_space_enum BufferAddressSpace,
          amd_buffer_coherence_enum Coherence = amd_buffer_coherence_enum::coherence_default,
          typename T, typename BufferSizeType>
CK_TILE_HOST_DEVICE constexpr auto make_buffer_view(T* p, BufferSizeType buffer_size)
{
    return buffer_view<BufferAddressSpace, T, BufferSizeType, true, Coherence>{p, buffer_size};
}

/// A view of `buffer_size` elements at p; invalid reads give `invalid_element_value`.
template <address_space_enum BufferAddressSpace,
          amd_buffer_coherence_enum Coherence = amd_buffer_coherence_enum::coherence_default,
          typename T, typename BufferSizeType, typename X>
CK_TILE_HOST_DEVICE constexpr auto make_buffer_view(T* p, BufferSizeType buffer_size,
                                                    X invalid_element_value)
{
    return buffer_view<BufferAddressSpace, T, BufferSizeType, false, Coherence>{
        p, buffer_size, static_cast<std::remove_cv_t<T>>(invalid_element_value)};
}

} // namespace ck_tile
