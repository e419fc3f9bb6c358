# Which Clang/LLVM the plugin is built against: 19 (the default) or 22. Included before
# project(), so that it can pick the C and C++ compilers: the plugin must match the clang that
# loads it, and the tests and examples are compiled with that clang plus the plugin.
#
#   KERNPLUG_CLANG_VERSION   19 or 22. When empty: the major version of the C compiler given
#                            (CMAKE_C_COMPILER or CC) when it is a supported clang, else 19 when
#                            clang-19 is installed, else 22.
#
# Sets KP_CLANG_MAJOR and, when none was given, CMAKE_C_COMPILER/CMAKE_CXX_COMPILER to
# clang-<major>/clang++-<major>. The version-specific source lives in plugin/ClangCompat.h.
include_guard(GLOBAL)

set(KP_SUPPORTED_CLANG_VERSIONS 19 22)
set(KERNPLUG_CLANG_VERSION "" CACHE STRING
    "Clang/LLVM major version the plugin is built for: 19 or 22 (empty: detect)")

# The major version of a compiler, or "" when it is not clang.
function(kp_clang_major_of compiler out)
  set(major "")
  if(compiler)
    execute_process(COMMAND ${compiler} --version OUTPUT_VARIABLE text ERROR_QUIET
                    RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND text MATCHES "clang version ([0-9]+)\\.")
      set(major ${CMAKE_MATCH_1})
    endif()
  endif()
  set(${out} "${major}" PARENT_SCOPE)
endfunction()

if(KERNPLUG_CLANG_VERSION)
  set(KP_CLANG_MAJOR ${KERNPLUG_CLANG_VERSION})
else()
  set(kp_given_cc "${CMAKE_C_COMPILER}")
  if(NOT kp_given_cc AND DEFINED ENV{CC})
    set(kp_given_cc "$ENV{CC}")
  endif()
  kp_clang_major_of("${kp_given_cc}" kp_given_major)
  if(kp_given_major IN_LIST KP_SUPPORTED_CLANG_VERSIONS)
    set(KP_CLANG_MAJOR ${kp_given_major})
  else()
    set(KP_CLANG_MAJOR 19)
    find_program(KP_CLANG19_PROBE NAMES clang-19 HINTS /usr/lib/llvm-19/bin)
    if(NOT KP_CLANG19_PROBE)
      find_program(KP_CLANG22_PROBE NAMES clang-22 HINTS /usr/lib/llvm-22/bin)
      if(KP_CLANG22_PROBE)
        set(KP_CLANG_MAJOR 22)
      endif()
    endif()
  endif()
endif()
if(NOT KP_CLANG_MAJOR IN_LIST KP_SUPPORTED_CLANG_VERSIONS)
  message(FATAL_ERROR "kernplug: KERNPLUG_CLANG_VERSION=${KP_CLANG_MAJOR} is not supported; "
                      "use one of: ${KP_SUPPORTED_CLANG_VERSIONS}")
endif()

if(NOT CMAKE_C_COMPILER AND NOT DEFINED ENV{CC})
  find_program(KP_DEFAULT_CC NAMES clang-${KP_CLANG_MAJOR}
               HINTS /usr/lib/llvm-${KP_CLANG_MAJOR}/bin)
  if(KP_DEFAULT_CC)
    set(CMAKE_C_COMPILER "${KP_DEFAULT_CC}")
  endif()
endif()
if(NOT CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX})
  find_program(KP_DEFAULT_CXX NAMES clang++-${KP_CLANG_MAJOR}
               HINTS /usr/lib/llvm-${KP_CLANG_MAJOR}/bin)
  if(KP_DEFAULT_CXX)
    set(CMAKE_CXX_COMPILER "${KP_DEFAULT_CXX}")
  endif()
endif()
# The GPU architectures this LLVM's NVPTX backend and CUDA 13's ptxas both have (ptxas 13 starts
# at sm_75 and calls LLVM 22's sm_101 sm_110): what arch= and ptx-arch= accept. LLVM picks each
# one's oldest PTX ISA (sm_75: 6.3, sm_100: 8.6, sm_120: 8.7, sm_88 and sm_110: 9.0).
if(KP_CLANG_MAJOR EQUAL 22)
  set(KP_NVPTX_ARCHS 75 80 86 87 88 89 90 100 103 110 120 121)
else()
  set(KP_NVPTX_ARCHS 75 80 86 87 89 90)
endif()

# find_package(LLVM) would take the first LLVM it meets; point it at the one asked for.
if(NOT LLVM_DIR AND EXISTS /usr/lib/llvm-${KP_CLANG_MAJOR}/lib/cmake/llvm)
  set(LLVM_DIR /usr/lib/llvm-${KP_CLANG_MAJOR}/lib/cmake/llvm CACHE PATH "LLVM's CMake package")
endif()
