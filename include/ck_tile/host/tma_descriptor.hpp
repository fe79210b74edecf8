// SPDX-License-Identifier: MIT
// Building the tensor map (CUtensorMap) that the Hopper copy engine's tile copies read: the
// host half of core/arch/nvidia/tma.hpp.
//
// The map is encoded by the driver's cuTensorMapEncodeTiled, reached through the runtime's
// driver entry-point query, so nothing links libcuda directly. Kernels take the result by value
// as `const __grid_constant__ CUtensorMap`.
//
// Dimensions are listed innermost first (the tensor map's order): for a row-major R x C matrix,
// dims = {C, R} and strides_bytes[1] = the row pitch in bytes. The requirements of the driver
// API are checked here first, so a bad spec fails with a sentence naming the rule instead of a
// bare CUDA_ERROR_INVALID_VALUE.
//
// Builds without the CUDA runtime (host-only, HIP) compile this header too: the checks work,
// and encoding reports that this platform has no tensor maps.
#pragma once

#include "ck_tile/core/arch/nvidia/smem_swizzle.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/host/hip_check.hpp"
#include "ck_tile/host/hip_runtime.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#if defined(CK_TILE_RUNTIME_CUDA)
#include <cuda.h>
#include <cudaTypedefs.h>
#endif

namespace ck_tile {

#if defined(CK_TILE_RUNTIME_CUDA)
/// The opaque 128-byte tensor map (at least 64-byte aligned).
using tma_descriptor = CUtensorMap;
#else
/// Stand-in with CUtensorMap's size and alignment where the CUDA headers are absent.
struct alignas(64) tma_descriptor
{
    uint64_t opaque[16];
};
#endif
static_assert(sizeof(tma_descriptor) == 128 && alignof(tma_descriptor) >= 64,
              "the driver requires 64-byte aligned tensor maps (CUDA 13 declares 128)");

/// Element types of a tensor map; the values are CUtensorMapDataType's.
enum class tma_element : uint32_t
{
    u8       = 0,
    u16      = 1,
    u32      = 2,
    s32      = 3,
    u64      = 4,
    s64      = 5,
    f16      = 6,
    f32      = 7,
    f64      = 8,
    bf16     = 9,
    f32_ftz  = 10,
    tf32     = 11,
    tf32_ftz = 12,
};

/// L2 promotion hint: how much the L2 fetches around each request; the values are
/// CUtensorMapL2promotion's.
enum class tma_l2_promotion : uint32_t
{
    none = 0,
    b64  = 1,
    b128 = 2,
    b256 = 3,
};

/// The promotion for rows `row_bytes` apart read in boxes of 128-byte rows: 256 bytes when rows
/// start on 128-byte lines, else 128. A row off the lines makes every 128-byte box row span two
/// lines, and fetching 256 bytes around each of them then moved more than it saved (on the H100
/// at 3000^3 fp16, lda = 3000: 0.141 ms with 128-byte promotion, 0.160 with 256, 0.150 with
/// none; aligned rows ran the same either way).
inline constexpr tma_l2_promotion tma_l2_promotion_for_rows(uint64_t row_bytes)
{
    return row_bytes % 128 == 0 ? tma_l2_promotion::b256 : tma_l2_promotion::b128;
}

/// Bytes per element of a tensor-map element type.
inline constexpr std::size_t tma_element_bytes(tma_element e)
{
    switch(e)
    {
    case tma_element::u8:
        return 1;
    case tma_element::u16:
    case tma_element::f16:
    case tma_element::bf16:
        return 2;
    case tma_element::u64:
    case tma_element::s64:
    case tma_element::f64:
        return 8;
    default:
        return 4;
    }
}

inline constexpr bool tma_element_is_float(tma_element e)
{
    return e == tma_element::f16 || e == tma_element::f32 || e == tma_element::f64 ||
           e == tma_element::bf16 || e == tma_element::f32_ftz || e == tma_element::tf32 ||
           e == tma_element::tf32_ftz;
}

/// The element type that copies T bit for bit. 8-bit floats travel as u8 (the copy engine has
/// no fp8 type and needs none: it converts nothing).
template <typename T>
inline constexpr tma_element tma_element_of()
{
    if constexpr(std::is_same_v<T, half_t>)
        return tma_element::f16;
    else if constexpr(std::is_same_v<T, bf16_t>)
        return tma_element::bf16;
    else if constexpr(std::is_same_v<T, float>)
        return tma_element::f32;
    else if constexpr(std::is_same_v<T, double>)
        return tma_element::f64;
    else if constexpr(std::is_same_v<T, int32_t>)
        return tma_element::s32;
    else if constexpr(std::is_same_v<T, int64_t>)
        return tma_element::s64;
    else if constexpr(sizeof(T) == 1)
        return tma_element::u8;
    else if constexpr(sizeof(T) == 2)
        return tma_element::u16;
    else if constexpr(sizeof(T) == 4)
        return tma_element::u32;
    else
    {
        static_assert(sizeof(T) == 8, "tma_element_of: elements are 1, 2, 4 or 8 bytes");
        return tma_element::u64;
    }
}

/// A tiled tensor map: the global tensor, the box one copy moves, and the shared-memory layout.
struct tma_tile_spec
{
    tma_element element        = tma_element::u8;
    uint32_t rank              = 2; ///< 1..5
    const void* global_address = nullptr;
    uint64_t dims[5]           = {}; ///< elements per dimension, innermost first
    /// Bytes between consecutive indices of dimension i, for i >= 1 (dimension 0 is packed;
    /// strides_bytes[0] is ignored).
    uint64_t strides_bytes[5]   = {};
    uint32_t box[5]             = {};              ///< box extent per dimension, in elements
    uint32_t element_strides[5] = {1, 1, 1, 1, 1}; ///< traversal step per dimension
    smem_swizzle swizzle        = smem_swizzle::none;
    tma_l2_promotion l2         = tma_l2_promotion::none;
    /// Out-of-range elements of a load read as zero; with this set, as NaN (floating types).
    bool oob_fill_nan = false;

