// SPDX-License-Identifier: MIT
// Without a GPU, the modes that run kernels say so and exit with code 2; usage errors are
// still reported first (code 3). The device is hidden from this process before the runtime
// starts, so the test means the same on a machine that has one.
#include "profiler.hpp"

#include "ck_tile/host/device_query.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

using namespace cktile_profiler;

namespace {

class NoDevice : public ::testing::Test
{
    protected:
    void SetUp() override
    {
        // Each ctest entry is a process of its own: the runtime has not started yet.
        setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
        setenv("HIP_VISIBLE_DEVICES", "-1", 1);
        if(ck_tile::query_gpu_availability().present)
            GTEST_SKIP() << "a device is still visible (the runtime started before the "
                            "environment could hide it)";
    }

    int run(std::vector<std::string> args)
    {
        out_.str(""), err_.str("");
        return run_profiler(args, out_, err_);
    }
    std::ostringstream out_, err_;
};

} // namespace

TEST_F(NoDevice, ProfileTuneAndOverheadExitWithCodeTwoAndSayWhy)
{
    for(const char* mode : {"profile", "tune", "overhead"})
    {
        EXPECT_EQ(run({"gemm", mode, "--m=64"}), exit_no_device) << mode;
        EXPECT_NE(err_.str().find("no GPU device present"), std::string::npos) << err_.str();
        EXPECT_NE(err_.str().find(std::string(mode) + " runs kernels and needs a GPU"),
                  std::string::npos)
            << err_.str();
        EXPECT_EQ(out_.str(), ""); // no table for what did not run
    }
    EXPECT_EQ(run({"gemm", "--verify"}), exit_no_device); // profile is the default mode
}

TEST_F(NoDevice, EnumerateWithoutATargetPointsToTheOfflineOption)
{
    EXPECT_EQ(run({"gemm", "enumerate"}), exit_no_device);
    EXPECT_NE(err_.str().find("--target="), std::string::npos) << err_.str();
}

TEST_F(NoDevice, UsageErrorsComeFirst)
{
    EXPECT_EQ(run({"gemm", "profile", "--m=abc"}), exit_usage);
    EXPECT_NE(err_.str().find("--m: 'abc' is not an integer"), std::string::npos) << err_.str();
}
