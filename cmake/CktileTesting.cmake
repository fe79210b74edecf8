# cktile_add_test(<name> LABEL <cpu|gpu> SOURCES <files...> [LINK <targets...>])
#
# One gtest executable (host compiler); each TEST() becomes a ctest entry carrying the label.
# A test that calls GTEST_SKIP() (gpu tests without a device) is reported by ctest as skipped,
# with the reason in its output. Tests run from the build's bin/ directory.
include(GoogleTest)

function(cktile_add_test name)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;LINK" ${ARGN})
  if(NOT ARG_LABEL MATCHES "^(cpu|gpu)$")
    message(FATAL_ERROR "cktile_add_test(${name}): LABEL must be cpu or gpu")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE cktile::headers cktile::runtime GTest::gtest_main
                                        ${ARG_LINK})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/test/common)
  target_compile_options(${name} PRIVATE ${CKTILE_HOST_WARNINGS})
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    # gtest prints "[  SKIPPED ] Suite.Test". The pattern avoids square brackets: CMake's list
    # handling treats an unbalanced "[" specially, and CMake 4 wraps values in [[...]].
    PROPERTIES LABELS ${ARG_LABEL} SKIP_REGULAR_EXPRESSION "  SKIPPED ")
endfunction()

# Device-side test support: kernels built for the primary GPU target, linked into a gpu test.
# Returns nothing on a host-only build; callers then skip adding the gpu test.
function(cktile_add_test_kernels name)
  if(CKTILE_PLATFORM STREQUAL "none")
    return()
  endif()
  cktile_add_device_library(${name} STATIC GPU_TARGET ${CKTILE_PRIMARY_GPU_TARGET} ${ARGN})
endfunction()
