// SPDX-License-Identifier: MIT
// Every GEMM instance of the device's kernel library, run through the C API and compared with
// the double-precision CPU reference: random inputs (never all zeros), poisoned outputs (and
// the padding between rows must stay poisoned), shapes 1x1x1, primes, K = 1, batches, leading
// dimensions that are not multiples of anything, every layout, every epilogue.
#include "cktile.h"

#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_query.hpp"
#include "ck_tile/host/reference_gemm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::size_t bytes_of(cktile_datatype_t t)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
    case CKTILE_DATATYPE_BF16:
        return 2;
    case CKTILE_DATATYPE_FP32:
    case CKTILE_DATATYPE_INT32:
        return 4;
    default:
        return 1;
    }
}

/// A random value exactly representable in `t`, small enough that fp32 sums of a few hundred
/// products are exact: the only error left is the output rounding and the activation.
double random_element(cktile_datatype_t t, std::mt19937& rng, unsigned char* out)
{
    std::uniform_int_distribution<int> eighths(-16, 16), bits(0, 255), ints(-8, 8);
    switch(t)
    {
    case CKTILE_DATATYPE_FP8_E4M3:
    case CKTILE_DATATYPE_FP8_E5M2:
    {
        // Exponent field restricted to values between 1/8 and 2 (no NaN/Inf codes).
        const bool e4 = t == CKTILE_DATATYPE_FP8_E4M3;
        const int b   = bits(rng);
        const int e   = e4 ? 4 + (b >> 3) % 5 : 12 + (b >> 2) % 5;
        const std::uint8_t code =
            static_cast<std::uint8_t>((b & 0x80) | (e4 ? (e << 3) | (b & 7) : (e << 2) | (b & 3)));
        *out = code;
        return e4 ? ck_tile::type_convert<float>(ck_tile::fp8_t::from_bits(code))
                  : ck_tile::type_convert<float>(ck_tile::bf8_t::from_bits(code));
    }
    case CKTILE_DATATYPE_INT8:
    {
        const auto v = static_cast<std::int8_t>(ints(rng));
        std::memcpy(out, &v, 1);
        return v;
    }
    case CKTILE_DATATYPE_INT32:
    {
        const std::int32_t v = ints(rng) * 3;
        std::memcpy(out, &v, 4);
        return v;
    }
    default:
    {
        int k = eighths(rng);
        if(k == 0)
            k = 1; // never zero, so a dropped term always shows
        const float v = static_cast<float>(k) / 8.0f;
        if(t == CKTILE_DATATYPE_FP16)
        {
            const auto h = ck_tile::type_convert<ck_tile::half_t>(v);
            std::memcpy(out, &h.data, 2);
        }
        else if(t == CKTILE_DATATYPE_BF16)
        {
            const auto h = ck_tile::type_convert<ck_tile::bf16_t>(v);
            std::memcpy(out, &h.data, 2);
        }
        else
            std::memcpy(out, &v, 4);
        return v;
    }
    }
}

double decode(cktile_datatype_t t, const unsigned char* p)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
    {
        std::uint16_t b;
        std::memcpy(&b, p, 2);
        return ck_tile::type_convert<float>(ck_tile::half_t::from_bits(b));
    }
    case CKTILE_DATATYPE_BF16:
    {
        std::uint16_t b;
        std::memcpy(&b, p, 2);
        return ck_tile::type_convert<float>(ck_tile::bf16_t::from_bits(b));
    }
    case CKTILE_DATATYPE_FP32:
    {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    case CKTILE_DATATYPE_INT8:
    {
        std::int8_t i;
        std::memcpy(&i, p, 1);
        return i;
    }
    default:
    {
        std::int32_t i;
        std::memcpy(&i, p, 4);
        return i;
    }
    }
}

/// Output tolerance: half an ulp of the output type twice over, plus the activation's float
/// evaluation error.
double tolerance(cktile_datatype_t d, double ref, bool activation)
{
    const double a = std::fabs(ref);
    switch(d)
    {
    case CKTILE_DATATYPE_FP16:
        return a * std::ldexp(1.0, -10) + 1e-6 + (activation ? 1e-3 : 0);
    case CKTILE_DATATYPE_BF16:
        return a * std::ldexp(1.0, -7) + 1e-6 + (activation ? 1e-2 : 0);
    case CKTILE_DATATYPE_FP32:
        return a * 1e-6 + 1e-6 + (activation ? 1e-5 * (1 + a) : 0);
    default:
        return activation ? 1.0 : 0.0; // int32: exact, or one step of rounding
    }
}

struct gemm_case
{
    std::int64_t m, n, k, batch;
    int ld_pad; // added to every leading dimension
    double alpha, beta;
    cktile_bias_t bias;
    cktile_activation_t act;
    int ld_align = 1;     // leading dimensions rounded up to a multiple of this before the pad
    bool c_is_d  = false; // C and D are one buffer (in place, beta != 0)
    int ldc_pad  = 0;     // added to C's leading dimension only
};

/// Whether the instance's compact epilogue reads C (names ending _bias_c or
/// _bias_<activation>_c): it then runs only problems with C.
bool reads_c_only(const std::string& name)
{
    return name.rfind("gemm_wgmma_", 0) == 0 && name.find("_bias") != std::string::npos &&
           name.ends_with("_c");
}

std::string describe(const cktile_gemm_problem_t& p)
{
    std::ostringstream s;
    s << p.m << "x" << p.n << "x" << p.k << " batch " << p.batch_count << " layouts " << p.a_layout
      << p.b_layout << p.c_layout << p.d_layout << " ld " << p.lda << "," << p.ldb << "," << p.ldc
      << "," << p.ldd << " alpha " << p.alpha << " beta " << p.beta << " bias " << p.bias << " act "
      << p.activation;
    if(p.multi_d_op != CKTILE_MULTI_D_NONE)
        s << " multi_d " << p.multi_d_op << "@" << p.multi_d_point << " d0 " << p.d0_type << "/"
          << p.d0_layout << "/" << p.ldd0 << "/" << p.stride_d0 << " d1 " << p.d1_type << "/"
          << p.d1_layout << "/" << p.ldd1 << "/" << p.stride_d1;
    return s.str();
}

struct matrix
{
    std::vector<unsigned char> host;
    std::vector<double> value; // decoded, same element indexing
    ck_tile::DeviceMem dev;
};

std::int64_t span(std::int64_t rows, std::int64_t cols, bool row_major, std::int64_t ld,
                  std::int64_t batch, std::int64_t stride)
{
    return (batch - 1) * stride + (row_major ? (rows - 1) * ld + cols : (cols - 1) * ld + rows);
}

matrix make_input(cktile_datatype_t t, std::int64_t elements, std::mt19937& rng)
{
    matrix x;
    const std::size_t b = bytes_of(t);
    x.host.resize(elements * b);
    x.value.resize(elements);
    for(std::int64_t i = 0; i < elements; ++i)
        x.value[i] = random_element(t, rng, &x.host[i * b]);
    x.dev.Realloc(x.host.size());
    x.dev.ToDevice(x.host.data());
    return x;
}

/// Runs one problem with instance `id` and checks every element; returns false on a mismatch
/// (with gtest failures describing the first few).
/// Per-tensor scales of one run (cktile_gemm_args_t): A's, B's and D's.
struct gemm_scales
{
    float a, b, d;
};

/// Extra epilogue inputs of one run (multi-D): the operation, where it applies, and how D0/D1
/// are stored. Leading dimensions are padded by `ld_pad`; broadcast_d0 gives D0 batch stride 0.
struct multi_d_spec
{
    cktile_multi_d_op_t op;
    cktile_multi_d_point_t point;
    bool d0_fp32, d1_fp32;
    cktile_layout_t d0_layout, d1_layout;
    bool broadcast_d0;
    int ld_pad;
};

/// Describes `md` in `p` (types, layouts, leading dimensions, batch strides).
void describe_multi_d(cktile_gemm_problem_t& p, const multi_d_spec& md)
{
    p.multi_d_op    = md.op;
    p.multi_d_point = md.point;
    p.d0_type       = md.d0_fp32 ? CKTILE_DATATYPE_FP32 : p.d_type;
    p.d1_type       = md.d1_fp32 ? CKTILE_DATATYPE_FP32 : p.d_type;
    p.d0_layout = md.d0_layout, p.d1_layout = md.d1_layout;
    const auto ld = [&](cktile_layout_t l) {
        return (l == CKTILE_LAYOUT_ROW_MAJOR ? p.n : p.m) + md.ld_pad;
    };
    p.ldd0 = ld(md.d0_layout), p.ldd1 = ld(md.d1_layout);
    p.stride_d0 =
        md.broadcast_d0
            ? 0
            : span(p.m, p.n, md.d0_layout == CKTILE_LAYOUT_ROW_MAJOR, p.ldd0, 1, 0) + md.ld_pad;
    p.stride_d1 = span(p.m, p.n, md.d1_layout == CKTILE_LAYOUT_ROW_MAJOR, p.ldd1, 1, 0) + 3;
}

