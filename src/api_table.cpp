// SPDX-License-Identifier: MIT
// cktile_get_api: the versioned function table for programs that dlopen libcktile.so.
#include "cktile.h"

#include <cstddef>

namespace {

// Frozen layout of version 1: entries may only be appended. A failing assertion here means
// an existing entry moved, which would break every program built against an older header.
#define CKTILE_FROZEN(field, index)                                                                \
    static_assert(offsetof(cktile_api_v1_t, field) == sizeof(size_t) + sizeof(void*) * (index),    \
                  "cktile_api_v1_t." #field " moved")
static_assert(offsetof(cktile_api_v1_t, version) == sizeof(size_t), "version moved");
CKTILE_FROZEN(status_string, 1);
CKTILE_FROZEN(get_last_error_message, 2);
CKTILE_FROZEN(get_version, 3);
CKTILE_FROZEN(get_version_string, 4);
CKTILE_FROZEN(create, 5);
CKTILE_FROZEN(create_for_target, 6);
CKTILE_FROZEN(destroy, 7);
CKTILE_FROZEN(get_handle_info, 8);
CKTILE_FROZEN(gemm_problem_init, 9);
CKTILE_FROZEN(gemm_args_init, 10);
CKTILE_FROZEN(gemm_validate, 11);
CKTILE_FROZEN(get_instance_count, 12);
CKTILE_FROZEN(get_instance_info, 13);
CKTILE_FROZEN(get_instance_info_by_id, 14);
CKTILE_FROZEN(find_instance, 15);
CKTILE_FROZEN(gemm_supports, 16);
CKTILE_FROZEN(gemm_workspace_size, 17);
CKTILE_FROZEN(gemm_select, 18);
CKTILE_FROZEN(gemm_select_measured, 19);
CKTILE_FROZEN(tuning_db_load, 20);
CKTILE_FROZEN(tuning_db_save, 21);
CKTILE_FROZEN(gemm_run, 22);
static_assert(sizeof(cktile_api_v1_t) == sizeof(size_t) + sizeof(void*) * 23,
              "cktile_api_v1_t grew: add a cktile_api_v2_t instead");
#undef CKTILE_FROZEN

// Its *_init entries, and those of versions 2 and 3, are the exported functions, not the
// header's macros of the same names (a function-like macro expands only before a parenthesis).
const cktile_api_v1_t api_v1 = {
    sizeof(cktile_api_v1_t),
    CKTILE_API_VERSION_1,
    &cktile_status_string,
    &cktile_get_last_error_message,
    &cktile_get_version,
    &cktile_get_version_string,
    &cktile_create,
    &cktile_create_for_target,
    &cktile_destroy,
    &cktile_get_handle_info,
    &cktile_gemm_problem_init,
    &cktile_gemm_args_init,
    &cktile_gemm_validate,
    &cktile_get_instance_count,
    &cktile_get_instance_info,
    &cktile_get_instance_info_by_id,
    &cktile_find_instance,
    &cktile_gemm_supports,
    &cktile_gemm_workspace_size,
    &cktile_gemm_select,
    &cktile_gemm_select_measured,
    &cktile_tuning_db_load,
    &cktile_tuning_db_save,
    &cktile_gemm_run,
};

// Version 2 starts with version 1's table and appends; its own entries are frozen the same way.
static_assert(offsetof(cktile_api_v2_t, v1) == 0, "cktile_api_v2_t must start with version 1");
#define CKTILE_FROZEN_V2(field, index)                                                             \
    static_assert(offsetof(cktile_api_v2_t, field) ==                                              \
                      sizeof(cktile_api_v1_t) + sizeof(void*) * (index),                           \
                  "cktile_api_v2_t." #field " moved")
CKTILE_FROZEN_V2(norm_problem_init, 0);
CKTILE_FROZEN_V2(norm_args_init, 1);
CKTILE_FROZEN_V2(norm_validate, 2);
CKTILE_FROZEN_V2(norm_supports, 3);
CKTILE_FROZEN_V2(norm_select, 4);
CKTILE_FROZEN_V2(norm_run, 5);
CKTILE_FROZEN_V2(softmax_problem_init, 6);
CKTILE_FROZEN_V2(softmax_args_init, 7);
CKTILE_FROZEN_V2(softmax_validate, 8);
CKTILE_FROZEN_V2(softmax_supports, 9);
CKTILE_FROZEN_V2(softmax_select, 10);
CKTILE_FROZEN_V2(softmax_run, 11);
static_assert(sizeof(cktile_api_v2_t) == sizeof(cktile_api_v1_t) + sizeof(void*) * 12,
              "cktile_api_v2_t grew: add a cktile_api_v3_t instead");
#undef CKTILE_FROZEN_V2

cktile_api_v2_t make_api_v2()
{
    cktile_api_v2_t t{};
    t.v1                   = api_v1;
    t.v1.struct_size       = sizeof(cktile_api_v2_t);
    t.v1.version           = CKTILE_API_VERSION_2;
    t.norm_problem_init    = &cktile_norm_problem_init;
    t.norm_args_init       = &cktile_norm_args_init;
    t.norm_validate        = &cktile_norm_validate;
    t.norm_supports        = &cktile_norm_supports;
    t.norm_select          = &cktile_norm_select;
    t.norm_run             = &cktile_norm_run;
    t.softmax_problem_init = &cktile_softmax_problem_init;
    t.softmax_args_init    = &cktile_softmax_args_init;
    t.softmax_validate     = &cktile_softmax_validate;
    t.softmax_supports     = &cktile_softmax_supports;
    t.softmax_select       = &cktile_softmax_select;
    t.softmax_run          = &cktile_softmax_run;
    return t;
}
const cktile_api_v2_t api_v2 = make_api_v2();

// Version 3 starts with version 2's table (itself starting with version 1's) and appends the
// reductions, then elementwise and permute; frozen the same way.
static_assert(offsetof(cktile_api_v3_t, v2) == 0, "cktile_api_v3_t must start with version 2");
#define CKTILE_FROZEN_V3(field, index)                                                             \
    static_assert(offsetof(cktile_api_v3_t, field) ==                                              \
                      sizeof(cktile_api_v2_t) + sizeof(void*) * (index),                           \
                  "cktile_api_v3_t." #field " moved")
// --- reduce ---
CKTILE_FROZEN_V3(reduce_problem_init, 0);
CKTILE_FROZEN_V3(reduce_args_init, 1);
CKTILE_FROZEN_V3(reduce_validate, 2);
CKTILE_FROZEN_V3(reduce_supports, 3);
CKTILE_FROZEN_V3(reduce_select, 4);
CKTILE_FROZEN_V3(reduce_run, 5);
// --- elementwise and permute ---
CKTILE_FROZEN_V3(elementwise_problem_init, 6);
CKTILE_FROZEN_V3(elementwise_args_init, 7);
CKTILE_FROZEN_V3(elementwise_validate, 8);
CKTILE_FROZEN_V3(elementwise_supports, 9);
CKTILE_FROZEN_V3(elementwise_select, 10);
CKTILE_FROZEN_V3(elementwise_run, 11);
CKTILE_FROZEN_V3(permute_problem_init, 12);
CKTILE_FROZEN_V3(permute_args_init, 13);
CKTILE_FROZEN_V3(permute_validate, 14);
CKTILE_FROZEN_V3(permute_supports, 15);
CKTILE_FROZEN_V3(permute_select, 16);
CKTILE_FROZEN_V3(permute_run, 17);
static_assert(sizeof(cktile_api_v3_t) == sizeof(cktile_api_v2_t) + sizeof(void*) * 18,
              "cktile_api_v3_t grew: add a cktile_api_v4_t instead");
#undef CKTILE_FROZEN_V3

cktile_api_v3_t make_api_v3()
{
    cktile_api_v3_t t{};
    t.v2                = api_v2;
    t.v2.v1.struct_size = sizeof(cktile_api_v3_t);
    t.v2.v1.version     = CKTILE_API_VERSION_3;
    // --- reduce ---
    t.reduce_problem_init = &cktile_reduce_problem_init;
    t.reduce_args_init    = &cktile_reduce_args_init;
    t.reduce_validate     = &cktile_reduce_validate;
    t.reduce_supports     = &cktile_reduce_supports;
    t.reduce_select       = &cktile_reduce_select;
    t.reduce_run          = &cktile_reduce_run;
    // --- elementwise and permute ---
    t.elementwise_problem_init = &cktile_elementwise_problem_init;
    t.elementwise_args_init    = &cktile_elementwise_args_init;
    t.elementwise_validate     = &cktile_elementwise_validate;
    t.elementwise_supports     = &cktile_elementwise_supports;
    t.elementwise_select       = &cktile_elementwise_select;
    t.elementwise_run          = &cktile_elementwise_run;
    t.permute_problem_init     = &cktile_permute_problem_init;
    t.permute_args_init        = &cktile_permute_args_init;
    t.permute_validate         = &cktile_permute_validate;
    t.permute_supports         = &cktile_permute_supports;
    t.permute_select           = &cktile_permute_select;
    t.permute_run              = &cktile_permute_run;
    return t;
}
const cktile_api_v3_t api_v3 = make_api_v3();

// Version 4 starts with version 3's table and appends the GEMM statement query.
static_assert(offsetof(cktile_api_v4_t, v3) == 0, "cktile_api_v4_t must start with version 3");
static_assert(offsetof(cktile_api_v4_t, gemm_runs_transposed) == sizeof(cktile_api_v3_t),
              "cktile_api_v4_t.gemm_runs_transposed moved");
static_assert(sizeof(cktile_api_v4_t) == sizeof(cktile_api_v3_t) + sizeof(void*),
              "cktile_api_v4_t grew: add a cktile_api_v5_t instead");

cktile_api_v4_t make_api_v4()
{
    cktile_api_v4_t t{};
    t.v3                   = api_v3;
    t.v3.v2.v1.struct_size = sizeof(cktile_api_v4_t);
    t.v3.v2.v1.version     = CKTILE_API_VERSION_4;
    t.gemm_runs_transposed = &cktile_gemm_runs_transposed;
    return t;
}
const cktile_api_v4_t api_v4 = make_api_v4();

// Version 5 starts with version 4's table and appends the sized struct initialisers; the
// earlier *_init entries stay the exported functions that fill each first published layout.
static_assert(offsetof(cktile_api_v5_t, v4) == 0, "cktile_api_v5_t must start with version 4");
#define CKTILE_FROZEN_V5(field, index)                                                             \
    static_assert(offsetof(cktile_api_v5_t, field) ==                                              \
                      sizeof(cktile_api_v4_t) + sizeof(void*) * (index),                           \
                  "cktile_api_v5_t." #field " moved")
CKTILE_FROZEN_V5(gemm_problem_init_sized, 0);
CKTILE_FROZEN_V5(gemm_args_init_sized, 1);
CKTILE_FROZEN_V5(norm_problem_init_sized, 2);
CKTILE_FROZEN_V5(norm_args_init_sized, 3);
CKTILE_FROZEN_V5(softmax_problem_init_sized, 4);
CKTILE_FROZEN_V5(softmax_args_init_sized, 5);
CKTILE_FROZEN_V5(reduce_problem_init_sized, 6);
CKTILE_FROZEN_V5(reduce_args_init_sized, 7);
CKTILE_FROZEN_V5(elementwise_problem_init_sized, 8);
CKTILE_FROZEN_V5(elementwise_args_init_sized, 9);
CKTILE_FROZEN_V5(permute_problem_init_sized, 10);
CKTILE_FROZEN_V5(permute_args_init_sized, 11);
static_assert(sizeof(cktile_api_v5_t) == sizeof(cktile_api_v4_t) + sizeof(void*) * 12,
              "cktile_api_v5_t grew: add a cktile_api_v6_t instead");
#undef CKTILE_FROZEN_V5

cktile_api_v5_t make_api_v5()
{
    cktile_api_v5_t t{};
    t.v4                             = api_v4;
    t.v4.v3.v2.v1.struct_size        = sizeof(cktile_api_v5_t);
    t.v4.v3.v2.v1.version            = CKTILE_API_VERSION_5;
    t.gemm_problem_init_sized        = &cktile_gemm_problem_init_sized;
    t.gemm_args_init_sized           = &cktile_gemm_args_init_sized;
    t.norm_problem_init_sized        = &cktile_norm_problem_init_sized;
    t.norm_args_init_sized           = &cktile_norm_args_init_sized;
    t.softmax_problem_init_sized     = &cktile_softmax_problem_init_sized;
    t.softmax_args_init_sized        = &cktile_softmax_args_init_sized;
    t.reduce_problem_init_sized      = &cktile_reduce_problem_init_sized;
    t.reduce_args_init_sized         = &cktile_reduce_args_init_sized;
    t.elementwise_problem_init_sized = &cktile_elementwise_problem_init_sized;
    t.elementwise_args_init_sized    = &cktile_elementwise_args_init_sized;
    t.permute_problem_init_sized     = &cktile_permute_problem_init_sized;
    t.permute_args_init_sized        = &cktile_permute_args_init_sized;
    return t;
}
const cktile_api_v5_t api_v5 = make_api_v5();

// Version 6 starts with version 5's table and appends the heuristic's ranking.
static_assert(offsetof(cktile_api_v6_t, v5) == 0, "cktile_api_v6_t must start with version 5");
static_assert(offsetof(cktile_api_v6_t, gemm_select_ranked) == sizeof(cktile_api_v5_t),
              "cktile_api_v6_t.gemm_select_ranked moved");
static_assert(sizeof(cktile_api_v6_t) == sizeof(cktile_api_v5_t) + sizeof(void*),
              "cktile_api_v6_t grew: add a cktile_api_v7_t instead");
// The candidate's published fields stay where they are; later ones are appended.
static_assert(offsetof(cktile_gemm_candidate_t, id) == sizeof(size_t) &&
                  offsetof(cktile_gemm_candidate_t, relative_time) == sizeof(size_t) + 8 &&
                  offsetof(cktile_gemm_candidate_t, workspace_size) == sizeof(size_t) + 16 &&
                  offsetof(cktile_gemm_candidate_t, waves) == 2 * sizeof(size_t) + 16 &&
                  sizeof(cktile_gemm_candidate_t) == 2 * sizeof(size_t) + 24,
              "cktile_gemm_candidate_t's layout moved");

cktile_api_v6_t make_api_v6()
{
    cktile_api_v6_t t{};
    t.v5                         = api_v5;
    t.v5.v4.v3.v2.v1.struct_size = sizeof(cktile_api_v6_t);
    t.v5.v4.v3.v2.v1.version     = CKTILE_API_VERSION_6;
    t.gemm_select_ranked         = &cktile_gemm_select_ranked;
    return t;
}
const cktile_api_v6_t api_v6 = make_api_v6();

} // namespace

extern "C" const void* cktile_get_api(uint32_t version)
{
    switch(version)
    {
    case CKTILE_API_VERSION_1:
        return &api_v1;
    case CKTILE_API_VERSION_2:
        return &api_v2;
    case CKTILE_API_VERSION_3:
        return &api_v3;
    case CKTILE_API_VERSION_4:
        return &api_v4;
    case CKTILE_API_VERSION_5:
        return &api_v5;
    case CKTILE_API_VERSION_6:
        return &api_v6;
    default:
        return nullptr;
    }
}
