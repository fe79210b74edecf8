// SPDX-License-Identifier: MIT
// The C API through libcktile.so: statuses and messages, handles (live, destroyed, forged),
// problem validation (every rule), offline queries, support reasons, selection, tuning
// databases and the versioned table. None of it needs a GPU.
#include "cktile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

// The primary GPU target of this build ("" in a host-only build: offline tests skip).
const std::string offline_target = CKTILE_TEST_OFFLINE_TARGET;

#define SKIP_WITHOUT_KERNEL_LIBRARY()                                                              \
    do                                                                                             \
    {                                                                                              \
        if(offline_target.empty())                                                                 \
            GTEST_SKIP() << "this build has no GPU target, so no kernel library to query";         \
    } while(0)

std::string last() { return cktile_get_last_error_message(); }

cktile_gemm_problem_t problem(std::int64_t m, std::int64_t n, std::int64_t k)
{
    cktile_gemm_problem_t p;
    cktile_gemm_problem_init(&p);
    p.m = m, p.n = n, p.k = k;
    p.lda = k, p.ldb = n, p.ldc = n, p.ldd = n; // all row-major
    return p;
}

struct offline_handle
{
    cktile_handle_t h = nullptr;
    offline_handle()
    {
        if(!offline_target.empty())
        {
            EXPECT_EQ(cktile_create_for_target(&h, offline_target.c_str()), CKTILE_STATUS_SUCCESS)
                << last();
        }
    }
    ~offline_handle()
    {
        if(h)
            cktile_destroy(h);
    }
};

std::uint64_t fnv1a64(const std::string& s)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for(unsigned char c : s)
    {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h ? h : 1;
}

std::uint64_t find(cktile_handle_t h, const std::string& name)
{
    std::uint64_t id = 0;
    EXPECT_EQ(cktile_find_instance(h, name.c_str(), &id), CKTILE_STATUS_SUCCESS) << last();
    return id;
}

const char* general_f16    = "gemm_simt_f16f16_f16_accf32_xx_64x64x16_t4x4_v1_i64_fused";
const char* vectorised_f16 = "gemm_simt_f16f16_f16_accf32_rc_64x64x16_t4x4_v8_i32_fused";
const char* plain_f16_cr   = "gemm_simt_f16f16_f16_accf32_cr_32x32x16_t2x2_v1_i32_none";

TEST(Status, EveryStatusHasAName)
{
    for(int s = 0; s <= CKTILE_STATUS_OUT_OF_MEMORY; ++s)
        EXPECT_EQ(std::string(cktile_status_string(cktile_status_t(s))).rfind("CKTILE_STATUS_", 0),
                  0u);
    EXPECT_STREQ(cktile_status_string(cktile_status_t(999)), "CKTILE_STATUS_<unknown>");
}

TEST(Status, LastErrorIsClearedBySuccessAndNamesTheArgument)
{
    EXPECT_EQ((cktile_gemm_problem_init)(nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem is NULL"), std::string::npos) << last();
    EXPECT_EQ(cktile_gemm_problem_init_sized(nullptr, sizeof(cktile_gemm_problem_t)),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("cktile_gemm_problem_init_sized: problem is NULL"), std::string::npos)
        << last();
    cktile_gemm_problem_t p;
    EXPECT_EQ(cktile_gemm_problem_init(&p), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(last(), "");
}

TEST(Version, MatchesHeader)
{
    EXPECT_EQ(cktile_get_version(), CKTILE_VERSION);
    EXPECT_EQ(std::string(cktile_get_version_string()),
              std::to_string(CKTILE_VERSION_MAJOR) + "." + std::to_string(CKTILE_VERSION_MINOR) +
                  "." + std::to_string(CKTILE_VERSION_PATCH));
    // CMake takes the project version (soname, pkg-config) from the header's defines.
    EXPECT_STREQ(cktile_get_version_string(), CKTILE_TEST_PROJECT_VERSION);
}

TEST(Handle, NullAndForgedHandlesAreRejected)
{
    size_t n = 0;
    EXPECT_EQ(cktile_get_instance_count(nullptr, &n), CKTILE_STATUS_INVALID_HANDLE);
    EXPECT_EQ(cktile_destroy(nullptr), CKTILE_STATUS_INVALID_HANDLE);
    auto forged = reinterpret_cast<cktile_handle_t>(std::uintptr_t(0xdeadbeef));
    EXPECT_EQ(cktile_get_instance_count(forged, &n), CKTILE_STATUS_INVALID_HANDLE);
    EXPECT_NE(last().find("not a live cktile handle"), std::string::npos) << last();
    EXPECT_EQ(cktile_destroy(forged), CKTILE_STATUS_INVALID_HANDLE);
}

TEST(Handle, CreateWithoutDeviceSaysWhy)
{
    cktile_handle_t h = reinterpret_cast<cktile_handle_t>(std::uintptr_t(1));
    EXPECT_EQ(cktile_create(nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_create(&h, -1), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(h, nullptr);
    const cktile_status_t s = cktile_create(&h, 0);
    if(s == CKTILE_STATUS_SUCCESS)
    {
        cktile_destroy(h);
        GTEST_SKIP() << "a device is present; this checks the no-device message";
    }
    EXPECT_TRUE(s == CKTILE_STATUS_NO_DEVICE || s == CKTILE_STATUS_KERNEL_LIBRARY_NOT_FOUND)
        << cktile_status_string(s);
    EXPECT_EQ(h, nullptr);
    EXPECT_FALSE(last().empty());
    EXPECT_EQ(cktile_create(&h, 1 << 20),
              s == CKTILE_STATUS_NO_DEVICE ? CKTILE_STATUS_NO_DEVICE : s);
}

TEST(Handle, UnknownTargetNamesTheInstalledTargets)
{
    cktile_handle_t h = nullptr;
    EXPECT_EQ(cktile_create_for_target(&h, "sm_75"), CKTILE_STATUS_KERNEL_LIBRARY_NOT_FOUND);
    EXPECT_NE(last().find("'sm_75'"), std::string::npos) << last();
    EXPECT_NE(last().find("installed targets: "), std::string::npos) << last();
    if(!offline_target.empty())
    {
        EXPECT_NE(last().find(offline_target), std::string::npos) << last();
    }
    EXPECT_EQ(cktile_create_for_target(&h, "../../etc/passwd"), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_create_for_target(&h, ""), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_create_for_target(&h, nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_create_for_target(nullptr, "sm_90a"), CKTILE_STATUS_INVALID_ARGUMENT);
}

TEST(Handle, DestroyedHandleIsRejectedNotUsed)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    cktile_handle_t h = nullptr;
    ASSERT_EQ(cktile_create_for_target(&h, offline_target.c_str()), CKTILE_STATUS_SUCCESS)
        << last();
    EXPECT_EQ(cktile_destroy(h), CKTILE_STATUS_SUCCESS);
    size_t n = 0;
    EXPECT_EQ(cktile_get_instance_count(h, &n), CKTILE_STATUS_INVALID_HANDLE);
    EXPECT_EQ(cktile_destroy(h), CKTILE_STATUS_INVALID_HANDLE);
    // A new handle never reuses the old value.
    cktile_handle_t h2 = nullptr;
    ASSERT_EQ(cktile_create_for_target(&h2, offline_target.c_str()), CKTILE_STATUS_SUCCESS);
    EXPECT_NE(h2, h);
    EXPECT_EQ(cktile_destroy(h2), CKTILE_STATUS_SUCCESS);
}

TEST(Handle, OfflineInfo)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    cktile_handle_info_t info{};
    EXPECT_EQ(cktile_get_handle_info(o.h, &info), CKTILE_STATUS_INVALID_ARGUMENT); // struct_size 0
    EXPECT_NE(last().find("info->struct_size"), std::string::npos) << last();
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_handle_info(o.h, &info), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(std::string(info.target), offline_target);
    EXPECT_EQ(info.device_ordinal, -1);
    EXPECT_GT(info.compute_unit_count, 0);
    EXPECT_GT(info.instance_count, 0u);
}

// ---- validation: one test per rule --------------------------------------------------------

cktile_status_t validate(const cktile_gemm_problem_t& p) { return cktile_gemm_validate(&p); }

TEST(Validate, DefaultProblemIsValid)
{
    EXPECT_EQ(validate(problem(1, 1, 1)), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(validate(problem(17, 33, 65)), CKTILE_STATUS_SUCCESS) << last();
}

TEST(Validate, NullAndStructSize)
{
    EXPECT_EQ(cktile_gemm_validate(nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    auto p        = problem(2, 2, 2);
    p.struct_size = 8;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->struct_size is 8"), std::string::npos) << last();
    p.struct_size = sizeof(p) + 8;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("newer cktile.h"), std::string::npos) << last();
}

TEST(Validate, NonPositiveDimensions)
{
    for(int which = 0; which < 4; ++which)
        for(std::int64_t v : {std::int64_t(0), std::int64_t(-5), INT64_MIN})
        {
            auto p           = problem(4, 4, 4);
            const char* name = which == 0   ? "m"
                               : which == 1 ? "n"
                               : which == 2 ? "k"
                                            : "batch_count";
            (which == 0 ? p.m : which == 1 ? p.n : which == 2 ? p.k : p.batch_count) = v;
            EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT) << name << "=" << v;
            EXPECT_NE(last().find(std::string("problem->") + name), std::string::npos) << last();
        }
}

TEST(Validate, LeadingDimensionsCoverRowsAndColumns)
{
    auto p = problem(8, 6, 4);
    p.lda  = 3; // row-major 8 x 4 needs lda >= 4
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->lda = 3"), std::string::npos) << last();
    p          = problem(8, 6, 4);
    p.a_layout = CKTILE_LAYOUT_COL_MAJOR; // column-major 8 x 4 needs lda >= 8
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    p.lda = 8;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.ldb = 5;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->ldb"), std::string::npos) << last();
    p.ldb = 6, p.ldc = 1;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    p.ldc = 6, p.d_layout = CKTILE_LAYOUT_COL_MAJOR; // needs ldd >= 8
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->ldd"), std::string::npos) << last();
}

TEST(Validate, OverflowingIndexSpaces)
{
    auto p = problem(INT64_MAX / 2, 2, 2);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("overflows 64 bits"), std::string::npos) << last();
    p             = problem(1 << 20, 1 << 20, 1 << 20);
    p.batch_count = INT64_MAX / 4;
    p.stride_a = p.stride_b = p.stride_c = p.stride_d = std::int64_t(1) << 40;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
}

TEST(Validate, BatchStrides)
{
    auto p        = problem(4, 4, 4);
    p.batch_count = 3;
    p.stride_a = p.stride_b = p.stride_c = 0; // broadcast is fine
    p.stride_d                           = 16;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.stride_d = 15; // D's batches would overlap
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("stride_d"), std::string::npos) << last();
    p.stride_d = 16, p.stride_a = -1;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("stride_a"), std::string::npos) << last();
}

TEST(Validate, EnumsAndScalars)
{
    auto p   = problem(2, 2, 2);
    p.a_type = cktile_datatype_t(42);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("a_type"), std::string::npos) << last();
    p = problem(2, 2, 2), p.b_layout = CKTILE_LAYOUT_ANY;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    p = problem(2, 2, 2), p.bias = cktile_bias_t(7);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    p = problem(2, 2, 2), p.activation = cktile_activation_t(-1);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    p = problem(2, 2, 2), p.alpha = 1.0 / 0.0;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    p = problem(2, 2, 2), p.beta = 0.0 / 0.0;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
}

TEST(Validate, UnsupportedTypeCombinations)
{
    auto p   = problem(2, 2, 2);
    p.a_type = CKTILE_DATATYPE_INT8; // int8 x fp16
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    p.b_type = CKTILE_DATATYPE_INT8; // int8 x int8 -> fp16
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    p.c_type = p.d_type = p.compute_type = CKTILE_DATATYPE_INT32;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p = problem(2, 2, 2), p.c_type = CKTILE_DATATYPE_FP32;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("C has D's type"), std::string::npos) << last();
    p = problem(2, 2, 2), p.compute_type = CKTILE_DATATYPE_FP16;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    p = problem(2, 2, 2), p.a_type = CKTILE_DATATYPE_INT32;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
}

TEST(Validate, Tf32ComputeIsForFp32InputsOnly)
{
    auto p         = problem(2, 2, 2);
    p.compute_type = CKTILE_DATATYPE_TF32; // fp16 inputs
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("compute_type tf32 needs fp32 inputs"), std::string::npos) << last();
    p.a_type = p.b_type = p.c_type = p.d_type = CKTILE_DATATYPE_FP32;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.a_type = CKTILE_DATATYPE_TF32; // a compute type, not a storage type
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    p = problem(2, 2, 2), p.d_type = p.c_type = CKTILE_DATATYPE_TF32;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
}