/// `c_is_d`: D starts as C's values and C's pointer is D's (@pre C and D have one type, layout,
/// leading dimension and batch stride); elements outside D must keep them.
bool run_and_check(cktile_handle_t h, std::uint64_t id, const std::string& name,
                   cktile_gemm_problem_t p, std::mt19937& rng, const gemm_scales* scales = nullptr,
                   bool c_is_d = false, bool no_workspace = false)
{
    const bool ar        = p.a_layout == CKTILE_LAYOUT_ROW_MAJOR,
               br        = p.b_layout == CKTILE_LAYOUT_ROW_MAJOR;
    const bool cr        = p.c_layout == CKTILE_LAYOUT_ROW_MAJOR,
               dr        = p.d_layout == CKTILE_LAYOUT_ROW_MAJOR;
    const std::int64_t B = p.batch_count;
    matrix a             = make_input(p.a_type, span(p.m, p.k, ar, p.lda, B, p.stride_a), rng);
    matrix b             = make_input(p.b_type, span(p.k, p.n, br, p.ldb, B, p.stride_b), rng);
    matrix c             = make_input(p.c_type, span(p.m, p.n, cr, p.ldc, B, p.stride_c), rng);
    matrix bias          = make_input(p.d_type, (B - 1) * p.stride_bias + std::max(p.m, p.n), rng);
    const std::int64_t d_elems = span(p.m, p.n, dr, p.ldd, B, p.stride_d);
    const std::size_t db       = bytes_of(p.d_type);
    ck_tile::DeviceMem d(d_elems * db);
    d.SetValue(0xff); // poison: NaN for floats, -1 for int32 and int8
    if(c_is_d)
        d.ToDevice(c.host.data());

    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = a.dev.GetDeviceBuffer(), args.b = b.dev.GetDeviceBuffer();
    args.c = c_is_d ? d.GetDeviceBuffer() : c.dev.GetDeviceBuffer(), args.d = d.GetDeviceBuffer();
    args.bias = p.bias != CKTILE_BIAS_NONE ? bias.dev.GetDeviceBuffer() : nullptr;
    // Extra inputs (multi-D): random, never zero, in their own type, layout and batch stride.
    const int extras = p.multi_d_op == CKTILE_MULTI_D_NONE ? 0
                       : p.multi_d_op == CKTILE_MULTI_D_ADD || p.multi_d_op == CKTILE_MULTI_D_MUL
                           ? 1
                           : 2;
    const bool d0r   = p.d0_layout == CKTILE_LAYOUT_ROW_MAJOR,
               d1r   = p.d1_layout == CKTILE_LAYOUT_ROW_MAJOR;
    matrix d0        = make_input(extras >= 1 ? p.d0_type : p.d_type,
                           extras >= 1 ? span(p.m, p.n, d0r, p.ldd0, B, p.stride_d0) : 1, rng);
    matrix d1 = make_input(extras >= 2 ? p.d1_type : p.d_type,
                           extras >= 2 ? span(p.m, p.n, d1r, p.ldd1, B, p.stride_d1) : 1, rng);
    args.d0 = extras >= 1 ? d0.dev.GetDeviceBuffer() : nullptr;
    args.d1 = extras >= 2 ? d1.dev.GetDeviceBuffer() : nullptr;
    ck_tile::DeviceMem scale_mem(3 * sizeof(float));
    if(scales)
    {
        const float host[3] = {scales->a, scales->b, scales->d};
        scale_mem.ToDevice(host);
        const float* dev = static_cast<const float*>(scale_mem.GetDeviceBuffer());
        args.scale_a = dev, args.scale_b = dev + 1, args.scale_d = dev + 2;
    }
    // Split-K instances need a workspace; ask for the size and give exactly that much (or
    // none, for instances whose workspace only buys speed).
    std::size_t ws_bytes = 0;
    if(id != CKTILE_INSTANCE_AUTO && !no_workspace)
    {
        EXPECT_EQ(cktile_gemm_workspace_size(h, id, &p, &ws_bytes), CKTILE_STATUS_SUCCESS);
    }
    ck_tile::DeviceMem ws(ws_bytes > 0 ? ws_bytes : 1);
    const cktile_status_t s = cktile_gemm_run(
        h, id, &p, &args, ws_bytes ? ws.GetDeviceBuffer() : nullptr, ws_bytes, nullptr);
    EXPECT_EQ(s, CKTILE_STATUS_SUCCESS)
        << name << " " << describe(p) << ": " << cktile_get_last_error_message();
    if(s != CKTILE_STATUS_SUCCESS)
        return false;
    EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
    std::vector<unsigned char> got(d_elems * db);
    d.FromDevice(got.data());

    ck_tile::reference_gemm_desc g;
    g.m = p.m, g.n = p.n, g.k = p.k, g.batch = B;
    g.a_row = ar ? p.lda : 1, g.a_col = ar ? 1 : p.lda, g.a_batch = p.stride_a;
    g.b_row = br ? p.ldb : 1, g.b_col = br ? 1 : p.ldb, g.b_batch = p.stride_b;
    g.c_row = cr ? p.ldc : 1, g.c_col = cr ? 1 : p.ldc, g.c_batch = p.stride_c;
    g.d_row = dr ? p.ldd : 1, g.d_col = dr ? 1 : p.ldd, g.d_batch = p.stride_d;
    g.bias_batch = p.stride_bias;
    // D = scale_d * act(alpha * scale_a * scale_b * A B + beta C + bias)
    g.alpha              = scales ? p.alpha * double(scales->a) * double(scales->b) : p.alpha;
    g.beta               = p.beta;
    const double d_scale = scales ? double(scales->d) : 1.0;
    g.bias_kind          = static_cast<ck_tile::gemm_bias>(p.bias);
    g.activation         = static_cast<ck_tile::gemm_activation>(p.activation);
    g.multi_d_op         = static_cast<ck_tile::gemm_multi_d_op>(p.multi_d_op);
    g.multi_d_before_activation = p.multi_d_point == CKTILE_MULTI_D_BEFORE_ACTIVATION;
    g.d0 = d0.value.data(), g.d1 = d1.value.data();
    g.d0_row = d0r ? p.ldd0 : 1, g.d0_col = d0r ? 1 : p.ldd0, g.d0_batch = p.stride_d0;
    g.d1_row = d1r ? p.ldd1 : 1, g.d1_col = d1r ? 1 : p.ldd1, g.d1_batch = p.stride_d1;
    std::vector<double> ref(d_elems, std::nan(""));
    ck_tile::reference_gemm(g, a.value.data(), b.value.data(), c.value.data(), bias.value.data(),
                            ref.data());
    // Hopper's fp8 warpgroup MMA keeps fewer accumulator bits than fp32 (about 14 significant
    // bits while it adds the products of one instruction chain; cuBLASLt calls running without
    // periodic promotion "fast accumulation"), so its sums may differ from the exact ones by a
    // small fraction of sum |a * b|: 2^-9 of that magnitude widens the tolerance (observed: up
    // to 2^-9.3 over 2051-long dot products).
    const bool fp8 = p.a_type == CKTILE_DATATYPE_FP8_E4M3 || p.a_type == CKTILE_DATATYPE_FP8_E5M2;
    const bool mma_fp8_accumulation = fp8 && name.rfind("gemm_wgmma_", 0) == 0;
    std::vector<double> magnitude(mma_fp8_accumulation ? d_elems : 0, 0.0);
    if(mma_fp8_accumulation)
    {
        std::vector<double> abs_a(a.value), abs_b(b.value);
        for(double& v : abs_a)
            v = std::fabs(v);
        for(double& v : abs_b)
            v = std::fabs(v);
        ck_tile::reference_gemm_desc gm = g;
        gm.alpha = std::fabs(p.alpha), gm.beta = 0.0;
        gm.bias_kind  = ck_tile::gemm_bias::none;
        gm.activation = ck_tile::gemm_activation::none;
        gm.multi_d_op = ck_tile::gemm_multi_d_op::none;
        ck_tile::reference_gemm(gm, abs_a.data(), abs_b.data(), c.value.data(), bias.value.data(),
                                magnitude.data());
    }

    std::vector<bool> inside(d_elems, false);
    int errors = 0;
    for(std::int64_t bi = 0; bi < B; ++bi)
        for(std::int64_t i = 0; i < p.m; ++i)
            for(std::int64_t j = 0; j < p.n; ++j)
            {
                const std::int64_t off = bi * g.d_batch + i * g.d_row + j * g.d_col;
                inside[off]            = true;
                double want            = d_scale * ref[off];
                if(p.d_type == CKTILE_DATATYPE_INT32)
                    want = ck_tile::convert_output<std::int32_t>(want);
                if(p.d_type == CKTILE_DATATYPE_INT8) // alpha/beta in fp32, then saturated
                    want = ck_tile::convert_output<std::int8_t>(static_cast<float>(want));
                const double have = decode(p.d_type, &got[off * db]);
                const bool act    = p.activation != CKTILE_ACTIVATION_NONE;
                // An activation's evaluation error may be scaled by D0 or D1 (|x| <= 2) after it.
                const double act_tol =
                    tolerance(p.d_type, want, act) - tolerance(p.d_type, want, false);
                const double tol = tolerance(p.d_type, want, act) + (extras ? 2 * act_tol : 0.0) +
                                   (mma_fp8_accumulation ? std::ldexp(magnitude[off], -9) : 0.0);
                if(!(std::fabs(have - want) <= tol) && errors++ < 5)
                    ADD_FAILURE() << name << " " << describe(p) << (scales ? " scaled" : "")
                                  << ": D[" << bi << "](" << i << "," << j << ") = " << have
                                  << ", expected " << want;
            }
    for(std::int64_t off = 0; off < d_elems; ++off)
        if(!inside[off])
            for(std::size_t byte = 0; byte < db; ++byte)
                if(got[off * db + byte] != (c_is_d ? c.host[off * db + byte] : 0xff) &&
                   errors++ < 5)
                    ADD_FAILURE() << name << " " << describe(p) << ": wrote padding element "
                                  << off;
    return errors == 0;
}

