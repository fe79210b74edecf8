// SPDX-License-Identifier: MIT
// Host cost per call of the C API's GEMM hot path without a GPU: validation, handle lookup,
// support checks and a selection that the handle has already cached, on an offline handle.
// It prints nanoseconds per call and checks only that every call succeeds (a timing assertion
// would fail on a loaded machine): the numbers are for people comparing builds.
//
//   bench_api_overhead <target> [calls]      (calls defaults to 1000000)
#include "cktile.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

template <typename Call>
bool time_calls(const char* label, long calls, Call&& call)
{
    for(long i = 0; i < 1000; ++i) // warm the caches and the handle's selection cache
        if(call() != CKTILE_STATUS_SUCCESS)
        {
            std::fprintf(stderr, "%s failed: %s\n", label, cktile_get_last_error_message());
            return false;
        }
    const auto t0 = std::chrono::steady_clock::now();
    int failed    = 0;
    for(long i = 0; i < calls; ++i)
        failed |= call();
    const auto t1 = std::chrono::steady_clock::now();
    if(failed)
    {
        std::fprintf(stderr, "%s failed: %s\n", label, cktile_get_last_error_message());
        return false;
    }
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / calls;
    std::printf("%-38s %9.1f ns/call\n", label, ns);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 2 || !*argv[1])
    {
        std::printf("bench_api_overhead: no GPU target in this build; nothing to time\n");
        return 0;
    }
    const long calls  = argc > 2 ? std::atol(argv[2]) : 1000000;
    cktile_handle_t h = nullptr;
    if(cktile_create_for_target(&h, argv[1]) != CKTILE_STATUS_SUCCESS)
    {
        std::fprintf(stderr, "cktile_create_for_target(%s): %s\n", argv[1],
                     cktile_get_last_error_message());
        return 1;
    }

    // The profiler's overhead problem: 64x64x64 fp16, row-major, with (fake, aligned) pointers.
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = p.n = p.k = 64;
    p.lda = p.ldb = p.ldc = p.ldd = 64;
    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    alignas(64) static unsigned char storage[4 * 256];
    a.a = storage;
    a.b = storage + 256;
    a.c = storage + 512;
    a.d = storage + 768;

    std::uint64_t id = 0;
    if(cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &id) != CKTILE_STATUS_SUCCESS)
    {
        std::fprintf(stderr, "cktile_gemm_select: %s\n", cktile_get_last_error_message());
        return 1;
    }
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    cktile_get_instance_info_by_id(h, id, &info);
    std::printf("target %s, 64x64x64 fp16, selected %s, %ld calls per line\n", argv[1], info.name,
                calls);

    std::uint64_t picked = 0;
    std::size_t bytes    = 0;
    bool ok              = true;
    ok = ok && time_calls("cktile_gemm_validate", calls, [&] { return cktile_gemm_validate(&p); });
    ok = ok && time_calls("cktile_gemm_supports(id, args)", calls,
                          [&] { return cktile_gemm_supports(h, id, &p, &a, nullptr, 0); });
    ok = ok && time_calls("cktile_gemm_workspace_size(id)", calls,
                          [&] { return cktile_gemm_workspace_size(h, id, &p, &bytes); });
    ok = ok && time_calls("cktile_gemm_select(DEFAULT, args)", calls, [&] {
             return cktile_gemm_select(h, &p, &a, CKTILE_SELECT_DEFAULT, &picked);
         });
    ok = ok && time_calls("cktile_gemm_select(DEFAULT, no args)", calls, [&] {
             return cktile_gemm_select(h, &p, nullptr, CKTILE_SELECT_DEFAULT, &picked);
         });
    ok = ok && time_calls("cktile_gemm_select(HEURISTIC, args)", calls, [&] {
             return cktile_gemm_select(h, &p, &a, CKTILE_SELECT_HEURISTIC, &picked);
         });
    ok = ok && picked == id;
    cktile_destroy(h);
    if(!ok)
        std::fprintf(stderr, "bench_api_overhead: a call failed or selections disagreed\n");
    return ok ? 0 : 1;
}