TEST(Validate, Int8InputsProduceInt32OrInt8)
{
    auto p   = problem(2, 2, 2);
    p.a_type = p.b_type = CKTILE_DATATYPE_INT8;
    p.compute_type      = CKTILE_DATATYPE_INT32;
    p.c_type = p.d_type = CKTILE_DATATYPE_INT8;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.compute_type = CKTILE_DATATYPE_FP32;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("d_type int32 or int8"), std::string::npos) << last();
    p.compute_type = CKTILE_DATATYPE_INT32, p.d_type = p.c_type = CKTILE_DATATYPE_FP16;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
}

// ---- instances, support, selection (offline) ------------------------------------------------

TEST(Instances, EveryInstanceHasAConsistentRecord)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    size_t n = 0;
    ASSERT_EQ(cktile_get_instance_count(o.h, &n), CKTILE_STATUS_SUCCESS);
    ASSERT_GT(n, 0u);
    for(size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        ASSERT_EQ(cktile_get_instance_info(o.h, i, &info), CKTILE_STATUS_SUCCESS) << last();
        EXPECT_EQ(info.id, fnv1a64(info.name)) << "ids are derived from names: " << info.name;
        EXPECT_EQ(std::string(info.target), offline_target);
        EXPECT_TRUE(info.op_kind == CKTILE_OP_GEMM || info.op_kind == CKTILE_OP_NORMALIZATION ||
                    info.op_kind == CKTILE_OP_SOFTMAX || info.op_kind == CKTILE_OP_REDUCTION ||
                    info.op_kind == CKTILE_OP_ELEMENTWISE || info.op_kind == CKTILE_OP_PERMUTE)
            << info.name;
        EXPECT_EQ(info.struct_size, sizeof(info));
        EXPECT_EQ(find(o.h, info.name), info.id);
        cktile_instance_info_t by_id{};
        by_id.struct_size = sizeof(by_id);
        ASSERT_EQ(cktile_get_instance_info_by_id(o.h, info.id, &by_id), CKTILE_STATUS_SUCCESS);
        EXPECT_STREQ(by_id.name, info.name);
    }
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    EXPECT_EQ(cktile_get_instance_info(o.h, n, &info), CKTILE_STATUS_NOT_FOUND);
    EXPECT_EQ(cktile_get_instance_info_by_id(o.h, 12345, &info), CKTILE_STATUS_NOT_FOUND);
    std::uint64_t id = 0;
    EXPECT_EQ(cktile_find_instance(o.h, "no_such_instance", &id), CKTILE_STATUS_NOT_FOUND);
    EXPECT_EQ(cktile_find_instance(o.h, nullptr, &id), CKTILE_STATUS_INVALID_ARGUMENT);
}

TEST(Instances, EveryTypeCombinationHasAGeneralInstance)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    const std::vector<std::vector<cktile_datatype_t>> combos = {
        {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP16},
        {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_FP32},
        {CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_BF16},
        {CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_BF16, CKTILE_DATATYPE_FP32},
        {CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP32},
        {CKTILE_DATATYPE_FP8_E4M3, CKTILE_DATATYPE_FP8_E4M3, CKTILE_DATATYPE_FP16},
        {CKTILE_DATATYPE_FP8_E4M3, CKTILE_DATATYPE_FP8_E4M3, CKTILE_DATATYPE_BF16},
        {CKTILE_DATATYPE_FP8_E5M2, CKTILE_DATATYPE_FP8_E5M2, CKTILE_DATATYPE_FP16},
        {CKTILE_DATATYPE_FP8_E4M3, CKTILE_DATATYPE_FP8_E5M2, CKTILE_DATATYPE_FP16},
        {CKTILE_DATATYPE_INT8, CKTILE_DATATYPE_INT8, CKTILE_DATATYPE_INT32},
        {CKTILE_DATATYPE_INT8, CKTILE_DATATYPE_INT8, CKTILE_DATATYPE_INT8},
        {CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_TF32}};
    for(const auto& c : combos)
        for(auto la : {CKTILE_LAYOUT_ROW_MAJOR, CKTILE_LAYOUT_COL_MAJOR})
            for(auto lb : {CKTILE_LAYOUT_ROW_MAJOR, CKTILE_LAYOUT_COL_MAJOR})
            {
                auto p   = problem(17, 33, 65);
                p.a_type = c[0];
                p.b_type = c[1];
                p.c_type = p.d_type = c[2];
                p.compute_type      = c.size() > 3                   ? c[3]
                                      : c[0] == CKTILE_DATATYPE_INT8 ? CKTILE_DATATYPE_INT32
                                                                     : CKTILE_DATATYPE_FP32;
                p.a_layout = la, p.b_layout = lb;
                p.lda            = la == CKTILE_LAYOUT_ROW_MAJOR ? 65 : 17;
                p.ldb            = lb == CKTILE_LAYOUT_ROW_MAJOR ? 33 : 65;
                p.bias           = CKTILE_BIAS_PER_COLUMN;
                p.activation     = CKTILE_ACTIVATION_GELU_ERF;
                std::uint64_t id = 0;
                ASSERT_EQ(cktile_gemm_select(o.h, &p, nullptr, CKTILE_SELECT_HEURISTIC, &id),
                          CKTILE_STATUS_SUCCESS)
                    << last();
                EXPECT_EQ(cktile_gemm_supports(o.h, id, &p, nullptr, nullptr, 0),
                          CKTILE_STATUS_SUCCESS);
                size_t ws = 1;
                EXPECT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &ws), CKTILE_STATUS_SUCCESS);
                EXPECT_EQ(ws, 0u);
            }
}

TEST(Supports, ReasonsNameTheConstraint)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    const std::uint64_t vec = find(o.h, vectorised_f16), gen = find(o.h, general_f16),
                        plain = find(o.h, plain_f16_cr);
    char reason[256];
    auto p     = problem(64, 64, 64);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 64;

    EXPECT_EQ(cktile_gemm_supports(o.h, vec, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << last();
    // K not a multiple of the vector width.
    auto q = p;
    q.k = 63, q.lda = 63, q.ldb = 63;
    EXPECT_EQ(cktile_gemm_supports(o.h, vec, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("multiple of the instance's vector width"),
              std::string::npos)
        << reason;
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << last();
    // Leading dimension not a multiple of the vector width.
    q = p, q.lda = 65;
    EXPECT_EQ(cktile_gemm_supports(o.h, vec, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("lda"), std::string::npos) << reason;
    // Index space beyond 32 bits.
    q = p, q.batch_count = 1 << 20, q.stride_a = q.stride_b = q.stride_c = q.stride_d = 64 * 64;
    EXPECT_EQ(cktile_gemm_supports(o.h, vec, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("32-bit indexing"), std::string::npos) << reason;
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << last();
    // Wrong layout, and an epilogue the instance does not have.
    EXPECT_EQ(cktile_gemm_supports(o.h, plain, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("layout"), std::string::npos) << reason;
    q = p, q.a_layout = CKTILE_LAYOUT_COL_MAJOR, q.b_layout = CKTILE_LAYOUT_ROW_MAJOR;
    q.activation = CKTILE_ACTIVATION_RELU;
    EXPECT_EQ(cktile_gemm_supports(o.h, plain, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("activation"), std::string::npos) << reason;
    // Wrong types.
    q = p, q.a_type = q.b_type = CKTILE_DATATYPE_BF16;
    EXPECT_EQ(cktile_gemm_supports(o.h, vec, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("data types"), std::string::npos) << reason;
    // Unknown and automatic ids.
    EXPECT_EQ(cktile_gemm_supports(o.h, 7, &p, nullptr, nullptr, 0), CKTILE_STATUS_NOT_FOUND);
    EXPECT_EQ(cktile_gemm_supports(o.h, CKTILE_INSTANCE_AUTO, &p, nullptr, nullptr, 0),
              CKTILE_STATUS_INVALID_ARGUMENT);
}

TEST(Supports, PointersAreCheckedForAlignment)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    const std::uint64_t vec = find(o.h, vectorised_f16), gen = find(o.h, general_f16);
    auto p     = problem(64, 64, 64);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 64;
    // Never dereferenced: only their addresses are checked.
    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    a.a = reinterpret_cast<const void*>(std::uintptr_t(0x10002)); // 2-aligned, not 16
    a.b = reinterpret_cast<const void*>(std::uintptr_t(0x20000));
    a.d = reinterpret_cast<void*>(std::uintptr_t(0x30000));
    char reason[256];
    EXPECT_EQ(cktile_gemm_supports(o.h, vec, &p, &a, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("A's pointer is not aligned"), std::string::npos) << reason;
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, reason, sizeof(reason)), CKTILE_STATUS_SUCCESS)
        << last();
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_gemm_select(o.h, &p, &a, CKTILE_SELECT_HEURISTIC, &id), CKTILE_STATUS_SUCCESS);
    EXPECT_NE(id, vec) << "the selection must respect pointer alignment";
    a.a = reinterpret_cast<const void*>(std::uintptr_t(0x10001)); // not even element-aligned
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, reason, sizeof(reason)),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->a is not aligned"), std::string::npos) << last();
    a.a = nullptr;
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, reason, sizeof(reason)),
              CKTILE_STATUS_INVALID_ARGUMENT);
    a.a    = reinterpret_cast<const void*>(std::uintptr_t(0x10000));
    p.beta = 1.0; // C is read now and is NULL
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, reason, sizeof(reason)),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->c"), std::string::npos) << last();
    p.beta = 0, p.bias = CKTILE_BIAS_PER_ROW;
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, reason, sizeof(reason)),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->bias"), std::string::npos) << last();
}

// The scales were appended to cktile_gemm_args_t: a caller built before them passes a struct
// that ends at `d` and must still be served (without scales); shorter is an error.
TEST(Supports, ArgsWithoutScalesFromOlderCallersAndScaleAlignment)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    const std::uint64_t gen = find(o.h, general_f16);
    auto p                  = problem(64, 64, 64);
    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    EXPECT_EQ(a.scale_a, nullptr);
    EXPECT_EQ(a.scale_b, nullptr);
    EXPECT_EQ(a.scale_d, nullptr);
    a.a       = reinterpret_cast<const void*>(std::uintptr_t(0x10000));
    a.b       = reinterpret_cast<const void*>(std::uintptr_t(0x20000));
    a.d       = reinterpret_cast<void*>(std::uintptr_t(0x30000));
    a.scale_a = reinterpret_cast<const float*>(std::uintptr_t(0x40002)); // not float-aligned
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->scale_a is not aligned"), std::string::npos) << last();
    // An older caller's struct: the misaligned scale lies beyond its struct_size, unread.
    a.struct_size = offsetof(cktile_gemm_args_t, scale_a);
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_SUCCESS) << last();
    std::uint64_t id = 0;
    EXPECT_EQ(cktile_gemm_select(o.h, &p, &a, CKTILE_SELECT_HEURISTIC, &id), CKTILE_STATUS_SUCCESS)
        << last();
    a.struct_size = offsetof(cktile_gemm_args_t, d);
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("struct_size"), std::string::npos) << last();
}

// Extra epilogue inputs (multi-D): a residual D0 of a 5 x 7 fp16 problem.
cktile_gemm_problem_t multi_d_problem(cktile_multi_d_op_t op)
{
    auto p       = problem(5, 7, 3);
    p.multi_d_op = op;
    p.d0_type = p.d1_type = CKTILE_DATATYPE_FP16;
    p.ldd0 = p.ldd1 = 7;
    return p;
}

