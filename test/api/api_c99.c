/* SPDX-License-Identifier: MIT
 * cktile.h compiles as C99 (built with -std=c99 -pedantic -Werror) and links: a C program can
 * use every declaration. Run as a test, it exercises a few calls that need no device. */
#include "cktile.h"

#include <stddef.h>
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
    /* The macro passes this compilation's sizeof: the whole struct, extra inputs included. */
    if(cktile_gemm_problem_init(&p) != CKTILE_STATUS_SUCCESS || p.struct_size != sizeof(p) ||
       p.d0_type != CKTILE_DATATYPE_FP16 || p.ldd1 != 1 ||
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
    {
        /* A program built against the 0.1 header: its problem ends before multi_d_op, and what
         * follows it on the stack (here poison) must stay as it was. */
        union
        {
            cktile_gemm_problem_t aligned;
            unsigned char bytes[sizeof(cktile_gemm_problem_t) + 32];
        } old;
        const size_t old_size     = offsetof(cktile_gemm_problem_t, multi_d_op);
        const cktile_api_v5_t* v5 = (const cktile_api_v5_t*)cktile_get_api(CKTILE_API_VERSION_5);
        int pass;
        size_t i;
        if(v5 == NULL || v5->v4.v3.v2.v1.version != CKTILE_API_VERSION_5)
            return 10;
        for(pass = 0; pass < 3; ++pass)
        {
            cktile_status_t s;
            memset(old.bytes, 0xA5, sizeof(old.bytes));
            if(pass == 0) /* the exported function, as such a program calls it */
                s = (cktile_gemm_problem_init)(&old.aligned);
            else if(pass == 1)
                s = cktile_gemm_problem_init_sized(&old.aligned, old_size);
            else
                s = v5->gemm_problem_init_sized(&old.aligned, old_size);
            if(s != CKTILE_STATUS_SUCCESS)
                return 11;
            for(i = old_size; i < sizeof(old.bytes); ++i)
                if(old.bytes[i] != 0xA5)
                    return 12;
            if(old.aligned.struct_size != old_size || old.aligned.m != 1 ||
               old.aligned.compute_type != CKTILE_DATATYPE_FP32 ||
               cktile_gemm_validate(&old.aligned) != CKTILE_STATUS_SUCCESS)
                return 13;
        }
        /* A struct larger than the library's: refused, nothing written. */
        memset(old.bytes, 0xA5, sizeof(old.bytes));
        if(cktile_gemm_problem_init_sized(&old.aligned, sizeof(old.bytes)) !=
               CKTILE_STATUS_INVALID_ARGUMENT ||
           strstr(cktile_get_last_error_message(), "cktile_gemm_problem_t") == NULL)
            return 14;
        for(i = 0; i < sizeof(old.bytes); ++i)
            if(old.bytes[i] != 0xA5)
                return 15;
    }
    printf("C99 client: cktile %s, last status text: %s\n", cktile_get_version_string(),
           cktile_status_string(CKTILE_STATUS_INVALID_HANDLE));
    return 0;
}
