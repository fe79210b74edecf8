// SPDX-License-Identifier: MIT
// enumerate and select for a named target, without a device: the table, CSV and JSON they
// write read back to the same rows, and every row's replay command reruns exactly that row.
#include "profiler.hpp"

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace cktile_profiler;

namespace {

// The primary GPU target of this build ("" in a host-only build: these tests skip).
const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;

#define SKIP_WITHOUT_KERNEL_LIBRARY()                                                              \
    do                                                                                             \
    {                                                                                              \
        if(offline_target.empty())                                                                 \
            GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";         \
    } while(0)

struct run_result
{
    int code;
    std::string out, err;
};

run_result run(std::vector<std::string> args)
{
    std::ostringstream out, err;
    const int code = run_profiler(args, out, err);
    return {code, out.str(), err.str()};
}

std::string read_file(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for(std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> cells(const std::string& line, char sep)
{
    std::vector<std::string> c;
    std::stringstream in(line);
    for(std::string x; std::getline(in, x, sep);)
        c.push_back(trim(x));
    return c;
}

/// A replay command's arguments (the commands quote nothing for these problems).
std::vector<std::string> replay_args(const std::string& replay)
{
    std::istringstream in(replay);
    std::vector<std::string> args;
    for(std::string w; in >> w;)
        args.push_back(w);
    EXPECT_EQ(args.at(0), "cktile-profiler");
    args.erase(args.begin());
    return args;
}

std::string temp_path(const std::string& name)
{
    return ::testing::TempDir() + "cktile_profiler_" + name;
}

} // namespace

TEST(Enumerate, TableCsvAndJsonAgreeRowForRow)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    const std::string csv = temp_path("enumerate.csv"), json = temp_path("enumerate.json");
    const run_result r = run({"gemm", "enumerate", "--target=" + offline_target, "--m=100,128",
                              "--n=64", "--k=33", "--csv=" + csv, "--json=" + json});
    ASSERT_EQ(r.code, exit_ok) << r.err;

    const auto j                = nlohmann::json::parse(read_file(json));
    const auto& rows            = j["results"];
    const std::size_t instances = j["context"]["gemm_instances"].get<std::size_t>();
    ASSERT_GT(instances, 0u);
    ASSERT_EQ(rows.size(), 2 * instances); // every instance, for each of the two problems
    EXPECT_EQ(j["mode"], "enumerate");
    EXPECT_EQ(j["context"]["target"], offline_target);
    EXPECT_EQ(j["context"]["device"], -1);
    int supported = 0;
    for(const auto& row : rows)
    {
        EXPECT_EQ(row["type_a"], "f16");
        EXPECT_EQ(row["k"], 33);
        // A Hopper instance's epilogue column is its name's last words (the instance lists'
        // epilogue set: fused, none, alpha, bias, bias_<activation>, and those with _c).
        const std::string name = row["instance"];
        if(name.rfind("gemm_wgmma_", 0) == 0)
        {
            EXPECT_TRUE(name.ends_with("_" + row["epilogue"].get<std::string>()))
                << name << ": " << row["epilogue"];
        }
        if(row["supported"].get<bool>())
        {
            ++supported;
            EXPECT_EQ(row["reason"], "");
        }
        else
            EXPECT_FALSE(row["reason"].get<std::string>().empty()) << row["instance"];
    }
    EXPECT_GE(supported, 2); // the general f16 instance runs both problems
    ASSERT_EQ(j["summary"].size(), 2u);

    // CSV: same rows, same order.
    const auto csv_lines = lines_of(read_file(csv));
    ASSERT_EQ(csv_lines.size(), rows.size() + 1);
    const auto header = cells(csv_lines[0], ',');
    const auto col    = std::find(header.begin(), header.end(), "instance") - header.begin();
    const auto rcol   = std::find(header.begin(), header.end(), "replay") - header.begin();
    ASSERT_LT(static_cast<std::size_t>(col), header.size());
    for(std::size_t i = 0; i < rows.size(); ++i)
    {
        const auto c = cells(csv_lines[i + 1], ','); // reasons hold no commas here
        EXPECT_EQ(c.at(col), rows[i]["instance"].get<std::string>());
        EXPECT_EQ(c.at(rcol), rows[i]["replay"].get<std::string>());
    }

    // Table: header, rule, one line per row, then the summary lines.
    const auto table = lines_of(r.out);
    ASSERT_GE(table.size(), rows.size() + 2);
    const auto th   = cells(table[0], '|');
    const auto tcol = std::find(th.begin(), th.end(), "instance") - th.begin();
    const auto scol = std::find(th.begin(), th.end(), "supported") - th.begin();
    const auto pcol = std::find(th.begin(), th.end(), "replay") - th.begin();
    for(std::size_t i = 0; i < rows.size(); ++i)
    {
        const auto c = cells(table[i + 2], '|');
        ASSERT_EQ(c.size(), th.size()) << table[i + 2];
        EXPECT_EQ(c[tcol], rows[i]["instance"].get<std::string>());
        EXPECT_EQ(c[scol], rows[i]["supported"].get<bool>() ? "yes" : "no");
        EXPECT_EQ(c[pcol], rows[i]["replay"].get<std::string>());
    }
    EXPECT_NE(r.out.find("instances support it"), std::string::npos);
    std::remove(csv.c_str());
    std::remove(json.c_str());
}

TEST(Enumerate, EveryReplayLineRerunsItsRow)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    const run_result r = run({"gemm", "enumerate", "--target=" + offline_target, "--m=64,77",
                              "--n=48", "--k=40", "--type-a=bf16", "--layout-b=row", "--beta=0.5",
                              "--bias=row", "--activation=silu", "--batch=2", "--json=-"});
    ASSERT_EQ(r.code, exit_ok) << r.err;
    const auto rows = nlohmann::json::parse(r.out)["results"];
    ASSERT_FALSE(rows.empty());
    for(const auto& row : rows)
    {
        auto args = replay_args(row["replay"].get<std::string>());
        args.push_back("--json=-");
        const run_result again = run(args);
        ASSERT_EQ(again.code, exit_ok) << row["replay"] << again.err;
        const auto back = nlohmann::json::parse(again.out)["results"];
        ASSERT_EQ(back.size(), 1u) << row["replay"];
        for(const char* key :
            {"instance", "supported",  "reason", "m",        "n",        "k",           "batch",
             "lda",      "ldb",        "ldd",    "stride_a", "stride_d", "stride_bias", "beta",
             "bias",     "activation", "type_a", "type_d",   "layout_b", "replay"})
            EXPECT_EQ(back[0][key], row[key]) << key << " of " << row["replay"];
    }
}

TEST(Select, ShowsThePickItsCandidatesAndWhy)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    const run_result r = run({"gemm", "select", "--target=" + offline_target, "--m=4096",
                              "--n=4096", "--k=4096,4095", "--json=-"});
    ASSERT_EQ(r.code, exit_ok) << r.err;
    const auto rows = nlohmann::json::parse(r.out)["results"];
    ASSERT_EQ(rows.size(), 4u); // heuristic and default, per problem
    // A library built with an instance filter may hold nothing for these problems; then there
    // is no pick to show (every ci and full library has one).
    for(const auto& row : rows)
        if(row["status"] == "none" &&
           row["why"].get<std::string>().find("no instance in the") != std::string::npos)
            GTEST_SKIP() << "the kernel library has no instance for " << row["shape"] << ": "
                         << row["why"];
    for(const auto& row : rows)
    {
        EXPECT_EQ(row["status"], "ok") << row.dump();
        const std::string pick = row["instance"];
        EXPECT_NE(row["candidate_list"].get<std::string>().find(pick), std::string::npos);
        EXPECT_GE(row["candidates"].get<int>(), 1);
        EXPECT_GT(row["tiles"].get<int>(), 0);
        EXPECT_GT(row["waves"].get<double>(), 0.0);
        EXPECT_FALSE(row["why"].get<std::string>().empty());
        // The epilogue column says what the name's last word does.
        EXPECT_TRUE(pick.ends_with("_" + row["epilogue"].get<std::string>())) << pick;
    }
    // The model's ranking starts with the heuristic's pick, at a relative time of 1.
    const std::string ranking = rows[0]["ranking"];
    EXPECT_EQ(ranking.rfind(rows[0]["instance"].get<std::string>() + " (1.000)", 0), 0u) << ranking;
    EXPECT_EQ(std::count(ranking.begin(), ranking.end(), ';') + 1, rows[0]["candidates"].get<int>())
        << ranking;
    EXPECT_EQ(rows[0]["selection"], "heuristic");
    EXPECT_EQ(rows[1]["selection"], "default");
    EXPECT_EQ(rows[0]["instance"], rows[1]["instance"]); // no tuning database: the same pick
    // K = 4095 rules out the vectorised instances; the general one must be picked, except on
    // sm_90a, whose Hopper instances copy such operands into aligned workspace first.
    if(offline_target == "sm_90a")
        EXPECT_EQ(rows[2]["instance"].get<std::string>().rfind("gemm_wgmma_", 0), 0u)
            << rows[2]["instance"];
    else
        EXPECT_TRUE(rows[2]["general"].get<bool>()) << rows[2]["instance"];
    EXPECT_NE(rows[2]["rejected"].get<std::string>().find("K"), std::string::npos);