TEST(Validate, MultiDProblems)
{
    EXPECT_EQ(validate(multi_d_problem(CKTILE_MULTI_D_ADD)), CKTILE_STATUS_SUCCESS) << last();
    auto p       = multi_d_problem(CKTILE_MULTI_D_ADD);
    p.multi_d_op = static_cast<cktile_multi_d_op_t>(9);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->multi_d_op = 9"), std::string::npos) << last();
    p               = multi_d_problem(CKTILE_MULTI_D_MUL);
    p.multi_d_point = static_cast<cktile_multi_d_point_t>(2);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->multi_d_point = 2"), std::string::npos) << last();
    // Types: D's type or fp32, nothing else.
    p         = multi_d_problem(CKTILE_MULTI_D_ADD);
    p.d0_type = CKTILE_DATATYPE_BF16;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("problem->d0_type = bf16"), std::string::npos) << last();
    p.d0_type = CKTILE_DATATYPE_FP32;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    // Leading dimensions, per layout.
    p.ldd0 = 6;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->ldd0 = 6"), std::string::npos) << last();
    EXPECT_NE(last().find("matrix D0"), std::string::npos) << last();
    p.d0_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldd0 = 5;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.d0_layout = static_cast<cktile_layout_t>(0);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->d0_layout"), std::string::npos) << last();
    // D1 is checked only by operations that read it.
    p         = multi_d_problem(CKTILE_MULTI_D_ADD);
    p.ldd1    = 0;
    p.d1_type = CKTILE_DATATYPE_INT8;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.multi_d_op = CKTILE_MULTI_D_ADD_MUL;
    EXPECT_EQ(validate(p), CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(last().find("problem->d1_type = int8"), std::string::npos) << last();
    p.d1_type = CKTILE_DATATYPE_FP16;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->ldd1 = 0"), std::string::npos) << last();
    // Batch strides: 0 broadcasts, negative is refused.
    p             = multi_d_problem(CKTILE_MULTI_D_MUL_ADD);
    p.batch_count = 3;
    p.stride_a = 15, p.stride_b = 21, p.stride_c = 35, p.stride_d = 35;
    p.stride_d0 = 0;
    p.stride_d1 = 35;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.stride_d1 = -1;
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("problem->stride_d1 = -1"), std::string::npos) << last();
    // Without an operation nothing of D0/D1 is read.
    p         = multi_d_problem(CKTILE_MULTI_D_NONE);
    p.d0_type = static_cast<cktile_datatype_t>(77);
    p.ldd0    = -5;
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
}

// The extra-input fields were appended to cktile_gemm_problem_t: a caller built before them
// passes a struct ending at `activation` and gets no extra inputs, whatever lies beyond.
TEST(Validate, ProblemsFromOlderCallersHaveNoExtraInputs)
{
    auto p        = multi_d_problem(CKTILE_MULTI_D_ADD);
    p.d0_type     = CKTILE_DATATYPE_BF16; // invalid, but beyond the older struct
    p.struct_size = offsetof(cktile_gemm_problem_t, multi_d_op);
    EXPECT_EQ(validate(p), CKTILE_STATUS_SUCCESS) << last();
    p.struct_size = offsetof(cktile_gemm_problem_t, activation);
    EXPECT_EQ(validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("struct_size"), std::string::npos) << last();
}

TEST(Supports, MultiDArgumentsAndInstancesWithoutTheEpilogue)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    const std::uint64_t gen = find(o.h, general_f16), plain = find(o.h, plain_f16_cr);
    auto p = multi_d_problem(CKTILE_MULTI_D_ADD_MUL);
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, nullptr, nullptr, 0), CKTILE_STATUS_SUCCESS)
        << last();
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, gen, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.supports_multi_d, 1);
    EXPECT_EQ(info.supports_beta, 1);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, plain, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.supports_multi_d, 0);
    EXPECT_EQ(info.supports_beta, 1); // no fused operations, but alpha, beta and C
    // An older caller's info struct gets what it has and nothing past it (0x5a bytes).
    const auto older_info = [&](std::size_t struct_size) {
        cktile_instance_info_t i;
        std::memset(&i, 0x5a, sizeof(i));
        i.struct_size = struct_size;
        EXPECT_EQ(cktile_get_instance_info_by_id(o.h, gen, &i), CKTILE_STATUS_SUCCESS) << last();
        return i;
    };
    const auto old_info = older_info(offsetof(cktile_instance_info_t, supports_multi_d));
    EXPECT_EQ(old_info.id, gen);
    EXPECT_EQ(old_info.supports_multi_d, 0x5a5a5a5a);
    const auto multi_d_info = older_info(offsetof(cktile_instance_info_t, supports_beta));
    EXPECT_EQ(multi_d_info.supports_multi_d, 1);
    EXPECT_EQ(multi_d_info.supports_beta, 0x5a5a5a5a);
    const auto beta_info = older_info(offsetof(cktile_instance_info_t, activations));
    EXPECT_EQ(beta_info.supports_beta, 1);
    EXPECT_EQ(beta_info.activations, 0x5a5a5a5au);
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, gen, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.activations, (1u << (CKTILE_ACTIVATION_SILU + 1)) - 1);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, plain, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.activations, 1u << CKTILE_ACTIVATION_NONE);

    auto cr     = p; // A column-major, B row-major: the plain instance's layouts
    cr.a_layout = CKTILE_LAYOUT_COL_MAJOR, cr.lda = 5;
    char reason[256];
    EXPECT_EQ(cktile_gemm_supports(o.h, plain, &cr, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("no multi-D epilogue"), std::string::npos) << reason;
    cr.multi_d_op = CKTILE_MULTI_D_NONE;
    EXPECT_EQ(cktile_gemm_supports(o.h, plain, &cr, nullptr, nullptr, 0), CKTILE_STATUS_SUCCESS)
        << last();

    // Pointers: present when the operation reads them, element-aligned.
    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    EXPECT_EQ(a.d0, nullptr);
    EXPECT_EQ(a.d1, nullptr);
    a.a = reinterpret_cast<const void*>(std::uintptr_t(0x10000));
    a.b = reinterpret_cast<const void*>(std::uintptr_t(0x20000));
    a.d = reinterpret_cast<void*>(std::uintptr_t(0x30000));
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->d0 (multi_d_op reads it) is NULL"), std::string::npos) << last();
    a.d0 = reinterpret_cast<const void*>(std::uintptr_t(0x40000));
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->d1 (multi_d_op reads it) is NULL"), std::string::npos) << last();
    a.d1 = reinterpret_cast<const void*>(std::uintptr_t(0x50001));
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("args->d1 (multi_d_op reads it) is not aligned"), std::string::npos)
        << last();
    p.d1_type = CKTILE_DATATYPE_FP32; // 4-byte elements now
    a.d1      = reinterpret_cast<const void*>(std::uintptr_t(0x50002));
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    a.d1 = reinterpret_cast<const void*>(std::uintptr_t(0x50004));
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_SUCCESS) << last();
    // A caller's args struct without d0/d1 cannot run a multi-D problem, and is told why.
    a.struct_size = offsetof(cktile_gemm_args_t, d0);
    EXPECT_EQ(cktile_gemm_supports(o.h, gen, &p, &a, nullptr, 0), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("struct_size ends before d0/d1"), std::string::npos) << last();
    // Selection honours the epilogue: never an instance without it.
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_gemm_select(o.h, &cr, nullptr, CKTILE_SELECT_HEURISTIC, &id),
              CKTILE_STATUS_SUCCESS);
    cr.multi_d_op = CKTILE_MULTI_D_MUL;
    ASSERT_EQ(cktile_gemm_select(o.h, &cr, nullptr, CKTILE_SELECT_HEURISTIC, &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, id, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.supports_multi_d, 1) << info.name;
}

TEST(Select, HeuristicPrefersTheSpecialisedInstanceWhenItApplies)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    auto p     = problem(4096, 4096, 4096);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 4096;
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_gemm_select(o.h, &p, nullptr, CKTILE_SELECT_HEURISTIC, &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    // A matrix-instruction instance (mma.sync/MFMA tiles, or wgmma on sm_90a) beats every SIMT
    // one on a large aligned problem.
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, id, &info), CKTILE_STATUS_SUCCESS);
    const std::string name = info.name;
    EXPECT_TRUE(name.rfind("gemm_tile_f16f16_f16_accf32_rc_", 0) == 0 ||
                name.rfind("gemm_wgmma_f16f16_f16_accf32_rc_", 0) == 0)
        << name;
    // K not a multiple of 8: the general instance, or on sm_90a a Hopper instance that first
    // copies the operands into workspace with aligned rows (a run without workspace takes the
    // general one).
    p.k = 4095, p.lda = 4095, p.ldb = 4095;
    ASSERT_EQ(cktile_gemm_select(o.h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id),
              CKTILE_STATUS_SUCCESS);
    if(offline_target == "sm_90a")
    {
        ASSERT_EQ(cktile_get_instance_info_by_id(o.h, id, &info), CKTILE_STATUS_SUCCESS);
        EXPECT_EQ(std::string(info.name).rfind("gemm_wgmma_f16f16_f16_accf32_rc_", 0), 0u)
            << info.name;
    }
    else
        EXPECT_EQ(id, find(o.h, general_f16));
    EXPECT_EQ(cktile_gemm_select(o.h, &p, nullptr, cktile_select_mode_t(9), &id),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_gemm_select(o.h, &p, nullptr, CKTILE_SELECT_TUNING_DB, &id),
              CKTILE_STATUS_NOT_FOUND);
}

/// The heuristic's pick for `p`: its id and description.
::testing::AssertionResult heuristic_pick(cktile_handle_t h, const cktile_gemm_problem_t& p,
                                          std::uint64_t& id, cktile_instance_info_t& info)
{
    if(cktile_gemm_select(h, &p, nullptr, CKTILE_SELECT_HEURISTIC, &id) != CKTILE_STATUS_SUCCESS)
        return ::testing::AssertionFailure() << "select: " << last();
    info.struct_size = sizeof(info);
    if(cktile_get_instance_info_by_id(h, id, &info) != CKTILE_STATUS_SUCCESS)
        return ::testing::AssertionFailure() << "info: " << last();
    return ::testing::AssertionSuccess();
}

/// The name of the heuristic's pick for an fp16 M x N x K problem (B row-major or not) that
/// `adjust` gives its epilogue; "" where there is none.
template <typename Adjust>
std::string picked_name(cktile_handle_t h, std::int64_t m, std::int64_t n, std::int64_t k,
                        bool b_row, Adjust adjust)
{
    auto p = problem(m, n, k);
    if(!b_row)
        p.b_layout = CKTILE_LAYOUT_COL_MAJOR;
    adjust(p);
    std::uint64_t id = 0;
    cktile_instance_info_t info{};
    const auto picked = heuristic_pick(h, p, id, info);
    EXPECT_TRUE(picked);
    return picked ? std::string(info.name) : std::string();
}

