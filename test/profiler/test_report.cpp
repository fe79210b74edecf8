// SPDX-License-Identifier: MIT
// The three output formats read back to what was written.
#include "report.hpp"

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace cktile_profiler;

namespace {

report sample()
{
    report r;
    r.mode = "profile";
    r.context.emplace_back("target", std::string("sm_90a"));
    record a;
    a.set("instance", std::string("gemm_a"));
    a.set("supported", true);
    a.set("time_ms", 0.123456789);
    a.set("runs", std::int64_t(50));
    a.set("reason", std::string("has | a pipe, a comma and \"quotes\""));
    a.set("replay", std::string("cktile-profiler gemm --m=1 --instance=gemm_a"));
    record b;
    b.set("instance", std::string("gemm_b"));
    b.set("supported", false);
    b.set("time_ms", cell{});
    b.set("extra", std::string("only here"));
    b.set("replay", std::string("cktile-profiler gemm --m=1 --instance=gemm_b"));
    r.rows          = {a, b};
    r.table_columns = {"instance", "supported", "time_ms", "reason", "replay"};
    return r;
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split_cells(const std::string& line)
{
    std::vector<std::string> cells;
    std::stringstream in(line);
    for(std::string c; std::getline(in, c, '|');)
        cells.push_back(trim(c));
    return cells;
}

/// RFC 4180 reader for one document (quoted fields, doubled quotes).
std::vector<std::vector<std::string>> read_csv(const std::string& text)
{
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false;
    for(std::size_t i = 0; i < text.size(); ++i)
    {
        const char c = text[i];
        if(quoted)
        {
            if(c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += '"', ++i;
            else if(c == '"')
                quoted = false;
            else
                field += c;
        }
        else if(c == '"')
            quoted = true;
        else if(c == ',')
            rows.back().push_back(field), field.clear();
        else if(c == '\n')
        {
            rows.back().push_back(field), field.clear();
            rows.emplace_back();
        }
        else
            field += c;
    }
    rows.pop_back(); // after the final newline
    return rows;
}

} // namespace

TEST(Record, SetKeepsTheFieldPosition)
{
    record r;
    r.set("a", std::int64_t(1));
    r.set("b", std::int64_t(2));
    r.set("a", std::int64_t(3));
    ASSERT_EQ(r.fields.size(), 2u);
    EXPECT_EQ(r.fields[0].first, "a");
    EXPECT_EQ(std::get<std::int64_t>(*r.get("a")), 3);
    EXPECT_EQ(r.get("zzz"), nullptr);
}

TEST(Table, SplitsBackIntoItsCells)
{
    std::ostringstream out;
    write_table(out, sample());
    std::istringstream in(out.str());
    std::vector<std::string> lines;
    for(std::string l; std::getline(in, l);)
        lines.push_back(l);
    ASSERT_EQ(lines.size(), 4u); // header, rule, two rows
    EXPECT_EQ(split_cells(lines[0]),
              (std::vector<std::string>{"instance", "supported", "time_ms", "reason", "replay"}));
    const auto a = split_cells(lines[2]);
    ASSERT_EQ(a.size(), 5u) << lines[2];
    EXPECT_EQ(a[0], "gemm_a");
    EXPECT_EQ(a[1], "yes");
    EXPECT_EQ(a[2], "0.1235");
    EXPECT_EQ(a[3], "has / a pipe, a comma and \"quotes\""); // '|' written as '/'
    EXPECT_EQ(a[4], "cktile-profiler gemm --m=1 --instance=gemm_a");
    const auto b = split_cells(lines[3]);
    EXPECT_EQ(b[2], "-"); // absent values show as '-'
}

TEST(Csv, HeaderIsTheUnionOfKeysAndValuesAreExact)
{
    std::ostringstream out;
    write_csv(out, sample());
    const auto rows = read_csv(out.str());
    ASSERT_EQ(rows.size(), 3u);
    const std::vector<std::string> header = {"instance", "supported", "time_ms", "runs",
                                             "reason",   "replay",    "extra"};
    EXPECT_EQ(rows[0], header);
    EXPECT_EQ(rows[1][2], "0.123456789"); // exact, not table-rounded
    EXPECT_EQ(rows[1][4], "has | a pipe, a comma and \"quotes\"");
    EXPECT_EQ(rows[2][2], "");
    EXPECT_EQ(rows[2][6], "only here");
}

TEST(Json, TypedValuesAndContext)
{
    std::ostringstream out;
    write_json(out, sample());
    const auto j = nlohmann::json::parse(out.str());
    EXPECT_EQ(j["tool"], "cktile-profiler");
    EXPECT_EQ(j["mode"], "profile");
    EXPECT_EQ(j["context"]["target"], "sm_90a");
    ASSERT_EQ(j["results"].size(), 2u);
    EXPECT_EQ(j["results"][0]["time_ms"].get<double>(), 0.123456789);
    EXPECT_EQ(j["results"][0]["runs"].get<int>(), 50);
    EXPECT_TRUE(j["results"][0]["supported"].get<bool>());
    EXPECT_TRUE(j["results"][1]["time_ms"].is_null());
    EXPECT_TRUE(j["summary"].is_array());
}