    /// Bytes one load of the box writes to shared memory (what mbarrier_arrive_expect_tx
    /// announces), element strides taken into account.
    std::size_t box_bytes() const
    {
        std::size_t n = tma_element_bytes(element);
        for(uint32_t i = 0; i < rank && i < 5; ++i)
            n *= (box[i] + element_strides[i] - 1) / element_strides[i];
        return n;
    }
};

/// Why the driver would reject `s` (cuTensorMapEncodeTiled's documented requirements, for the
/// non-interleaved layouts this header builds), or an empty string when it meets them all.
inline std::string tma_tile_spec_error(const tma_tile_spec& s)
{
    const auto str = [](uint64_t v) { return std::to_string(v); };
    if(s.rank < 1 || s.rank > 5)
        return "rank " + str(s.rank) + " is outside 1..5";
    if(s.global_address == nullptr)
        return "global_address is null";
    if(reinterpret_cast<std::uintptr_t>(s.global_address) % 16 != 0)
        return "global_address is not 16-byte aligned";
    const uint64_t elem = tma_element_bytes(s.element);
    for(uint32_t i = 0; i < s.rank; ++i)
    {
        const std::string d = "dimension " + str(i) + ": ";
        if(s.dims[i] == 0 || s.dims[i] > (uint64_t{1} << 32))
            return d + "size " + str(s.dims[i]) + " is outside 1..2^32";
        if(i > 0 && (s.strides_bytes[i] % 16 != 0 || s.strides_bytes[i] >= (uint64_t{1} << 40)))
            return d + "stride " + str(s.strides_bytes[i]) +
                   " bytes is not a multiple of 16 below 2^40";
        if(s.box[i] == 0 || s.box[i] > 256)
            return d + "box extent " + str(s.box[i]) + " is outside 1..256";
        if(s.element_strides[i] == 0 || s.element_strides[i] > 8)
            return d + "element stride " + str(s.element_strides[i]) + " is outside 1..8";
    }
    const uint64_t inner = s.box[0] * elem;
    if(inner % 16 != 0)
        return "the box's inner extent (" + str(inner) + " bytes) is not a multiple of 16 bytes";
    if(s.swizzle != smem_swizzle::none && inner > smem_swizzle_span_bytes(s.swizzle))
        return "the box's inner extent (" + str(inner) + " bytes) exceeds the swizzle span (" +
               str(smem_swizzle_span_bytes(s.swizzle)) + " bytes)";
    if(s.oob_fill_nan && !tma_element_is_float(s.element))
        return "NaN fill of out-of-range elements needs a floating-point element type";
    return {};
}

#if defined(CK_TILE_RUNTIME_CUDA)
namespace detail {
/// cuTensorMapEncodeTiled from the driver the runtime loaded, resolved once (thread-safe static
/// initialization); null if the driver lacks it (before CUDA 12.0).
inline PFN_cuTensorMapEncodeTiled_v12000 tma_encode_tiled_entry_point()
{
    static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
        void* p                              = nullptr;
        cudaDriverEntryPointQueryResult qres = cudaDriverEntryPointSymbolNotFound;
        const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                               cudaEnableDefault, &qres);
        if(e != cudaSuccess || qres != cudaDriverEntryPointSuccess)
        {
            (void)cudaGetLastError();
            return static_cast<PFN_cuTensorMapEncodeTiled_v12000>(nullptr);
        }
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    }();
    return fn;
}
} // namespace detail
#endif

