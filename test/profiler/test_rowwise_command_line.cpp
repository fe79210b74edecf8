// SPDX-License-Identifier: MIT
// cktile-profiler norm | softmax | reduce: options become the C API problems they describe,
// mistakes name the option, bytes moved count each tensor once, and the replay options rebuild
// the same problem. None needs a GPU.
#include "command_line.hpp"
#include "profiler.hpp"
#include "rowwise_profiler.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

using namespace cktile_profiler;

namespace {

std::string usage_message(const std::vector<std::string>& args)
{
    try
    {
        parse_rowwise_command_line(args);
    }
    catch(const usage_error& e)
    {
        return e.what();
    }
    return "";
}

std::vector<std::string> words(const std::string& op, const std::string& options)
{
    std::vector<std::string> out{op};
    std::istringstream in(options);
    for(std::string w; in >> w;)
        out.push_back(w);
    return out;
}

TEST(RowwiseCommandLine, ProblemsFromOptions)
{
    EXPECT_TRUE(is_rowwise_op({"reduce", "--rows=4"}));
    EXPECT_FALSE(is_rowwise_op({"gemm"}));

    auto s = parse_rowwise_command_line(
        {"reduce", "profile", "--rows=32768", "--cols", "4096", "--op=max", "--verify"});
    EXPECT_EQ(s.problem.reduce.rank, 2);
    EXPECT_EQ(s.problem.reduce.reduce_mask, 0b10u);
    EXPECT_EQ(s.problem.reduce.op, CKTILE_REDUCE_MAX);
    EXPECT_TRUE(s.verify);
    // Read-only bytes plus the outputs: 32768 * 4096 * 2 + 32768 * 2.
    EXPECT_EQ(s.problem.bytes_moved(), 32768LL * 4096 * 2 + 32768 * 2);

    s = parse_rowwise_command_line({"reduce", "--dims=4x5x6", "--axes=0,2", "--type=bf16",
                                    "--type-y=f32", "--op=sum_squares"});
    EXPECT_EQ(s.problem.reduce.reduce_mask, 0b101u);
    EXPECT_EQ(s.problem.reduce.x_strides[0], 30);
    EXPECT_EQ(s.problem.reduce.y_strides[1], 1);
    EXPECT_EQ(s.problem.reduce.y_type, CKTILE_DATATYPE_FP32);
    EXPECT_EQ(s.problem.text(), "4x5x6 bf16->f32 sum_squares axes 0 2");
    // The replay options rebuild the same problem.
    const auto again = parse_rowwise_command_line(words("reduce", s.problem.options()));
    EXPECT_EQ(again.problem.options(), s.problem.options());
    EXPECT_EQ(again.problem.reduce.reduce_mask, 0b101u);

    s = parse_rowwise_command_line({"norm", "--rows=8", "--cols=64", "--kind=layernorm", "--bias"});
    EXPECT_EQ(s.problem.norm.kind, CKTILE_NORM_LAYERNORM);
    EXPECT_EQ(s.problem.bytes_moved(), 8 * 64 * 4 + 64 * 2 * 2);
    EXPECT_EQ(parse_rowwise_command_line(words("norm", s.problem.options())).problem.options(),
              s.problem.options());

    s = parse_rowwise_command_line({"softmax", "--rows=1048576", "--cols=64"});
    EXPECT_EQ(s.problem.bytes_moved(), 1048576LL * 64 * 4);
    EXPECT_EQ(s.problem.text(), "1048576x64 f16->f16");
}

TEST(RowwiseCommandLine, MistakesNameTheOption)
{
    EXPECT_NE(usage_message({"reduce", "--op=median"}).find("--op=median"), std::string::npos);
    EXPECT_NE(usage_message({"reduce", "--dims=4x5", "--axes=2"}).find("axis 2"),
              std::string::npos);
    EXPECT_NE(usage_message({"reduce", "--axes=0"}).find("--axes needs --dims"), std::string::npos);
    EXPECT_NE(usage_message({"softmax", "--kind=layernorm"}).find("unknown option"),
              std::string::npos);
    EXPECT_NE(usage_message({"norm", "--rows=0"}).find("--rows=0"), std::string::npos);
    EXPECT_NE(usage_message({"softmax", "--type=i8"}).find("--type=i8"), std::string::npos);
    EXPECT_NE(usage_message({"softmax", "--rows=2", "--rows=3"}).find("given twice"),
              std::string::npos);
    EXPECT_NE(usage_message({"reduce", "tune"}).find("one mode, profile"), std::string::npos);
}

TEST(RowwiseCommandLine, HelpAndExitCodesThroughTheProfiler)
{
    std::ostringstream out, err;
    EXPECT_EQ(run_profiler({"reduce", "--help"}, out, err), exit_ok);
    EXPECT_NE(out.str().find("--axes"), std::string::npos);
    EXPECT_EQ(out.str().find("--kind"), std::string::npos) << "norm's options are not reduce's";
    EXPECT_EQ(run_profiler({"softmax", "--bogus=1"}, out, err), exit_usage);
    EXPECT_NE(err.str().find("--bogus"), std::string::npos);
}

} // namespace
