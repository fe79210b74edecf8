// SPDX-License-Identifier: MIT
// The command line: op, mode, options in every accepted spelling, and a clear message for
// every kind of mistake.
#include "command_line.hpp"
#include "profiler.hpp"
#include "session.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace cktile_profiler;

namespace {

command_line parse(std::vector<std::string> args) { return parse_command_line(args); }

/// The usage_error message `args` produce ("" when they parse).
std::string error_of(std::vector<std::string> args)
{
    try
    {
        parse_command_line(args);
    }
    catch(const usage_error& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(CommandLine, ParsesOpModeAndOptionsInBothForms)
{
    const command_line cl =
        parse({"gemm", "enumerate", "--m=5", "--n", "7", "--verify", "--no-vendor"});
    EXPECT_EQ(cl.op, "gemm");
    EXPECT_EQ(cl.mode, "enumerate");
    EXPECT_EQ(cl.text("m"), "5");
    EXPECT_EQ(cl.text("n"), "7");
    EXPECT_TRUE(cl.flag("verify", false));
    EXPECT_FALSE(cl.flag("vendor", true));
    EXPECT_TRUE(cl.flag("quiet", true)); // absent: the default
}

TEST(CommandLine, ModeDefaultsToProfileAndMayFollowOptions)
{
    EXPECT_EQ(parse({"gemm", "--m=1"}).mode, "profile");
    EXPECT_EQ(parse({"gemm", "--m=1", "select"}).mode, "select");
}

TEST(CommandLine, AcceptsTheLibraryLogSpellings)
{
    const command_line cl = parse({"gemm", "--a_type=fp16", "--compute_type=fp32", "--c_layout=row",
                                   "--batch_count=2", "--stride_bias=3"});
    EXPECT_EQ(cl.text("type-a"), "fp16");
    EXPECT_EQ(cl.text("type-compute"), "fp32");
    EXPECT_EQ(cl.text("layout-c"), "row");
    EXPECT_EQ(cl.text("batch"), "2");
    EXPECT_EQ(cl.text("stride-bias"), "3");
}

TEST(CommandLine, FlagsTakeBooleanValues)
{
    EXPECT_TRUE(parse({"gemm", "--verify=yes"}).flag("verify", false));
    EXPECT_FALSE(parse({"gemm", "--verify=off"}).flag("verify", true));
    EXPECT_NE(error_of({"gemm", "--verify=maybe"}).find("expected 1/0"), std::string::npos);
    EXPECT_NE(error_of({"gemm", "--no-verify=1"}).find("takes no value"), std::string::npos);
}

TEST(CommandLine, UnknownOptionSuggestsTheNearestOne)
{
    const std::string e = error_of({"gemm", "--mm=3"});
    EXPECT_NE(e.find("unknown option '--mm'"), std::string::npos) << e;
    EXPECT_NE(e.find("did you mean --m?"), std::string::npos) << e;
    EXPECT_NE(error_of({"gemm", "--layuot-a=row"}).find("--layout-a"), std::string::npos);
    EXPECT_EQ(error_of({"gemm", "--zzzzzzzzzz=1"}).find("did you mean"), std::string::npos);
}

TEST(CommandLine, RejectsUnknownOpAndMode)
{
    EXPECT_NE(error_of({"conv"}).find("unknown operation 'conv'"), std::string::npos);
    const std::string e = error_of({"gemm", "bench"});
    EXPECT_NE(e.find("unknown mode 'bench'"), std::string::npos) << e;
    EXPECT_NE(e.find("enumerate"), std::string::npos) << e;
    EXPECT_NE(error_of({"gemm", "select", "tune"}).find("unexpected argument 'tune'"),
              std::string::npos);
}

TEST(CommandLine, RejectsMissingEmptyAndRepeatedValues)
{
    EXPECT_NE(error_of({"gemm", "--m"}).find("--m needs a value"), std::string::npos);
    EXPECT_NE(error_of({"gemm", "--m", "--n=3"}).find("--m needs a value"), std::string::npos);
    EXPECT_NE(error_of({"gemm", "--m="}).find("is empty"), std::string::npos);
    EXPECT_NE(error_of({"gemm", "--m=1", "--m=2"}).find("given twice"), std::string::npos);
    // Two spellings of one option are the same option.
    EXPECT_NE(error_of({"gemm", "--type-a=f16", "--a_type=f16"}).find("given twice"),
              std::string::npos);
}

TEST(CommandLine, OptionsBeforeTheOpAreAnError)
{
    EXPECT_NE(error_of({"--m=3", "gemm"}).find("comes before the operation"), std::string::npos);
}

TEST(CommandLine, HelpAndVersionNeedNoOp)
{
    EXPECT_TRUE(parse({"--help"}).help);
    EXPECT_TRUE(parse({"gemm", "--help"}).help);
    EXPECT_TRUE(parse({"--version"}).version);
}

TEST(Help, ListsEveryOptionModeAndExitCode)
{
    const std::string h = gemm_help();
    for(const option_spec& o : gemm_options())
        EXPECT_NE(h.find("--" + o.name), std::string::npos) << o.name;
    for(const std::string& m : gemm_modes())
        EXPECT_NE(h.find("  " + m), std::string::npos) << m;
    EXPECT_NE(h.find("exit codes"), std::string::npos);
    for(const char* code : {"  0  ", "  1  ", "  2  no GPU", "  3  ", "  4  "})
        EXPECT_NE(h.find(code), std::string::npos) << code;
}

TEST(Help, RunProfilerPrintsHelpWithExitCodeZero)
{
    std::ostringstream out, err;
    EXPECT_EQ(run_profiler({"gemm", "--help"}, out, err), exit_ok);
    EXPECT_NE(out.str().find("usage: cktile-profiler gemm"), std::string::npos);
    std::ostringstream out2;
    EXPECT_EQ(run_profiler({}, out2, err), exit_usage); // nothing to do is a usage error
    EXPECT_NE(out2.str().find("usage: cktile-profiler <op>"), std::string::npos);
}

TEST(Help, UsageErrorsExitWithCodeThreeAndSayWhy)
{
    std::ostringstream out, err;
    EXPECT_EQ(run_profiler({"gemm", "--m=0:-5"}, out, err), exit_usage);
    EXPECT_NE(err.str().find("--m: '0:-5' is an empty range"), std::string::npos) << err.str();
    std::ostringstream err2;
    EXPECT_EQ(run_profiler({"gemm", "--iters=0"}, out, err2), exit_usage);
    EXPECT_NE(err2.str().find("--iters=0: expected an integer of at least 1"), std::string::npos)
        << err2.str();
    std::ostringstream err3;
    EXPECT_EQ(run_profiler({"gemm", "--csv=-", "--json=-"}, out, err3), exit_usage);
    std::ostringstream err4;
    EXPECT_EQ(run_profiler({"gemm", "--steady-ms=-1"}, out, err4), exit_usage);
    EXPECT_NE(err4.str().find("--steady-ms=-1: expected an integer of at least 0"),
              std::string::npos)
        << err4.str();
    std::ostringstream err5;
    EXPECT_EQ(run_profiler({"gemm", "--rounds=0"}, out, err5), exit_usage);
    EXPECT_NE(err5.str().find("--rounds=0: expected an integer of at least 1"), std::string::npos)
        << err5.str();
}

TEST(Replay, ProfileKeepsTheTimingOptionsThatAreNotTheDefaults)
{
    const command_line plain      = parse({"gemm", "profile", "--m=64", "--n=32", "--k=16"});
    const cktile_gemm_problem_t p = make_gemm_problem(gemm_sweep(plain).point(0));
    const std::string as_default  = replay_command(read_settings(plain), p, "x");
    EXPECT_EQ(as_default.find("--rounds"), std::string::npos) << as_default;
    EXPECT_EQ(as_default.find("--iters"), std::string::npos) << as_default;

    const command_line timed =
        parse({"gemm", "profile", "--m=64", "--n=32", "--k=16", "--iters=40", "--rounds=3"});
    EXPECT_EQ(read_settings(timed).rounds, 3);
    const std::string replay = replay_command(read_settings(timed), p, "x");
    EXPECT_NE(replay.find(" --iters=40"), std::string::npos) << replay;
    EXPECT_NE(replay.find(" --rounds=3"), std::string::npos) << replay;
}
