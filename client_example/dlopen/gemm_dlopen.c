/* SPDX-License-Identifier: MIT
 * How a framework uses cktile without linking it: dlopen libcktile.so, fetch the versioned
 * function table, and work only through it. Argument: the library's path (default: the
 * soname, found through the loader's search path). */
#include "cktile.h"

#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv)
{
    const char* path = argc > 1 ? argv[1] : "libcktile.so.0";
    void* so         = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if(!so)
    {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        return 1;
    }
    cktile_get_api_fn get_api;
    *(void**)(&get_api) = dlsym(so, CKTILE_GET_API_SYMBOL);
    const cktile_api_v1_t* api =
        get_api ? (const cktile_api_v1_t*)get_api(CKTILE_API_VERSION_1) : NULL;
    if(!api)
    {
        fprintf(stderr, "%s has no version-1 cktile API table\n", path);
        return 1;
    }
    printf("dlopen client: %s, cktile %s, table of %zu bytes\n", path, api->get_version_string(),
           api->struct_size);

    cktile_handle_t h = NULL;
    cktile_status_t s = api->create(&h, 0);
    if(s == CKTILE_STATUS_NO_DEVICE)
        printf("no GPU device present (%s); querying offline instead\n",
               api->get_last_error_message());
    else if(s != CKTILE_STATUS_SUCCESS)
    {
        fprintf(stderr, "create: %s\n", api->get_last_error_message());
        return 1;
    }
    if(!h)
    {
        const char* target = argc > 2 ? argv[2] : CKTILE_EXAMPLE_TARGET;
        if(api->create_for_target(&h, target) != CKTILE_STATUS_SUCCESS)
        {
            printf("no kernel library for %s: %s\n", target, api->get_last_error_message());
            return 0;
        }
    }
    /* Through a table the header's cktile_gemm_problem_init macro does not apply: a library
     * with the version 5 table fills the struct this program was built with; an older one's
     * gemm_problem_init fills the first published layout, which is all this example sets. */
    const cktile_api_v5_t* v5 = (const cktile_api_v5_t*)get_api(CKTILE_API_VERSION_5);
    cktile_gemm_problem_t p;
    if(v5)
        v5->gemm_problem_init_sized(&p, sizeof(p));
    else
        api->gemm_problem_init(&p);
    p.m = 1024, p.n = 1024, p.k = 1024, p.lda = p.ldb = p.ldc = p.ldd = 1024;
    uint64_t id = 0;
    if(api->gemm_select(h, &p, NULL, CKTILE_SELECT_DEFAULT, &id) != CKTILE_STATUS_SUCCESS)
    {
        fprintf(stderr, "select: %s\n", api->get_last_error_message());
        return 1;
    }
    cktile_instance_info_t info;
    info.struct_size = sizeof(info);
    api->get_instance_info_by_id(h, id, &info);
    printf("fp16 1024^3 GEMM would run %s on %s\n", info.name, info.target);
    api->destroy(h);
    return 0;
}
