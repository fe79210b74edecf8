// SPDX-License-Identifier: MIT
// Hardware conversions between float and the narrow formats, where the GPU has an instruction
// whose results are bit-identical to the software conversion in numeric/fp_convert.hpp for every
// non-NaN input. A NaN input must give a NaN; its sign and payload may differ from the software
// path's (instructions return a canonical NaN). test/numeric/test_fp_conversions_gpu checks this.
//
// arch::float_to_fp_hw<Format, Mode> and arch::fp_to_float_hw<Format> say `available` and, when
// they are, offer a device function `convert`. The platform headers specialize them;
// numeric/float_cast.hpp uses them in device code only (constant evaluation and host code always
// take the software path).
#pragma once

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/fp_format.hpp"

namespace ck_tile::arch {
/// float -> code of Format, rounding to nearest even, overflow as Mode.
template <typename Format, overflow_mode Mode>
struct float_to_fp_hw
{
    static constexpr bool available = false;
};
/// code of Format -> float, exact.
template <typename Format>
struct fp_to_float_hw
{
    static constexpr bool available = false;
};
} // namespace ck_tile::arch

#if defined(CK_TILE_PLATFORM_NVIDIA)
#include "ck_tile/core/arch/nvidia/convert.hpp"
#elif defined(CK_TILE_PLATFORM_AMD)
#include "ck_tile/core/arch/amd/convert.hpp"
#endif
