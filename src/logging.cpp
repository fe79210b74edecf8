// SPDX-License-Identifier: MIT
#include "logging.hpp"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace cktile::detail {

spdlog::level::level_enum parse_log_level(const std::string& name)
{
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    if(n == "trace")
        return spdlog::level::trace;
    if(n == "debug")
        return spdlog::level::debug;
    if(n == "info")
        return spdlog::level::info;
    if(n == "warn" || n == "warning")
        return spdlog::level::warn;
    if(n == "error")
        return spdlog::level::err;
    if(n == "critical")
        return spdlog::level::critical;
    return spdlog::level::off;
}

std::shared_ptr<spdlog::logger> make_logger(const std::string& level, const std::string& file)
{
    std::shared_ptr<spdlog::logger> log;
    std::string file_error;
    if(!file.empty())
    {
        try
        {
            log = std::make_shared<spdlog::logger>(
                "cktile", std::make_shared<spdlog::sinks::basic_file_sink_mt>(file, false));
        }
        catch(const spdlog::spdlog_ex& e)
        {
            file_error = e.what();
        }
    }
    if(!log)
        log = std::make_shared<spdlog::logger>("cktile",
                                               std::make_shared<spdlog::sinks::stderr_sink_mt>());
    log->set_pattern("[cktile %Y-%m-%d %H:%M:%S.%e %l t%t] %v");
    log->set_level(parse_log_level(level));
    log->flush_on(spdlog::level::trace);
    if(!file_error.empty())
        log->warn("CKTILE_LOG_FILE='{}' cannot be opened ({}); logging to stderr", file,
                  file_error);
    return log;
}

spdlog::logger& logger()
{
    static const std::shared_ptr<spdlog::logger> instance = [] {
        const char* level = std::getenv("CKTILE_LOG_LEVEL");
        const char* file  = std::getenv("CKTILE_LOG_FILE");
        return make_logger(level ? level : "", file ? file : "");
    }();
    return *instance;
}

} // namespace cktile::detail
