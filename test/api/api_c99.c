/* SPDX-License-Identifier: MIT
 * cktile.h compiles as C99 (built with -std=c99 -pedantic -Werror) and links: a C program can
 * use every declaration. Run as a test, it exercises a few calls that need no device. */
#include "cktile.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    cktile_gemm_problem_t p;
    cktile_elementwise_problem_t ep;
    cktile_permute_problem_t pp;
    const cktile_api_v3_t* api3 = (const cktile_api_v3_t*)cktile_get_api(CKTILE_API_VERSION_3);
    cktile_handle_t h           = NULL;
    const cktile_api_v1_t* api  = (const cktile_api_v1_t*)cktile_get_api(CKTILE_API_VERSION_1);
    if(cktile_gemm_problem_init(&p) != CKTILE_STATUS_SUCCESS ||
       cktile_gemm_validate(&p) != CKTILE_STATUS_SUCCESS)
        return 1;
    p.m = 0;
    if(cktile_gemm_validate(&p) != CKTILE_STATUS_INVALID_ARGUMENT ||
       strstr(cktile_get_last_error_message(), "problem->m") == NULL)
        return 2;
    if(cktile_destroy(h) != CKTILE_STATUS_INVALID_HANDLE)
        return 3;
    if(api == NULL || api->version != CKTILE_API_VERSION_1 || api->get_version() != CKTILE_VERSION)
        return 4;
    if(cktile_elementwise_problem_init(&ep) != CKTILE_STATUS_SUCCESS ||
       cktile_elementwise_validate(&ep, NULL) != CKTILE_STATUS_SUCCESS)
        return 5;
    if(api3 == NULL || api3->v2.v1.version != CKTILE_API_VERSION_3 ||
       api3->permute_problem_init(&pp) != CKTILE_STATUS_SUCCESS ||
       api3->permute_validate(&pp, NULL) != CKTILE_STATUS_SUCCESS)
        return 6;
    {
        cktile_reduce_problem_t r;
        const cktile_api_v3_t* v3 = (const cktile_api_v3_t*)cktile_get_api(CKTILE_API_VERSION_3);
        if(v3 == NULL || v3->reduce_problem_init(&r) != CKTILE_STATUS_SUCCESS)
            return 7;
        r.reduce_mask = 0;
        if(cktile_reduce_validate(&r, NULL) != CKTILE_STATUS_INVALID_ARGUMENT ||
           strstr(cktile_get_last_error_message(), "reduce_mask") == NULL)
            return 8;
    }
    {
        const cktile_api_v4_t* v4 = (const cktile_api_v4_t*)cktile_get_api(CKTILE_API_VERSION_4);
        int transposed            = 0;
        if(v4 == NULL || v4->v3.v2.v1.version != CKTILE_API_VERSION_4 ||
           v4->gemm_runs_transposed(NULL, 1, &p, &transposed) != CKTILE_STATUS_INVALID_HANDLE)
            return 9;
    }
    printf("C99 client: cktile %s, last status text: %s\n", cktile_get_version_string(),
           cktile_status_string(CKTILE_STATUS_INVALID_HANDLE));
    return 0;
}
