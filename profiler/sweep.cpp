// SPDX-License-Identifier: MIT
#include "sweep.hpp"

#include "command_line.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace cktile_profiler {

namespace {

std::vector<std::string_view> split(std::string_view text, char sep)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while(true)
    {
        const std::size_t at = text.find(sep, start);
        parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
        if(at == std::string_view::npos)
            return parts;
        start = at + 1;
    }
}

[[noreturn]] void bad(std::string_view option, std::string_view item, const std::string& why)
{
    throw usage_error("--" + std::string(option) + ": '" + std::string(item) + "' " + why);
}

std::int64_t parse_int(std::string_view s, std::string_view option, std::string_view item)
{
    std::int64_t v = 0;
    const auto r   = std::from_chars(s.data(), s.data() + s.size(), v);
    if(s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        bad(option, item,
            r.ec == std::errc::result_out_of_range ? "does not fit in 64 bits"
                                                   : "is not an integer (expected N or "
                                                     "start:stop[:step])");
    return v;
}

std::string canonical_word(std::string_view s)
{
    std::string out;
    for(char c : s)
        out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

std::vector<std::int64_t> parse_int_list(std::string_view text, std::string_view option)
{
    std::vector<std::int64_t> out;
    for(std::string_view item : split(text, ','))
    {
        if(item.empty())
            bad(option, text, "has an empty item (two commas, or a comma at an end)");
        const auto parts = split(item, ':');
        if(parts.size() == 1)
        {
            out.push_back(parse_int(item, option, item));
            continue;
        }
        if(parts.size() > 3)
            bad(option, item, "is not a range: expected start:stop[:step]");
        const std::int64_t start = parse_int(parts[0], option, item);
        const std::int64_t stop  = parse_int(parts[1], option, item);
        const std::int64_t step  = parts.size() == 3 ? parse_int(parts[2], option, item) : 1;
        if(step <= 0)
            bad(option, item, "has a step that is not positive");
        if(stop < start)
            bad(option, item, "is an empty range: stop is below start");
        if((stop - start) / step >= 1000000)
            bad(option, item, "has more than a million values");
        for(std::int64_t v = start;; v += step)
        {
            out.push_back(v);
            if(stop - v < step) // stops before v + step could overflow
                break;
        }
    }
    return out;
}

std::vector<double> parse_real_list(std::string_view text, std::string_view option)
{
    std::vector<double> out;
    for(std::string_view item : split(text, ','))
    {
        if(item.find(':') != std::string_view::npos)
            bad(option, item, "is a range; list real values instead (1,0.5)");
        // strtod, not from_chars: GCC 11 lacks the floating-point from_chars.
        const std::string s(item);
        char* end      = nullptr;
        const double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
        if(s.empty() || end != s.c_str() + s.size())
            bad(option, item, "is not a number");
        if(!std::isfinite(v))
            bad(option, item, "is not finite");
        out.push_back(v);
    }
    return out;
}

std::vector<int> parse_word_list(std::string_view text, std::string_view option,
                                 const std::vector<word>& accepted)
{
    std::vector<int> out;
    for(std::string_view item : split(text, ','))
    {
        const std::string w = canonical_word(item);
        bool found          = false;
        for(const word& a : accepted)
            if(canonical_word(a.spelling) == w)
            {
                out.push_back(a.value);
                found = true;
                break;
            }
        if(!found)
        {
            std::string list;
            int last = std::numeric_limits<int>::min();
            for(const word& a : accepted)
                if(a.value != last) // one spelling per value: the first is the canonical one
                {
                    list += (list.empty() ? "" : ", ") + a.spelling;
                    last = a.value;
                }
            bad(option, item, "is not one of: " + list);
        }
    }
    return out;
}

cartesian_product::cartesian_product(std::vector<std::size_t> sizes, std::size_t limit)
    : sizes_(std::move(sizes))
{
    for(std::size_t s : sizes_)
    {
        if(s == 0)
        {
            total_ = 0;
            return;
        }
        if(total_ > limit / s)
            throw usage_error("the sweep has more than " + std::to_string(limit) +
                              " problems; narrow the lists or ranges");
        total_ *= s;
    }
}

std::vector<std::size_t> cartesian_product::indices(std::size_t point) const
{
    std::vector<std::size_t> idx(sizes_.size());
    for(std::size_t a = sizes_.size(); a-- > 0;)
    {
        idx[a] = point % sizes_[a];
        point /= sizes_[a];
    }
    return idx;
}

} // namespace cktile_profiler
