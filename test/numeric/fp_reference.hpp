// SPDX-License-Identifier: MIT
// An independent reference for the narrow float formats: values from the textbook formula in
// double, and rounding by explicit selection among all enumerated representable values. It shares
// no code with ck_tile's conversions, which the tests check against it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace fp_ref {

struct format
{
    int exp_bits;
    int mant_bits;
    bool has_inf; // false: E4M3FN (only S.1111.111 is NaN)

    int total_bits() const { return 1 + exp_bits + mant_bits; }
    int bias() const { return (1 << (exp_bits - 1)) - 1; }
    uint32_t sign_bit() const { return 1u << (total_bits() - 1); }
    uint32_t exp_field(uint32_t c) const { return (c >> mant_bits) & ((1u << exp_bits) - 1); }
    uint32_t mant_field(uint32_t c) const { return c & ((1u << mant_bits) - 1); }
    bool is_nan(uint32_t c) const
    {
        const uint32_t mag = c & (sign_bit() - 1);
        if(!has_inf)
            return mag == sign_bit() - 1;
        return exp_field(c) == (1u << exp_bits) - 1 && mant_field(c) != 0;
    }
    bool is_inf(uint32_t c) const
    {
        return has_inf && exp_field(c) == (1u << exp_bits) - 1 && mant_field(c) == 0;
    }
    /// The value the formula gives to a magnitude code, even past the largest finite one (used
    /// for the value just above max, which rounding needs as a candidate).
    double formula(uint32_t mag) const
    {
        const int e    = static_cast<int>(exp_field(mag));
        const double m = mant_field(mag);
        if(e == 0)
            return std::ldexp(m, 1 - bias() - mant_bits);
        return std::ldexp(1.0 + std::ldexp(m, -mant_bits), e - bias());
    }
    /// The value of code c (NaN, +-inf, signed zero included).
    double value(uint32_t c) const
    {
        if(is_nan(c))
            return std::numeric_limits<double>::quiet_NaN();
        const double s = (c & sign_bit()) ? -1.0 : 1.0;
        if(is_inf(c))
            return s * std::numeric_limits<double>::infinity();
        return s * formula(c & (sign_bit() - 1));
    }
    uint32_t max_finite() const
    {
        const uint32_t all = sign_bit() - 1;
        return has_inf ? (all & ~((1u << mant_bits) - 1)) - 1 : all - 1;
    }
    uint32_t inf_or_nan() const
    {
        return has_inf ? ((1u << exp_bits) - 1) << mant_bits : sign_bit() - 1;
    }
};

inline const format fp16{5, 10, true};
inline const format bf16{8, 7, true};
inline const format e4m3{4, 3, false};
inline const format e5m2{5, 2, true};

/// Round-to-nearest-even by selection: the two candidates bracketing |x| among all finite
/// magnitudes plus the one just past the largest, the closer one (the even code on a tie).
class rounder
{
    public:
    explicit rounder(const format& f) : f_(f)
    {
        for(uint32_t mag = 0; mag <= f.max_finite() + 1; ++mag)
            values_.push_back(f.formula(mag)); // increasing with the code
    }

    /// The code nearest to x. x must be exactly representable in double (floats are).
    uint32_t round(double x, bool saturate) const
    {
        const uint32_t sign = std::signbit(x) ? f_.sign_bit() : 0;
        if(std::isnan(x))
            return sign |
                   (f_.has_inf ? f_.inf_or_nan() | (1u << (f_.mant_bits - 1)) : f_.inf_or_nan());
        const uint32_t overflow = saturate ? f_.max_finite() : f_.inf_or_nan();
        const double a          = std::fabs(x);
        if(std::isinf(a) || a >= values_.back())
            return sign | overflow;
        const auto hi_it  = std::upper_bound(values_.begin(), values_.end(), a);
        const uint32_t hi = static_cast<uint32_t>(hi_it - values_.begin());
        const uint32_t lo = hi - 1;
        const double d_lo = a - values_[lo]; // exact: both are short binary fractions
        const double d_hi = values_[hi] - a;
        uint32_t pick     = d_lo < d_hi ? lo : d_hi < d_lo ? hi : ((lo & 1) == 0 ? lo : hi);
        if(pick > f_.max_finite())
            return sign | overflow;
        return sign | pick;
    }

    const std::vector<double>& magnitudes() const { return values_; }

    private:
    format f_;
    std::vector<double> values_;
};

} // namespace fp_ref