// On the H100 model (132 SMs), skinny problems take 64-column tiles that make about one tile
// per SM without split-K (whose reduction pass cost 4.5 to 15 us there), M <= 16 the tiles of
// 16 rows of A (more of B in flight), and large problems keep the 128x256 tile: the 64-column
// tiles stage twice the operand bytes per multiply-accumulate. Small outputs with long K fill
// the SMs with narrow tiles rather than split: measured there, 1024 x 1024 x 8192 ran 0.031 ms
// on 64x128 tiles against more than 0.042 on 128x256 tiles in four splits, 512 x 1024 x 8192
// 0.025 on 64x64 against 0.031 on 128x128 in four, and 256 x 8192 x 8192 was fastest on
// 128x128 tiles (0.058 ms, 128 of them), as were 2048 x 1024 and 1024 x 2048 with K = 1024 or
// 4096 (0.013 and 0.026 to 0.031 ms; with B row-major, 128x192 pairs took 0.016 and 0.036). Where
// 64x128 (ping-pong) and 128x64 (cooperative) cost the same in the model, the ping-pong tile is
// taken: as fast at M = 128 and 1024^3, 5 to 25% faster where M is twice N or more, 4 to 8%
// slower at 1024 x 1024 x 4096 and 8192 (the tie rule's cost there). Mid-sized problems take
// the widths that fill the SMs' waves: with B column-major 1536^3 the 128x144 pair (132 tiles),
// 1280^3 the 128x112 pair (120 tiles; H200: 0.0128 ms against 0.0136 on 128x128 tiles) and
// 2560^3 the 128x144 pair again (360 tiles, 2.7 waves: 0.0525 ms against 0.0596 on 128x256,
// whose 200 tiles make 1.5), as 1792 x 2560 x 4096 (252 tiles, two waves: 0.0550 ms against
// 0.0628 on 128x128 tiles, whose 280 make three); where the pair makes as many waves as 128x128
// tiles (the 1024 x 2048 and 2048 x 1024 problems above, 256 x 8192 x 8192), those stay the
// pick. Over several waves of larger operands the narrow pairs lose (H200, sustained clock):
// 2560 x 2560 x 4096 takes the 128x160 pair (0.0872 ms against 0.0950 on the 128x112 pair) and
// 2304 x 3072 x 4096 128x256 tiles (0.0900 against 0.0946 on the 128x144 pair), while 2560 x 2560
// x 1024, whose operands stay in L2, keeps the 128x144 pair (0.0266 against 0.0287 on 128x256).
// Narrower and wider widths keep other problems to whole waves: 512 x 2560 x 4096 takes 128 tiles
// of the 128x80 pair (0.0225 ms against 0.0239 on 92 of the 128x112 pair), 1024 x 1536 x 4096
// 128 of the 128x96 pair (0.0244 against 0.0249) and 2304 x 2304 x 4096 two waves of the 128x176
// pair (0.0699 against 0.0706 on 128x256).
// With B row-major, which the ci set's pairs of 80, 96, 112, 144 and 176 columns do not read,
// 1536^3 takes the 128x160 pair, whose 120 tiles fill the SMs where 128x192 pairs made 96 (0.0163
// ms against 0.0188), and 1280^3 the 128x128 tile (0.0132 ms against 0.0143 on 128x160).
TEST(Select, HopperNarrowTilesForSkinnyProblemsWideTilesForLargeOnes)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    struct expectation
    {
        std::int64_t m, n, k;
        int tile_n, tile_m;
        bool b_col, b_row; // the layouts of B checked (the ci set has the tile for those)
        bool last_wave_split = false; // the partial last wave split over K, in workspace
    };
    for(const expectation e : {expectation{16, 8192, 8192, 64, 16, true, true},
                               expectation{128, 8192, 8192, 128, 64, true, true},
                               expectation{1024, 1024, 1024, 128, 64, true, true},
                               expectation{4096, 4096, 4096, 256, 128, true, true},
                               expectation{3000, 3000, 3000, 192, 192, true, true},
                               expectation{1024, 1024, 8192, 128, 64, true, true},
                               expectation{1024, 1024, 4096, 128, 64, true, true},
                               expectation{512, 1024, 8192, 64, 64, true, true},
                               expectation{256, 8192, 8192, 128, 128, true, true},
                               expectation{2048, 1024, 1024, 128, 128, true, true},
                               expectation{2048, 1024, 4096, 128, 128, true, true},
                               expectation{1024, 2048, 4096, 128, 128, true, true},
                               expectation{1536, 1536, 1536, 144, 128, true, false},
                               expectation{1536, 1536, 1536, 160, 128, false, true},
                               expectation{1280, 1280, 1280, 112, 128, true, false},
                               expectation{1280, 1280, 1280, 128, 128, false, true},
                               expectation{2560, 2560, 2560, 144, 128, true, false},
                               expectation{1792, 2560, 4096, 144, 128, true, false},
                               expectation{2560, 2560, 4096, 160, 128, true, false, true},
                               expectation{2304, 3072, 4096, 256, 128, true, false},
                               expectation{2560, 2560, 1024, 144, 128, true, false},
                               expectation{512, 2560, 4096, 80, 128, true, false},
                               expectation{1024, 1536, 4096, 96, 128, true, false},
                               expectation{2304, 2304, 4096, 176, 128, true, false}})
        for(const bool b_row : {false, true})
        {
            if(!(b_row ? e.b_row : e.b_col))
                continue;
            auto p = problem(e.m, e.n, e.k);
            if(!b_row)
                p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = e.k;
            std::uint64_t id = 0;
            cktile_instance_info_t info{};
            ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
            const std::string name = info.name, where = std::to_string(e.m) + "x" +
                                                        std::to_string(e.n) + "x" +
                                                        std::to_string(e.k) + ": " + name;
            EXPECT_EQ(name.rfind(b_row ? "gemm_wgmma_f16f16_f16_accf32_rr_"
                                       : "gemm_wgmma_f16f16_f16_accf32_rc_",
                                 0),
                      0u)
                << where;
            EXPECT_EQ(info.tile_n, e.tile_n) << where;
            EXPECT_EQ(info.tile_m, e.tile_m) << where;
            size_t ws = 1;
            EXPECT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &ws), CKTILE_STATUS_SUCCESS);
            if(e.last_wave_split)
                EXPECT_GT(ws, 0u) << name << " runs its last wave unsplit";
            else
                EXPECT_EQ(ws, 0u) << name << " splits K";
        }
}

// Leading dimensions whose rows start off the 128-byte lines make the copy engine fetch two
// lines per tile row: on the H100, fp16 3000^3 with lda = ldb = 3000 ran best on 192x192 tiles
// in clusters of two that share B through multicast (0.087 ms, against 0.099 on 128x192 in
// clusters, 0.138 on the plain 128x256), while with whole-line rows the plain tiles come close
// and large problems keep the 128x256 tile (6000^3, rows 32 bytes off the lines: 0.587 ms
// against 0.631 for 128x192 in clusters). With whole-line rows (lda = ldb = 3008) 3000^3 ran
// 0.0774 ms on 192x192 in clusters without the fused epilogue, 0.0795 with it, 0.0818 on
// 128x192 in clusters and 0.090 on the plain 128x256. Long launches (6000^3, 8192^3) take the
// 128x256 tile in pairs whatever the rows: the pairs ran at a higher clock under the power cap
// (fp16 8192^3: 1.488 ms against 1.53 on the single blocks). These problems have beta = 0 and
// no fused operation, so the tiles' alpha-only variants run them (fewer SM cycles than the
// plain ones: 2.0% at 4096^3, 3.5% at 3000^3 on the 192x192 pair).
TEST(Select, HopperClustersWhenOperandRowsCrossCacheLines)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    struct expectation
    {
        std::int64_t m, n, k, ld;
        const char* tile; // part of the instance's name
        bool b_row;
    };
    // The last three, B row-major: the 192x192 pair reads B in 32-column groups (3000^3: 0.094
    // ms against 0.100 on the 128x256 pair and 0.097 on the 128x192 pair; 3008^3: 0.076
    // against 0.091 and 0.079); with whole-line rows the cluster does not pay (4096^3: 1%
    // slower).
    for(const expectation e :
        {expectation{3000, 3000, 3000, 3000, "_192x192x64_s4_c2_alpha", false},
         expectation{6000, 6000, 6000, 6000, "_128x256x64_s4_c2_alpha", false},
         expectation{3000, 3000, 3000, 3008, "_192x192x64_s4_c2_alpha", false},
         expectation{4096, 4096, 4096, 4096, "_128x256x64_s4_alpha", false},
         expectation{8192, 8192, 8192, 8192, "_128x256x64_s4_c2_alpha", false},
         expectation{8192, 8192, 8192, 8192, "_128x256x64_s4_c2_alpha", true},
         expectation{3000, 3000, 3000, 3000, "_192x192x64_s4_c2_alpha", true},
         expectation{3000, 3000, 3000, 3008, "_192x192x64_s4_c2_alpha", true},
         expectation{4096, 4096, 4096, 4096, "_128x256x64_s4_alpha", true}})
    {
        auto p = problem(e.m, e.n, e.k);
        p.lda = p.ldb = e.ld;
        if(!e.b_row)
            p.b_layout = CKTILE_LAYOUT_COL_MAJOR;
        std::uint64_t id = 0;
        cktile_instance_info_t info{};
        ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
        const std::string name = info.name;
        EXPECT_EQ(name.rfind(e.b_row ? "gemm_wgmma_f16f16_f16_accf32_rr_"
                                     : "gemm_wgmma_f16f16_f16_accf32_rc_",
                             0),
                  0u)
            << name;
        EXPECT_NE(name.find(e.tile), std::string::npos)
            << e.m << "^3, ld " << e.ld << (e.b_row ? ", B row-major: " : ": ") << name
            << " (expected " << e.tile << ")";
    }
}

// C in the registers or through the staged epilogue. The fused 192x192 pairs' 144 accumulators
// leave no registers for C, so with beta != 0 their tiles end in the staged epilogue, which the
// model charges (H100, fp16 3000^3 with beta = 1: 0.135 ms on them against 0.112 on the 128x192
// pairs, which read C in their registers). The bias-and-C 192x192 pair reads C from the copy
// engine's boxes beside them: 0.0828 ms against 0.0906 on the bias-and-C 128x192 pair and 0.0792
// for cuBLASLt (H200).
TEST(Select, HopperBetaTakesATileThatReadsCInRegisters)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    for(const std::int64_t ld : {3000, 3008})
    {
        auto p = problem(3000, 3000, 3000);
        p.lda = p.ldb    = ld;
        p.b_layout       = CKTILE_LAYOUT_COL_MAJOR;
        p.beta           = 1.0;
        std::uint64_t id = 0;
        cktile_instance_info_t info{};
        ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
        const std::string name = info.name;
        EXPECT_EQ(name.rfind("gemm_wgmma_f16f16_f16_accf32_rc_", 0), 0u) << name;
        EXPECT_TRUE(name.ends_with("_bias_c")) << "ld " << ld << ": " << name;
        if(ld == 3000)
        {
            EXPECT_NE(name.find("_192x192x64_s4_c2_"), std::string::npos) << name;
        }
    }
}

/// A square problem of `in` inputs (both) and `out` outputs, A row-major and B column-major (the
/// K-major layouts every wgmma input type takes).
cktile_gemm_problem_t k_major_problem(std::int64_t mnk, cktile_datatype_t in, cktile_datatype_t out)
{
    auto p     = problem(mnk, mnk, mnk);
    p.a_type   = in;
    p.b_type   = in;
    p.c_type   = out;
    p.d_type   = out;
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR;
    return p;
}

// fp8 (e4m3) with fp16 or bf16 output: the wgmma tile, in the ci set as well (bf16 output is
// the problem vendor_baseline.py times, torch._scaled_mm's), with only D = alpha * A * B
// compiled in, since the problem asks for nothing more.
TEST(Select, HopperFp8TakesTheWgmmaTileForEitherOutput)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    for(const auto out : {CKTILE_DATATYPE_FP16, CKTILE_DATATYPE_BF16})
    {
        const auto p     = k_major_problem(8192, CKTILE_DATATYPE_FP8_E4M3, out);
        std::uint64_t id = 0;
        cktile_instance_info_t info{};
        ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
        const std::string expected =
            out == CKTILE_DATATYPE_FP16 ? "gemm_wgmma_e4m3e4m3_f16_accf32_rc_128x256x128_s4_alpha"
                                        : "gemm_wgmma_e4m3e4m3_bf16_accf32_rc_128x256x128_s4_alpha";
        EXPECT_EQ(std::string(info.name), expected);
    }
}

// fp32 inputs with compute TF32 run on the warpgroup MMA, not on the mma.sync tile or the SIMT
// kernels: the alpha-only tile for D = A * B, the fused one with a bias. Exact fp32 (compute
// fp32) never takes a TF32 instance.
TEST(Select, HopperTf32TakesTheWgmmaTile)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    auto p           = k_major_problem(4096, CKTILE_DATATYPE_FP32, CKTILE_DATATYPE_FP32);
    p.compute_type   = CKTILE_DATATYPE_TF32;
    std::uint64_t id = 0;
    cktile_instance_info_t info{};
    ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
    EXPECT_EQ(std::string(info.name), "gemm_wgmma_f32f32_f32_acctf32_rc_128x256x32_s4_c2_alpha");
    p.bias        = CKTILE_BIAS_PER_COLUMN;
    p.stride_bias = p.n;
    ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
    EXPECT_EQ(std::string(info.name), "gemm_wgmma_f32f32_f32_acctf32_rc_128x128x32_s6_fused");
    // B row-major (PyTorch's a @ b): the same pair, which copies B transposed into its
    // workspace first, rather than the mma.sync tile that reads B as it is.
    p.bias     = CKTILE_BIAS_NONE;
    p.b_layout = CKTILE_LAYOUT_ROW_MAJOR;
    ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
    EXPECT_EQ(std::string(info.name), "gemm_wgmma_f32f32_f32_acctf32_rc_128x256x32_s4_c2_alpha");
    std::size_t workspace = 0;
    EXPECT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &workspace), CKTILE_STATUS_SUCCESS);
    EXPECT_GE(workspace, std::size_t(4096) * 4096 * 4) << "B's transposed copy";
    p.b_layout     = CKTILE_LAYOUT_COL_MAJOR;
    p.compute_type = CKTILE_DATATYPE_FP32;
    ASSERT_TRUE(heuristic_pick(o.h, p, id, info));
    EXPECT_EQ(info.compute_type, CKTILE_DATATYPE_FP32) << info.name;
    EXPECT_EQ(std::string(info.name).rfind("gemm_simt_", 0), 0u) << info.name;
}

