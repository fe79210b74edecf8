// SPDX-License-Identifier: MIT
// Shared by every gpu-labelled test: skip, with the reason, where no GPU can run the test.
#pragma once

#include "ck_tile/host/device_query.hpp"

#include <gtest/gtest.h>

/// First statement of a gpu test: GTEST_SKIP()s with the runtime's reason when no device is
/// present, so CI (no GPU) reports the test as skipped instead of failed.
#define CKTILE_SKIP_WITHOUT_GPU()                                                                  \
    do                                                                                             \
    {                                                                                              \
        const auto cktile_gpu_ = ::ck_tile::query_gpu_availability();                              \
        if(!cktile_gpu_.present)                                                                   \
            GTEST_SKIP() << cktile_gpu_.reason;                                                    \
    } while(0)