class GemmCorrectness : public ::testing::Test
{
    protected:
    /// run_cases passes no workspace at all, to the Hopper instances only (which must then run
    /// without it).
    bool no_workspace_ = false;
    /// run_cases runs the Hopper instances only.
    bool hopper_only_ = false;
    /// run_cases tries every layout combination on every instance (cktile_gemm_supports
    /// decides), not only the instance's own A/B layouts with C/D varied on the first.
    bool every_layout_ = false;
    /// Per instance name: the cases run_cases ran with A/B layouts other than the instance's.
    std::map<std::string, int> ran_other_layouts_;
    /// Per instance name: the cases run with C (beta != 0), those of several batches, and those
    /// with an activation as well.
    std::map<std::string, int> ran_with_c_, ran_batches_with_c_, ran_activations_with_c_;
    /// run_cases expects the alpha-only and bias-only instances (names ending _alpha: D = alpha
    /// * A * B, _bias: that plus a bias, _bias_<activation>: act(that), _bias_c: a bias and C,
    /// _bias_<activation>_c: act(a bias and C);
    /// D stored through the copy engine) to run one of the cases too, where every instance
    /// must.
    bool compact_must_run_ = true;
    std::string name_filter_; // run only the instances whose names contain it

    void SetUp() override
    {
        const auto gpu = ck_tile::query_gpu_availability();
        if(!gpu.present)
            GTEST_SKIP() << gpu.reason;
        ASSERT_EQ(cktile_create(&h_, 0), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();
    }
    void TearDown() override
    {
        if(h_)
            cktile_destroy(h_);
    }

    /// Runs `cases` on every instance, in every layout the instance accepts, and checks that
    /// each instance ran at least one case (with `general_only_must_run`, only the general
    /// instances: cases built to test what specialised instances refuse, e.g. unaligned leading
    /// dimensions, need not fit them; AlignedLeadingDimensionsOddShapes runs every instance).
    void run_cases(const std::vector<gemm_case>& cases, bool tile_only = false,
                   bool first_layouts_only = false, bool general_only_must_run = false,
                   const gemm_scales* scales = nullptr, const multi_d_spec* multi_d = nullptr)
    {
        size_t n = 0;
        ASSERT_EQ(cktile_get_instance_count(h_, &n), CKTILE_STATUS_SUCCESS);
        std::mt19937 rng(1234);
        for(size_t idx = 0; idx < n; ++idx)
        {
            cktile_instance_info_t info{};
            info.struct_size = sizeof(info);
            ASSERT_EQ(cktile_get_instance_info(h_, idx, &info), CKTILE_STATUS_SUCCESS);
            if(info.op_kind != CKTILE_OP_GEMM) // the library also holds other operations
                continue;
            if(tile_only && std::string(info.name).rfind("gemm_tile_", 0) != 0 &&
               std::string(info.name).rfind("gemm_wgmma_", 0) != 0)
                continue;
            // Without workspace: the Hopper instances, whose workspace only buys speed here
            // (the mma.sync split-K instances cannot run without theirs).
            if((no_workspace_ || hopper_only_) &&
               std::string(info.name).rfind("gemm_wgmma_", 0) != 0)
                continue;
            if(multi_d && !info.supports_multi_d)
                continue;
            if(!name_filter_.empty() &&
               std::string(info.name).find(name_filter_) == std::string::npos)
                continue;
            int ran     = 0;
            bool failed = false;
            for(const gemm_case& gc : cases)
                for(int layouts = 0; layouts < 16; ++layouts)
                {
                    cktile_gemm_problem_t p;
                    cktile_gemm_problem_init(&p);
                    p.a_type = info.a_type, p.b_type = info.b_type;
                    p.c_type = info.c_type, p.d_type = info.d_type;
                    p.compute_type = info.compute_type;
                    auto pick      = [&](int bit) {
                        return (layouts >> bit) & 1 ? CKTILE_LAYOUT_COL_MAJOR
                                                         : CKTILE_LAYOUT_ROW_MAJOR;
                    };
                    p.a_layout = pick(0), p.b_layout = pick(1), p.c_layout = pick(2),
                    p.d_layout = pick(3);
                    const bool other_layouts =
                        (info.a_layout != CKTILE_LAYOUT_ANY && info.a_layout != p.a_layout) ||
                        (info.b_layout != CKTILE_LAYOUT_ANY && info.b_layout != p.b_layout);
                    if(other_layouts && !every_layout_)
                        continue;
                    // Keep run time down: C/D layouts vary only with the first A/B layouts.
                    if(!every_layout_ && layouts >= 4 && ((layouts & 3) != 0 || first_layouts_only))
                        continue;
                    p.m = gc.m, p.n = gc.n, p.k = gc.k, p.batch_count = gc.batch;
                    const auto ld = [&](bool row, std::int64_t rows, std::int64_t cols) {
                        const std::int64_t len = row ? cols : rows;
                        return (len + gc.ld_align - 1) / gc.ld_align * gc.ld_align + gc.ld_pad;
                    };
                    p.lda = ld(p.a_layout == CKTILE_LAYOUT_ROW_MAJOR, p.m, p.k);
                    p.ldb = ld(p.b_layout == CKTILE_LAYOUT_ROW_MAJOR, p.k, p.n);
                    p.ldc = ld(p.c_layout == CKTILE_LAYOUT_ROW_MAJOR, p.m, p.n) + gc.ldc_pad;
                    p.ldd = ld(p.d_layout == CKTILE_LAYOUT_ROW_MAJOR, p.m, p.n);
                    p.stride_a =
                        span(p.m, p.k, p.a_layout == CKTILE_LAYOUT_ROW_MAJOR, p.lda, 1, 0) +
                        8 * gc.ld_pad;
                    p.stride_b =
                        span(p.k, p.n, p.b_layout == CKTILE_LAYOUT_ROW_MAJOR, p.ldb, 1, 0) +
                        8 * gc.ld_pad;
                    p.stride_c = span(p.m, p.n, p.c_layout == CKTILE_LAYOUT_ROW_MAJOR, p.ldc, 1, 0);
                    p.stride_d =
                        span(p.m, p.n, p.d_layout == CKTILE_LAYOUT_ROW_MAJOR, p.ldd, 1, 0) +
                        gc.ld_pad;
                    p.stride_bias = std::max(p.m, p.n);
                    p.alpha = gc.alpha, p.beta = gc.beta, p.bias = gc.bias, p.activation = gc.act;
                    if(gc.c_is_d)
                    {
                        if(p.c_type != p.d_type || p.c_layout != p.d_layout)
                            continue;
                        p.ldc = p.ldd, p.stride_c = p.stride_d;
                    }
                    if(multi_d)
                        describe_multi_d(p, *multi_d);
                    if(cktile_gemm_supports(h_, info.id, &p, nullptr, nullptr, 0) !=
                       CKTILE_STATUS_SUCCESS)
                    {
                        EXPECT_FALSE(info.is_general)
                            << info.name << " is general but refuses " << describe(p) << ": "
                            << cktile_get_last_error_message();
                        continue;
                    }
                    ++ran;
                    ran_other_layouts_[info.name] += other_layouts ? 1 : 0;
                    ran_with_c_[info.name] += p.beta != 0.0 ? 1 : 0;
                    ran_batches_with_c_[info.name] += p.beta != 0.0 && p.batch_count > 1 ? 1 : 0;
                    ran_activations_with_c_[info.name] +=
                        p.beta != 0.0 && p.activation != CKTILE_ACTIVATION_NONE ? 1 : 0;
                    // Integer outputs: scales that are powers of two, so that rounding
                    // halves cannot differ between the kernel's and the reference's order.
                    const gemm_scales dyadic{0.5f, 4.f, 0.25f};
                    const bool int_out =
                        p.d_type == CKTILE_DATATYPE_INT32 || p.d_type == CKTILE_DATATYPE_INT8;
                    if(!failed && !run_and_check(h_, info.id, info.name, p, rng,
                                                 scales && int_out ? &dyadic : scales, gc.c_is_d,
                                                 no_workspace_))
                        failed = true; // one report per instance; the others still run
                }
            const std::string name = info.name;
            const bool compact     = name.ends_with("_alpha") || name.ends_with("_bias") ||
                                 name.find("_bias_") != std::string::npos;
            // An instance compiled with one activation (_bias_<activation>) must run a case
            // only where one asks for that activation without C or multi-D inputs, one compiled
            // with C (_bias_c, _bias_<activation>_c) only where one asks for C with its
            // activation (or none), on leading dimensions of 16 elements and rows of whole 16
            // bytes (the copy engine's boxes of C and of D; the harness packs batches of D whole
            // leading dimensions apart only where N is its leading dimension).
            // (FusedEpilogueFromRegisters checks those instances' C cases in detail.)
            const bool with_c = reads_c_only(name);
            const bool its_activation_asked =
                (std::popcount(info.activations) != 1 && !with_c) ||
                std::any_of(cases.begin(), cases.end(), [&](const gemm_case& gc) {
                    if(with_c)
                        return gc.beta != 0.0 && (info.activations >> gc.act & 1u) &&
                               gc.ld_align % 16 == 0 && gc.ld_pad % 16 == 0 &&
                               gc.ldc_pad % 16 == 0 && gc.n % 8 == 0 &&
                               (gc.batch == 1 ||
                                (gc.ld_pad == 0 && gc.ldc_pad == 0 && gc.n % gc.ld_align == 0)) &&
                               !multi_d;
                    return gc.beta == 0.0 && (info.activations >> gc.act & 1u);
                });
            if(info.is_general ||
               (!general_only_must_run && (compact_must_run_ || !compact) && its_activation_asked))
            {
                EXPECT_GT(ran, 0) << info.name << " ran none of this test's cases";
            }
        }
    }

    /// The descriptions of the library's GEMM instances that `keep` accepts.
    template <typename Keep>
    std::vector<cktile_instance_info_t> gemm_instances(Keep keep) const
    {
        std::vector<cktile_instance_info_t> out;
        size_t n = 0;
        EXPECT_EQ(cktile_get_instance_count(h_, &n), CKTILE_STATUS_SUCCESS);
        for(size_t idx = 0; idx < n; ++idx)
        {
            cktile_instance_info_t info{};
            info.struct_size = sizeof(info);
            EXPECT_EQ(cktile_get_instance_info(h_, idx, &info), CKTILE_STATUS_SUCCESS);
            if(info.op_kind == CKTILE_OP_GEMM && keep(info))
                out.push_back(info);
        }
        return out;
    }

    /// The descriptions of the library's Hopper (wgmma) GEMM instances.
    std::vector<cktile_instance_info_t> hopper_instances() const
    {
        return gemm_instances([](const cktile_instance_info_t& info) {
            return std::string(info.name).rfind("gemm_wgmma_", 0) == 0;
        });
    }

    /// The descriptions of the library's GEMM instances that run `p`.
    std::vector<cktile_instance_info_t> instances_for(const cktile_gemm_problem_t& p,
                                                      const cktile_gemm_args_t& args) const
    {
        return gemm_instances([&](const cktile_instance_info_t& info) {
            return cktile_gemm_supports(h_, info.id, &p, &args, nullptr, 0) ==
                   CKTILE_STATUS_SUCCESS;
        });
    }

    cktile_handle_t h_ = nullptr;
};

TEST_F(GemmCorrectness, EdgeShapes)
{
    run_cases({{1, 1, 1, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {17, 33, 65, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {64, 64, 1, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {128, 64, 64, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {131, 67, 40, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               // 16 rows (the 16-row A tiles' problems) with an odd K, D on 16 bytes.
               {16, 72, 33, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               // With C, leading dimensions on 16 elements (the copy engine's boxes of C, which
               // the bias-and-C instances load): one row of 8 columns, and tiles cut at both
               // edges.
               {1, 8, 1, 1, 0, 1.0, 1.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
               {131, 72, 40, 1, 0, 1.0, 0.5, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16}});
}

TEST_F(GemmCorrectness, UnalignedLeadingDimensionsAndBatches)
{
    run_cases({{17, 33, 65, 3, 3, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {70, 5, 24, 2, 8, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {1, 129, 7, 4, 1, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE}},
              false, false, true);
}

TEST_F(GemmCorrectness, AlphaBetaBiasActivations)
{
    run_cases({{33, 17, 24, 2, 0, 0.5, 1.5, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {33, 17, 24, 2, 0, 1.0, -1.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU},
               {33, 17, 24, 1, 0, 2.0, 0.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH},
               {19, 40, 16, 2, 0, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_ERF},
               {19, 40, 16, 1, 0, 1.0, 0.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_SILU}},
              false, false, true);
}

// Leading dimensions that are multiples of 16 elements (the tile instances' vector alignment, at
// most 16 bytes of fp8) with shapes that are not: masked edges and K tails, every layout.
TEST_F(GemmCorrectness, AlignedLeadingDimensionsOddShapes)
{
    const auto none = CKTILE_BIAS_NONE;
    const auto act  = CKTILE_ACTIVATION_NONE;
    run_cases(
        {{1, 1, 1, 1, 0, 1.0, 0.0, none, act, 16},
         {17, 33, 65, 1, 0, 1.0, 0.0, none, act, 16},
         {64, 64, 1, 1, 16, 1.0, 0.0, none, act, 16},
         {127, 131, 257, 1, 16, 1.0, 0.0, none, act, 16},
         // Odd M and N with K on 16 and no epilogue operation: a case for the instances
         // whose vectors run along K and that compile no epilogue (the full set's fp32
         // simt `_none` kernels refuse every other case here).
         {127, 131, 64, 1, 0, 1.0, 0.0, none, act, 16},
         {33, 17, 100, 3, 32, 0.5, 1.5, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU, 16},
         {19, 40, 48, 2, 0, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_ERF, 16},
         {19, 40, 48, 1, 0, 2.0, 0.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_SILU, 16},
         {19, 40, 48, 1, 0, 1.0, 0.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH, 16}});
}

// Small outputs with long K: the split-K instances cut K (in-order reduction through the
// workspace); sums of a few thousand products of eighths are still exact in fp32.
TEST_F(GemmCorrectness, SplitKSmallOutputsLongK)
{
    run_cases({{64, 48, 4096, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
               {33, 17, 2050, 3, 16, 1.0, 1.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU, 16},
               {16, 200, 1024, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16}},
              true);
}

// Per-tensor scales (meant for fp8, applied to every type): every instance, with C, bias and
// activation; non-dyadic scales for floating-point outputs; split-K goes through the
// reduction kernel's epilogue.
TEST_F(GemmCorrectness, PerTensorScales)
{
    const gemm_scales s{0.3f, 1.7f, 0.9f};
    run_cases({{33, 17, 24, 2, 0, 0.5, 1.5, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
               {19, 40, 48, 1, 0, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_ERF, 16},
               {17, 33, 65, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {40, 136, 48, 1, 0, 0.5, 1.5, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_NONE, 16}},
              false, true, true, &s);
    run_cases({{33, 17, 2048, 1, 16, 1.0, 1.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU, 16},
               {33, 17, 2048, 1, 16, 0.5, 1.5, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
               {9, 130, 2048, 1, 16, 1.0, 1.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_SILU, 16},
               // Without C, for the alpha-only instances too: D's batches exactly m * ldd
               // apart, as the copy engine's map of D needs.
               {40, 32, 2048, 2, 0, 0.5, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16}},
              true, true, false, &s);
}

// Extra epilogue inputs (multi-D) on every instance that has the fused epilogue: each
// operation, before and after the activation, D0/D1 in D's type and in fp32, row- and
// column-major with padded leading dimensions, D0 broadcast over the batches, edge shapes.
TEST_F(GemmCorrectness, MultiDEveryOperation)
{
    const auto none = CKTILE_BIAS_NONE;
    const auto row = CKTILE_LAYOUT_ROW_MAJOR, col = CKTILE_LAYOUT_COL_MAJOR;
    const auto after = CKTILE_MULTI_D_AFTER_ACTIVATION, before = CKTILE_MULTI_D_BEFORE_ACTIVATION;
    const std::vector<multi_d_spec> specs = {
        {CKTILE_MULTI_D_ADD, after, false, false, row, row, false, 0},
        {CKTILE_MULTI_D_MUL, after, true, false, col, row, false, 3},
        {CKTILE_MULTI_D_ADD_MUL, before, false, true, row, col, true, 1},
        {CKTILE_MULTI_D_MUL_ADD, after, true, true, col, col, true, 0},
        {CKTILE_MULTI_D_ADD, before, true, false, col, row, true, 2},
    };
    for(const multi_d_spec& md : specs)
    {
        SCOPED_TRACE(testing::Message() << "multi_d " << md.op << " point " << md.point);
        run_cases(
            {{1, 1, 1, 1, 0, 1.0, 0.0, none, CKTILE_ACTIVATION_NONE},
             {17, 33, 65, 3, 0, 1.0, 0.5, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU},
             {131, 67, 40, 1, 0, 0.5, 0.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_ERF, 16},
             {33, 17, 48, 2, 0, 1.0, 1.5, none, CKTILE_ACTIVATION_SILU, 16}},
            false, true, true, nullptr, &md);
    }
}

// Multi-D through split-K (the reduction kernel's epilogue) and with per-tensor scales.
TEST_F(GemmCorrectness, MultiDSplitKAndScales)
{
    const multi_d_spec add_mul{
        CKTILE_MULTI_D_ADD_MUL,  CKTILE_MULTI_D_AFTER_ACTIVATION, false, true,
        CKTILE_LAYOUT_COL_MAJOR, CKTILE_LAYOUT_ROW_MAJOR,         true,  5};
    run_cases({{33, 17, 2050, 3, 16, 1.0, 1.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU, 16},
               {64, 48, 4096, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
               {16, 72, 4096, 2, 0, 1.0, 0.5, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU, 16}},
              true, true, false, nullptr, &add_mul);
    const gemm_scales s{0.3f, 1.7f, 0.9f};
    const multi_d_spec mul{CKTILE_MULTI_D_MUL,      CKTILE_MULTI_D_BEFORE_ACTIVATION, true,  false,
                           CKTILE_LAYOUT_ROW_MAJOR, CKTILE_LAYOUT_ROW_MAJOR,          false, 0};
    run_cases(
        {{33, 17, 2048, 1, 16, 1.0, 1.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_GELU_TANH, 16},
         {19, 40, 48, 2, 0, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_NONE, 16}},
        false, true, true, &s, &mul);
}

// The Hopper GEMM's copy-engine stores of D (row-major D, 16-byte aligned pointer, leading
// dimension, batch stride and row length): M and N that are not multiples of the tile (the
// copy engine clips the chunks), a 128-row tile whose second half lies below D, the staged
// epilogue, batches, and D that cannot take the path (leading dimension 99, odd N, col-major
// D: the thread stores). Then C aliasing D with beta != 0, which the chunks read before they
// are stored.
TEST_F(GemmCorrectness, CopyEngineStoreEdges)
{
    const auto none = CKTILE_BIAS_NONE;
    const auto act  = CKTILE_ACTIVATION_NONE;
    run_cases(
        {{200, 264, 64, 1, 0, 1.0, 0.0, none, act, 16},
         {50, 64, 64, 1, 0, 1.0, 0.0, none, act, 16},
         {70, 40, 48, 2, 0, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH, 16},
         {65, 8, 16, 3, 0, 0.5, 0.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU, 16},
         {100, 96, 32, 1, 3, 1.0, 0.0, none, act, 1},
         {64, 33, 32, 1, 0, 1.0, 0.0, none, act, 16}},
        true, false, true);
    run_cases(
        {{130, 72, 64, 2, 0, 1.0, 1.0, none, act, 16, true},
         {70, 264, 40, 1, 0, 0.5, -1.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_SILU, 16, true},
         {33, 17, 24, 1, 0, 1.0, 0.5, none, act, 1, true}},
        true, false, true);
    // D0 loaded by the copy engine (one input, D's type, row-major, aligned), or from global
    // memory when C takes the loads (beta != 0) or the operation reads D1 as well.
    const auto row = CKTILE_LAYOUT_ROW_MAJOR;
    const multi_d_spec add{
        CKTILE_MULTI_D_ADD, CKTILE_MULTI_D_AFTER_ACTIVATION, false, false, row, row, false, 0};
    const multi_d_spec mul_add{
        CKTILE_MULTI_D_MUL_ADD, CKTILE_MULTI_D_BEFORE_ACTIVATION, false, false, row, row, false, 0};
    for(const multi_d_spec* md : {&add, &mul_add})
        run_cases(
            {{70, 40, 48, 2, 0, 1.0, 0.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH, 16},
             {200, 264, 64, 1, 0, 0.5, 0.0, none, act, 16},
             {70, 40, 48, 1, 0, 1.0, 0.5, none, CKTILE_ACTIVATION_RELU, 16}},
            true, true, true, nullptr, md);
}

// The Hopper instances' epilogue from the registers (no extra inputs, D row-major through the
// copy engine; one input, C or D0): every activation, a bias per row or per column (read in pairs
// of columns, one at a time where a batch's bias starts off a pair: batch stride 201) or none,
// alpha, beta with C (row-major, read in pairs of columns, one at a time where C's leading
// dimension is odd, and in place over D), per-tensor scales, several output boxes per warp (wide
// and narrow ones), boxes and warps clipped at D's right and lower edges, rows of a later slab
// below D, and batches. 520 x 8200 has more tiles than an H100 has SMs, so blocks run several
// tiles one after another, each loading its input boxes while the last tile's stores may still
// be reading them.
TEST_F(GemmCorrectness, FusedEpilogueFromRegisters)
{
    hopper_only_   = true;
    const auto row = CKTILE_BIAS_PER_ROW, col = CKTILE_BIAS_PER_COLUMN;
    const auto none = CKTILE_BIAS_NONE;
    const auto act  = CKTILE_ACTIVATION_NONE;
    run_cases({{200, 264, 64, 2, 0, 1.0, 0.0, col, CKTILE_ACTIVATION_GELU_TANH, 16},
               {130, 392, 96, 1, 0, 0.5, 0.0, row, CKTILE_ACTIVATION_SILU, 16},
               {257, 136, 64, 1, 16, 1.0, 0.0, col, CKTILE_ACTIVATION_RELU, 16},
               {64, 200, 32, 3, 0, 2.0, 0.0, row, CKTILE_ACTIVATION_GELU_ERF, 16},
               {100, 328, 48, 1, 0, 1.0, 0.0, none, CKTILE_ACTIVATION_GELU_TANH, 16},
               {40, 72, 16, 1, 0, -1.0, 0.0, col, act, 16},
               {72, 200, 40, 2, 0, 1.0, 0.0, row, act, 16},
               {200, 264, 64, 2, 0, 1.0, 0.5, col, CKTILE_ACTIVATION_GELU_TANH, 16},
               {130, 392, 96, 1, 0, 0.5, -1.0, row, CKTILE_ACTIVATION_SILU, 16},
               {150, 136, 40, 2, 0, 1.0, 1.0, none, act, 16},
               {70, 264, 40, 1, 0, 1.0, 1.0, none, act, 16, true},
               {100, 136, 48, 2, 0, 2.0, 0.25, none, CKTILE_ACTIVATION_RELU, 16, false, 1},
               {201, 136, 48, 2, 0, 1.0, 0.0, col, CKTILE_ACTIVATION_GELU_TANH, 16},
               {201, 136, 48, 2, 0, 1.0, 0.5, col, CKTILE_ACTIVATION_SILU, 16},
               {520, 8200, 32, 1, 0, 1.0, 0.5, col, CKTILE_ACTIVATION_GELU_TANH, 16},
               {520, 8200, 32, 1, 0, 0.5, 1.0, none, act, 16},
               // C with each activation (the bias, activation and C instances): C in place
               // over D, N = 144 (the second share of a 192-column tile cut inside its first
               // box) in batches, several tiles per block, padded leading dimensions; each bias
               // kind with each activation.
               {73, 264, 40, 1, 0, 1.0, 1.0, row, CKTILE_ACTIVATION_GELU_TANH, 16, true},
               {150, 144, 40, 2, 0, 0.5, -0.5, none, CKTILE_ACTIVATION_GELU_TANH, 16},
               {1100, 520, 32, 1, 0, 1.0, 0.5, col, CKTILE_ACTIVATION_GELU_TANH, 16},
               {73, 264, 40, 1, 0, 1.0, 1.0, col, CKTILE_ACTIVATION_RELU, 16, true},
               {150, 144, 40, 2, 0, 0.5, -0.5, row, CKTILE_ACTIVATION_RELU, 16},
               {1100, 520, 32, 1, 0, 1.0, 0.5, none, CKTILE_ACTIVATION_RELU, 16},
               {257, 144, 64, 1, 16, 1.0, 0.5, col, CKTILE_ACTIVATION_RELU, 16},
               {73, 264, 40, 1, 0, 0.5, 1.0, none, CKTILE_ACTIVATION_GELU_ERF, 16, true},
               {150, 144, 40, 2, 0, 1.0, 0.5, col, CKTILE_ACTIVATION_GELU_ERF, 16},
               {1100, 520, 32, 1, 0, 1.0, -0.5, row, CKTILE_ACTIVATION_GELU_ERF, 16},
               {64, 208, 32, 3, 0, 2.0, -1.0, row, CKTILE_ACTIVATION_GELU_ERF, 16},
               {73, 264, 40, 1, 0, 1.0, -1.0, row, CKTILE_ACTIVATION_SILU, 16, true},
               {150, 144, 40, 2, 0, 0.5, 0.5, none, CKTILE_ACTIVATION_SILU, 16},
               {1100, 520, 32, 1, 0, 1.0, 1.0, col, CKTILE_ACTIVATION_SILU, 16},
               // Biases alone (the bias-only instances load them before the main loop): a
               // second batch whose biases start off a pair of columns (batch stride 201),
               // rows and columns cut inside a tile, and several tiles per block.
               {73, 201, 40, 2, 0, 1.0, 0.0, col, act, 16},
               {201, 73, 40, 2, 0, 0.5, 0.0, row, act, 16},
               {520, 8200, 32, 1, 0, 1.0, 0.0, col, act, 16},
               {1100, 520, 32, 1, 0, 1.0, 0.0, row, act, 16},
               // C and a bias without an activation (the bias-and-C instances, which store D
               // through the copy engine: N a multiple of 16, so that the cases' packed
               // batches of D are whole leading dimensions apart): a second batch's biases off
               // a pair, C in place over D, several tiles per block; C's leading dimension odd
               // (the fused kernels load it with the threads, or on tiles that read C from the
               // copy engine's boxes, in the staged epilogue; the bias-and-C kernels refuse it).
               {201, 144, 48, 2, 0, 1.0, 0.5, col, act, 16},
               {73, 264, 40, 1, 0, 1.0, 1.0, col, act, 16, true},
               {150, 272, 40, 2, 0, 1.0, 0.5, row, act, 16, false, 1},
               {520, 8200, 32, 1, 0, 1.0, -0.5, row, act, 16}},
              true, true, true);
    // Those cases and the C cases above ran on every bias-and-C instance, batched ones too,
    // and with its activation on every one compiled with one.
    for(const cktile_instance_info_t& info : hopper_instances())
    {
        const std::string name = info.name;
        if(!reads_c_only(name))
            continue;
        EXPECT_GE(ran_with_c_[name], 4) << name << " ran too few cases with C";
        EXPECT_GT(ran_batches_with_c_[name], 0) << name << " ran no batched case with C";
        if(!name.ends_with("_bias_c"))
        {
            EXPECT_GE(ran_activations_with_c_[name], 3)
                << name << " ran too few cases with C and its activation";
        }
    }
    const gemm_scales s{0.3f, 1.7f, 0.9f};
    run_cases({{150, 300, 64, 1, 16, 1.0, 0.0, col, CKTILE_ACTIVATION_SILU, 16},
               {70, 264, 40, 2, 0, 0.5, 0.0, row, CKTILE_ACTIVATION_GELU_TANH, 16},
               {150, 300, 64, 1, 16, 1.0, 0.5, col, CKTILE_ACTIVATION_SILU, 16},
               // C alone: the unfused kernels fold d_scale into alpha and beta; 136 columns
               // end in a box cut at D's edge.
               {150, 136, 40, 2, 0, 0.5, 1.5, none, act, 16},
               // A bias without an activation: the fused kernels fold d_scale into alpha,
               // beta and the bias's multiply-add.
               {130, 264, 48, 1, 0, 0.5, 1.0, row, act, 16},
               {130, 264, 48, 1, 0, 0.5, 0.0, row, act, 16},
               {120, 200, 40, 2, 0, -1.0, 0.0, col, act, 16}},
              true, true, true, &s);
    // D0 of a one-input multi-D operation (D's type, row-major) in place of C: added after the
    // activation, multiplied before it, one D0 for every batch (batch stride 0), and with
    // an odd leading dimension (read one value at a time).
    const auto r = CKTILE_LAYOUT_ROW_MAJOR;
    const multi_d_spec add_after{
        CKTILE_MULTI_D_ADD, CKTILE_MULTI_D_AFTER_ACTIVATION, false, false, r, r, false, 0};
    const multi_d_spec mul_before{
        CKTILE_MULTI_D_MUL, CKTILE_MULTI_D_BEFORE_ACTIVATION, false, false, r, r, false, 0};
    const multi_d_spec add_broadcast{
        CKTILE_MULTI_D_ADD, CKTILE_MULTI_D_BEFORE_ACTIVATION, false, false, r, r, true, 0};
    const multi_d_spec mul_odd{
        CKTILE_MULTI_D_MUL, CKTILE_MULTI_D_AFTER_ACTIVATION, false, false, r, r, false, 1};
    for(const multi_d_spec* md : {&add_after, &mul_before, &add_broadcast, &mul_odd})
        run_cases({{200, 264, 64, 2, 0, 1.0, 0.0, col, CKTILE_ACTIVATION_GELU_TANH, 16},
                   {130, 392, 96, 1, 0, 0.5, 0.0, row, CKTILE_ACTIVATION_SILU, 16},
                   {70, 136, 40, 1, 0, 1.0, 0.0, none, act, 16},
                   {520, 8200, 32, 1, 0, 1.0, 0.0, none, act, 16}},
                  true, true, true, nullptr, md);
    // With the scales and D0 added after the (identity) activation, d_scale multiplies the sum
    // at the end instead of folding into alpha and the bias.
    run_cases({{130, 264, 48, 1, 0, 0.5, 0.0, row, act, 16},
               {70, 136, 40, 2, 0, 1.0, 0.0, none, act, 16}},
              true, true, true, &s, &add_after);
}

// Operands read once: B's tiles with one reader (M = 16) and A's with one (N = 16), 52 batches
// so that the operand is larger than an H100's 50 MiB L2 even in 8-bit types. The Hopper
// instances then load it with evict-first copies (gemm_wgmma_read_once), the pairs through
// multicast. The Hopper instances only: no other kernel gives its copies a cache policy, and
// the CPU reference of 52 batches dominates the run.
TEST_F(GemmCorrectness, OperandsReadOnce)
{
    hopper_only_    = true;
    const auto none = CKTILE_BIAS_NONE;
    const auto act  = CKTILE_ACTIVATION_NONE;
    run_cases({{16, 1024, 1024, 52, 0, 1.0, 0.0, none, act, 16},
               {1024, 16, 1024, 52, 0, 0.5, 0.0, none, act, 16}},
              true, true, true);
}

// Problems the Hopper instances run as their transpose, D^T = B^T A^T: every layout
// combination, so that an instance for row-major A and B also meets column-major A and B, and
// column-major D (which the instances for row-major A and column-major B, or the reverse, run
// transposed to store D^T row-major). Few columns (N = 16, 9, 12), which the 16-row A tiles
// take only transposed, with the bias along either side, C and batches; one that fits every
// tile both ways; a plain one for the instances without the fused epilogue; a bias with each
// activation without C for the instances compiled with one activation, and C with a bias for
// the bias-and-C ones, with each activation as well for the bias, activation and C ones. Their
// D stores through the copy engine, so both M and N of these 136 x 72 cases are whole 16 bytes
// of D (the transposed problem's N is M), and they take one batch: the cases' batches of a
// column-major D lie (ldd - M) elements closer than whole columns, which the copy engine's map
// of D^T refuses.
TEST_F(GemmCorrectness, TransposedStatementsOnHopperInstances)
{
    hopper_only_  = true;
    every_layout_ = true;
    run_cases(
        {{300, 16, 200, 1, 0, 1.0, 0.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_RELU, 16},
         {257, 9, 72, 2, 0, 0.5, 1.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_NONE, 8},
         {130, 70, 96, 1, 3, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH, 16},
         {200, 12, 64, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
         {136, 72, 96, 1, 0, 0.5, 0.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_GELU_TANH, 16},
         {136, 72, 96, 1, 0, 0.5, 1.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_NONE, 16},
         {136, 72, 96, 1, 0, 1.0, -0.5, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_GELU_TANH, 16},
         {136, 72, 96, 1, 0, 1.0, 0.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_RELU, 16},
         {136, 72, 96, 1, 0, 2.0, 0.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_GELU_ERF, 16},
         {136, 72, 96, 1, 0, 1.0, 0.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_SILU, 16},
         {136, 72, 96, 1, 0, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_RELU, 16},
         {136, 72, 96, 1, 0, 0.5, 1.0, CKTILE_BIAS_PER_ROW, CKTILE_ACTIVATION_GELU_ERF, 16},
         {136, 72, 96, 1, 0, 1.0, -1.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_SILU, 16}},
        true, false, true);
    for(const cktile_instance_info_t& info : hopper_instances())
    {
        const std::string name = info.name;
        // Row-major/row-major and column-major/column-major instances map onto each other, and
        // the 8-bit and TF32 ones (K-major only) copy operands stored the other way transposed.
        const bool k_major_only =
            info.a_type != CKTILE_DATATYPE_FP16 && info.a_type != CKTILE_DATATYPE_BF16;
        if(info.a_layout == info.b_layout || k_major_only)
        {
            EXPECT_GT(ran_other_layouts_[name], 0) << name << " ran no transposed layouts";
        }
        // A 16-row A tile runs the 16-column problem as 16 x 300.
        if(name.find("_a16") != std::string::npos)
        {
            cktile_gemm_problem_t p;
            cktile_gemm_problem_init(&p);
            p.a_type = info.a_type, p.b_type = info.b_type;
            p.c_type = info.c_type, p.d_type = info.d_type, p.compute_type = info.compute_type;
            const auto flip = [](cktile_layout_t l) {
                return l == CKTILE_LAYOUT_ROW_MAJOR ? CKTILE_LAYOUT_COL_MAJOR
                                                    : CKTILE_LAYOUT_ROW_MAJOR;
            };
            p.a_layout = flip(info.b_layout), p.b_layout = flip(info.a_layout);
            p.m = 300, p.n = 16, p.k = 200;
            p.lda = p.a_layout == CKTILE_LAYOUT_ROW_MAJOR ? p.k : p.m;
            p.ldb = p.b_layout == CKTILE_LAYOUT_ROW_MAJOR ? p.n : p.k;
            p.ldc = p.ldd = p.n;
            EXPECT_EQ(cktile_gemm_supports(h_, info.id, &p, nullptr, nullptr, 0),
                      CKTILE_STATUS_SUCCESS)
                << name << ": " << cktile_get_last_error_message();
        }
    }
}

// The transposed copies of the 8-bit and TF32 Hopper instances at edge shapes: every layout,
// extents of 1, a leading dimension of 1 (a single row or column), K below one K tile, and
// several batches.
TEST_F(GemmCorrectness, TransposedCopiesAtEdgeShapes)
{
    hopper_only_  = true;
    every_layout_ = true;
    run_cases({{1, 1, 1, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {1, 72, 65, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {131, 8, 1, 2, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
               {70, 136, 200, 3, 16, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16}},
              true, false, true);
    for(const cktile_instance_info_t& info : hopper_instances())
        if(info.a_type != CKTILE_DATATYPE_FP16 && info.a_type != CKTILE_DATATYPE_BF16)
        {
            EXPECT_GT(ran_other_layouts_[info.name], 0)
                << info.name << " ran no layouts other than its own";
        }
}

// A large unaligned-shape problem, on the tile instances only (the CPU reference dominates).
// The alpha-only and bias-only instances refuse D rows that are not whole 16-byte units.
TEST_F(GemmCorrectness, LargeOddShapeOnTileInstances)
{
    compact_must_run_ = false;
    run_cases({{4097, 65, 2051, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
               {13, 4099, 2051, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16}},
              true, true);
}

// More output tiles than an H100 has SMs for the narrow Hopper tiles (1100 x 1100 makes 162
// tiles of 128x64 or 64x128 and 324 of 64x64; 16 x 9000 makes 141 of 64x64 for the instances
// of M <= 16), so each persistent block runs several tiles, the ping-pong consumers alternate
// and the producer refills the ring across tile boundaries; K = 100 leaves a partial last K
// tile.
TEST_F(GemmCorrectness, SeveralTilesPerPersistentBlock)
{
    run_cases(
        {{1100, 1100, 100, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
         {16, 9000, 100, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE, 16},
         {1100, 1104, 100, 1, 0, 1.0, 0.5, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_NONE, 16}},
        true, true);
}

// The same for the wide tiles (128x256 and the others), through batches: 136 batches of two
// 256-column tiles, with the plain epilogue, whose copy-engine stores of one tile still run
// while the block's next tile is loaded and computed. Chunks and rows outside D are skipped
// (N = 264 leaves a 256-column tile 8 columns; M = 70 puts the second consumer's rows mostly
// below D); K of one stage and of ten (68 batches there); unit and other scales.
TEST_F(GemmCorrectness, SeveralWideTilesPerPersistentBlock)
{
    const auto none = CKTILE_BIAS_NONE;
    const auto act  = CKTILE_ACTIVATION_NONE;
    run_cases({{70, 264, 16, 136, 0, 1.0, 0.0, none, act, 16},
               {70, 264, 16, 136, 0, 0.5, 0.0, none, act, 16},
               {16, 264, 640, 68, 0, 1.0, 0.0, none, act, 16}},
              true, true, true);
}

// More tiles than an H100 has SMs with a short last wave, so the Hopper instances split each
// tile of that wave over K and the last split of a tile to finish adds up all of them (through
// the workspace) before its epilogue. 133 batches of one tile each leave one tile over on every
// tile shape; K is long enough for the split to pay on all of them (8000: up to 8 splits, the
// last K tile partial), and 72 rows give both consumers of a 128-row tile rows, with C and the
// fused epilogue (K = 4096: the tiles of 128 rows and more split). Then the first problem again
// with no workspace, which the split needs and the instances must do without.
TEST_F(GemmCorrectness, LastWaveSplitOverK)
{
    const auto none = CKTILE_BIAS_NONE;
    const auto act  = CKTILE_ACTIVATION_NONE;
    run_cases(
        {{8, 8, 8000, 133, 0, 1.0, 0.0, none, act, 16},
         {72, 8, 4096, 133, 0, 0.5, 1.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH, 16}},
        true, true, true);
    // (K = 8000 keeps the batch strides of 8-bit operands on 16 bytes, so that no instance
    // needs the workspace to stage them.)
    no_workspace_ = true;
    run_cases({{8, 8, 8000, 133, 0, 1.0, 0.0, none, act, 16}}, true, true, true);
}

// Leading dimensions and batch strides off 16 bytes on the Hopper instances: each such operand
// is first copied into workspace with rows on 128-byte lines and packed batches (whatever the
// source's batch stride), then read by the copy engine. K tails, M/N edges, an
// epilogue with C, bias and activation. That the Hopper instances accept these problems at all
// is checked without a GPU (Select.HopperInstancesStageUnalignedOperands).
TEST_F(GemmCorrectness, StagedOperandsOnHopperInstances)
{
    run_cases({{300, 260, 1001, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {129, 200, 130, 2, 5, 0.5, 1.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH},
               {64, 72, 61, 3, 3, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE}},
              true, true, true);
}

// B fed by the producer threads (instances with _bt): column-major B with leading dimensions
// and batch strides on every 2-byte offset, read where it lies. K from 1 to long odd K (a row's
// window then starts on each of the 8 offsets of a 16-byte line), K tails, N edges, batches, M up
// to several 64-row tiles, and the fused epilogue with C, a bias and an activation. Every such
// instance must run some of these cases.
TEST_F(GemmCorrectness, ThreadFedBOnHopperInstances)
{
    if(gemm_instances([](const cktile_instance_info_t& info) {
           return std::string(info.name).find("_bt_") != std::string::npos;
       }).empty())
        GTEST_SKIP() << "no instance list holds tiles fed by the threads (b_feed threads): they "
                        "measured slower than the staging copy (docs/performance.md)";
    name_filter_ = "_bt_";
    run_cases({{16, 304, 8191, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {16, 64, 1, 1, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {9, 136, 1001, 3, 0, 0.5, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {13, 129, 61, 3, 5, 0.5, 1.0, CKTILE_BIAS_PER_COLUMN, CKTILE_ACTIVATION_GELU_TANH},
               {200, 392, 131, 2, 0, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE},
               {70, 8, 203, 1, 3, 1.0, 0.0, CKTILE_BIAS_NONE, CKTILE_ACTIVATION_NONE}},
              true, true, false);
}

TEST_F(GemmCorrectness, AutomaticSelectionAndMeasuredSelection)
{
    std::mt19937 rng(99);
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = 200, p.n = 96, p.k = 64, p.lda = 64, p.ldb = 64, p.ldc = 96, p.ldd = 96;
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR;
    EXPECT_TRUE(run_and_check(h_, CKTILE_INSTANCE_AUTO, "auto", p, rng));
    // Measured selection with real buffers, then the choice is reused.
    matrix a = make_input(p.a_type, 200 * 64, rng), b = make_input(p.b_type, 96 * 64, rng);
    ck_tile::DeviceMem d(200 * 96 * 2);
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = a.dev.GetDeviceBuffer(), args.b = b.dev.GetDeviceBuffer(),
    args.d              = d.GetDeviceBuffer();
    std::uint64_t first = 0, second = 0;
    ASSERT_EQ(cktile_gemm_select_measured(h_, &p, &args, nullptr, 0, nullptr, &first),
              CKTILE_STATUS_SUCCESS)
        << cktile_get_last_error_message();
    ASSERT_EQ(cktile_gemm_select_measured(h_, &p, &args, nullptr, 0, nullptr, &second),
              CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(first, second);
    EXPECT_TRUE(run_and_check(h_, first, "measured", p, rng));
}

// Measured selection must find an instance at least about as fast as the model's pick: timed
// here in interleaved rounds of their own, the measured pick may not be more than 8% slower
// (a pick by one noisy launch each, or any wrong bookkeeping of the rounds, lands on a slow
// instance among the dozens that support fp16 at 2048^3). At 2048^3 a launch takes about
// 30 us, so the device's time is measured, not the host's time to launch.
TEST_F(GemmCorrectness, MeasuredSelectionIsAtLeastAsFastAsTheModelsPick)
{
    std::mt19937 rng(5);
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    constexpr std::int64_t size = 2048;
    p.m = p.n = p.k = size;
    p.lda = p.ldb = p.ldc = p.ldd = size;
    p.b_layout                    = CKTILE_LAYOUT_COL_MAJOR;
    matrix a = make_input(p.a_type, size * size, rng), b = make_input(p.b_type, size * size, rng);
    ck_tile::DeviceMem d(size * size * 2);
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = a.dev.GetDeviceBuffer(), args.b = b.dev.GetDeviceBuffer();
    args.d = d.GetDeviceBuffer();
    // No workspace: both picks among the instances that run without it.
    std::uint64_t measured = 0;
    ASSERT_EQ(cktile_gemm_select_measured(h_, &p, &args, nullptr, 0, nullptr, &measured),
              CKTILE_STATUS_SUCCESS)
        << cktile_get_last_error_message();
    cktile_gemm_candidate_t first{};
    first.struct_size = sizeof(first);
    std::size_t count = 0;
    ASSERT_EQ(cktile_gemm_select_ranked(h_, &p, &args, 0, &first, 1, &count),
              CKTILE_STATUS_SUCCESS);
    const std::uint64_t modelled = first.id;
    cktile_instance_info_t mi{}, hi{};
    mi.struct_size = hi.struct_size = sizeof(mi);
    ASSERT_EQ(cktile_get_instance_info_by_id(h_, measured, &mi), CKTILE_STATUS_SUCCESS);
    ASSERT_EQ(cktile_get_instance_info_by_id(h_, modelled, &hi), CKTILE_STATUS_SUCCESS);
    if(measured == modelled)
        return; // nothing to compare: the model's pick measured fastest
    hipEvent_t start = nullptr, stop = nullptr;
    ASSERT_EQ(hipEventCreate(&start), hipSuccess);
    ASSERT_EQ(hipEventCreate(&stop), hipSuccess);
    auto time_ms = [&](std::uint64_t id) {
        EXPECT_EQ(hipEventRecord(start, nullptr), hipSuccess);
        for(int i = 0; i < 20; ++i)
            EXPECT_EQ(cktile_gemm_run(h_, id, &p, &args, nullptr, 0, nullptr),
                      CKTILE_STATUS_SUCCESS);
        EXPECT_EQ(hipEventRecord(stop, nullptr), hipSuccess);
        EXPECT_EQ(hipEventSynchronize(stop), hipSuccess);
        float ms = 0;
        EXPECT_EQ(hipEventElapsedTime(&ms, start, stop), hipSuccess);
        return ms / 20.0;
    };
    std::vector<double> measured_ms, modelled_ms;
    for(int round = 0; round < 11; ++round)
        if(round % 2 == 0)
            measured_ms.push_back(time_ms(measured)), modelled_ms.push_back(time_ms(modelled));
        else
            modelled_ms.push_back(time_ms(modelled)), measured_ms.push_back(time_ms(measured));
    (void)hipEventDestroy(start);
    (void)hipEventDestroy(stop);
    std::sort(measured_ms.begin(), measured_ms.end());
    std::sort(modelled_ms.begin(), modelled_ms.end());
    EXPECT_LE(measured_ms[5], 1.08 * modelled_ms[5])
        << "measured pick " << mi.name << " " << measured_ms[5] << " ms against the model's "
        << hi.name << " " << modelled_ms[5] << " ms";
}

/// An fp32 problem with compute TF32: A row-major m x k, B column-major (stored n x k), D
/// row-major, on the device.
struct tf32_gemm
{
    std::int64_t m, n, k;
    ck_tile::DeviceMem a, b, d;
    cktile_gemm_problem_t p;
    cktile_gemm_args_t args;

    tf32_gemm(std::int64_t m_, std::int64_t n_, std::int64_t k_, const std::vector<float>& ha,
              const std::vector<float>& hb)
        : m(m_), n(n_), k(k_), a(m_ * k_ * 4), b(n_ * k_ * 4), d(m_ * n_ * 4)
    {
        a.ToDevice(ha.data());
        b.ToDevice(hb.data());
        cktile_gemm_problem_init(&p);
        p.a_type = p.b_type = p.c_type = p.d_type = CKTILE_DATATYPE_FP32;
        p.compute_type                            = CKTILE_DATATYPE_TF32;
        p.b_layout                                = CKTILE_LAYOUT_COL_MAJOR;
        p.m = m, p.n = n, p.k = k, p.lda = k, p.ldb = k, p.ldc = n, p.ldd = n;
        cktile_gemm_args_init(&args);
        args.a = a.GetDeviceBuffer(), args.b = b.GetDeviceBuffer(), args.d = d.GetDeviceBuffer();
    }

    /// D from instance `info` (poisoned first), run with the workspace it asks for; empty when
    /// the run fails (reported).
    std::vector<float> run(cktile_handle_t h, const cktile_instance_info_t& info)
    {
        std::size_t ws_bytes = 0;
        EXPECT_EQ(cktile_gemm_workspace_size(h, info.id, &p, &ws_bytes), CKTILE_STATUS_SUCCESS);
        ck_tile::DeviceMem ws(ws_bytes > 0 ? ws_bytes : 1);
        d.SetValue(0xff);
        const cktile_status_t s = cktile_gemm_run(
            h, info.id, &p, &args, ws_bytes ? ws.GetDeviceBuffer() : nullptr, ws_bytes, nullptr);
        EXPECT_EQ(s, CKTILE_STATUS_SUCCESS) << info.name << ": " << cktile_get_last_error_message();
        if(s != CKTILE_STATUS_SUCCESS || hipDeviceSynchronize() != hipSuccess)
            return {};
        std::vector<float> out(m * n);
        d.FromDevice(out.data());
        return out;
    }
};

// fp32 inputs with compute TF32: full-mantissa random inputs, so the rounding to TF32 shows;
// every error must stay within TF32's input rounding (under 2^-10 relative per factor, so 2^-9
// per product: the Hopper instances' tensor cores drop the low 13 mantissa bits of each float,
// the mma.sync ones round first) plus fp32 accumulation, and the true-fp32 general instances
// must serve the same problems. (Leaving out the last 4 products of K = 260 errs by several
// times that bound.)
// Every TF32 instance must run one of the shapes: K is a multiple of the 4-float vectors the
// instances need, not of their K tiles (16 for mma.sync, 32 for wgmma); 300 x 260 x 1032 has D
// rows of whole 16 bytes (the alpha-only Hopper instances' copy-engine stores), several tiles
// and a K tail.
TEST_F(GemmCorrectness, Tf32ComputeWithinTf32Rounding)
{
    struct shape
    {
        std::int64_t m, n, k;
    };
    std::map<std::string, int> tf32_runs;
    for(const cktile_instance_info_t& info : gemm_instances(
            [](const cktile_instance_info_t& i) { return i.compute_type == CKTILE_DATATYPE_TF32; }))
        tf32_runs.emplace(info.name, 0);
    int general = 0;
    for(const shape s : {shape{131, 67, 260}, shape{300, 260, 1032}})
    {
        const std::int64_t m = s.m, n = s.n, k = s.k;
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        std::vector<float> a(m * k), b(k * n);
        for(auto& x : a)
            x = u(rng);
        for(auto& x : b)
            x = u(rng);
        // The reference and each element's tolerance, once per shape.
        std::vector<double> ref(m * n), tol(m * n);
        for(std::int64_t i = 0; i < m; ++i)
            for(std::int64_t j = 0; j < n; ++j)
            {
                double sum = 0, mag = 0;
                for(std::int64_t kk = 0; kk < k; ++kk)
                {
                    sum += double(a[i * k + kk]) * b[j * k + kk];
                    mag += std::fabs(double(a[i * k + kk]) * b[j * k + kk]);
                }
                ref[i * n + j] = sum;
                tol[i * n + j] = (std::ldexp(1.0, -9) + k * std::ldexp(1.0, -23)) * mag;
            }
        tf32_gemm g(m, n, k, a, b);
        for(const cktile_instance_info_t& info : instances_for(g.p, g.args))
        {
            if(info.compute_type == CKTILE_DATATYPE_TF32)
                ++tf32_runs[info.name];
            general += info.is_general;
            const std::vector<float> d = g.run(h_, info);
            ASSERT_EQ(d.size(), static_cast<size_t>(m * n)) << info.name;
            int errors = 0;
            for(std::int64_t e = 0; e < m * n; ++e)
                if(!(std::fabs(d[e] - ref[e]) <= tol[e]) && errors++ < 5)
                    ADD_FAILURE() << info.name << " at " << m << " x " << n << " x " << k << ": D("
                                  << e / n << "," << e % n << ") = " << d[e] << ", expected "
                                  << ref[e] << " within " << tol[e];
        }
    }
    EXPECT_FALSE(tf32_runs.empty()) << "no TF32 instance in the library";
    for(const auto& [name, runs] : tf32_runs)
        EXPECT_GT(runs, 0) << name << " ran none of the TF32 shapes";
    EXPECT_GT(general, 0) << "no general instance serves compute TF32";
}

// What each TF32 instance does with the 13 mantissa bits TF32 drops: a = 1 + 3 * 2^-12 times
// b = 1 is 1 + 2^-10 rounded to nearest (the mma.sync instances round their fragments with
// cvt.rna) and 1 truncated (the wgmma instances' tensor cores read the floats as the copy engine
// stored them); the true-fp32 instances keep a.
TEST_F(GemmCorrectness, Tf32InstancesRoundOrTruncateAsDocumented)
{
    const float a_value = 1.0f + 3.0f * std::ldexp(1.0f, -12);
    std::vector<float> a(4, 0.f), b(16, 1.f);
    a[0] = a_value;
    tf32_gemm g(1, 4, 4, a, b);
    // Each kind of TF32 instance in the library (gemm_wgmma, gemm_tile) must run the probe.
    const auto kind_of = [](const std::string& name) { return name.substr(0, name.find('_', 5)); };
    std::map<std::string, int> kinds;
    for(const cktile_instance_info_t& info : gemm_instances(
            [](const cktile_instance_info_t& i) { return i.compute_type == CKTILE_DATATYPE_TF32; }))
        kinds.emplace(kind_of(info.name), 0);
    EXPECT_FALSE(kinds.empty()) << "no TF32 instance in the library";
    const float rounded = 1.0f + std::ldexp(1.0f, -10);
    for(const cktile_instance_info_t& info : instances_for(g.p, g.args))
    {
        const std::string name = info.name;
        const bool tf32        = info.compute_type == CKTILE_DATATYPE_TF32;
        if(tf32)
            ++kinds[kind_of(name)];
        const float expected = !tf32 ? a_value : kind_of(name) == "gemm_wgmma" ? 1.0f : rounded;
        const std::vector<float> d = g.run(h_, info);
        ASSERT_EQ(d.size(), 4u) << name;
        for(float v : d)
            EXPECT_EQ(v, expected) << name;
    }
    for(const auto& [kind, runs] : kinds)
        EXPECT_GT(runs, 0) << "no " << kind << " TF32 instance ran the probe";
}

TEST_F(GemmCorrectness, RunRefusesWhatTheInstanceCannotDo)
{
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = p.n = p.k = 64, p.lda = p.ldb = p.ldc = p.ldd = 64;
    p.b_layout        = CKTILE_LAYOUT_COL_MAJOR;
    std::uint64_t vec = 0;
    ASSERT_EQ(
        cktile_find_instance(h_, "gemm_simt_f16f16_f16_accf32_rc_64x64x16_t4x4_v8_i32_fused", &vec),
        CKTILE_STATUS_SUCCESS);
    ck_tile::DeviceMem a(64 * 64 * 2 + 16), b(64 * 64 * 2), d(64 * 64 * 2);
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = static_cast<char*>(a.GetDeviceBuffer()) + 2; // element-aligned, not vector-aligned
    args.b = b.GetDeviceBuffer(), args.d = d.GetDeviceBuffer();
    EXPECT_EQ(cktile_gemm_run(h_, vec, &p, &args, nullptr, 0, nullptr),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(cktile_get_last_error_message()).find("aligned"), std::string::npos);
    EXPECT_EQ(cktile_gemm_run(h_, CKTILE_INSTANCE_AUTO, &p, &args, nullptr, 0, nullptr),
              CKTILE_STATUS_SUCCESS)
        << cktile_get_last_error_message();
    EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
}

} // namespace
