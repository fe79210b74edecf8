// SPDX-License-Identifier: MIT
// cktile-profiler: see profiler/README.md, or run cktile-profiler gemm --help.
#include "profiler.hpp"

#include <iostream>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(true);
    return cktile_profiler::run_profiler(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                         std::cerr);
}
