// SPDX-License-Identifier: MIT
// Every normalization instance of the device's kernel library, run through the C API and
// compared with the double-precision CPU reference: RMSNorm and LayerNorm, with and without
// bias, fused residual and saved statistics; random inputs (never all zeros); outputs and the
// padding between rows poisoned (padding must stay poisoned); rows of 1, odd and prime
// lengths, 4097, rows longer than any register tile, a 1M-element row; unaligned pointers;
// in place; NaN and inf inputs.
#include "cktile.h"
#include "gpu_test.hpp"
#include "rowwise_test_data.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/reference_norm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace rowwise_test;

namespace {

struct norm_case
{
    cktile_norm_kind_t kind;
    cktile_datatype_t type;
    std::int64_t rows, cols, pad; // stride = cols + pad
    bool bias, residual, stats;
    std::size_t misalign = 0; // elements added to every pointer
    bool in_place        = false;
    int special          = 0;     // 1: NaN in row 0, 2: +inf in row 0, 3: -inf in row 0
    double offset        = 0;     // added to every x (rows with a large mean)
    bool out_over_x      = false; // residual_out is x itself
};

std::string describe(const norm_case& c)
{
    return std::string(c.kind == CKTILE_NORM_LAYERNORM ? "layernorm" : "rmsnorm") + " " +
           type_name(c.type) + " " + std::to_string(c.rows) + "x" + std::to_string(c.cols) +
           " pad " + std::to_string(c.pad) + (c.bias ? " bias" : "") +
           (c.residual ? " residual" : "") + (c.stats ? " stats" : "") +
           (c.misalign ? " misaligned" : "") + (c.in_place ? " in-place" : "") +
           (c.special ? " special " + std::to_string(c.special) : "") +
           (c.offset != 0 ? " offset " + std::to_string(c.offset) : "") +
           (c.out_over_x ? " residual_out=x" : "");
}

class NormGpu : public ::testing::Test
{
    protected:
    void SetUp() override
    {
        CKTILE_SKIP_WITHOUT_GPU();
        ASSERT_EQ(cktile_create(&h_, 0), CKTILE_STATUS_SUCCESS) << cktile_get_last_error_message();
    }
    void TearDown() override
    {
        if(h_)
            cktile_destroy(h_);
    }

    /// Runs case c on instance `id` (0: automatic); returns how many instances ran it.
    void check(const norm_case& c, std::uint64_t id, std::mt19937& rng)
    {
        const std::int64_t stride = c.cols + c.pad;
        const auto t              = c.type;
        const std::size_t e       = bytes_of(t);
        host_tensor x(t, c.rows, c.cols, stride), r(t, c.rows, c.cols, stride),
            w(t, 1, c.cols, c.cols), b(t, 1, c.cols, c.cols);
        x.fill(rng, c.offset - 2, c.offset + 2);
        r.fill(rng, -1, 1);
        w.fill(rng, 0.5, 1.5);
        b.fill(rng, -0.5, 0.5);
        if(c.special && c.rows > 0)
            x.set(0, c.cols / 2,
                  c.special == 1   ? std::nan("")
                  : c.special == 2 ? INFINITY
                                   : -INFINITY);

        cktile_norm_problem_t p;
        cktile_norm_problem_init(&p);
        p.kind = c.kind, p.x_type = p.y_type = p.weight_type = t;
        p.rows = c.rows, p.cols = c.cols;
        p.x_stride = p.y_stride = p.residual_stride = p.residual_out_stride = stride;
        p.epsilon                                                           = 1e-5;
        p.has_bias                                                          = c.bias;
        p.fused_residual                                                    = c.residual;
        p.save_statistics                                                   = c.stats;

        const std::size_t off = c.misalign * e, tb = x.bytes.size() + off;
        ck_tile::DeviceMem dx(tb), dr(tb), dw(w.bytes.size() + off), db(b.bytes.size() + off),
            dy(tb), dro(tb), dmean(c.rows * 4 + 4), drstd(c.rows * 4 + 4);
        auto ptr = [&](ck_tile::DeviceMem& m) {
            return static_cast<unsigned char*>(m.GetDeviceBuffer()) + off;
        };
        dx.SetValue(0xff), dy.SetValue(0xff), dro.SetValue(0xff), dmean.SetValue(0xff),
            drstd.SetValue(0xff);
        hipMemcpy(ptr(dx), x.bytes.data(), x.bytes.size(), hipMemcpyHostToDevice);
        hipMemcpy(ptr(dr), r.bytes.data(), r.bytes.size(), hipMemcpyHostToDevice);
        hipMemcpy(ptr(dw), w.bytes.data(), w.bytes.size(), hipMemcpyHostToDevice);
        hipMemcpy(ptr(db), b.bytes.data(), b.bytes.size(), hipMemcpyHostToDevice);

        cktile_norm_args_t a;
        cktile_norm_args_init(&a);
        a.x = ptr(dx), a.weight = ptr(dw), a.y = c.in_place ? ptr(dx) : ptr(dy);
        if(c.bias)
            a.bias = ptr(db);
        if(c.residual)
            a.residual = ptr(dr), a.residual_out = c.out_over_x ? ptr(dx) : ptr(dro);
        if(c.stats)
        {
            a.rstd = reinterpret_cast<float*>(drstd.GetDeviceBuffer());
            if(c.kind == CKTILE_NORM_LAYERNORM)
                a.mean = reinterpret_cast<float*>(dmean.GetDeviceBuffer());
        }
        if(id != 0 && cktile_norm_supports(h_, id, &p, &a, nullptr, 0) != CKTILE_STATUS_SUCCESS)
            return;
        ++ran_;
        ASSERT_EQ(cktile_norm_run(h_, id, &p, &a, nullptr), CKTILE_STATUS_SUCCESS)
            << describe(c) << ": " << cktile_get_last_error_message();
        ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);

