// SPDX-License-Identifier: MIT
#include "report.hpp"

#include "gemm_sweep.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>

namespace cktile_profiler {

void record::set(const std::string& key, cell value)
{
    for(auto& f : fields)
        if(f.first == key)
        {
            f.second = std::move(value);
            return;
        }
    fields.emplace_back(key, std::move(value));
}

const cell* record::get(const std::string& key) const
{
    for(const auto& f : fields)
        if(f.first == key)
            return &f.second;
    return nullptr;
}

namespace {

struct text_visitor
{
    bool exact;
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(bool b) const { return b ? "yes" : "no"; }
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const
    {
        if(exact)
            return real_text(v);
        char buf[32];
        std::snprintf(buf, sizeof(buf), std::fabs(v) >= 1e5 ? "%.0f" : "%.4g", v);
        return buf;
    }
    std::string operator()(const std::string& s) const { return s; }
};

nlohmann::ordered_json to_json(const cell& c)
{
    return std::visit(
        [](const auto& v) -> nlohmann::ordered_json {
            using T = std::decay_t<decltype(v)>;
            if constexpr(std::is_same_v<T, std::monostate>)
                return nullptr;
            else
                return v;
        },
        c);
}

std::string csv_quote(const std::string& s)
{
    if(s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string q = "\"";
    for(char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::vector<std::string> all_keys(const std::vector<record>& rows)
{
    std::vector<std::string> keys;
    for(const record& r : rows)
        for(const auto& f : r.fields)
            if(std::find(keys.begin(), keys.end(), f.first) == keys.end())
                keys.push_back(f.first);
    return keys;
}

} // namespace

std::string table_text(const cell& c) { return std::visit(text_visitor{false}, c); }
std::string exact_text(const cell& c) { return std::visit(text_visitor{true}, c); }

void write_table(std::ostream& out, const report& r)
{
    const auto& cols = r.table_columns;
    std::vector<std::vector<std::string>> lines;
    lines.emplace_back(cols.begin(), cols.end());
    for(const record& row : r.rows)
    {
        std::vector<std::string> line;
        for(const std::string& c : cols)
        {
            const cell* v = row.get(c);
            std::string t = v ? table_text(*v) : "";
            std::replace(t.begin(), t.end(), '|', '/');
            std::replace(t.begin(), t.end(), '\n', ' ');
            line.push_back(t.empty() ? "-" : t);
        }
        lines.push_back(std::move(line));
    }
    // Width of every column but the last (usually the long replay command, left ragged).
    std::vector<std::size_t> width(cols.size(), 0);
    for(const auto& line : lines)
        for(std::size_t i = 0; i + 1 < line.size(); ++i)
            width[i] = std::max(width[i], line[i].size());
    auto emit = [&](const std::vector<std::string>& line) {
        std::string s;
        for(std::size_t i = 0; i < line.size(); ++i)
        {
            s += line[i];
            if(i + 1 < line.size())
                s += std::string(width[i] - line[i].size(), ' ') + " | ";
        }
        out << s << '\n';
    };
    emit(lines[0]);
    std::vector<std::string> rule;
    for(std::size_t i = 0; i < cols.size(); ++i)
        rule.push_back(
            std::string(std::max<std::size_t>(3, i + 1 < cols.size() ? width[i] : 3), '-'));
    emit(rule);
    for(std::size_t i = 1; i < lines.size(); ++i)
        emit(lines[i]);
}

void write_csv(std::ostream& out, const report& r)
{
    const std::vector<std::string> keys = all_keys(r.rows);
    for(std::size_t i = 0; i < keys.size(); ++i)
        out << (i ? "," : "") << csv_quote(keys[i]);
    out << '\n';
    for(const record& row : r.rows)
    {
        for(std::size_t i = 0; i < keys.size(); ++i)
        {
            const cell* v = row.get(keys[i]);
            out << (i ? "," : "") << csv_quote(v ? exact_text(*v) : "");
        }
        out << '\n';
    }
}

void write_json(std::ostream& out, const report& r)
{
    nlohmann::ordered_json j;
    j["tool"]                      = "cktile-profiler";
    j["mode"]                      = r.mode;
    nlohmann::ordered_json context = nlohmann::ordered_json::object();
    for(const auto& [k, v] : r.context)
        context[k] = to_json(v);
    j["context"] = context;
    auto rows    = [](const std::vector<record>& records) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for(const record& row : records)
        {
            nlohmann::ordered_json o = nlohmann::ordered_json::object();
            for(const auto& [k, v] : row.fields)
                o[k] = to_json(v);
            a.push_back(std::move(o));
        }
        return a;
    };
    j["results"] = rows(r.rows);
    j["summary"] = rows(r.summary);
    j["notes"]   = r.notes;
    out << j.dump(2) << '\n';
}

bool write_report_to(const std::string& path, const report& r, bool json, std::ostream& out,
                     std::ostream& err)
{
    if(path.empty())
        return true;
    if(path == "-")
    {
        json ? write_json(out, r) : write_csv(out, r);
        return true;
    }
    std::ofstream f(path);
    if(f)
        json ? write_json(f, r) : write_csv(f, r);
    if(!f)
    {
        err << "cktile-profiler: cannot write " << path << "\n";
        return false;
    }
    return true;
}

} // namespace cktile_profiler
