// SPDX-License-Identifier: MIT
// 16 threads create, query, select and destroy handles at once, sharing one handle as well;
// every call must succeed (or fail with its documented status) and the last error message
// must stay per thread.
#include "cktile.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {

const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;

TEST(Threads, SixteenThreadsCreateQuerySelectDestroy)
{
    if(offline_target.empty())
        GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";
    cktile_handle_t shared = nullptr;
    ASSERT_EQ(cktile_create_for_target(&shared, offline_target.c_str()), CKTILE_STATUS_SUCCESS);
    std::atomic<int> failures{0};
    std::vector<std::thread> pool;
    for(int t = 0; t < 16; ++t)
        pool.emplace_back([&, t] {
            for(int it = 0; it < 40; ++it)
            {
                cktile_handle_t own = nullptr;
                if(cktile_create_for_target(&own, offline_target.c_str()) != CKTILE_STATUS_SUCCESS)
                    ++failures;
                cktile_gemm_problem_t p;
                cktile_gemm_problem_init(&p);
                p.m = 1 + (t * 37 + it) % 300, p.n = 1 + (t * 11 + it * 7) % 200, p.k = 1 + it;
                p.lda = p.k, p.ldb = p.n, p.ldc = p.ldd = p.n;
                for(cktile_handle_t h : {own, shared})
                {
                    std::uint64_t id = 0;
                    size_t n         = 0;
                    if(cktile_get_instance_count(h, &n) != CKTILE_STATUS_SUCCESS || n == 0)
                        ++failures;
                    if(cktile_gemm_select(h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id) !=
                       CKTILE_STATUS_SUCCESS)
                        ++failures;
                    if(cktile_gemm_supports(h, id, &p, nullptr, nullptr, 0) !=
                       CKTILE_STATUS_SUCCESS)
                        ++failures;
                }
                // A failure on this thread leaves its own message, whatever others do.
                if(cktile_gemm_validate(nullptr) != CKTILE_STATUS_INVALID_ARGUMENT ||
                   std::string(cktile_get_last_error_message()).find("problem is NULL") ==
                       std::string::npos)
                    ++failures;
                if(cktile_destroy(own) != CKTILE_STATUS_SUCCESS)
                    ++failures;
                if(cktile_destroy(own) != CKTILE_STATUS_INVALID_HANDLE)
                    ++failures;
                // Device handles: succeed with a GPU, else fail cleanly.
                cktile_handle_t dev     = nullptr;
                const cktile_status_t s = cktile_create(&dev, 0);
                if(s == CKTILE_STATUS_SUCCESS)
                    cktile_destroy(dev);
                else if(dev != nullptr)
                    ++failures;
            }
        });
    for(auto& th : pool)
        th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(cktile_destroy(shared), CKTILE_STATUS_SUCCESS);
}

} // namespace
