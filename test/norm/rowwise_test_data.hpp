// SPDX-License-Identifier: MIT
// Helpers shared by the row-wise op tests (normalization, softmax): typed host buffers that
// round-trip through doubles, random fills that are never all zeros, tolerances per type, and
// the comparison that treats NaN/inf like the reference does.
#pragma once

#include "cktile.h"

#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace rowwise_test {

inline std::size_t bytes_of(cktile_datatype_t t) { return t == CKTILE_DATATYPE_FP32 ? 4 : 2; }

inline const char* type_name(cktile_datatype_t t)
{
    return t == CKTILE_DATATYPE_FP16 ? "fp16" : t == CKTILE_DATATYPE_BF16 ? "bf16" : "fp32";
}

/// Stores v in `t` (round to nearest even) at p.
inline void encode(cktile_datatype_t t, double v, unsigned char* p)
{
    const float f = static_cast<float>(v);
    if(t == CKTILE_DATATYPE_FP16)
    {
        const auto h = ck_tile::type_convert<ck_tile::half_t>(f);
        std::memcpy(p, &h.data, 2);
    }
    else if(t == CKTILE_DATATYPE_BF16)
    {
        const auto h = ck_tile::type_convert<ck_tile::bf16_t>(f);
        std::memcpy(p, &h.data, 2);
    }
    else
        std::memcpy(p, &f, 4);
}

inline double decode(cktile_datatype_t t, const unsigned char* p)
{
    std::uint16_t b;
    if(t == CKTILE_DATATYPE_FP16)
    {
        std::memcpy(&b, p, 2);
        return ck_tile::type_convert<float>(ck_tile::half_t::from_bits(b));
    }
    if(t == CKTILE_DATATYPE_BF16)
    {
        std::memcpy(&b, p, 2);
        return ck_tile::type_convert<float>(ck_tile::bf16_t::from_bits(b));
    }
    float f;
    std::memcpy(&f, p, 4);
    return f;
}

/// v rounded to `t` (what storing it and reading it back gives).
inline double round_to(cktile_datatype_t t, double v)
{
    unsigned char b[4];
    encode(t, v, b);
    return decode(t, b);
}

/// A strided [rows, cols] tensor of type t on the host: bytes as the device sees them and the
/// decoded values (padding between rows holds `poison`).
struct host_tensor
{
    cktile_datatype_t type;
    std::int64_t rows, cols, stride;
    std::vector<unsigned char> bytes;

    host_tensor(cktile_datatype_t t, std::int64_t r, std::int64_t c, std::int64_t s,
                unsigned char poison = 0xff)
        : type(t), rows(r), cols(c), stride(s),
          bytes(static_cast<std::size_t>(((r - 1) * s + c) * std::int64_t(bytes_of(t))), poison)
    {}
    unsigned char* at(std::int64_t i, std::int64_t j)
    {
        return bytes.data() + (i * stride + j) * std::int64_t(bytes_of(type));
    }
    double get(std::int64_t i, std::int64_t j) { return decode(type, at(i, j)); }
    void set(std::int64_t i, std::int64_t j, double v) { encode(type, v, at(i, j)); }
    /// Decoded values with the same strides (padding reads as 0).
    std::vector<double> values()
    {
        std::vector<double> v(static_cast<std::size_t>((rows - 1) * stride + cols), 0.0);
        for(std::int64_t i = 0; i < rows; ++i)
            for(std::int64_t j = 0; j < cols; ++j)
                v[i * stride + j] = get(i, j);
        return v;
    }
    /// Uniform in [lo, hi], rounded to the type, never exactly zero.
    void fill(std::mt19937& rng, double lo, double hi)
    {
        std::uniform_real_distribution<double> d(lo, hi);
        for(std::int64_t i = 0; i < rows; ++i)
            for(std::int64_t j = 0; j < cols; ++j)
            {
                double v = d(rng);
                if(round_to(type, v) == 0.0)
                    v = 0.125;
                set(i, j, v);
            }
    }
};

/// Relative tolerance of one output element: the output rounding plus fp32 arithmetic.
inline double tolerance(cktile_datatype_t t)
{
    return t == CKTILE_DATATYPE_FP16 ? 2e-3 : t == CKTILE_DATATYPE_BF16 ? 1.6e-2 : 1e-4;
}

/// Empty when got matches want within rel (absolute floor `abs`), NaN only where the
/// reference is NaN and infinities equal; else a description.
inline std::string mismatch(double got, double want, double rel, double abs)
{
    if(std::isnan(want) || std::isnan(got))
        return std::isnan(want) && std::isnan(got)
                   ? std::string()
                   : "got " + std::to_string(got) + ", want " + std::to_string(want);
    if(std::isinf(want) || std::isinf(got))
        return got == want ? std::string()
                           : "got " + std::to_string(got) + ", want " + std::to_string(want);
    if(std::fabs(got - want) <= abs + rel * std::fabs(want))
        return {};
    std::ostringstream s;
    s.precision(9);
    s << "got " << got << ", want " << want;
    return s.str();
}

/// The instances of one operation in the handle's kernel library.
inline std::vector<cktile_instance_info_t> instances_of(cktile_handle_t h, cktile_op_kind_t op)
{
    std::size_t n = 0;
    cktile_get_instance_count(h, &n);
    std::vector<cktile_instance_info_t> out;
    for(std::size_t k = 0; k < n; ++k)
    {
        cktile_instance_info_t info;
        info.struct_size = sizeof(info);
        cktile_get_instance_info(h, k, &info);
        if(info.op_kind == op)
            out.push_back(info);
    }
    return out;
}

} // namespace rowwise_test
