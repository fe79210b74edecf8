// SPDX-License-Identifier: MIT
// Lists, ranges and the cartesian sweep over them: `--m=1024:8192:1024 --k=4096,8192` is
// 8 x 2 problems. Values are parsed once, when the sweep is built, so every mistake is
// reported before anything runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cktile_profiler {

/// Comma-separated items; an item is an integer or start:stop[:step], inclusive, with a
/// positive step (default 1) and stop >= start. "1024:4096:1024,77" -> 1024 2048 3072 4096 77.
/// @throws usage_error naming `option` and the bad item.
std::vector<std::int64_t> parse_int_list(std::string_view text, std::string_view option);

/// Comma-separated finite reals ("1,0.5,-2"); ranges are not accepted for reals.
std::vector<double> parse_real_list(std::string_view text, std::string_view option);

/// Comma-separated words, each one of `accepted` spellings (matched case-insensitively,
/// '-' and '_' alike); returns the index of each word's entry in `accepted`.
struct word
{
    std::string spelling;
    int value;
};
std::vector<int> parse_word_list(std::string_view text, std::string_view option,
                                 const std::vector<word>& accepted);

/// The cartesian product of axes of the given sizes, as an odometer: point `i` picks index
/// i / (product of later sizes) % size for each axis, so the last axis varies fastest.
class cartesian_product
{
    public:
    /// @throws usage_error if the product exceeds `limit` points (a typo such as 1:100000000).
    explicit cartesian_product(std::vector<std::size_t> sizes, std::size_t limit = 1000000);
    std::size_t size() const { return total_; }
    /// @pre point < size(); @post result.size() == number of axes.
    std::vector<std::size_t> indices(std::size_t point) const;

    private:
    std::vector<std::size_t> sizes_;
    std::size_t total_ = 1;
};

} // namespace cktile_profiler