// What instance `id`'s record says its epilogue accepts: a bias, an activation, multi-D inputs,
// beta != 0 (each 0 or 1).
std::array<int, 4> epilogue_support(cktile_handle_t h, std::uint64_t id)
{
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    if(cktile_get_instance_info_by_id(h, id, &info) != CKTILE_STATUS_SUCCESS)
        return {-1, -1, -1, -1};
    return {info.supports_bias, info.supports_activation, info.supports_multi_d,
            info.supports_beta};
}

// `inst` refuses `q` with `why` in its reason, its twin `twin` (the same tile with more of the
// epilogue) runs it, and the selection picks another instance.
void expect_refused_for_twin(cktile_handle_t h, std::uint64_t inst, std::uint64_t twin,
                             const cktile_gemm_problem_t& q, const char* why)
{
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(h, inst, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED)
        << why;
    EXPECT_NE(std::string(reason).find(why), std::string::npos) << reason;
    EXPECT_EQ(cktile_gemm_supports(h, twin, &q, nullptr, nullptr, 0), CKTILE_STATUS_SUCCESS)
        << last();
    std::uint64_t pick = 0;
    cktile_instance_info_t picked{};
    ASSERT_TRUE(heuristic_pick(h, q, pick, picked));
    EXPECT_NE(pick, inst) << why;
}

// The alpha-only instances (D = alpha * A * B, stored through the copy engine) refuse what they
// do not compile, each with its reason, and never split K: their twins without it take C, the
// fused operations, D rows off 16 bytes and the split-K problems, and the selection sends such
// problems there.
TEST(Select, AlphaOnlyInstancesRefuseWhatTheyDoNotCompile)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    const std::uint64_t alpha = find(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_alpha");
    const std::uint64_t plain = find(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_none");
    ASSERT_NE(alpha, 0u);
    ASSERT_NE(plain, 0u);
    EXPECT_EQ(epilogue_support(o.h, alpha), (std::array<int, 4>{0, 0, 0, 0}));
    EXPECT_EQ(epilogue_support(o.h, plain)[3], 1);
    auto p     = problem(1000, 1000, 512);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = p.k;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, alpha, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
    const auto refused = [&](const cktile_gemm_problem_t& q, const char* why) {
        expect_refused_for_twin(o.h, alpha, plain, q, why);
    };
    auto q = p;
    q.beta = 1.0;
    refused(q, "beta must be 0");
    // Two batches of D packed to their last element (rows of 1008, the second batch starting
    // 8 elements before the first one's last row would end): D's map holds whole batches.
    q = p, q.batch_count = 2, q.ldc = q.ldd = 1008;
    q.stride_a = q.m * q.k, q.stride_b = q.k * q.n, q.stride_c = q.m * q.ldc;
    q.stride_d = (q.m - 1) * q.ldd + q.n;
    refused(q, "at least M times its leading dimension");
    q = p, q.n = 1001, q.ldc = q.ldd = 1001; // rows of 2002 bytes
    refused(q, "16-byte multiples");
    q = p, q.ldd = 1004; // 2008 bytes
    refused(q, "16-byte multiples");
    q      = p;
    q.bias = CKTILE_BIAS_PER_ROW;
    EXPECT_EQ(cktile_gemm_supports(o.h, alpha, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("no bias"), std::string::npos) << reason;
    q            = p;
    q.activation = CKTILE_ACTIVATION_RELU;
    EXPECT_EQ(cktile_gemm_supports(o.h, alpha, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    // An unaligned D pointer is refused at run time, with the same reason.
    alignas(16) static unsigned char buffer[64];
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = args.b = buffer, args.d = buffer + 2;
    EXPECT_EQ(cktile_gemm_supports(o.h, alpha, &p, &args, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("16-byte multiples"), std::string::npos) << reason;
    // Small output, long K: the plain twin splits K through the workspace; this one does not.
    q          = problem(64, 256, 16384);
    q.b_layout = CKTILE_LAYOUT_COL_MAJOR, q.ldb = q.k;
    std::size_t ws_alpha = 1, ws_plain = 0;
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, alpha, &q, &ws_alpha), CKTILE_STATUS_SUCCESS);
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, plain, &q, &ws_plain), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(ws_alpha, 0u);
    EXPECT_GT(ws_plain, 0u);
    // A last wave at most half full (133 batches of one 128x256 tile: one tile in the last
    // wave of 132 SMs, 19 of 114): both split it over K, their partial sums in the
    // workspace, and run unsplit without it (a run with no workspace is still supported).
    q          = problem(128, 256, 10240);
    q.b_layout = CKTILE_LAYOUT_COL_MAJOR, q.ldb = q.k;
    q.batch_count = 133, q.stride_a = q.m * q.k, q.stride_b = q.k * q.n;
    q.stride_c = q.stride_d = q.m * q.n;
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, alpha, &q, &ws_alpha), CKTILE_STATUS_SUCCESS);
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, plain, &q, &ws_plain), CKTILE_STATUS_SUCCESS);
    EXPECT_GT(ws_alpha, 0u);
    EXPECT_EQ(ws_alpha, ws_plain); // the same split of the same tiles
    EXPECT_EQ(cktile_gemm_supports(o.h, alpha, &q, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
}

// The bias-only instances (D = alpha * A * B + bias, stored through the copy engine): a linear
// layer with a bias takes them, and they refuse the rest of the fused epilogue (an activation,
// C, multi-D inputs), each with its reason, which the fused instances take. Their code is about
// the alpha-only kernels' size (4,300 SASS instructions at 128x256 against the fused kernel's
// 217,000), and the fused kernels ran a bias at 0.84-0.91 of cuBLASLt's speed on an H200.
TEST(Select, BiasOnlyInstancesRunABiasAndRefuseTheRest)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    const std::uint64_t bias  = find(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_bias");
    const std::uint64_t fused = find(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_fused");
    ASSERT_NE(bias, 0u);
    ASSERT_NE(fused, 0u);
    EXPECT_EQ(epilogue_support(o.h, bias), (std::array<int, 4>{1, 0, 0, 0}));
    EXPECT_EQ(epilogue_support(o.h, fused), (std::array<int, 4>{1, 1, 1, 1}));
    // The linear layers' problems, a bias per column or per row: the bias-only tile.
    for(const bool b_row : {false, true})
    {
        for(const auto kind : {CKTILE_BIAS_PER_COLUMN, CKTILE_BIAS_PER_ROW})
        {
            auto p = problem(4096, 4096, 4096);
            if(!b_row)
                p.b_layout = CKTILE_LAYOUT_COL_MAJOR;
            p.bias           = kind;
            std::uint64_t id = 0;
            cktile_instance_info_t picked{};
            ASSERT_TRUE(heuristic_pick(o.h, p, id, picked));
            const std::string name = picked.name;
            EXPECT_EQ(name, b_row ? "gemm_wgmma_f16f16_f16_accf32_rr_128x256x64_s4_bias"
                                  : "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_bias")
                << name;
        }
    }
    // Mid-sized and skinny ones: the 64x128 ping-pong tile's bias-only variant.
    for(const auto& [m, n, k] : {std::array<std::int64_t, 3>{1024, 1024, 1024},
                                 std::array<std::int64_t, 3>{128, 8192, 8192}})
    {
        auto p           = problem(m, n, k);
        p.b_layout       = CKTILE_LAYOUT_COL_MAJOR;
        p.bias           = CKTILE_BIAS_PER_COLUMN;
        std::uint64_t id = 0;
        cktile_instance_info_t picked{};
        ASSERT_TRUE(heuristic_pick(o.h, p, id, picked));
        EXPECT_EQ(std::string(picked.name), "gemm_wgmma_f16f16_f16_accf32_rc_64x128x64_s8_pp_bias")
            << m << " x " << n << " x " << k;
    }
    // A plain product keeps the alpha-only tile.
    {
        auto p           = problem(4096, 4096, 4096);
        p.b_layout       = CKTILE_LAYOUT_COL_MAJOR;
        std::uint64_t id = 0;
        cktile_instance_info_t picked{};
        ASSERT_TRUE(heuristic_pick(o.h, p, id, picked));
        EXPECT_NE(std::string(picked.name).find("_alpha"), std::string::npos) << picked.name;
    }
    auto p     = problem(1000, 1000, 512);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = p.k;
    p.bias           = CKTILE_BIAS_PER_COLUMN;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, bias, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
    const auto refused = [&](const cktile_gemm_problem_t& q, const char* why) {
        expect_refused_for_twin(o.h, bias, fused, q, why);
    };
    auto q = p;
    q.beta = 1.0;
    refused(q, "beta must be 0");
    q            = p;
    q.activation = CKTILE_ACTIVATION_GELU_TANH;
    refused(q, "no activation");
    q = p, q.n = 1001, q.ldc = q.ldd = 1001; // rows of 2002 bytes
    refused(q, "16-byte multiples");
}

// The bias-and-one-activation instances (D = gelu_tanh(alpha * A * B + bias), names ending
// _bias_gelu_tanh): an MLP layer's problems take them, with or without a bias; they describe
// their one activation in `activations` and refuse every other one (none included), C and
// multi-D, each with its reason, which the fused and bias-only twins take.
TEST(Select, BiasActivationInstancesRunTheirActivationOnly)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    const std::string tile    = "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_";
    const std::uint64_t gelu  = find(o.h, (tile + "bias_gelu_tanh").c_str());
    const std::uint64_t bias  = find(o.h, (tile + "bias").c_str());
    const std::uint64_t fused = find(o.h, (tile + "fused").c_str());
    const std::uint64_t alpha = find(o.h, (tile + "alpha").c_str());
    ASSERT_NE(gelu, 0u);
    ASSERT_NE(bias, 0u);
    ASSERT_NE(fused, 0u);
    ASSERT_NE(alpha, 0u);
    EXPECT_EQ(epilogue_support(o.h, gelu), (std::array<int, 4>{1, 0, 0, 0}));
    const auto activations = [&](std::uint64_t id) {
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        EXPECT_EQ(cktile_get_instance_info_by_id(o.h, id, &info), CKTILE_STATUS_SUCCESS);
        return info.activations;
    };
    EXPECT_EQ(activations(gelu), 1u << CKTILE_ACTIVATION_GELU_TANH);
    EXPECT_EQ(activations(bias), 1u << CKTILE_ACTIVATION_NONE);
    EXPECT_EQ(activations(alpha), 1u << CKTILE_ACTIVATION_NONE);
    EXPECT_EQ(activations(fused), (1u << (CKTILE_ACTIVATION_SILU + 1)) - 1);
    // The pick for gelu_tanh on an M x N x K problem with a bias of `kind`.
    const auto pick_for = [&](std::int64_t m, std::int64_t n, std::int64_t k, bool b_row,
                              cktile_bias_t kind) {
        return picked_name(o.h, m, n, k, b_row, [&](cktile_gemm_problem_t& p) {
            p.bias = kind, p.activation = CKTILE_ACTIVATION_GELU_TANH;
        });
    };
    // A bias per column, per row or none, both B layouts: the tile of that name.
    for(const bool b_row : {false, true})
        for(const auto kind : {CKTILE_BIAS_PER_COLUMN, CKTILE_BIAS_PER_ROW, CKTILE_BIAS_NONE})
            EXPECT_EQ(pick_for(4096, 4096, 4096, b_row, kind),
                      b_row ? "gemm_wgmma_f16f16_f16_accf32_rr_128x256x64_s4_bias_gelu_tanh"
                            : tile + "bias_gelu_tanh")
                << kind;
    EXPECT_EQ(pick_for(1024, 1024, 1024, false, CKTILE_BIAS_PER_COLUMN),
              "gemm_wgmma_f16f16_f16_accf32_rc_64x128x64_s8_pp_bias_gelu_tanh");
    auto p     = problem(1000, 1000, 512);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = p.k;
    p.bias           = CKTILE_BIAS_PER_COLUMN;
    p.activation     = CKTILE_ACTIVATION_GELU_TANH;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, gelu, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
    auto q       = p;
    q.activation = CKTILE_ACTIVATION_RELU;
    expect_refused_for_twin(o.h, gelu, fused, q, "must be that one");
    q.activation = CKTILE_ACTIVATION_NONE; // the bias-only twin's problem
    expect_refused_for_twin(o.h, gelu, bias, q, "must be that one");
    q      = p;
    q.beta = 1.0;
    expect_refused_for_twin(o.h, gelu, fused, q, "beta must be 0");
    q = p, q.n = 1001, q.ldc = q.ldd = 1001; // rows of 2002 bytes
    expect_refused_for_twin(o.h, gelu, fused, q, "16-byte multiples");
}

// The tiles with box slots read C only from the copy engine's boxes: a C whose leading
// dimension is off 16 bytes ends the fused ones' tiles in the staged epilogue, which the model
// charges, and the compact bias, activation and C instances refuse it. So a problem with an
// activation, a bias and such a C takes a fused tile whose threads load C (128x128, or the
// 128x192 pair without box slots), and the same problem with an aligned C the 128x256 tile
// compiled with that activation and C only.
TEST(Select, FusedTilesThatReadCFromBoxesLeaveAnUnalignedC)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    for(const std::int64_t m : {2048, 4096})
        for(const std::int64_t pad : {0, 1, 8})
        {
            const std::string name =
                picked_name(o.h, m, m, m, false, [&](cktile_gemm_problem_t& p) {
                    p.beta       = 1.0;
                    p.bias       = CKTILE_BIAS_PER_COLUMN;
                    p.activation = CKTILE_ACTIVATION_GELU_TANH;
                    p.ldc        = p.n + pad;
                });
            EXPECT_TRUE(name.ends_with(pad != 1 ? "_bias_gelu_tanh_c" : "_fused")) << name;
            const bool boxes_tile = name.find("_128x256x64_") != std::string::npos;
            EXPECT_EQ(boxes_tile, pad != 1) << m << "^3, ldc N + " << pad << ": " << name;
        }
}

