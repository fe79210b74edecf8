// SPDX-License-Identifier: MIT
// Reductions on the GPU through the C API against the double reference: every reduce instance
// of the device's kernel library on the layouts it supports, then automatic selection over
// random N-D shapes and axis sets, 1 x 1, 1 x 1M+, odd sizes, unaligned pointers, every type
// combination and every op, and inputs with NaN and infinities. Outputs are poisoned, and the
// gaps of a padded output must stay poisoned.
#include "cktile.h"
#include "gpu_test.hpp"
#include "../norm/rowwise_test_data.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/reference_reduce.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace rowwise_test;

namespace {

const cktile_reduce_op_t all_ops[] = {CKTILE_REDUCE_SUM, CKTILE_REDUCE_MAX, CKTILE_REDUCE_MIN,
                                      CKTILE_REDUCE_MEAN, CKTILE_REDUCE_SUM_SQUARES};
const char* op_name(cktile_reduce_op_t o)
{
    static const char* const n[] = {"?", "sum", "max", "min", "mean", "sum_squares"};
    return n[static_cast<int>(o)];
}

/// A reduction case: shape, axes, and how x and y are laid out.
struct layout
{
    std::vector<std::int64_t> dims;
    std::uint32_t mask;
    std::vector<int> order; ///< x's axes from outermost to innermost in memory (permutation)
    std::int64_t x_pad = 0; ///< extra elements after x's innermost axis
    std::int64_t y_pad = 0; ///< extra elements after y's innermost kept axis
};

enum class specials
{
    none,
    nan,
    inf
};

class ReduceGpu : public ::testing::Test
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

