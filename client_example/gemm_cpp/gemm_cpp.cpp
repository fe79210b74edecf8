// SPDX-License-Identifier: MIT
// A C++ application: lists the instances that can run a bf16 GEMM with a bias and GELU
// (and why the others cannot), then runs it and compares with the CPU reference.
#include "cktile.h"

#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/reference_gemm.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

int main()
{
    cktile_handle_t h = nullptr;
    if(const cktile_status_t s = cktile_create(&h, 0); s != CKTILE_STATUS_SUCCESS)
    {
        std::printf("%s: %s\n", s == CKTILE_STATUS_NO_DEVICE ? "no GPU device present" : "error",
                    cktile_get_last_error_message());
        return s == CKTILE_STATUS_NO_DEVICE ? 0 : 1;
    }
    const int M = 96, N = 80, K = 48;
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.a_type = p.b_type = p.c_type = p.d_type = CKTILE_DATATYPE_BF16;
    p.m = M, p.n = N, p.k = K, p.lda = K, p.ldb = N, p.ldc = N, p.ldd = N;
    p.bias = CKTILE_BIAS_PER_COLUMN, p.activation = CKTILE_ACTIVATION_GELU_TANH;

    size_t count = 0;
    cktile_get_instance_count(h, &count);
    for(size_t i = 0; i < count; ++i)
    {
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        cktile_get_instance_info(h, i, &info);
        char reason[256];
        const bool ok = cktile_gemm_supports(h, info.id, &p, nullptr, reason, sizeof(reason)) ==
                        CKTILE_STATUS_SUCCESS;
        std::printf("  %-60s %s\n", info.name, ok ? "supported" : reason);
    }

    std::vector<double> a(M * K), b(K * N), bias(N), ref(M * N);
    std::vector<ck_tile::bf16_t> ha(M * K), hb(K * N), hbias(N), hd(M * N);
    auto fill = [](std::vector<double>& v, std::vector<ck_tile::bf16_t>& h, int seed) {
        for(size_t i = 0; i < v.size(); ++i)
        {
            h[i] = ck_tile::type_convert<ck_tile::bf16_t>(
                static_cast<float>(int((i * seed) % 17) - 8) / 8.0f);
            v[i] = ck_tile::type_convert<float>(h[i]);
        }
    };
    fill(a, ha, 7), fill(b, hb, 5), fill(bias, hbias, 3);
    ck_tile::DeviceMem da(ha.size() * 2), db(hb.size() * 2), dbias(hbias.size() * 2),
        dd(hd.size() * 2);
    da.ToDevice(ha.data()), db.ToDevice(hb.data()), dbias.ToDevice(hbias.data());
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = da.GetDeviceBuffer(), args.b = db.GetDeviceBuffer();
    args.bias = dbias.GetDeviceBuffer(), args.d = dd.GetDeviceBuffer();
    if(cktile_gemm_run(h, CKTILE_INSTANCE_AUTO, &p, &args, nullptr, 0, nullptr) !=
       CKTILE_STATUS_SUCCESS)
    {
        std::printf("error: %s\n", cktile_get_last_error_message());
        return 1;
    }
    dd.FromDevice(hd.data());
    ck_tile::reference_gemm_desc g;
    g.m = M, g.n = N, g.k = K, g.a_row = K, g.a_col = 1, g.b_row = N, g.b_col = 1;
    g.d_row = N, g.d_col = 1, g.bias_kind = ck_tile::gemm_bias::per_column;
    g.activation = ck_tile::gemm_activation::gelu_tanh;
    ck_tile::reference_gemm(g, a.data(), b.data(), nullptr, bias.data(), ref.data());
    double worst = 0;
    for(int i = 0; i < M * N; ++i)
        worst = std::max(worst, std::fabs(ck_tile::type_convert<float>(hd[i]) - ref[i]) /
                                    (1 + std::fabs(ref[i])));
    std::printf("C++ client: bf16 GEMM + bias + gelu_tanh, worst relative error %.3g\n", worst);
    cktile_destroy(h);
    return worst < 1e-2 ? 0 : 1;
}