// The bias-and-C instances (D = alpha * A * B + beta * C + bias, names ending _bias_c): a
// residual or accumulating product takes them, with any bias or none, where C is row-major;
// they describe beta and no activation, and refuse an activation, multi-D inputs and a
// column-major C, each with its reason, which the fused twins take. A problem without C keeps
// the bias-only and alpha-only tiles.
TEST(Select, BiasCInstancesReadCAndRefuseTheRest)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    const std::string tile    = "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_";
    const std::uint64_t withc = find(o.h, (tile + "bias_c").c_str());
    const std::uint64_t fused = find(o.h, (tile + "fused").c_str());
    ASSERT_NE(withc, 0u);
    ASSERT_NE(fused, 0u);
    EXPECT_EQ(epilogue_support(o.h, withc), (std::array<int, 4>{1, 0, 0, 1}));
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, withc, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.activations, 1u << CKTILE_ACTIVATION_NONE);
    EXPECT_EQ(info.supports_beta, 1);
    // The pick for an M x N x K problem with beta and a bias of `kind`.
    const auto pick_for = [&](std::int64_t m, std::int64_t n, std::int64_t k, bool b_row,
                              double beta, cktile_bias_t kind) {
        return picked_name(o.h, m, n, k, b_row,
                           [&](cktile_gemm_problem_t& p) { p.beta = beta, p.bias = kind; });
    };
    for(const bool b_row : {false, true})
        for(const auto kind : {CKTILE_BIAS_NONE, CKTILE_BIAS_PER_COLUMN, CKTILE_BIAS_PER_ROW})
            EXPECT_EQ(pick_for(4096, 4096, 4096, b_row, 1.0, kind),
                      b_row ? "gemm_wgmma_f16f16_f16_accf32_rr_128x256x64_s4_bias_c"
                            : tile + "bias_c")
                << kind;
    EXPECT_EQ(pick_for(1024, 1024, 1024, false, 1.0, CKTILE_BIAS_NONE),
              "gemm_wgmma_f16f16_f16_accf32_rc_64x128x64_s8_pp_bias_c");
    // Without C: the bias-only and alpha-only tiles, not this one.
    EXPECT_EQ(pick_for(4096, 4096, 4096, false, 0.0, CKTILE_BIAS_PER_COLUMN), tile + "bias");
    EXPECT_EQ(pick_for(4096, 4096, 4096, false, 0.0, CKTILE_BIAS_NONE), tile + "alpha");
    auto p     = problem(1000, 1000, 512);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = p.k;
    p.beta           = 0.5;
    p.bias           = CKTILE_BIAS_PER_ROW;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, withc, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
    auto q       = p;
    q.activation = CKTILE_ACTIVATION_RELU;
    expect_refused_for_twin(o.h, withc, fused, q, "no activation");
    q          = p;
    q.c_layout = CKTILE_LAYOUT_COL_MAJOR;
    expect_refused_for_twin(o.h, withc, fused, q, "C must be row-major");
    q            = p;
    q.multi_d_op = CKTILE_MULTI_D_ADD;
    q.d0_type    = CKTILE_DATATYPE_FP16;
    q.ldd0       = q.n;
    expect_refused_for_twin(o.h, withc, fused, q, "no multi-D");
    q = p, q.n = 1001, q.ldc = q.ldd = 1001; // rows of 2002 bytes
    expect_refused_for_twin(o.h, withc, fused, q, "16-byte multiples");
    // C only through the copy engine's boxes: a leading dimension of C off 16 bytes goes to
    // the fused twin, whose staged epilogue loads such a C.
    q = p, q.ldc = 1001;
    expect_refused_for_twin(o.h, withc, fused, q, "loads C through the copy engine");
    q = p, q.batch_count = 2, q.stride_c = std::int64_t(q.ldc) * q.m - 8;
    q.stride_d = std::int64_t(q.ldd) * q.m, q.stride_a = q.lda * q.m, q.stride_b = q.ldb * q.n;
    expect_refused_for_twin(o.h, withc, fused, q, "loads C through the copy engine");
    // Nor is beta = 0 compiled: the bias-only twin runs it.
    const std::uint64_t bias = find(o.h, (tile + "bias").c_str());
    ASSERT_NE(bias, 0u);
    q = p, q.beta = 0.0;
    expect_refused_for_twin(o.h, withc, bias, q, "beta != 0 only");
    // The bias-only twin's refusal of C names this one.
    EXPECT_EQ(cktile_gemm_supports(o.h, bias, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("_bias_c"), std::string::npos) << reason;
}

// The bias, activation and C instances (names ending _bias_<activation>_c): D = act(alpha * A * B
// + beta * C + bias) with their one activation. They describe that activation and beta, take
// such a problem where C is row-major (the fused tiles otherwise), and refuse another
// activation and beta = 0, each with its reason, which a twin takes.
TEST(Select, BiasActivationCInstancesTakeTheirActivationWithC)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    const std::string tile    = "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_";
    const std::uint64_t inst  = find(o.h, (tile + "bias_gelu_tanh_c").c_str());
    const std::uint64_t act   = find(o.h, (tile + "bias_gelu_tanh").c_str());
    const std::uint64_t fused = find(o.h, (tile + "fused").c_str());
    ASSERT_NE(inst, 0u);
    ASSERT_NE(act, 0u);
    ASSERT_NE(fused, 0u);
    EXPECT_EQ(epilogue_support(o.h, inst), (std::array<int, 4>{1, 0, 0, 1}));
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, inst, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.activations, 1u << CKTILE_ACTIVATION_GELU_TANH);
    EXPECT_EQ(info.supports_beta, 1);
    EXPECT_EQ(picked_name(o.h, 4096, 4096, 4096, false,
                          [](cktile_gemm_problem_t& p) {
                              p.beta       = 1.0;
                              p.bias       = CKTILE_BIAS_PER_COLUMN;
                              p.activation = CKTILE_ACTIVATION_GELU_TANH;
                          }),
              tile + "bias_gelu_tanh_c");
    auto p     = problem(1000, 1000, 512);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = p.k;
    p.beta           = 0.5;
    p.bias           = CKTILE_BIAS_PER_ROW;
    p.activation     = CKTILE_ACTIVATION_GELU_TANH;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, inst, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
    auto q       = p;
    q.activation = CKTILE_ACTIVATION_SILU;
    expect_refused_for_twin(o.h, inst, fused, q, "before _c");
    q = p, q.beta = 0.0;
    expect_refused_for_twin(o.h, inst, act, q, "beta != 0 only");
    q = p, q.c_layout = CKTILE_LAYOUT_COL_MAJOR;
    expect_refused_for_twin(o.h, inst, fused, q, "C must be row-major");
    // The activation-only twin's refusal of C points to this one.
    EXPECT_EQ(cktile_gemm_supports(o.h, act, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("_c twin"), std::string::npos) << reason;
}

// Leading dimensions off 16 bytes: the Hopper instances accept them by staging the operand into
// workspace (whose size they report), and then that operand's pointer may have any alignment;
// an aligned leading dimension with a misaligned pointer is still refused with the reason.
TEST(Select, HopperInstancesStageUnalignedOperands)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_find_instance(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_fused", &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    auto p     = problem(4096, 4096, 4095);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 4095;
    alignas(16) static unsigned char buffer[64];
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = buffer + 2, args.b = buffer + 2, args.c = buffer, args.d = buffer;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, id, &p, &args, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
    std::size_t ws = 0;
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &ws), CKTILE_STATUS_SUCCESS);
    // Both operands, rows padded to 4096 elements (whole 128-byte lines), plus alignment room.
    EXPECT_GE(ws, 2u * 4096u * 4096u * 2u);
    EXPECT_LE(ws, 2u * 4096u * 4096u * 2u + 1024u);

    // The heuristic counts the copies: at this size the staged Hopper tile still wins.
    std::uint64_t pick = 0;
    cktile_instance_info_t info{};
    ASSERT_TRUE(heuristic_pick(o.h, p, pick, info));
    EXPECT_EQ(std::string(info.name).rfind("gemm_wgmma_", 0), 0u) << info.name;

    p.k = p.lda = p.ldb = 4096;
    EXPECT_EQ(cktile_gemm_supports(o.h, id, &p, &args, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("pointer is not 16-byte aligned"), std::string::npos)
        << reason;
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &ws), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(ws, 0u);
}

// A B fed by the producer threads (names with _bt): a column-major B with a leading dimension
// off 16 bytes is read where it lies, so the workspace holds only A's padded copy, and the
// heuristic takes these tiles for skinny problems with an odd K, where copying the weight matrix
// first would cost more than the GEMM. A B pointer off 16 bytes is staged after all.
TEST(Select, ThreadFedBReadsUnalignedWeightsInPlace)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    std::uint64_t id = 0;
    if(cktile_find_instance(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_64x64x64_s10_pp_a16_bt_alpha",
                            &id) != CKTILE_STATUS_SUCCESS)
        GTEST_SKIP() << "no instance list holds tiles fed by the threads (b_feed threads): "
                        "they measured slower than the staging copy (docs/performance.md)";
    auto p     = problem(16, 8192, 8191);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 8191;
    std::size_t ws = 0;
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &ws), CKTILE_STATUS_SUCCESS);
    // A's 16 rows padded to 8192 elements, plus alignment room; no copy of B.
    EXPECT_GE(ws, 16u * 8192u * 2u);
    EXPECT_LE(ws, 16u * 8192u * 2u + 1024u);
    alignas(16) static unsigned char buffer[64];
    cktile_gemm_args_t args;
    cktile_gemm_args_init(&args);
    args.a = buffer, args.b = buffer + 2, args.c = buffer, args.d = buffer;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, id, &p, &args, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;

    EXPECT_NE(picked_name(o.h, 16, 8192, 8191, false,
                          [](cktile_gemm_problem_t& q) { q.lda = q.ldb = q.k; })
                  .find("_bt_"),
              std::string::npos);
    // With B on 16 bytes the copy engine's tiles keep these problems.
    EXPECT_EQ(picked_name(o.h, 16, 8192, 8192, false,
                          [](cktile_gemm_problem_t& q) { q.lda = q.ldb = q.k; })
                  .find("_bt_"),
              std::string::npos);
}

// A last wave the tiles leave mostly empty is split over K through the workspace: 2304 x 4096
// on 128x256 tiles is 288 tiles, two waves of 132 SMs and 24 left, each split 5 ways (64 K
// tiles). The workspace reported holds their partial sums (fp32, per split) and counters; a
// problem in whole waves needs none. The instances count the SMs of the device present (132
// when there is none).
TEST(Select, HopperLastWaveSplitReportsItsWorkspace)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    cktile_handle_t device = nullptr;
    if(cktile_create(&device, 0) == CKTILE_STATUS_SUCCESS)
    {
        cktile_handle_info_t info{};
        info.struct_size = sizeof(info);
        const bool known = cktile_get_handle_info(device, &info) == CKTILE_STATUS_SUCCESS;
        cktile_destroy(device);
        if(!known || info.compute_unit_count != 132)
            GTEST_SKIP() << "the sizes below are for 132 SMs; this device has "
                         << info.compute_unit_count;
    }
    offline_handle o;
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_find_instance(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_fused", &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    auto p     = problem(2304, 4096, 4096);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 4096;
    std::size_t ws = 0;
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &ws), CKTILE_STATUS_SUCCESS);
    // Sums, then 24 x 2 counters (one per consumer) rounded to 256, then alignment room.
    EXPECT_EQ(ws, 24u * 5u * 128u * 256u * sizeof(float) + 256u + 256u);
    p.m = 4224; // 33 x 16 = 528 tiles: four whole waves
    ASSERT_EQ(cktile_gemm_workspace_size(o.h, id, &p, &ws), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(ws, 0u);
}