        host_tensor y(t, c.rows, c.cols, stride, 0), ro(t, c.rows, c.cols, stride, 0);
        hipMemcpy(y.bytes.data(), a.y, y.bytes.size(), hipMemcpyDeviceToHost);
        hipMemcpy(ro.bytes.data(), a.residual_out ? a.residual_out : ptr(dro), ro.bytes.size(),
                  hipMemcpyDeviceToHost);
        std::vector<float> mean(c.rows), rstd(c.rows);
        hipMemcpy(mean.data(), dmean.GetDeviceBuffer(), c.rows * 4, hipMemcpyDeviceToHost);
        hipMemcpy(rstd.data(), drstd.GetDeviceBuffer(), c.rows * 4, hipMemcpyDeviceToHost);

        ck_tile::reference_norm_desc d;
        d.rows = c.rows, d.cols = c.cols,
        d.x_stride = d.y_stride = d.residual_stride = d.residual_out_stride = stride;
        d.epsilon = 1e-5, d.layernorm = c.kind == CKTILE_NORM_LAYERNORM, d.has_bias = c.bias,
        d.fused_residual = c.residual;
        const auto xv = x.values(), rv = r.values(), wv = w.values(), bv = b.values();
        std::vector<double> yref(xv.size()), roref(xv.size()), mref(c.rows), sref(c.rows);
        ck_tile::reference_norm(d, xv.data(), rv.data(), wv.data(), bv.data(), yref.data(),
                                roref.data(), mref.data(), sref.data(),
                                [t](double v) { return round_to(t, v); });

        int bad          = 0;
        const double tol = tolerance(t);
        for(std::int64_t i = 0; i < c.rows && bad < 5; ++i)
        {
            for(std::int64_t j = 0; j < c.cols && bad < 5; ++j)
            {
                // The output is rounded once from an fp32 result; scale the floor by the row's
                // typical magnitude (|y| ~ 1).
                const std::string m = mismatch(y.get(i, j), yref[i * stride + j], tol, tol);
                if(!m.empty() && ++bad)
                    ADD_FAILURE() << describe(c) << " y(" << i << "," << j << "): " << m;
                if(c.residual && ro.get(i, j) != roref[i * stride + j] &&
                   !(std::isnan(ro.get(i, j)) && std::isnan(roref[i * stride + j])) && ++bad)
                    ADD_FAILURE() << describe(c) << " residual_out(" << i << "," << j << "): got "
                                  << ro.get(i, j) << ", want " << roref[i * stride + j];
            }
            // Padding between rows stays poisoned (0xff bytes).
            if(!c.in_place && i + 1 < c.rows && c.pad > 0 && *y.at(i, c.cols) != 0xff && ++bad)
                ADD_FAILURE() << describe(c) << ": padding after row " << i << " was written";
            if(c.stats)
            {
                if(!mismatch(rstd[i], sref[i], 1e-3, 0).empty() && ++bad)
                    ADD_FAILURE() << describe(c) << " rstd[" << i
                                  << "]: " << mismatch(rstd[i], sref[i], 1e-3, 0);
                if(d.layernorm && !mismatch(mean[i], mref[i], 1e-3, 1e-4).empty() && ++bad)
                    ADD_FAILURE() << describe(c) << " mean[" << i
                                  << "]: " << mismatch(mean[i], mref[i], 1e-3, 1e-4);
            }
        }
    }

    cktile_handle_t h_ = nullptr;
    int ran_           = 0;
};

TEST_F(NormGpu, EveryInstanceMatchesTheReference)
{
    std::mt19937 rng(1234);
    const std::vector<std::pair<std::int64_t, std::int64_t>> shapes{
        {1, 1}, {3, 7}, {5, 64}, {9, 256}, {4, 1000}, {2, 4096}, {3, 4097}, {2, 8192}, {6, 12345}};
    for(const auto& inst : instances_of(h_, CKTILE_OP_NORMALIZATION))
        for(const auto& [rows, cols] : shapes)
            for(const auto kind : {CKTILE_NORM_RMSNORM, CKTILE_NORM_LAYERNORM})
            {
                const auto t   = inst.a_type;
                const bool odd = (rows + cols) % 2 == 1;
                check({kind, t, rows, cols, odd ? 8 : 0, odd, !odd, kind == CKTILE_NORM_LAYERNORM},
                      inst.id, rng);
                check({kind, t, rows, cols, 3, !odd, odd, true}, inst.id, rng);
            }
    EXPECT_GT(ran_, 0);
}

