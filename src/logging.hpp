// SPDX-License-Identifier: MIT
// The library's logger. Off unless CKTILE_LOG_LEVEL asks for it (trace, debug, info, warn,
// error, critical, off); written to stderr, or appended to CKTILE_LOG_FILE when that is set.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace cktile::detail {

/// The process-wide logger, configured from the environment on first use (thread-safe).
spdlog::logger& logger();

/// Parses a level name as CKTILE_LOG_LEVEL spells it; unknown or empty names mean off.
/// @post the result is one of spdlog's levels; "warning" is accepted for warn.
spdlog::level::level_enum parse_log_level(const std::string& name);

/// Builds a logger from explicit settings (what logger() does with the environment's values).
/// An unwritable file falls back to stderr with a warning, so logging never stops the caller.
std::shared_ptr<spdlog::logger> make_logger(const std::string& level, const std::string& file);

} // namespace cktile::detail
