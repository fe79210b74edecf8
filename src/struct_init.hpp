// SPDX-License-Identifier: MIT
// The cktile_<x>_init functions of include/cktile.h. A caller's struct is a prefix of this
// library's, as long as the cktile.h it was compiled with says; only that compilation knows the
// length, so it arrives as struct_size, and every write stays inside it.
#pragma once

#include "api_error.hpp"
#include "cktile.h"

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

namespace cktile::detail {

/// What each initialisable struct is called in messages, and its first published layout: the
/// size a binary built against the first cktile.h that had the struct passes, and what the
/// exported cktile_<x>_init fills. `first_size` is written in terms of the current header (the
/// offset of the first appended field, or sizeof while nothing has been appended); `lp64_size`
/// freezes its value, so that a field appended to a struct still at sizeof fails to compile
/// here instead of moving the layout old binaries were built with.
template <typename T>
struct public_struct;

#define CKTILE_PUBLIC_STRUCT(type, first_size, lp64_size)                                          \
    template <>                                                                                    \
    struct public_struct<type>                                                                     \
    {                                                                                              \
        static constexpr const char* name              = #type;                                    \
        static constexpr std::size_t first_layout_size = first_size;                               \
    };                                                                                             \
    static_assert(sizeof(void*) != 8 || (first_size) == (lp64_size),                               \
                  #type "'s first published layout moved: keep it at " #lp64_size                  \
                        " bytes (the offset of the first appended field)")
CKTILE_PUBLIC_STRUCT(cktile_gemm_problem_t, offsetof(cktile_gemm_problem_t, multi_d_op), 176);
CKTILE_PUBLIC_STRUCT(cktile_gemm_args_t, offsetof(cktile_gemm_args_t, scale_a), 48);
CKTILE_PUBLIC_STRUCT(cktile_norm_problem_t, sizeof(cktile_norm_problem_t), 104);
CKTILE_PUBLIC_STRUCT(cktile_norm_args_t, sizeof(cktile_norm_args_t), 72);
CKTILE_PUBLIC_STRUCT(cktile_softmax_problem_t, sizeof(cktile_softmax_problem_t), 56);
CKTILE_PUBLIC_STRUCT(cktile_softmax_args_t, sizeof(cktile_softmax_args_t), 24);
CKTILE_PUBLIC_STRUCT(cktile_reduce_problem_t, sizeof(cktile_reduce_problem_t), 184);
CKTILE_PUBLIC_STRUCT(cktile_reduce_args_t, sizeof(cktile_reduce_args_t), 24);
CKTILE_PUBLIC_STRUCT(cktile_elementwise_problem_t, sizeof(cktile_elementwise_problem_t), 344);
CKTILE_PUBLIC_STRUCT(cktile_elementwise_args_t, sizeof(cktile_elementwise_args_t), 32);
CKTILE_PUBLIC_STRUCT(cktile_permute_problem_t, sizeof(cktile_permute_problem_t), 240);
CKTILE_PUBLIC_STRUCT(cktile_permute_args_t, sizeof(cktile_permute_args_t), 24);
#undef CKTILE_PUBLIC_STRUCT

template <typename T>
inline constexpr std::size_t first_layout_size = public_struct<T>::first_layout_size;

/// A T's defaults as a caller whose struct is `size` bytes long sees them: all zero, and set()
/// writes a default only into a field (or element) that lies wholly inside those bytes.
template <typename T>
class prefix_defaults
{
    public:
    explicit prefix_defaults(std::size_t size) : size_(size)
    {
        std::memset(static_cast<void*>(&value), 0, sizeof(value)); // padding too
    }

    T value;

    template <typename F>
    void set(F& field, const std::type_identity_t<F>& v)
    {
        const auto offset =
            reinterpret_cast<const char*>(&field) - reinterpret_cast<const char*>(&value);
        if(static_cast<std::size_t>(offset) + sizeof(F) <= size_)
            std::memcpy(&field, &v, sizeof(F));
    }

    private:
    std::size_t size_;
};

/// The defaults of a struct that has none but struct_size (all zero: the args structs).
inline constexpr auto no_defaults = [](auto&) {};

/// Fills the first `size` bytes at `p` (the caller's whole struct) and nothing past them: the
/// zero bytes and defaults of prefix_defaults, then struct_size = size. `defaults(d)` sets the
/// defaults through d.set(d.value.field, v). INVALID_ARGUMENT, with nothing written, for a size
/// below the first published layout or above this library's sizeof(T).
template <typename T, typename Defaults>
void init_prefix(T* p, std::size_t size, const char* name, Defaults&& defaults)
{
    using layout = public_struct<T>;
    require_pointer(p, name);
    if(size < layout::first_layout_size)
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "struct_size " + std::to_string(size) + " is smaller than " + layout::name +
                 "'s first published layout (" + std::to_string(layout::first_layout_size) +
                 " bytes); pass sizeof the struct");
    if(size > sizeof(T))
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "struct_size " + std::to_string(size) + " is larger than this library's " +
                 layout::name + " (" + std::to_string(sizeof(T)) +
                 " bytes): the caller was built against a newer cktile.h, and this library "
                 "cannot give defaults to the fields it added");
    prefix_defaults<T> d(size);
    defaults(d);
    d.set(d.value.struct_size, size);
    std::memcpy(static_cast<void*>(p), &d.value, size);
}

/// The whole of cktile_<x>_init_sized (`size` from the caller) and of the exported
/// cktile_<x>_init (first_layout_size<T>): init_prefix under guarded's error handling.
template <typename T, typename Defaults>
cktile_status_t guarded_init(const char* function, T* p, std::size_t size, const char* name,
                             Defaults&& defaults) noexcept
{
    return guarded(function, [&] {
        init_prefix(p, size, name, defaults);
        return CKTILE_STATUS_SUCCESS;
    });
}

} // namespace cktile::detail
