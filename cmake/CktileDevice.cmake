# cktile_add_device_library(<name> <SHARED|STATIC|OBJECT> GPU_TARGET <target>
#                           SOURCES <files...> [LINK <targets...>])
#
# Builds device sources (kernels and their host launchers) for one GPU target. Everything else
# in the project is host code and goes through the host compiler; only these files see nvcc or
# hipcc. On NVIDIA this is CMake's CUDA language. On AMD, Debian's ROCm lays out its CMake
# package where CMake's HIP language does not look, so each source is compiled by hipcc through
# a custom command (with a depfile, so header edits rebuild it) and the objects are linked by
# the host toolchain.

set(CKTILE_DEVICE_FLAGS_NVIDIA --expt-relaxed-constexpr --extended-lambda -Xcompiler=-Wall
    -Xcompiler=-Wextra -Werror=all-warnings)
# Makes a register spill in a source an error (ptxas warns, -Werror=all-warnings above promotes
# it): for kernels that must keep everything in registers.
set(CKTILE_NVIDIA_SPILL_IS_AN_ERROR -Xptxas=--warn-on-spills)
set(CKTILE_DEVICE_FLAGS_AMD -O3 -Wall -Wextra -Wno-unused-command-line-argument)

# Every device library also joins `cktile_device_code`, so a compile-only check of all device
# code (CI's AMD build) is one target.
add_custom_target(cktile_device_code)

function(cktile_add_device_library name kind)
  cmake_parse_arguments(ARG "" "GPU_TARGET" "SOURCES;LINK" ${ARGN})
  if(NOT ARG_GPU_TARGET)
    message(FATAL_ERROR "cktile_add_device_library(${name}): GPU_TARGET is required")
  endif()
  if(CKTILE_PLATFORM STREQUAL "nvidia")
    foreach(src IN LISTS ARG_SOURCES)
      set_source_files_properties(${src} PROPERTIES LANGUAGE CUDA)
    endforeach()
    add_library(${name} ${kind} ${ARG_SOURCES})
    string(REGEX REPLACE "^sm_" "" _arch "${ARG_GPU_TARGET}")
    # The shared runtime: one cudart per process, the one host code and libcktile.so use
    # (CMake links a static copy into every CUDA target otherwise).
    set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES "${_arch}-real"
                          POSITION_INDEPENDENT_CODE ON CUDA_RUNTIME_LIBRARY Shared)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${CKTILE_DEVICE_FLAGS_NVIDIA}>)
    target_link_libraries(${name} PUBLIC cktile::headers cktile::runtime ${ARG_LINK})
  elseif(CKTILE_PLATFORM STREQUAL "amd")
    set(_objs "")
    file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/${name}.dir")
    set(_incs "$<TARGET_PROPERTY:cktile_headers,INTERFACE_INCLUDE_DIRECTORIES>")
    set(_defs "$<TARGET_PROPERTY:cktile_headers,INTERFACE_COMPILE_DEFINITIONS>"
              "$<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>")
    foreach(lib IN LISTS ARG_LINK)
      if(TARGET ${lib})
        list(APPEND _incs "$<TARGET_PROPERTY:${lib},INTERFACE_INCLUDE_DIRECTORIES>")
      endif()
    endforeach()
    foreach(src IN LISTS ARG_SOURCES)
      get_filename_component(_abs "${src}" ABSOLUTE)
      file(RELATIVE_PATH _rel "${PROJECT_SOURCE_DIR}" "${_abs}")
      string(MAKE_C_IDENTIFIER "${_rel}" _id)
      set(_obj "${CMAKE_CURRENT_BINARY_DIR}/${name}.dir/${_id}.o")
      add_custom_command(
        OUTPUT "${_obj}"
        COMMAND "${CKTILE_HIPCC}" -x hip --offload-arch=${ARG_GPU_TARGET} -std=c++20 -fPIC
                ${CKTILE_DEVICE_FLAGS_AMD} "$<$<BOOL:${_incs}>:-I$<JOIN:${_incs},;-I>>"
                "$<$<BOOL:${_defs}>:-D$<JOIN:${_defs},;-D>>"
                -MD -MF "${_obj}.d" -c "${_abs}" -o "${_obj}"
        DEPENDS "${_abs}"
        DEPFILE "${_obj}.d"
        COMMAND_EXPAND_LISTS
        COMMENT "hipcc ${ARG_GPU_TARGET} ${_rel}"
        VERBATIM)
      list(APPEND _objs "${_obj}")
    endforeach()
    set_source_files_properties(${_objs} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    add_library(${name} ${kind} ${_objs})
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX POSITION_INDEPENDENT_CODE ON)
    target_link_libraries(${name} PUBLIC cktile::headers cktile::runtime ${ARG_LINK})
  else()
    message(FATAL_ERROR "cktile_add_device_library(${name}): no GPU platform in this build")
  endif()
  add_dependencies(cktile_device_code ${name})
endfunction()
