# GCC twins of the kernel tests and examples (docs/compiling.md, "GCC"): each program built
# with the plugin is built a second time by gcc -fplugin=kernplug_gcc.so, and its tests run
# again on that build as <test>.gcc / <test>_gcc, in the same labels, with the same
# expectations. Only when gcc-plugin/ found GCC's plugin headers (KP_GCC_PLUGIN).
#
#   kernplug_gcc_twin(<target> <var>) kt_x -> kt_x_gcc, built at kernplug_gcc_build_twins();
#                                   <var> is the twin's path, empty when there is none
#   kernplug_gcc_build_twins()      at the end of the directory, once every
#                                   target_compile_options() has been seen: the same source,
#                                   include directories, -O/-g/-D/-f options (kernplug.so's
#                                   -fplugin-arg-kernplug-X become -fplugin-arg-kernplug_gcc-kp-X)
#                                   and libraries, compiled and linked by gcc in one command

# Sources a twin cannot be built from, and why.
set(KP_GCC_NO_TWIN
    barrier_split_adversarial # clang's ext_vector_type in kernels: a GCC error (tests/gcc)
    calling_conventions       # clang-only conventions (regcall, vectorcall, …): GCC ignores them
    half_atomics              # __bf16 and kp_bfloat162: GCC 12 has no __bf16 type in C (GCC 13 has)
    CACHE INTERNAL "")

# Whether <target> can have a twin: not in a sanitizer build (GCC's and clang's sanitizer
# runtimes do not mix), not for the sources above.
function(kernplug_gcc_can_twin target out)
  get_target_property(srcs ${target} SOURCES)
  get_target_property(opts ${target} COMPILE_OPTIONS)
  get_filename_component(stem "${srcs}" NAME_WE)
  if(NOT KP_GCC_PLUGIN OR KP_SANITIZE OR stem IN_LIST KP_GCC_NO_TWIN OR opts MATCHES "-fsanitize")
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(kernplug_gcc_twin target out)
  kernplug_gcc_can_twin(${target} ok)
  if(ok)
    set_property(DIRECTORY APPEND PROPERTY KP_GCC_TWINS ${target})
    set(${out} ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${target}_gcc PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

function(kernplug_gcc_build_twins)
  if(NOT KP_GCC_PLUGIN)
    return()
  endif()
  get_property(twins DIRECTORY PROPERTY KP_GCC_TWINS)
  list(REMOVE_DUPLICATES twins)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  separate_arguments(config_flags UNIX_COMMAND "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${config}}")
  foreach(target IN LISTS twins)
    get_target_property(srcs ${target} SOURCES)
    get_target_property(incs ${target} INCLUDE_DIRECTORIES)
    get_target_property(opts ${target} COMPILE_OPTIONS)
    get_target_property(libs ${target} LINK_LIBRARIES)
    get_target_property(defs ${target} COMPILE_DEFINITIONS)
    set(flags ${config_flags})
    foreach(o IN LISTS opts)
      if(o MATCHES "^-fplugin-arg-kernplug-(.*)")
        list(APPEND flags "-fplugin-arg-kernplug_gcc-kp-${CMAKE_MATCH_1}")
      elseif(NOT o MATCHES "^-fplugin=|^-W")
        list(APPEND flags ${o})
      endif()
    endforeach()
    foreach(d IN LISTS defs)
      if(d)
        list(APPEND flags -D${d})
      endif()
    endforeach()
    set(incflags)
    foreach(i IN LISTS incs)
      list(APPEND incflags -I${i})
    endforeach()
    set(libflags)
    foreach(l IN LISTS libs)
      if(l STREQUAL "kernplug_rt")
        continue()
      elseif(l MATCHES "^-")
        list(APPEND libflags ${l})
      else()
        list(APPEND libflags -l${l})
      endif()
    endforeach()
    set(srcpaths)
    foreach(s IN LISTS srcs)
      get_filename_component(s ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      list(APPEND srcpaths ${s})
    endforeach()
    set(exe ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${target}_gcc)
    add_custom_command(
      OUTPUT ${exe}
      COMMAND ${KP_GCC} -fplugin=${KP_GCC_PLUGIN} -std=c17 ${flags} -Wall -Wextra ${incflags}
              -MD -MF ${exe}.d ${srcpaths} -o ${exe} $<TARGET_FILE:kernplug_rt>
              -Wl,-rpath,$<TARGET_FILE_DIR:kernplug_rt> ${libflags} -lm
      DEPFILE ${exe}.d
      DEPENDS ${srcpaths} ${KP_GCC_PLUGIN} ${KP_PLUGIN_PATH} ${KP_DEVICE_BC} kernplug_rt
      COMMENT "gcc -fplugin=kernplug_gcc.so: ${target}_gcc"
      VERBATIM)
    add_custom_target(${target}_gcc ALL DEPENDS ${exe})
    add_dependencies(${target}_gcc kernplug-gcc kernplug kernplug_device_bc)
  endforeach()
endfunction()
