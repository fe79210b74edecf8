/* SPDX-License-Identifier: MIT
 *
 * cktile: the stable C API of the cktile GPU kernel library.
 *
 * Compiles as C99 and C++; includes no GPU header. Every function returns a status or a
 * value that cannot fail; no C++ exception ever crosses this boundary.
 */
#ifndef CKTILE_H
#define CKTILE_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CKTILE_API
#else
#define CKTILE_API __attribute__((visibility("default")))
#endif

#define CKTILE_VERSION_MAJOR 0
#define CKTILE_VERSION_MINOR 1
#define CKTILE_VERSION_PATCH 0
/** major * 10000 + minor * 100 + patch, comparable with cktile_get_version(). */
#define CKTILE_VERSION                                                                             \
    (CKTILE_VERSION_MAJOR * 10000 + CKTILE_VERSION_MINOR * 100 + CKTILE_VERSION_PATCH)

/** Version of the loaded library, encoded as CKTILE_VERSION is. */
CKTILE_API int cktile_get_version(void);

/** Version of the loaded library as "major.minor.patch" (static storage). */
CKTILE_API const char* cktile_get_version_string(void);

#ifdef __cplusplus
}
#endif

#endif /* CKTILE_H */