    // The table form has the same picks.
    const run_result t =
        run({"gemm", "select", "--target=" + offline_target, "--m=4096", "--n=4096", "--k=4096"});
    ASSERT_EQ(t.code, exit_ok);
    EXPECT_NE(t.out.find(rows[0]["instance"].get<std::string>()), std::string::npos);
    EXPECT_NE(t.out.find("heuristic"), std::string::npos);
}

TEST(Select, AMissingTuningDatabaseIsASetUpError)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    const run_result r = run({"gemm", "select", "--target=" + offline_target,
                              "--tuning-db=" + temp_path("does_not_exist.json")});
    EXPECT_EQ(r.code, exit_setup);
    EXPECT_NE(r.err.find("cannot load the tuning database"), std::string::npos) << r.err;
}

TEST(Offline, UnknownInstanceAndTargetSayWhy)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    const run_result a =
        run({"gemm", "enumerate", "--target=" + offline_target, "--instance=nope"});
    EXPECT_EQ(a.code, exit_usage);
    EXPECT_NE(a.err.find("no instance named 'nope'"), std::string::npos) << a.err;
    const run_result b = run({"gemm", "enumerate", "--target=sm_11"});
    EXPECT_EQ(b.code, exit_setup);
    EXPECT_NE(b.err.find("sm_11"), std::string::npos) << b.err;
    EXPECT_NE(b.err.find(offline_target), std::string::npos) << b.err; // the installed one
}