/// Encodes `s` into `*out`.
/// @post hipSuccess and *out is valid, or an error with `*reason` (when given) saying why: a
///       broken requirement (hipErrorInvalidValue), no driver entry point
///       (hipErrorInsufficientDriver), or no tensor maps on this platform.
inline hipError_t encode_tma_descriptor(const tma_tile_spec& s, tma_descriptor* out,
                                        std::string* reason = nullptr)
{
    const auto fail = [&](hipError_t e, std::string why) {
        if(reason)
            *reason = std::move(why);
        return e;
    };
    if(out == nullptr)
        return fail(hipErrorInvalidValue, "output descriptor is null");
    if(std::string why = tma_tile_spec_error(s); !why.empty())
        return fail(hipErrorInvalidValue, "tensor map: " + why);
#if defined(CK_TILE_RUNTIME_CUDA)
    const auto encode = detail::tma_encode_tiled_entry_point();
    if(encode == nullptr)
        return fail(hipErrorInsufficientDriver,
                    "the CUDA driver does not provide cuTensorMapEncodeTiled (needs 12.0+)");
    cuuint64_t dims[5]    = {};
    cuuint64_t strides[5] = {};
    cuuint32_t box[5]     = {};
    cuuint32_t estr[5]    = {};
    for(uint32_t i = 0; i < s.rank; ++i)
    {
        dims[i] = s.dims[i];
        box[i]  = s.box[i];
        estr[i] = s.element_strides[i];
        if(i > 0)
            strides[i - 1] = s.strides_bytes[i];
    }
    const CUresult r = encode(out, static_cast<CUtensorMapDataType>(s.element), s.rank,
                              const_cast<void*>(s.global_address), dims, strides, box, estr,
                              CU_TENSOR_MAP_INTERLEAVE_NONE,
                              static_cast<CUtensorMapSwizzle>(static_cast<uint32_t>(s.swizzle)),
                              static_cast<CUtensorMapL2promotion>(static_cast<uint32_t>(s.l2)),
                              s.oob_fill_nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                             : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if(r != CUDA_SUCCESS)
        return fail(hipErrorInvalidValue,
                    "cuTensorMapEncodeTiled failed with CUresult " + std::to_string(r));
    return hipSuccess;
#elif defined(CK_TILE_RUNTIME_NONE)
    return fail(hipErrorNoDevice, "this build has no GPU platform, hence no tensor maps");
#else
    return fail(hipErrorInvalidDevice, "tensor maps exist only on NVIDIA sm_90 and later");
#endif
}

/// encode_tma_descriptor, throwing ck_tile::hip_error with the reason on failure.
inline tma_descriptor make_tma_descriptor(const tma_tile_spec& s)
{
    tma_descriptor d{};
    std::string why;
    const hipError_t e = encode_tma_descriptor(s, &d, &why);
    if(e != hipSuccess)
        throw hip_error(e, why);
    return d;
}

/// make_tma_descriptor through a small per-thread cache of recent specs. Encoding a map is a
/// driver call of about a microsecond; a kernel that builds its maps on every launch would
/// spend more host time than a small GEMM takes on the GPU, while callers mostly cycle
/// through a few buffers. Entries are exact: every field of the spec is compared.
inline tma_descriptor make_tma_descriptor_cached(const tma_tile_spec& s)
{
    struct entry
    {
        tma_tile_spec spec;
        tma_descriptor map;
        bool used = false;
    };
    constexpr std::size_t capacity = 64;
    thread_local entry cache[capacity];
    thread_local std::size_t next = 0;
    const auto same               = [](const tma_tile_spec& x, const tma_tile_spec& y) {
        if(x.element != y.element || x.rank != y.rank || x.global_address != y.global_address ||
           x.swizzle != y.swizzle || x.l2 != y.l2 || x.oob_fill_nan != y.oob_fill_nan)
            return false;
        for(uint32_t i = 0; i < 5; ++i)
            if(x.dims[i] != y.dims[i] || x.strides_bytes[i] != y.strides_bytes[i] ||
               x.box[i] != y.box[i] || x.element_strides[i] != y.element_strides[i])
                return false;
        return true;
    };
    for(const entry& e : cache)
        if(e.used && same(e.spec, s))
            return e.map;
    entry& e = cache[next];
    next     = (next + 1) % capacity;
    e.map    = make_tma_descriptor(s); // throws before the entry is marked used
    e.spec   = s;
    e.used   = true;
    return e.map;
}

/// The spec of a row-major rows x cols matrix of T (row pitch `ld` elements) copied in boxes of
/// box_rows x box_cols.
template <typename T>
inline tma_tile_spec make_tma_tile_spec_2d(const T* base, uint64_t rows, uint64_t cols, uint64_t ld,
                                           uint32_t box_rows, uint32_t box_cols,
                                           smem_swizzle swizzle = smem_swizzle::none)
{
    tma_tile_spec s;
    s.element          = tma_element_of<T>();
    s.rank             = 2;
    s.global_address   = base;
    s.dims[0]          = cols;
    s.dims[1]          = rows;
    s.strides_bytes[1] = ld * sizeof(T);
    s.box[0]           = box_cols;
    s.box[1]           = box_rows;
    s.swizzle          = swizzle;
    return s;
}

#if defined(CK_TILE_RUNTIME_CUDA)
// The enum values above are the driver's, so they are passed through unchanged.
static_assert(static_cast<uint32_t>(tma_element::bf16) == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
static_assert(static_cast<uint32_t>(tma_element::tf32_ftz) == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ);
static_assert(static_cast<uint32_t>(smem_swizzle::b128) == CU_TENSOR_MAP_SWIZZLE_128B);
static_assert(static_cast<uint32_t>(smem_swizzle::b32) == CU_TENSOR_MAP_SWIZZLE_32B);
static_assert(static_cast<uint32_t>(tma_l2_promotion::b256) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
#endif

} // namespace ck_tile
