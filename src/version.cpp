// SPDX-License-Identifier: MIT
#include "cktile.h"

extern "C" int cktile_get_version(void) { return CKTILE_VERSION; }

extern "C" const char* cktile_get_version_string(void) { return CKTILE_VERSION_STRING; }
