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

} // namespace

extern "C" const void* cktile_get_api(uint32_t version)
{
    return version == CKTILE_API_VERSION_1 ? &api_v1 : nullptr;
}