// The instances with a short A tile (name ending in _a16) run M <= 16 only and say so.
TEST(Select, ShortATileInstancesTakeSkinnyProblemsOnly)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    std::uint64_t id = 0;
    ASSERT_EQ(
        cktile_find_instance(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_64x64x64_s19_pp_a16_fused", &id),
        CKTILE_STATUS_SUCCESS)
        << last();
    cktile_instance_info_t info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_instance_info_by_id(o.h, id, &info), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(info.tile_m, 16); // the rows of D a tile produces
    EXPECT_EQ(info.tile_n, 64);
    char reason[256] = {};
    for(std::int64_t m : {1, 7, 16})
    {
        auto p     = problem(m, 8192, 8192);
        p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 8192;
        EXPECT_EQ(cktile_gemm_supports(o.h, id, &p, nullptr, reason, sizeof(reason)),
                  CKTILE_STATUS_SUCCESS)
            << m << ": " << reason;
    }
    auto p     = problem(17, 8192, 8192);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 8192;
    EXPECT_EQ(cktile_gemm_supports(o.h, id, &p, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(reason).find("M must be at most 16"), std::string::npos) << reason;
}

// Hopper instances run a problem as its transpose (D^T = B^T A^T) where only the transpose
// fits them, or where D is column-major: the selection costs that statement. On the H100,
// fp16 4096^3 with every matrix column-major ran 0.17 ms on the row-major/row-major 128x256
// tile that way, against 0.46 on the column-major/column-major tile storing D column-major.
TEST(Select, HopperInstancesRunTransposedStatements)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    if(offline_target != "sm_90a")
        GTEST_SKIP() << "the wgmma instances are sm_90a's";
    offline_handle o;
    const std::uint64_t id = find(o.h, "gemm_wgmma_f16f16_f16_accf32_rc_64x64x64_s19_pp_a16_fused");
    ASSERT_NE(id, 0u);
    // Few columns: the 16-row A tile takes them as 16 x M.
    auto few_cols     = problem(8192, 16, 4096);
    few_cols.b_layout = CKTILE_LAYOUT_COL_MAJOR, few_cols.ldb = 4096;
    char reason[256] = {};
    EXPECT_EQ(cktile_gemm_supports(o.h, id, &few_cols, nullptr, reason, sizeof(reason)),
              CKTILE_STATUS_SUCCESS)
        << reason;
    int transposed = -1;
    ASSERT_EQ(cktile_gemm_runs_transposed(o.h, id, &few_cols, &transposed), CKTILE_STATUS_SUCCESS)
        << last();
    EXPECT_EQ(transposed, 1);
    auto few_rows     = problem(16, 8192, 4096);
    few_rows.b_layout = CKTILE_LAYOUT_COL_MAJOR, few_rows.ldb = 4096;
    ASSERT_EQ(cktile_gemm_runs_transposed(o.h, id, &few_rows, &transposed), CKTILE_STATUS_SUCCESS)
        << last();
    EXPECT_EQ(transposed, 0);
    auto neither     = problem(8192, 17, 4096);
    neither.b_layout = CKTILE_LAYOUT_COL_MAJOR, neither.ldb = 4096;
    EXPECT_EQ(cktile_gemm_runs_transposed(o.h, id, &neither, &transposed),
              CKTILE_STATUS_NOT_SUPPORTED);
    EXPECT_NE(std::string(last()).find("M must be at most 16"), std::string::npos) << last();
    EXPECT_EQ(cktile_gemm_runs_transposed(o.h, id, &few_cols, nullptr),
              CKTILE_STATUS_INVALID_ARGUMENT);
    // ... but its D^T is column-major, and 64x64 tiles as stated measured faster there.
    std::uint64_t pick = 0;
    cktile_instance_info_t info{};
    ASSERT_TRUE(heuristic_pick(o.h, few_cols, pick, info));
    EXPECT_EQ(std::string(info.name).find("_a16_"), std::string::npos) << info.name;

    const auto col    = CKTILE_LAYOUT_COL_MAJOR;
    auto all_cols     = problem(4096, 4096, 4096);
    all_cols.a_layout = all_cols.b_layout = all_cols.c_layout = all_cols.d_layout = col;
    ASSERT_TRUE(heuristic_pick(o.h, all_cols, pick, info));
    EXPECT_NE(std::string(info.name).find("_rr_128x256"), std::string::npos) << info.name;
    // With D row-major the column-major/column-major tile runs it as stated.
    auto d_rows     = all_cols;
    d_rows.c_layout = d_rows.d_layout = CKTILE_LAYOUT_ROW_MAJOR;
    ASSERT_TRUE(heuristic_pick(o.h, d_rows, pick, info));
    EXPECT_NE(std::string(info.name).find("_cc_128x256"), std::string::npos) << info.name;
}

/// What the model ranks for `p`: the instances that support it (cktile_gemm_supports).
std::vector<std::uint64_t> supporting_ids(cktile_handle_t h, const cktile_gemm_problem_t& p)
{
    std::size_t n = 0;
    EXPECT_EQ(cktile_get_instance_count(h, &n), CKTILE_STATUS_SUCCESS);
    std::vector<std::uint64_t> ids;
    for(std::size_t i = 0; i < n; ++i)
    {
        cktile_instance_info_t info{};
        info.struct_size = sizeof(info);
        EXPECT_EQ(cktile_get_instance_info(h, i, &info), CKTILE_STATUS_SUCCESS);
        if(cktile_gemm_supports(h, info.id, &p, nullptr, nullptr, 0) == CKTILE_STATUS_SUCCESS)
            ids.push_back(info.id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

// The heuristic's ranking holds every supporting instance once, fastest modelled first, and
// starts with the heuristic's pick; each entry's workspace and waves are the instance's own.
TEST(Select, RankedCandidatesStartWithTheHeuristicsPick)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    cktile_handle_info_t handle{};
    handle.struct_size = sizeof(handle);
    ASSERT_EQ(cktile_get_handle_info(o.h, &handle), CKTILE_STATUS_SUCCESS);
    constexpr unsigned char poison = 0xa5;
    for(const auto& [m, n, k] : {std::array<std::int64_t, 3>{4096, 4096, 4096},
                                 {16, 8192, 8192},
                                 {1000, 1000, 520},
                                 {2304, 4096, 4096},
                                 {33, 17, 9}})
    {
        auto p     = problem(m, n, k);
        p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = p.k;
        const std::string where =
            std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
        std::size_t count = 0;
        ASSERT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX, nullptr, 0, &count),
                  CKTILE_STATUS_SUCCESS)
            << where << ": " << last();
        const std::vector<std::uint64_t> supporting = supporting_ids(o.h, p);
        EXPECT_EQ(count, supporting.size()) << where;

        // Two spare elements, poisoned: nothing is written past the count.
        std::vector<cktile_gemm_candidate_t> c(count + 2);
        std::memset(c.data(), poison, c.size() * sizeof(c[0]));
        c[0].struct_size  = sizeof(cktile_gemm_candidate_t);
        std::size_t again = 0;
        ASSERT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX, c.data(), c.size(), &again),
                  CKTILE_STATUS_SUCCESS)
            << last();
        EXPECT_EQ(again, count);
        std::uint64_t pick = 0;
        cktile_instance_info_t picked{};
        ASSERT_TRUE(heuristic_pick(o.h, p, pick, picked));
        EXPECT_EQ(c[0].id, pick) << where;
        EXPECT_EQ(c[0].relative_time, 1.0);
        std::vector<std::uint64_t> ranked_ids;
        for(std::size_t i = 0; i < count; ++i)
        {
            EXPECT_EQ(c[i].struct_size, sizeof(cktile_gemm_candidate_t));
            if(i > 0)
            {
                EXPECT_GE(c[i].relative_time, c[i - 1].relative_time) << where << " #" << i;
            }
            ranked_ids.push_back(c[i].id);
            // With no workspace limit every instance is costed with its full workspace.
            std::size_t ws = 1;
            ASSERT_EQ(cktile_gemm_workspace_size(o.h, c[i].id, &p, &ws), CKTILE_STATUS_SUCCESS);
            EXPECT_EQ(c[i].workspace_size, ws);
            cktile_instance_info_t info{};
            info.struct_size = sizeof(info);
            ASSERT_EQ(cktile_get_instance_info_by_id(o.h, c[i].id, &info), CKTILE_STATUS_SUCCESS);
            int transposed = 0;
            ASSERT_EQ(cktile_gemm_runs_transposed(o.h, c[i].id, &p, &transposed),
                      CKTILE_STATUS_SUCCESS);
            const std::int64_t rows = transposed ? n : m, cols = transposed ? m : n;
            const double tiles = double((rows + info.tile_m - 1) / info.tile_m) *
                                 double((cols + info.tile_n - 1) / info.tile_n);
            EXPECT_DOUBLE_EQ(c[i].waves, tiles / handle.compute_unit_count) << info.name;
        }
        std::sort(ranked_ids.begin(), ranked_ids.end());
        EXPECT_EQ(ranked_ids, supporting) << where;
        for(std::size_t i = count; i < c.size(); ++i)
        {
            const auto* bytes = reinterpret_cast<const unsigned char*>(&c[i]);
            EXPECT_TRUE(std::all_of(bytes, bytes + sizeof(c[i]),
                                    [](unsigned char b) { return b == poison; }))
                << "element " << i << " of " << count << " was written";
        }

        // A shorter array gets the head of the same ranking.
        std::vector<cktile_gemm_candidate_t> head(1);
        head[0].struct_size = sizeof(head[0]);
        ASSERT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX, head.data(), 1, &again),
                  CKTILE_STATUS_SUCCESS);
        EXPECT_EQ(again, count);
        EXPECT_EQ(head[0].id, c[0].id);

        // Without workspace: only runs that need none, in the same order as before.
        ASSERT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, 0, c.data(), c.size(), &again),
                  CKTILE_STATUS_SUCCESS)
            << last();
        EXPECT_LE(again, count);
        for(std::size_t i = 0; i < again; ++i)
        {
            EXPECT_EQ(c[i].workspace_size, 0u) << where;
        }
    }
}

// The elements are sized like every public struct: a caller built against a newer cktile.h
// gets this library's fields and zeros after them; a struct too short for them is refused.
TEST(Select, RankedCandidatesAreSizedByTheCaller)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    auto p     = problem(4096, 4096, 4096);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = p.k;
    std::size_t count = 0;
    std::vector<cktile_gemm_candidate_t> c(3);
    c[0].struct_size = sizeof(c[0]);
    ASSERT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX, c.data(), c.size(), &count),
              CKTILE_STATUS_SUCCESS)
        << last();
    ASSERT_GE(count, 2u);

    constexpr std::size_t newer = sizeof(cktile_gemm_candidate_t) + 16;
    std::vector<unsigned char> wide(newer * 2, 0xa5);
    const std::size_t size = newer;
    std::memcpy(wide.data(), &size, sizeof(size));
    ASSERT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX,
                                        reinterpret_cast<cktile_gemm_candidate_t*>(wide.data()), 2,
                                        &count),
              CKTILE_STATUS_SUCCESS)
        << last();
    for(std::size_t i = 0; i < 2; ++i)
    {
        cktile_gemm_candidate_t got{};
        std::memcpy(&got, wide.data() + i * newer, sizeof(got));
        EXPECT_EQ(got.struct_size, newer);
        EXPECT_EQ(got.id, c[i].id);
        EXPECT_EQ(got.relative_time, c[i].relative_time);
        for(std::size_t b = sizeof(got); b < newer; ++b)
            EXPECT_EQ(wide[i * newer + b], 0) << "element " << i << ", byte " << b;
    }

    c[0].struct_size = sizeof(c[0]) - 8;
    EXPECT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX, c.data(), 1, &count),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("candidates->struct_size"), std::string::npos) << last();
    EXPECT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX, nullptr, 1, &count),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("candidates is NULL"), std::string::npos) << last();
    c[0].struct_size = sizeof(c[0]);
    EXPECT_EQ(cktile_gemm_select_ranked(o.h, &p, nullptr, SIZE_MAX, c.data(), 1, nullptr),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_gemm_select_ranked(nullptr, &p, nullptr, SIZE_MAX, c.data(), 1, &count),
              CKTILE_STATUS_INVALID_HANDLE);
    EXPECT_EQ(cktile_gemm_select_ranked(o.h, nullptr, nullptr, SIZE_MAX, c.data(), 1, &count),
              CKTILE_STATUS_INVALID_ARGUMENT);
    // A problem no instance runs fails as the selection does, with its reasons.
    auto none   = p;
    none.a_type = CKTILE_DATATYPE_INT8, none.b_type = CKTILE_DATATYPE_INT8;
    none.d_type = CKTILE_DATATYPE_BF16, none.c_type = CKTILE_DATATYPE_BF16;
    std::uint64_t id        = 0;
    const cktile_status_t s = cktile_gemm_select(o.h, &none, nullptr, CKTILE_SELECT_HEURISTIC, &id);
    ASSERT_NE(s, CKTILE_STATUS_SUCCESS);
    const std::string why = last().substr(last().find(':'));
    EXPECT_EQ(cktile_gemm_select_ranked(o.h, &none, nullptr, SIZE_MAX, c.data(), 1, &count), s);
    EXPECT_EQ(last(), "cktile_gemm_select_ranked" + why);
}