TEST(Offline, InstancesAreChosenByNameOrId)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    const run_result all = run({"gemm", "enumerate", "--target=" + offline_target, "--json=-"});
    ASSERT_EQ(all.code, exit_ok) << all.err;
    const auto rows = nlohmann::json::parse(all.out)["results"];
    ASSERT_GE(rows.size(), 2u);
    const std::string by_name = rows[0]["instance"], by_id = rows[1]["id"];
    const run_result some = run({"gemm", "enumerate", "--target=" + offline_target,
                                 "--instance=" + by_name + "," + by_id, "--json=-"});
    ASSERT_EQ(some.code, exit_ok) << some.err;
    const auto picked = nlohmann::json::parse(some.out)["results"];
    ASSERT_EQ(picked.size(), 2u);
    EXPECT_EQ(picked[0]["instance"], by_name);
    EXPECT_EQ(picked[1]["id"], by_id);
}

TEST(Offline, InvalidProblemsAreUsageErrorsNamingThePoint)
{
    const run_result r = run({"gemm", "enumerate", "--target=sm_90a", "--m=8,0"});
    EXPECT_EQ(r.code, exit_usage);
    EXPECT_NE(r.err.find("problem 1 (--m=0"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("must be at least 1"), std::string::npos) << r.err;
}