    /// Runs `o` on layout `l` with instance `id` (0: automatic); false when `id` does not
    /// support it.
    bool check(cktile_reduce_op_t o, cktile_datatype_t xt, cktile_datatype_t yt, const layout& l,
               std::uint64_t id, std::mt19937& rng, std::size_t misalign = 0,
               specials sp = specials::none)
    {
        const int rank = static_cast<int>(l.dims.size());
        cktile_reduce_problem_t p;
        cktile_reduce_problem_init(&p);
        p.op = o, p.x_type = xt, p.y_type = yt, p.rank = rank, p.reduce_mask = l.mask;
        // x strides follow `order` (innermost last), padded after the innermost axis.
        std::int64_t xs = 1;
        for(int k = rank - 1; k >= 0; --k)
        {
            const int a    = l.order[k];
            p.dims[a]      = l.dims[a];
            p.x_strides[a] = xs;
            xs *= l.dims[a] + (k == rank - 1 ? l.x_pad : 0);
        }
        // y: kept axes packed in the natural order (keepdim), the innermost kept one padded.
        std::int64_t ys = 1;
        bool first      = true;
        for(int a = rank - 1; a >= 0; --a)
        {
            if((l.mask >> a) & 1u)
            {
                p.y_strides[a] = 12345; // ignored
                continue;
            }
            p.y_strides[a] = ys;
            ys *= l.dims[a] + (first ? l.y_pad : 0);
            first = false;
        }
        std::int64_t x_elems = 1, y_elems = 1;
        for(int a = 0; a < rank; ++a)
        {
            x_elems += (l.dims[a] - 1) * p.x_strides[a];
            if(!((l.mask >> a) & 1u))
                y_elems += (l.dims[a] - 1) * p.y_strides[a];
        }
        std::string what =
            std::string(op_name(o)) + " " + type_name(xt) + "->" + type_name(yt) + " dims";
        for(auto d : l.dims)
            what += " " + std::to_string(d);
        what += " mask " + std::to_string(l.mask) + (misalign ? " misaligned" : "") +
                (sp == specials::nan   ? " nan"
                 : sp == specials::inf ? " inf"
                                       : "");

        // x: uniform in [-1, 1] (never 0), with specials at random places.
        std::vector<unsigned char> xb(static_cast<std::size_t>(x_elems) * bytes_of(xt), 0x7f);
        std::vector<double> xv(static_cast<std::size_t>(x_elems), 0.0);
        std::uniform_real_distribution<double> d(-1, 1);
        for(std::int64_t n = 0; n < x_elems; ++n)
        {
            double v = round_to(xt, d(rng));
            if(v == 0)
                v = 0.25;
            xv[n] = v;
        }
        if(sp != specials::none)
        {
            std::uniform_int_distribution<std::int64_t> pick(0, x_elems - 1);
            for(int k = 0; k < 3; ++k)
                xv[pick(rng)] = sp == specials::nan ? std::nan("") : (k % 2 ? -INFINITY : INFINITY);
        }
        for(std::int64_t n = 0; n < x_elems; ++n)
            encode(xt, xv[n], xb.data() + n * bytes_of(xt));

        const std::size_t xoff = misalign * bytes_of(xt), yoff = misalign * bytes_of(yt);
        ck_tile::DeviceMem dx(xb.size() + xoff + 16), dy(y_elems * bytes_of(yt) + yoff + 16);
        dy.SetValue(0xff);
        auto* px = static_cast<unsigned char*>(dx.GetDeviceBuffer()) + xoff;
        auto* py = static_cast<unsigned char*>(dy.GetDeviceBuffer()) + yoff;
        hipMemcpy(px, xb.data(), xb.size(), hipMemcpyHostToDevice);
        cktile_reduce_args_t a;
        cktile_reduce_args_init(&a);
        a.x = px, a.y = py;
        if(id != 0 && cktile_reduce_supports(h_, id, &p, &a, nullptr, 0) != CKTILE_STATUS_SUCCESS)
            return false;
        ++ran_;
        EXPECT_EQ(cktile_reduce_run(h_, id, &p, &a, nullptr), CKTILE_STATUS_SUCCESS)
            << what << ": " << cktile_get_last_error_message();
        EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
        std::vector<unsigned char> yb(static_cast<std::size_t>(y_elems) * bytes_of(yt));
        hipMemcpy(yb.data(), py, yb.size(), hipMemcpyDeviceToHost);

        // The reference, and the sum of magnitudes that bounds fp32 accumulation error.
        const auto ref_op = static_cast<ck_tile::reference_reduce_op>(static_cast<int>(o) - 1);
        std::vector<double> ref(static_cast<std::size_t>(y_elems), NAN), mag(ref.size(), 0.0);
        std::vector<double> absx(xv.size());
        for(std::size_t n = 0; n < xv.size(); ++n)
            absx[n] = o == CKTILE_REDUCE_SUM_SQUARES ? xv[n] * xv[n] : std::fabs(xv[n]);
        ck_tile::reference_reduce(ref_op, rank, p.dims, xv.data(), p.x_strides, l.mask, ref.data(),
                                  p.y_strides);
        ck_tile::reference_reduce(o == CKTILE_REDUCE_MEAN ? ck_tile::reference_reduce_op::mean
                                                          : ck_tile::reference_reduce_op::sum,
                                  rank, p.dims, absx.data(), p.x_strides, l.mask, mag.data(),
                                  p.y_strides);
        const bool exact = o == CKTILE_REDUCE_MAX || o == CKTILE_REDUCE_MIN;
        std::vector<bool> written(ref.size(), false);
        int bad = 0;
        // Walk the kept indices to compare exactly the outputs, and mark them.
        std::int64_t kept = 1;
        for(int a2 = 0; a2 < rank; ++a2)
            if(!((l.mask >> a2) & 1u))
                kept *= l.dims[a2];
        for(std::int64_t k = 0; k < kept && bad < 5; ++k)
        {
            std::int64_t n = k, yo = 0;
            for(int a2 = rank - 1; a2 >= 0; --a2)
                if(!((l.mask >> a2) & 1u))
                {
                    yo += (n % l.dims[a2]) * p.y_strides[a2];
                    n /= l.dims[a2];
                }
            written[yo]         = true;
            const double got    = decode(yt, yb.data() + yo * bytes_of(yt));
            const double want   = round_to(yt, ref[yo]);
            const double tol    = exact ? 0.0 : 4e-6 * mag[yo] + 1e-30;
            const std::string m = mismatch(got, want, tolerance(yt) * (exact ? 0.0 : 1.0), tol);
            if(!m.empty() && ++bad)
                ADD_FAILURE() << what << " y[" << yo << "]: " << m;
        }
        for(std::size_t n = 0; n < written.size() && bad < 5; ++n)
        {
            const unsigned char* q = yb.data() + n * bytes_of(yt);
            if(!written[n] &&
               std::any_of(q, q + bytes_of(yt), [](unsigned char c) { return c != 0xff; }) && ++bad)
                ADD_FAILURE() << what << ": y[" << n << "] is not an output but was written";
        }
        return true;
    }

    cktile_handle_t h_ = nullptr;
    int ran_           = 0;
};

layout rows_x_cols(std::int64_t rows, std::int64_t cols, std::int64_t pad = 0)
{
    return {{rows, cols}, 0b10, {0, 1}, pad, 0};
}
layout column_sums(std::int64_t rows, std::int64_t cols, std::int64_t pad = 0)
{
    return {{rows, cols}, 0b01, {0, 1}, pad, 0};
}

