// SPDX-License-Identifier: MIT
// Results as records of named, typed fields, and the three ways to write them: a readable
// table (pipe-separated, so it pastes into Markdown and splits back on '|'), CSV (RFC 4180
// quoting) and JSON. Every record carries a `replay` field: the command that reruns it.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cktile_profiler {

/// A field value: absent (empty cell, JSON null), flag, integer, real or text.
using cell = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

struct record
{
    std::vector<std::pair<std::string, cell>> fields;

    /// Sets `key`, keeping the position of an existing field (so columns keep their order).
    void set(const std::string& key, cell value);
    /// nullptr when the record has no such field.
    const cell* get(const std::string& key) const;
};

struct report
{
    std::string mode; ///< "profile", "enumerate", ...
    /// Facts about the run (tool version, device or target, command line), as key/value.
    std::vector<std::pair<std::string, cell>> context;
    std::vector<record> rows;
    /// Columns of the table, in order; CSV and JSON carry every field of every row.
    std::vector<std::string> table_columns;
    /// Per-problem conclusions ("best: ..."), printed under the table and stored in JSON.
    std::vector<record> summary;
    /// Lines printed under the table as they are (notes, warnings).
    std::vector<std::string> notes;
};

/// Text of a cell as the table shows it: reals with 4 significant digits, flags as yes/no.
std::string table_text(const cell& c);
/// Text of a cell as CSV holds it: reals exact (shortest round-trip form).
std::string exact_text(const cell& c);

/// The table: a header, a separator and one line per row, cells separated by " | ". A '|'
/// inside a cell is written as '/', so splitting a line on '|' gives its cells back.
void write_table(std::ostream& out, const report& r);
/// Header: the union of every row's keys in first-seen order; then one line per row.
void write_csv(std::ostream& out, const report& r);
/// {"tool": ..., "mode": ..., "context": {...}, "results": [...], "summary": [...]}.
void write_json(std::ostream& out, const report& r);

/// Writes `r` as JSON (`json`) or CSV to the file `path`, or to `out` for "-"; nothing for "".
/// False, with a message on `err`, when the file cannot be written.
bool write_report_to(const std::string& path, const report& r, bool json, std::ostream& out,
                     std::ostream& err);

} // namespace cktile_profiler
