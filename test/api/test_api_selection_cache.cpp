// SPDX-License-Identifier: MIT
// A handle remembers its selections: a repeated call must give the answer a fresh selection
// would, whatever came before it (other pointer alignments, a tuning database loaded later).
#include "cktile.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace {

const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;

const char* general_f16 = "gemm_simt_f16f16_f16_accf32_xx_64x64x16_t4x4_v1_i64_fused";

struct handle
{
    cktile_handle_t h = nullptr;
    handle()
    {
        EXPECT_EQ(cktile_create_for_target(&h, offline_target.c_str()), CKTILE_STATUS_SUCCESS)
            << cktile_get_last_error_message();
    }
    ~handle()
    {
        if(h)
            cktile_destroy(h);
    }
    std::uint64_t find(const char* name) const
    {
        std::uint64_t id = 0;
        EXPECT_EQ(cktile_find_instance(h, name, &id), CKTILE_STATUS_SUCCESS) << name;
        return id;
    }
};

cktile_gemm_problem_t problem_rc_256()
{
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = p.n = p.k = 256;
    p.lda = p.ldb = p.ldc = p.ldd = 256;
    p.b_layout                    = CKTILE_LAYOUT_COL_MAJOR;
    return p;
}

std::uint64_t select(cktile_handle_t h, const cktile_gemm_problem_t& p, const cktile_gemm_args_t* a,
                     cktile_select_mode_t mode)
{
    std::uint64_t id = 0;
    EXPECT_EQ(cktile_gemm_select(h, &p, a, mode, &id), CKTILE_STATUS_SUCCESS)
        << cktile_get_last_error_message();
    return id;
}

/// What a fresh handle's heuristic picks (no cache, no database): the reference answer.
std::uint64_t fresh_heuristic(const cktile_gemm_problem_t& p, const cktile_gemm_args_t* a)
{
    handle fresh;
    return select(fresh.h, p, a, CKTILE_SELECT_HEURISTIC);
}

cktile_instance_info_t info_of(cktile_handle_t h, std::uint64_t id)
{
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    EXPECT_EQ(cktile_get_instance_info_by_id(h, id, &info), CKTILE_STATUS_SUCCESS);
    return info;
}

TEST(SelectionCache, PointerAlignmentIsPartOfTheAnswer)
{
    if(offline_target.empty())
        GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";
    handle o;
    const auto p = problem_rc_256();
    alignas(256) static unsigned char storage[4096];
    cktile_gemm_args_t aligned;
    cktile_gemm_args_init(&aligned);
    aligned.a = storage, aligned.b = storage + 1024, aligned.d = storage + 2048;
    cktile_gemm_args_t skewed = aligned;
    skewed.a                  = storage + 2; // fp16-aligned, not vector-aligned

    // The pick for aligned pointers is an instance that needs them aligned.
    const std::uint64_t vec = select(o.h, p, &aligned, CKTILE_SELECT_DEFAULT);
    EXPECT_EQ(vec, fresh_heuristic(p, &aligned));
    EXPECT_GT(info_of(o.h, vec).alignment_elements, 1) << info_of(o.h, vec).name;
    for(int repeat = 0; repeat < 3; ++repeat)
    {
        const std::uint64_t id = select(o.h, p, &skewed, CKTILE_SELECT_DEFAULT);
        EXPECT_NE(id, vec) << "a remembered answer must still run with the skewed pointer";
        EXPECT_EQ(cktile_gemm_supports(o.h, id, &p, &skewed, nullptr, 0), CKTILE_STATUS_SUCCESS)
            << cktile_get_last_error_message();
        EXPECT_EQ(select(o.h, p, &aligned, CKTILE_SELECT_DEFAULT), vec);
    }
    // Bad input after a remembered answer still fails with its status and message.
    std::uint64_t id = 0;
    EXPECT_EQ(cktile_gemm_select(o.h, &p, &aligned, static_cast<cktile_select_mode_t>(7), &id),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cktile_get_last_error_message()).find("is not a cktile_select_mode_t"),
              std::string::npos);
    EXPECT_EQ(cktile_gemm_supports(o.h, vec, &p, &skewed, nullptr, 0), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(cktile_get_last_error_message()).find(info_of(o.h, vec).name),
              std::string::npos)
        << cktile_get_last_error_message();
}

TEST(SelectionCache, ALoadedTuningDatabaseReplacesRememberedAnswers)
{
    if(offline_target.empty())
        GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";
    handle o;
    const auto p                  = problem_rc_256();
    const std::uint64_t heuristic = fresh_heuristic(p, nullptr);
    ASSERT_NE(heuristic, o.find(general_f16));
    EXPECT_EQ(select(o.h, p, nullptr, CKTILE_SELECT_DEFAULT), heuristic);
    EXPECT_EQ(select(o.h, p, nullptr, CKTILE_SELECT_DEFAULT), heuristic);

    cktile_handle_info_t info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_handle_info(o.h, &info), CKTILE_STATUS_SUCCESS);
    const std::string path = std::string(::testing::TempDir()) + "cktile_selection_cache.json";
    std::ofstream(path) << "{\"format\": \"cktile-tuning-db\", \"format_version\": 1, "
                           "\"library_version\": \""
                        << cktile_get_version_string() << "\", \"target\": \"" << offline_target
                        << "\", \"compute_units\": " << info.compute_unit_count
                        << ", \"entries\": [{\"problem\": \"gemm/fp16,fp16,fp16,fp32/rowcolrowrow/"
                           "m=256,n=256,k=256,batch=1/bias=none,act=none,c=0\", \"instance\": \""
                        << general_f16 << "\", \"time_ms\": 1.0}]}";
    size_t loaded = 0;
    ASSERT_EQ(cktile_tuning_db_load(o.h, path.c_str(), &loaded), CKTILE_STATUS_SUCCESS)
        << cktile_get_last_error_message();
    ASSERT_EQ(loaded, 1u);
    EXPECT_EQ(select(o.h, p, nullptr, CKTILE_SELECT_DEFAULT), o.find(general_f16));
    EXPECT_EQ(select(o.h, p, nullptr, CKTILE_SELECT_HEURISTIC), heuristic)
        << "the heuristic's answer is remembered apart from the default's";
}

} // namespace