TEST_F(ReduceGpu, EveryInstanceMatchesTheReference)
{
    std::mt19937 rng(7);
    std::size_t n = 0;
    cktile_get_instance_count(h_, &n);
    const std::vector<layout> layouts{
        rows_x_cols(1, 1),
        rows_x_cols(3, 7),
        rows_x_cols(5, 64),
        rows_x_cols(4, 1000, 8),
        rows_x_cols(2, 4096),
        rows_x_cols(3, 4097),
        rows_x_cols(2, 20000),
        column_sums(1, 1),
        column_sums(7, 5),
        column_sums(1000, 64),
        column_sums(33, 4096, 8),
        column_sums(2049, 17),
        {{3, 50, 40}, 0b010, {0, 1, 2}, 0, 0}, // outer x reduced x inner
        {{5, 6, 7}, 0b101, {0, 1, 2}, 0, 3},   // two reduced axes
        // Batch-norm statistics (the general kernel's block per output, rows of the
        // contiguous reduced axis): one and two outer reduced axes, padded rows, a tail.
        {{6, 40, 200}, 0b101, {0, 1, 2}, 5, 0},
        {{3, 4, 5, 301}, 0b1011, {0, 2, 1, 3}, 2, 2},
    };
    for(std::size_t k = 0; k < n; ++k)
    {
        cktile_instance_info_t info;
        info.struct_size = sizeof(info);
        cktile_get_instance_info(h_, k, &info);
        if(info.op_kind != CKTILE_OP_REDUCTION)
            continue;
        int supported = 0;
        for(const auto& l : layouts)
            for(const auto o : all_ops)
                supported += check(o, info.a_type, info.d_type, l, info.id, rng);
        EXPECT_GT(supported, 0) << info.name << " supports none of the test layouts";
    }
    EXPECT_GT(ran_, 0);
}

TEST_F(ReduceGpu, AutomaticSelectionOverEdgeShapesTypesAndSpecials)
{
    std::mt19937 rng(11);
    const cktile_datatype_t types[] = {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16,
                                       CKTILE_DATATYPE_FP32};
    for(const auto xt : types)
        for(const auto yt : types)
            for(const auto o : all_ops)
            {
                check(o, xt, yt, rows_x_cols(1, 1), 0, rng);
                check(o, xt, yt, rows_x_cols(13, 1031), 0, rng, 1);
                check(o, xt, yt, column_sums(257, 129), 0, rng, 1);
                check(o, xt, yt, rows_x_cols(64, 512), 0, rng, 0, specials::nan);
                check(o, xt, yt, column_sums(300, 64), 0, rng, 0, specials::inf);
            }
    for(const auto o : all_ops)
    {
        check(o, CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP32, rows_x_cols(1, (1 << 20) + 3), 0, rng);
        check(o, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32, column_sums((1 << 20) + 1, 2), 0, rng);
        check(o, CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP32, rows_x_cols(2, 300000), 0, rng, 0,
              specials::nan);
    }
}

TEST_F(ReduceGpu, RandomStridedTensorsOverRandomAxisSets)
{
    std::mt19937 rng(23);
    std::uniform_int_distribution<int> rank_d(1, 6), op_d(0, 4), type_d(0, 2), pad_d(0, 2);
    const cktile_datatype_t types[] = {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16,
                                       CKTILE_DATATYPE_FP32};
    for(int trial = 0; trial < 120; ++trial)
    {
        layout l;
        const int rank = rank_d(rng);
        // Up to ~100k elements in all, with lengths 1..37.
        std::uniform_int_distribution<std::int64_t> len(1, rank <= 2 ? 300 : rank <= 4 ? 17 : 7);
        for(int a = 0; a < rank; ++a)
            l.dims.push_back(len(rng));
        std::uniform_int_distribution<std::uint32_t> mask_d(1, (1u << rank) - 1);
        l.mask = mask_d(rng);
        l.order.resize(rank);
        std::iota(l.order.begin(), l.order.end(), 0);
        if(trial % 2)
            std::shuffle(l.order.begin(), l.order.end(), rng);
        l.x_pad = pad_d(rng);
        l.y_pad = pad_d(rng);
        check(all_ops[op_d(rng)], types[type_d(rng)], types[type_d(rng)], l, 0, rng,
              trial % 3 == 0 ? 1 : 0, trial % 5 == 0 ? specials::nan : specials::none);
    }
}

} // namespace
