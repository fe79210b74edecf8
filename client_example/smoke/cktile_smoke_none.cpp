// SPDX-License-Identifier: MIT
// cktile-smoke in a build without a GPU platform: says so and exits with code 2.
#include "ck_tile/host/device_query.hpp"

#include <cstdio>

int main()
{
    std::printf("cktile-smoke: %s; nothing to run.\n",
                ck_tile::query_gpu_availability().reason.c_str());
    return 2;
}
