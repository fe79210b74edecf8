// SPDX-License-Identifier: MIT
// The activations (ops/common/activation.hpp) against their textbook definitions, in double
// (the CPU references' instantiation) and in float (the kernels' formula; on the host its
// exponential and reciprocal are the math library's), and the GEMM epilogue's choice of them.
#include "ck_tile/ops/common/activation.hpp"
#include "ck_tile/ops/gemm/gemm_epilogue.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

// -30 .. 30 in steps of 1/64, then the far tails.
std::vector<double> arguments()
{
    std::vector<double> x;
    for(int i = -30 * 64; i <= 30 * 64; ++i)
        x.push_back(i / 64.0);
    for(double t : {-1e4, -200.0, -88.0, 88.0, 200.0, 1e4})
        x.push_back(t);
    return x;
}

// In long double, whose 1 + tanh(u) cancels only below the double results' own precision
// (its absolute error is about 0.5 |x| 2^-63).
double gelu_tanh_textbook(double x)
{
    const long double xl = x;
    const long double u =
        std::sqrt(2.0L / 3.14159265358979323846264338327950288L) * (xl + 0.044715L * xl * xl * xl);
    return static_cast<double>(0.5L * xl * (1.0L + std::tanh(u)));
}

// |got - want| within rel * |want| + abs.
void expect_near(double got, double want, double rel, double abs, const char* what, double x)
{
    EXPECT_LE(std::fabs(got - want), rel * std::fabs(want) + abs)
        << what << "(" << x << ") = " << got << ", want " << want;
}

TEST(Activation, GeluTanhMatchesItsDefinition)
{
    for(double x : arguments())
    {
        // Where tanh(u) is near -1 the textbook form cancels (1 + tanh(u)); the folded form
        // does not, so the comparison allows that cancellation's error.
        const double want         = gelu_tanh_textbook(x);
        const double cancellation = 0.5 * std::fabs(x) * 0x1p-60;
        expect_near(ck_tile::activation_gelu_tanh(x), want, 1e-13, cancellation, "gelu_tanh", x);
        // In float, the exponent x (a + b x^2) carries its rounding (up to about 2^-24 of
        // 126 before the result underflows) into the result's relative error.
        expect_near(ck_tile::activation_gelu_tanh(static_cast<float>(x)), want, 1e-5,
                    1e-30 + cancellation, "gelu_tanh (float)", x);
    }
    // Far below zero the value underflows towards -0 from below, never to NaN.
    EXPECT_EQ(ck_tile::activation_gelu_tanh(-1e4f), 0.0f);
    EXPECT_EQ(ck_tile::activation_gelu_tanh(1e4f), 1e4f);
}

// In long double: 0.5 x (1 + erf(x / sqrt(2))) as 0.5 x erfc(-x / sqrt(2)), which does not
// cancel where erf is near -1.
double gelu_erf_textbook(double x)
{
    const long double xl = x;
    return static_cast<double>(0.5L * xl * std::erfc(-xl / std::sqrt(2.0L)));
}

// The float form is a fit (activation_detail::gelu_erf_): within 1.8e-7 of the result plus
// 9e-8 where the exponential and division are exact, as on the host, and its multiply-adds
// fused, as on the device; 2.5e-7 and 1.2e-7 here leave room for the host's separate
// roundings of each multiply and add. Past the fit's range it rounds to x, or to a value below
// 1e-7; infinities and NaN go through as the textbook form takes them.
TEST(Activation, GeluErfFloatFitWithinItsBound)
{
    for(double x : arguments())
    {
        const float xf = static_cast<float>(x);
        expect_near(ck_tile::activation_gelu_erf(xf), gelu_erf_textbook(xf), 2.5e-7, 1.2e-7,
                    "gelu_erf (float)", x);
    }
    for(int i = -6 * 4096; i <= 6 * 4096; ++i) // the fit's range, finely
    {
        const float xf = static_cast<float>(i / 4096.0);
        expect_near(ck_tile::activation_gelu_erf(xf), gelu_erf_textbook(xf), 2.5e-7, 1.2e-7,
                    "gelu_erf (float)", xf);
    }
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(ck_tile::activation_gelu_erf(inf), inf);
    EXPECT_TRUE(std::isnan(ck_tile::activation_gelu_erf(-inf))); // -inf * 0, as the textbook
    EXPECT_TRUE(std::isnan(ck_tile::activation_gelu_erf(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_EQ(ck_tile::activation_gelu_erf(0.0f), 0.0f);
    EXPECT_EQ(ck_tile::activation_gelu_erf(7e4f), 7e4f);
    EXPECT_EQ(ck_tile::activation_gelu_erf(-1e4f), 0.0f);
}

TEST(Activation, OthersMatchTheirDefinitions)
{
    for(double x : arguments())
    {
        expect_near(ck_tile::activation_relu(x), x > 0 ? x : 0.0, 0, 0, "relu", x);
        expect_near(ck_tile::activation_gelu_erf(x), gelu_erf_textbook(x), 1e-12, 1e-300,
                    "gelu_erf", x);
        expect_near(ck_tile::activation_silu(x), x / (1 + std::exp(-x)), 1e-12, 1e-300, "silu", x);
        expect_near(ck_tile::activation_sigmoid(x), 1 / (1 + std::exp(-x)), 1e-12, 1e-300,
                    "sigmoid", x);
    }
}

// The GEMM epilogue's activation values (the C API's) select their functions, whether chosen at
// run time (the references, the staged epilogue) or at compile time (the register epilogue).
TEST(Activation, GemmEpilogueSelectsEachFunction)
{
    using ck_tile::apply_activation;
    using ck_tile::gemm_activation;
    for(double x : {-3.5, -0.75, 0.0, 0.5, 2.25})
    {
        EXPECT_EQ(apply_activation(gemm_activation::none, x), x);
        EXPECT_EQ(apply_activation<gemm_activation::none>(x), x);
        EXPECT_EQ(apply_activation(gemm_activation::relu, x), ck_tile::activation_relu(x));
        EXPECT_EQ(apply_activation<gemm_activation::relu>(x), ck_tile::activation_relu(x));
        EXPECT_EQ(apply_activation(gemm_activation::gelu_tanh, x),
                  ck_tile::activation_gelu_tanh(x));
        EXPECT_EQ(apply_activation<gemm_activation::gelu_tanh>(x),
                  ck_tile::activation_gelu_tanh(x));
        EXPECT_EQ(apply_activation(gemm_activation::gelu_erf, x), ck_tile::activation_gelu_erf(x));
        EXPECT_EQ(apply_activation<gemm_activation::gelu_erf>(x), ck_tile::activation_gelu_erf(x));
        EXPECT_EQ(apply_activation(gemm_activation::silu, x), ck_tile::activation_silu(x));
        EXPECT_EQ(apply_activation<gemm_activation::silu>(x), ck_tile::activation_silu(x));
    }
}

} // namespace