TEST(Run, OfflineHandleCannotRun)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    auto p = problem(4, 4, 4);
    cktile_gemm_args_t a;
    cktile_gemm_args_init(&a);
    a.a = a.b = reinterpret_cast<const void*>(std::uintptr_t(0x1000));
    a.d       = reinterpret_cast<void*>(std::uintptr_t(0x2000));
    EXPECT_EQ(cktile_gemm_run(o.h, CKTILE_INSTANCE_AUTO, &p, &a, nullptr, 0, nullptr),
              CKTILE_STATUS_NO_DEVICE);
    EXPECT_NE(last().find("without a device"), std::string::npos) << last();
    EXPECT_EQ(cktile_gemm_run(o.h, CKTILE_INSTANCE_AUTO, &p, nullptr, nullptr, 0, nullptr),
              CKTILE_STATUS_INVALID_ARGUMENT);
    std::uint64_t id = 0;
    EXPECT_EQ(cktile_gemm_select_measured(o.h, &p, &a, nullptr, 0, nullptr, &id),
              CKTILE_STATUS_NO_DEVICE);
}

// ---- tuning database -----------------------------------------------------------------------

std::string temp_path(const char* name)
{
    return std::string(::testing::TempDir()) + "cktile_" + name + ".json";
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(TuningDb, EntriesSelectAndStaleOrCorruptOnesAreIgnored)
{
    SKIP_WITHOUT_KERNEL_LIBRARY();
    offline_handle o;
    cktile_handle_info_t info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(cktile_get_handle_info(o.h, &info), CKTILE_STATUS_SUCCESS);
    auto p     = problem(256, 256, 256);
    p.b_layout = CKTILE_LAYOUT_COL_MAJOR, p.ldb = 256;
    const std::string key =
        "gemm/fp16,fp16,fp16,fp32/rowcolrowrow/m=256,n=256,k=256,batch=1/bias=none,act=none,c=0";
    const std::string head =
        std::string("{\"format\": \"cktile-tuning-db\", \"format_version\": 1, "
                    "\"library_version\": \"") +
        cktile_get_version_string() + "\", \"target\": \"" + offline_target +
        "\", \"compute_units\": " + std::to_string(info.compute_unit_count);
    const std::string good = temp_path("good");
    write_file(good, head + ", \"entries\": [{\"problem\": \"" + key + "\", \"instance\": \"" +
                         general_f16 +
                         "\", \"time_ms\": 1.5}, {\"problem\": 3}, "
                         "{\"problem\": \"x\", \"instance\": \"no_such_instance\"}]}");
    size_t loaded = 99;
    ASSERT_EQ(cktile_tuning_db_load(o.h, good.c_str(), &loaded), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(loaded, 1u) << "the two corrupt entries are ignored";
    std::uint64_t id = 0;
    ASSERT_EQ(cktile_gemm_select(o.h, &p, nullptr, CKTILE_SELECT_TUNING_DB, &id),
              CKTILE_STATUS_SUCCESS)
        << last();
    EXPECT_EQ(id, find(o.h, general_f16));
    ASSERT_EQ(cktile_gemm_select(o.h, &p, nullptr, CKTILE_SELECT_DEFAULT, &id),
              CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(id, find(o.h, general_f16)) << "the database wins over the heuristic";
    ASSERT_EQ(cktile_gemm_select(o.h, &p, nullptr, CKTILE_SELECT_HEURISTIC, &id),
              CKTILE_STATUS_SUCCESS);
    {
        offline_handle fresh; // the heuristic alone, without the database
        std::uint64_t heuristic = 0;
        ASSERT_EQ(cktile_gemm_select(fresh.h, &p, nullptr, CKTILE_SELECT_HEURISTIC, &heuristic),
                  CKTILE_STATUS_SUCCESS);
        EXPECT_EQ(id, heuristic);
        EXPECT_NE(id, find(o.h, general_f16));
    }

    // Round trip.
    const std::string saved = temp_path("saved");
    ASSERT_EQ(cktile_tuning_db_save(o.h, saved.c_str()), CKTILE_STATUS_SUCCESS) << last();
    offline_handle o2;
    ASSERT_EQ(cktile_tuning_db_load(o2.h, saved.c_str(), &loaded), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(loaded, 1u);

    // Stale stamps: ignored as a whole, with success.
    const std::string stale = temp_path("stale");
    write_file(stale, "{\"format\": \"cktile-tuning-db\", \"format_version\": 1, "
                      "\"library_version\": \"0.0.1\", \"target\": \"" +
                          offline_target + "\", \"compute_units\": 1, \"entries\": []}");
    ASSERT_EQ(cktile_tuning_db_load(o2.h, stale.c_str(), &loaded), CKTILE_STATUS_SUCCESS);
    EXPECT_EQ(loaded, 0u);
    // Not a database at all.
    const std::string junk = temp_path("junk");
    write_file(junk, "{not json");
    EXPECT_EQ(cktile_tuning_db_load(o2.h, junk.c_str(), &loaded), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_tuning_db_load(o2.h, "/nonexistent/db.json", &loaded),
              CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_EQ(cktile_tuning_db_load(o2.h, nullptr, &loaded), CKTILE_STATUS_INVALID_ARGUMENT);
}

// ---- versioned table -----------------------------------------------------------------------

TEST(Api, VersionedTable)
{
    EXPECT_EQ(cktile_get_api(0), nullptr);
    EXPECT_EQ(cktile_get_api(CKTILE_API_VERSION_6 + 1), nullptr);
    EXPECT_EQ(CKTILE_API_VERSION, CKTILE_API_VERSION_6);
    const auto* t = static_cast<const cktile_api_v1_t*>(cktile_get_api(CKTILE_API_VERSION_1));
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->version, 1u);
    EXPECT_EQ(t->struct_size, sizeof(cktile_api_v1_t));
    EXPECT_EQ(t->gemm_run, &cktile_gemm_run);
    EXPECT_EQ(t->create, &cktile_create);
    EXPECT_EQ(t->get_version(), CKTILE_VERSION);

    // Each later version starts with the one before it, so a program built for an older
    // version reads a newer table through its own struct.
    const auto* t2 = static_cast<const cktile_api_v2_t*>(cktile_get_api(CKTILE_API_VERSION_2));
    ASSERT_NE(t2, nullptr);
    EXPECT_EQ(t2->v1.version, 2u);
    EXPECT_EQ(t2->v1.struct_size, sizeof(cktile_api_v2_t));
    EXPECT_EQ(t2->softmax_run, &cktile_softmax_run);
    const auto* t3 = static_cast<const cktile_api_v3_t*>(cktile_get_api(CKTILE_API_VERSION_3));
    ASSERT_NE(t3, nullptr);
    EXPECT_EQ(t3->v2.v1.version, 3u);
    EXPECT_EQ(t3->v2.v1.struct_size, sizeof(cktile_api_v3_t));
    EXPECT_EQ(t3->v2.v1.gemm_run, &cktile_gemm_run);
    EXPECT_EQ(t3->v2.softmax_run, &cktile_softmax_run);
    EXPECT_EQ(t3->elementwise_run, &cktile_elementwise_run);
    EXPECT_EQ(t3->permute_run, &cktile_permute_run);
    EXPECT_EQ(t3->v2.norm_run, &cktile_norm_run);
    EXPECT_EQ(t3->reduce_problem_init, &cktile_reduce_problem_init);
    EXPECT_EQ(t3->reduce_run, &cktile_reduce_run);
    const auto* t4 = static_cast<const cktile_api_v4_t*>(cktile_get_api(CKTILE_API_VERSION_4));
    ASSERT_NE(t4, nullptr);
    EXPECT_EQ(t4->v3.v2.v1.version, 4u);
    EXPECT_EQ(t4->v3.v2.v1.struct_size, sizeof(cktile_api_v4_t));
    EXPECT_EQ(t4->v3.v2.v1.gemm_run, &cktile_gemm_run);
    EXPECT_EQ(t4->v3.permute_run, &cktile_permute_run);
    EXPECT_EQ(t4->gemm_runs_transposed, &cktile_gemm_runs_transposed);

    const auto* t5 = static_cast<const cktile_api_v5_t*>(cktile_get_api(CKTILE_API_VERSION_5));
    ASSERT_NE(t5, nullptr);
    const cktile_api_v1_t& t5_v1 = t5->v4.v3.v2.v1;
    EXPECT_EQ(t5_v1.version, 5u);
    EXPECT_EQ(t5_v1.struct_size, sizeof(cktile_api_v5_t));
    EXPECT_EQ(t5->v4.gemm_runs_transposed, &cktile_gemm_runs_transposed);
    const auto* t6 = static_cast<const cktile_api_v6_t*>(cktile_get_api(CKTILE_API_VERSION_6));
    ASSERT_NE(t6, nullptr);
    EXPECT_EQ(t6->v5.v4.v3.v2.v1.version, 6u);
    EXPECT_EQ(t6->v5.v4.v3.v2.v1.struct_size, sizeof(cktile_api_v6_t));
    EXPECT_EQ(t6->v5.permute_args_init_sized, &cktile_permute_args_init_sized);
    EXPECT_EQ(t6->gemm_select_ranked, &cktile_gemm_select_ranked);
    // Every entry of the newest table is set.
    for(std::size_t at = offsetof(cktile_api_v1_t, status_string); at < sizeof(cktile_api_v6_t);
        at += sizeof(void*))
    {
        void* entry = nullptr;
        std::memcpy(&entry, reinterpret_cast<const char*>(t6) + at, sizeof(entry));
        EXPECT_NE(entry, nullptr) << "entry at byte " << at;
    }
    // The earlier *_init entries stay the exported functions (the first published layouts);
    // the sized ones are appended. (A function-like macro does not expand before '&'.)
    EXPECT_EQ(t5_v1.gemm_problem_init, &cktile_gemm_problem_init);
    EXPECT_EQ(t5_v1.gemm_args_init, &cktile_gemm_args_init);
    EXPECT_EQ(t5->v4.v3.v2.norm_problem_init, &cktile_norm_problem_init);
    EXPECT_EQ(t5->v4.v3.permute_args_init, &cktile_permute_args_init);
    EXPECT_EQ(t5->gemm_problem_init_sized, &cktile_gemm_problem_init_sized);
    EXPECT_EQ(t5->gemm_args_init_sized, &cktile_gemm_args_init_sized);
    EXPECT_EQ(t5->norm_problem_init_sized, &cktile_norm_problem_init_sized);
    EXPECT_EQ(t5->norm_args_init_sized, &cktile_norm_args_init_sized);
    EXPECT_EQ(t5->softmax_problem_init_sized, &cktile_softmax_problem_init_sized);
    EXPECT_EQ(t5->softmax_args_init_sized, &cktile_softmax_args_init_sized);
    EXPECT_EQ(t5->reduce_problem_init_sized, &cktile_reduce_problem_init_sized);
    EXPECT_EQ(t5->reduce_args_init_sized, &cktile_reduce_args_init_sized);
    EXPECT_EQ(t5->elementwise_problem_init_sized, &cktile_elementwise_problem_init_sized);
    EXPECT_EQ(t5->elementwise_args_init_sized, &cktile_elementwise_args_init_sized);
    EXPECT_EQ(t5->permute_problem_init_sized, &cktile_permute_problem_init_sized);
    EXPECT_EQ(t5->permute_args_init_sized, &cktile_permute_args_init_sized);
}

} // namespace
