// SPDX-License-Identifier: MIT
#pragma once

#include "ck_tile/host/hip_runtime.hpp"

namespace ck_tile {

/// How launch_kernel runs a kernel: on which stream, and whether (and how) to time it.
/// Field order follows ck_tile so `stream_config{nullptr, true, 0, 0, 1}` means: default
/// stream, time it, no log, no cold (warm-up) runs, one timed repetition.
struct stream_config
{
    hipStream_t stream_id_ = nullptr;
    bool time_kernel_      = false;
    int log_level_         = 0;
    int cold_niters_       = 3;
    int nrepeat_           = 10;
};

} // namespace ck_tile
