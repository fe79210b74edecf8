// SPDX-License-Identifier: MIT
#include "cktile.h"

#define CKTILE_STR2(x) #x
#define CKTILE_STR(x) CKTILE_STR2(x)

extern "C" int cktile_get_version(void) { return CKTILE_VERSION; }

extern "C" const char* cktile_get_version_string(void)
{
    return CKTILE_STR(CKTILE_VERSION_MAJOR) "." CKTILE_STR(CKTILE_VERSION_MINOR) "." CKTILE_STR(
        CKTILE_VERSION_PATCH);
}
