// SPDX-License-Identifier: MIT
#include "tuning_db.hpp"

#include "api_error.hpp"
#include "logging.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace cktile::detail {

namespace {
constexpr const char* format_name = "cktile-tuning-db";
constexpr int format_version      = 1;
} // namespace

std::map<std::string, tuning_entry>
load_tuning_db(const std::string& path, const tuning_stamp& stamp, const kernel_library& lib)
{
    std::ifstream in(path);
    if(!in)
        fail(CKTILE_STATUS_INVALID_ARGUMENT, "tuning database '" + path + "' cannot be read");
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if(doc.is_discarded() || !doc.is_object())
        fail(CKTILE_STATUS_INVALID_ARGUMENT, "tuning database '" + path + "' is not a JSON object");
    if(doc.value("format", std::string()) != format_name)
        fail(CKTILE_STATUS_INVALID_ARGUMENT, "'" + path +
                                                 "' is not a cktile tuning database "
                                                 "(\"format\" is not \"cktile-tuning-db\")");

    std::map<std::string, tuning_entry> out;
    auto stale = [&](const std::string& why) {
        logger().warn("tuning database {} ignored: {}", path, why);
        return out;
    };
    const auto fv = doc.find("format_version");
    if(fv == doc.end() || !fv->is_number_integer() || fv->get<int>() != format_version)
        return stale("format_version is not " + std::to_string(format_version));
    const auto str = [&](const char* key) {
        const auto it = doc.find(key);
        return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string("?");
    };
    if(str("library_version") != cktile_get_version_string())
        return stale("made by cktile " + str("library_version") + ", this is " +
                     cktile_get_version_string());
    if(str("target") != stamp.target)
        return stale("made for target " + str("target") + ", this handle is " + stamp.target);
    const auto cu = doc.find("compute_units");
    if(cu == doc.end() || !cu->is_number_integer() || cu->get<int>() != stamp.compute_units)
        return stale("made for another compute-unit count (this device has " +
                     std::to_string(stamp.compute_units) + ")");
    const auto entries = doc.find("entries");
    if(entries == doc.end() || !entries->is_array())
        return stale("no \"entries\" array");

    std::size_t index = 0;
    for(const auto& e : *entries)
    {
        const std::size_t i = index++;
        if(!e.is_object() || !e.contains("problem") || !e["problem"].is_string() ||
           !e.contains("instance") || !e["instance"].is_string())
        {
            logger().warn("tuning database {}: entry {} ignored (needs \"problem\" and "
                          "\"instance\" strings)",
                          path, i);
            continue;
        }
        tuning_entry t;
        t.instance = e["instance"].get<std::string>();
        if(!lib.find(t.instance))
        {
            logger().warn("tuning database {}: entry {} ignored (instance {} is not in {})", path,
                          i, t.instance, lib.path());
            continue;
        }
        if(e.contains("time_ms") && e["time_ms"].is_number())
            t.time_ms = e["time_ms"].get<double>();
        out[e["problem"].get<std::string>()] = t;
    }
    return out;
}

void save_tuning_db(const std::string& path, const tuning_stamp& stamp,
                    const std::map<std::string, tuning_entry>& entries)
{
    nlohmann::json doc;
    doc["format"]          = format_name;
    doc["format_version"]  = format_version;
    doc["library_version"] = cktile_get_version_string();
    doc["target"]          = stamp.target;
    doc["compute_units"]   = stamp.compute_units;
    doc["entries"]         = nlohmann::json::array();
    for(const auto& [key, e] : entries)
        doc["entries"].push_back(
            {{"problem", key}, {"instance", e.instance}, {"time_ms", e.time_ms}});
    std::ofstream out(path);
    if(!out)
        fail(CKTILE_STATUS_INVALID_ARGUMENT, "tuning database '" + path + "' cannot be written");
    out << doc.dump(2) << "\n";
    if(!out)
        fail(CKTILE_STATUS_INVALID_ARGUMENT, "writing tuning database '" + path + "' failed");
}

} // namespace cktile::detail
