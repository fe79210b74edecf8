// SPDX-License-Identifier: MIT
// Host side of the platform seam: availability reporting, error conversion, device memory
// failure paths, logging configuration. Runs on machines with and without a GPU.
#include "logging.hpp"

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/hip_check.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

TEST(PlatformSeam, AvailabilityIsConsistent)
{
    const auto a = ck_tile::query_gpu_availability();
    EXPECT_EQ(a.present, a.device_count > 0);
    EXPECT_EQ(a.present, a.reason.empty());
    if(!a.present)
    {
        EXPECT_NE(a.reason.find("no GPU"), std::string::npos) << a.reason;
    }
}

TEST(PlatformSeam, HipCheckThrowsWithCallAndReason)
{
    EXPECT_NO_THROW(HIP_CHECK_ERROR(hipSuccess));
    try
    {
        HIP_CHECK_ERROR(hipErrorInvalidValue);
        FAIL() << "HIP_CHECK_ERROR did not throw";
    }
    catch(const ck_tile::hip_error& e)
    {
        EXPECT_EQ(e.status(), hipErrorInvalidValue);
        EXPECT_NE(std::string(e.what()).find("hipErrorInvalidValue"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("test_platform_seam.cpp"), std::string::npos);
    }
}

TEST(PlatformSeam, DeviceMemoryReportsMissingDevice)
{
    if(ck_tile::query_gpu_availability().present)
        GTEST_SKIP() << "a GPU is present; this test covers the no-device path";
    EXPECT_THROW(ck_tile::DeviceMem(1024), ck_tile::hip_error);
    ck_tile::DeviceMem empty; // zero bytes never touches the runtime
    EXPECT_EQ(empty.GetBufferSize(), 0u);
    EXPECT_NO_THROW(empty.SetZero());
}

TEST(PlatformSeam, HostWarpSizeMatchesPlatform)
{
    // The build sets the host's view of the warp size from the GPU platform it targets.
#if defined(CK_TILE_RUNTIME_HIP)
    EXPECT_EQ(ck_tile::get_warp_size(), 64);
#else
    EXPECT_EQ(ck_tile::get_warp_size(), 32);
#endif
    static_assert(ck_tile::is_warp_size_v<ck_tile::get_warp_size()>);
}

TEST(Logging, LevelNamesParse)
{
    using cktile::detail::parse_log_level;
    EXPECT_EQ(parse_log_level("trace"), spdlog::level::trace);
    EXPECT_EQ(parse_log_level("DEBUG"), spdlog::level::debug);
    EXPECT_EQ(parse_log_level("info"), spdlog::level::info);
    EXPECT_EQ(parse_log_level("warning"), spdlog::level::warn);
    EXPECT_EQ(parse_log_level("error"), spdlog::level::err);
    EXPECT_EQ(parse_log_level(""), spdlog::level::off);
    EXPECT_EQ(parse_log_level("verbose"), spdlog::level::off);
}

TEST(Logging, OffByDefaultAndWritesToFileWhenAsked)
{
    EXPECT_EQ(cktile::detail::make_logger("", "")->level(), spdlog::level::off);
    const auto path = std::filesystem::temp_directory_path() /
                      ("cktile_log_test_" +
                       std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".log");
    std::filesystem::remove(path);
    {
        auto log = cktile::detail::make_logger("info", path.string());
        log->info("hello {}", 42);
        log->debug("not written at info level");
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("hello 42"), std::string::npos);
    EXPECT_EQ(text.str().find("not written"), std::string::npos);
    std::filesystem::remove(path);
}

TEST(Logging, UnwritableFileFallsBackToStderr)
{
    auto log = cktile::detail::make_logger("warn", "/nonexistent-dir/cktile.log");
    ASSERT_NE(log, nullptr);
    EXPECT_EQ(log->level(), spdlog::level::warn);
}
