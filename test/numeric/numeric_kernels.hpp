// SPDX-License-Identifier: MIT
// Host-callable launchers for the numeric device tests (numeric_kernels.cpp is the only file
// here that the device compiler sees).
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

#include <cstddef>
#include <cstdint>

namespace cktile_numeric_test {

/// Number of conversions narrow_from_float writes per input.
inline constexpr int narrow_kinds = 6;

/// For each in[i], writes the codes of type_convert into, in order: half_t, bf16_t, fp8_t and
/// bf8_t with their default overflow (the hardware-backed ones where the device has them), then
/// fp8_t and bf8_t non-saturating. out[k * n + i] for kind k.
hipError_t launch_narrow_from_float(const float* in, uint16_t* out, std::size_t n,
                                    hipStream_t stream);

/// For each code c = codes[i], writes type_convert<float> of c read as half_t, bf16_t, fp8_t
/// (low byte) and bf8_t (low byte): out[k * n + i] for kind k = 0..3.
hipError_t launch_widen_to_float(const uint16_t* codes, float* out, std::size_t n,
                                 hipStream_t stream);

/// Results of buffer_view_ops, for `threads` threads in one block reading `src` (`src_size`
/// floats) through a global buffer view.
struct buffer_view_results
{
    float loaded[4 * 256]; ///< thread t: get<float4>(4 t, 0, true)
    float lds_sum;         ///< lds view: every thread atomic_add 1.0f
    float lds_max;         ///< lds view: every thread atomic_max float(t)
    float lds_half_sum;    ///< lds view of half_t: every thread atomic_add 0.5
    float global_sum;      ///< global view: every thread atomic_add 1.0f
    int32_t global_max;    ///< global view of int32: every thread atomic_max t
    float global_bf16_sum; ///< global view of bf16_t: every thread atomic_add 1.0
    float oob_untouched;   ///< a guard element after the global sum, written out of bounds
    float invalid_read;    ///< custom invalid value read past the end
};

/// One block of `threads` (<= 256) threads exercising buffer_view get/set/update on device.
/// `scratch` is device memory for 8 floats (zeroed by the launcher), `res` receives the results.
hipError_t launch_buffer_view_ops(const float* src, int src_size, float* scratch,
                                  buffer_view_results* res, int threads, hipStream_t stream);

} // namespace cktile_numeric_test
