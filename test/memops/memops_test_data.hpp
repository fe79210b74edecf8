// SPDX-License-Identifier: MIT
// Helpers shared by the elementwise and permute tests: strided tensors of up to 6 axes on the
// host (bytes as the device sees them, padding poisoned), descriptions, and the decoded values
// laid out with the same strides so that the double references index them directly.
#pragma once

#include "../norm/rowwise_test_data.hpp"

#include "ck_tile/host/reference_elementwise.hpp"

#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

namespace memops_test {

using namespace rowwise_test;

/// A packed (row-major) description of `dims`, or with each row padded by `pad` elements.
inline cktile_tensor_desc_t packed(cktile_datatype_t t, std::initializer_list<std::int64_t> dims,
                                   std::int64_t pad = 0)
{
    cktile_tensor_desc_t d{};
    d.type = t;
    d.rank = static_cast<std::int32_t>(dims.size());
    int i  = 0;
    for(std::int64_t v : dims)
        d.dims[i++] = v;
    std::int64_t s = 1;
    for(int k = d.rank - 1; k >= 0; --k)
    {
        d.strides[k] = s;
        s *= d.dims[k] + (k == d.rank - 1 ? pad : 0);
    }
    return d;
}
inline cktile_tensor_desc_t packed(cktile_datatype_t t, const std::vector<std::int64_t>& dims)
{
    cktile_tensor_desc_t d{};
    d.type         = t;
    d.rank         = static_cast<std::int32_t>(dims.size());
    std::int64_t s = 1;
    for(int k = d.rank - 1; k >= 0; --k)
    {
        d.dims[k]    = dims[k];
        d.strides[k] = s;
        s *= dims[k];
    }
    return d;
}

inline ck_tile::host_strided_desc host_desc(const cktile_tensor_desc_t& d)
{
    ck_tile::host_strided_desc h;
    h.rank = d.rank;
    for(int k = 0; k < d.rank; ++k)
    {
        h.dims[k]    = d.dims[k];
        h.strides[k] = d.strides[k];
    }
    return h;
}

/// Elements from the first to one past the last addressed one.
inline std::int64_t span_elements(const cktile_tensor_desc_t& d)
{
    std::int64_t e = 1;
    for(int k = 0; k < d.rank; ++k)
        e += (d.dims[k] - 1) * d.strides[k];
    return e;
}

/// A strided tensor on the host; bytes outside its elements hold `poison`.
struct nd_tensor
{
    cktile_tensor_desc_t desc;
    std::vector<unsigned char> bytes;

    explicit nd_tensor(const cktile_tensor_desc_t& d, unsigned char poison = 0xff)
        : desc(d), bytes(static_cast<std::size_t>(span_elements(d)) * bytes_of(d.type), poison)
    {}
    unsigned char* at(std::int64_t offset) { return bytes.data() + offset * bytes_of(desc.type); }
    double get(std::int64_t offset) { return decode(desc.type, at(offset)); }
    void set(std::int64_t offset, double v) { encode(desc.type, v, at(offset)); }

    /// Calls f(offset) for every element (row-major over the axes).
    template <typename F>
    void for_each(F&& f) const
    {
        std::int64_t idx[6] = {};
        for(;;)
        {
            std::int64_t off = 0;
            for(int k = 0; k < desc.rank; ++k)
                off += idx[k] * desc.strides[k];
            f(off);
            int k = desc.rank - 1;
            for(; k >= 0; --k)
            {
                if(++idx[k] < desc.dims[k])
                    break;
                idx[k] = 0;
            }
            if(k < 0)
                return;
        }
    }
    /// Uniform in [lo, hi], rounded to the type, never exactly zero.
    void fill(std::mt19937& rng, double lo, double hi)
    {
        std::uniform_real_distribution<double> dist(lo, hi);
        for_each([&](std::int64_t off) {
            double v = dist(rng);
            if(round_to(desc.type, v) == 0.0)
                v = 0.125;
            set(off, v);
        });
    }
    /// Decoded values at their offsets (elements outside the tensor read as 0).
    std::vector<double> values()
    {
        std::vector<double> v(static_cast<std::size_t>(span_elements(desc)), 0.0);
        for_each([&](std::int64_t off) { v[off] = get(off); });
        return v;
    }
    /// True when every byte outside the tensor's elements still holds `poison`.
    bool padding_untouched(unsigned char poison = 0xff)
    {
        std::vector<char> inside(bytes.size(), 0);
        const std::size_t eb = bytes_of(desc.type);
        for_each([&](std::int64_t off) {
            for(std::size_t b = 0; b < eb; ++b)
                inside[off * eb + b] = 1;
        });
        for(std::size_t b = 0; b < bytes.size(); ++b)
            if(!inside[b] && bytes[b] != poison)
                return false;
        return true;
    }
};

} // namespace memops_test
