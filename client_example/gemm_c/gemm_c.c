/* SPDX-License-Identifier: MIT
 * A C application that links libcktile.so and runs one fp32 GEMM, D = A * B, checking the
 * result on the host. Device memory comes from the GPU runtime's C API. */
#include "cktile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(CKTILE_EXAMPLE_HIP)
#include <hip/hip_runtime_api.h>
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMemcpy hipMemcpy
#define gpuH2D hipMemcpyHostToDevice
#define gpuD2H hipMemcpyDeviceToHost
#define gpuSync hipDeviceSynchronize
#else
#include <cuda_runtime_api.h>
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMemcpy cudaMemcpy
#define gpuH2D cudaMemcpyHostToDevice
#define gpuD2H cudaMemcpyDeviceToHost
#define gpuSync cudaDeviceSynchronize
#endif

int main(void)
{
    enum
    {
        M = 37,
        N = 29,
        K = 53
    };
    cktile_handle_t h = NULL;
    cktile_status_t s = cktile_create(&h, 0);
    if(s == CKTILE_STATUS_NO_DEVICE)
    {
        printf("no GPU device present: %s\n", cktile_get_last_error_message());
        return 0;
    }
    if(s != CKTILE_STATUS_SUCCESS)
    {
        fprintf(stderr, "cktile_create: %s: %s\n", cktile_status_string(s),
                cktile_get_last_error_message());
        return 1;
    }

    float* a = malloc(sizeof(float) * M * K);
    float* b = malloc(sizeof(float) * K * N);
    float* d = malloc(sizeof(float) * M * N);
    for(int i = 0; i < M * K; ++i)
        a[i] = (float)((i * 7) % 11 - 5) / 4.0f;
    for(int i = 0; i < K * N; ++i)
        b[i] = (float)((i * 5) % 13 - 6) / 8.0f;
    void *da = NULL, *db = NULL, *dd = NULL;
    gpuMalloc(&da, sizeof(float) * M * K);
    gpuMalloc(&db, sizeof(float) * K * N);
    gpuMalloc(&dd, sizeof(float) * M * N);
    gpuMemcpy(da, a, sizeof(float) * M * K, gpuH2D);
    gpuMemcpy(db, b, sizeof(float) * K * N, gpuH2D);

    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.a_type = p.b_type = p.c_type = p.d_type = CKTILE_DATATYPE_FP32;
    p.m = M, p.n = N, p.k = K, p.lda = K, p.ldb = N, p.ldc = N, p.ldd = N;
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = da, args.b = db, args.d = dd;
    s = cktile_gemm_run(h, CKTILE_INSTANCE_AUTO, &p, &args, NULL, 0, NULL);
    if(s != CKTILE_STATUS_SUCCESS)
    {
        fprintf(stderr, "cktile_gemm_run: %s: %s\n", cktile_status_string(s),
                cktile_get_last_error_message());
        return 1;
    }
    gpuSync();
    gpuMemcpy(d, dd, sizeof(float) * M * N, gpuD2H);
    double max_err = 0;
    for(int i = 0; i < M; ++i)
        for(int j = 0; j < N; ++j)
        {
            double ref = 0;
            for(int k = 0; k < K; ++k)
                ref += (double)a[i * K + k] * b[k * N + j];
            const double e = fabs(ref - d[i * N + j]);
            max_err        = e > max_err ? e : max_err;
        }
    printf("C client: %dx%dx%d fp32 GEMM, max abs error %.3g\n", M, N, K, max_err);
    gpuFree(da), gpuFree(db), gpuFree(dd);
    free(a), free(b), free(d);
    cktile_destroy(h);
    return max_err < 1e-4 ? 0 : 1;
}