// Rows of exactly one or two tiles take the unmasked folds (no per-column compare); a vector
// less or more takes the masked ones (one element for the scalar instances). Five rows leave
// the last row group of a multi-row block short; NaN and +inf rows on the unmasked path.
TEST_F(NormGpu, RowsOfWholeTilesAndOneVectorMoreOrLess)
{
    std::mt19937 rng(21);
    for(const auto& inst : instances_of(h_, CKTILE_OP_NORMALIZATION))
    {
        const std::int64_t tile = inst.tile_n, vec = inst.alignment_elements;
        for(const std::int64_t cols : {tile, tile - vec, tile + vec, 2 * tile})
            for(const auto kind : {CKTILE_NORM_RMSNORM, CKTILE_NORM_LAYERNORM})
            {
                if(cols < 1)
                    continue;
                const auto t = inst.a_type;
                check({kind, t, 5, cols, 0, true, false, true}, inst.id, rng);
                check({kind, t, 5, cols, 0, false, true, true}, inst.id, rng);
                for(int special = 1; special <= 2; ++special)
                    check({kind, t, 5, cols, 0, true, false, true, 0, false, special}, inst.id,
                          rng);
            }
    }
    EXPECT_GT(ran_, 0);
}

// Row counts around the staged instances' groups (a block walks 4 x rows_in_flight rows with
// the next ones copied ahead): one group exactly, a row more, several groups with a short last
// one; rows shorter than the tile (masked columns copied as zeros), padded strides, y written
// over x (the rows copied ahead are not yet written), and a fused residual (unstaged path).
TEST_F(NormGpu, RowCountsAroundTheStagedGroups)
{
    std::mt19937 rng(77);
    for(const auto& inst : instances_of(h_, CKTILE_OP_NORMALIZATION))
        for(const std::int64_t rows : {8, 16, 17, 37, 203})
            for(const std::int64_t cols : {std::int64_t(inst.tile_n), std::int64_t(1000)})
                for(const auto kind : {CKTILE_NORM_RMSNORM, CKTILE_NORM_LAYERNORM})
                {
                    const auto t = inst.a_type;
                    check({kind, t, rows, cols, 8, true, false, true}, inst.id, rng);
                    check({kind, t, rows, cols, 0, false, false, false, 0, true}, inst.id, rng);
                    if(rows == 37)
                        check({kind, t, rows, cols, 0, true, true, true}, inst.id, rng);
                }
    EXPECT_GT(ran_, 0);
}

// Rows with a large mean (1000 + U(-2, 2)): a variance from fp32 sums of squares about zero
// would cancel (E[x^2] - E[x]^2 with E[x^2] near 1e6 keeps about 0.06 of absolute precision);
// LayerNorm's sums about the row's first element keep it. And residual_out written over x: the
// threads of a row must still agree on that first element.
TEST_F(NormGpu, LargeMeansAndResidualOutOverX)
{
    std::mt19937 rng(5);
    for(const auto& inst : instances_of(h_, CKTILE_OP_NORMALIZATION))
        for(const std::int64_t cols :
            {std::int64_t(1000), std::int64_t(4096), std::int64_t(3 * inst.tile_n + 1)})
        {
            const auto t  = inst.a_type;
            const auto ln = CKTILE_NORM_LAYERNORM;
            check({ln, t, 7, cols, 0, true, false, true, 0, false, 0, 1000.0}, inst.id, rng);
            check({ln, t, 5, cols, 0, true, true, true, 0, false, 0, 0.0, true}, inst.id, rng);
            check({ln, t, 5, cols, 0, false, true, true, 0, false, 0, 500.0, true}, inst.id, rng);
        }
    EXPECT_GT(ran_, 0);
}

TEST_F(NormGpu, AutomaticSelectionCoversEveryTypeAndShape)
{
    std::mt19937 rng(99);
    for(const auto t : {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32})
        for(const auto kind : {CKTILE_NORM_RMSNORM, CKTILE_NORM_LAYERNORM})
        {
            check({kind, t, 1, 1 << 20, 0, true, true, true}, 0, rng);          // a 1M-element row
            check({kind, t, 1000, 1024, 0, true, false, false}, 0, rng);        // 1M elements
            check({kind, t, 17, 333, 5, true, true, true, 1}, 0, rng);          // misaligned
            check({kind, t, 8, 4096, 0, false, false, false, 0, true}, 0, rng); // in place
            check({kind, t, 8, 20000, 0, false, true, false, 0, true}, 0, rng); // long, in place
        }
}

TEST_F(NormGpu, NonFiniteInputsBehaveLikeTheReference)
{
    std::mt19937 rng(7);
    for(const auto t : {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP32})
        for(const auto kind : {CKTILE_NORM_RMSNORM, CKTILE_NORM_LAYERNORM})
            for(int special = 1; special <= 3; ++special)
                for(const std::int64_t cols : {std::int64_t(512), std::int64_t(30000)})
                    check({kind, t, 3, cols, 0, false, false, true, 0, false, special}, 0, rng);
}

} // namespace
