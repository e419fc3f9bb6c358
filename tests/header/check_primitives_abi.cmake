# check_primitives_abi.cmake — KP_ABI_VERSION covers the kp_dev_* primitives.
#
# An object built by the plugin calls the primitives its kernplug.h declared; libkernplug_rt
# (CPU) and the plugin's device bitcode (GPU) define them. The runtime refuses a module whose
# KP_ABI_VERSION is not its own, so a change to the primitive set is safe once it bumps that
# version. abi/kp_abi.h records, beside KP_ABI_VERSION, the version that last changed the
# primitives (KP_ABI_PRIMITIVES_VERSION) and a SHA-256 of that version's number, the rows of
# abi/primitives.def and the kp_dev_* declaration lines of include/kernplug/detail/primitives.h
# (KP_ABI_PRIMITIVES_SHA256). This test fails when
#   - the rows or the declarations changed but the digest was not renewed: the message gives
#     the digest for the next KP_ABI_VERSION only, so renewing it means bumping the version;
#   - KP_ABI_PRIMITIVES_VERSION is above KP_ABI_VERSION (a digest made for a bump not done).
# Comments and blank lines do not count; a bump of KP_ABI_VERSION for the descriptors needs no
# change here.
#
#   cmake -DSOURCE_DIR=<repo> -P check_primitives_abi.cmake
cmake_minimum_required(VERSION 3.20)

set(abi_header ${SOURCE_DIR}/abi/kp_abi.h)
set(table ${SOURCE_DIR}/abi/primitives.def)
set(declarations ${SOURCE_DIR}/include/kernplug/detail/primitives.h)

function(read_define name out_var)
  file(STRINGS ${abi_header} line REGEX "^#define ${name} ")
  if(NOT line MATCHES "^#define ${name} +\"?([0-9a-f]+)\"?")
    message(FATAL_ERROR "${abi_header} has no #define ${name}")
  endif()
  set(${out_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

# The lines that define the primitive set, whitespace runs made one space.
function(primitive_lines out_var)
  file(STRINGS ${table} rows REGEX "^KP_PRIMITIVE\\(")
  file(STRINGS ${declarations} decls REGEX "kp_dev_[a-z0-9_]+\\(.*\\);")
  set(text "")
  foreach(line IN LISTS rows decls)
    string(REGEX REPLACE "[ \t]+" " " line "${line}")
    string(STRIP "${line}" line)
    string(APPEND text "${line}\n")
  endforeach()
  list(LENGTH rows nrows)
  list(LENGTH decls ndecls)
  if(nrows EQUAL 0 OR NOT nrows EQUAL ndecls)
    message(FATAL_ERROR "${nrows} rows in ${table} but ${ndecls} one-line kp_dev_* declarations "
                        "in ${declarations} (keep one declaration per line)")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

function(digest version out_var)
  primitive_lines(text)
  string(SHA256 d "KP_ABI_PRIMITIVES_VERSION ${version}\n${text}")
  set(${out_var} ${d} PARENT_SCOPE)
endfunction()

read_define(KP_ABI_VERSION abi)
read_define(KP_ABI_PRIMITIVES_VERSION primitives_version)
read_define(KP_ABI_PRIMITIVES_SHA256 recorded)
digest(${primitives_version} current)
math(EXPR next "${abi} + 1")
digest(${next} for_next)

if(primitives_version GREATER abi)
  message(FATAL_ERROR "KP_ABI_PRIMITIVES_VERSION ${primitives_version} is above KP_ABI_VERSION "
                      "${abi} in ${abi_header}: bump KP_ABI_VERSION to ${primitives_version}.")
endif()
if(NOT current STREQUAL recorded)
  message(FATAL_ERROR
    "The kp_dev_* primitives changed since KP_ABI_VERSION ${primitives_version} recorded them "
    "(the rows of abi/primitives.def or the declarations of "
    "include/kernplug/detail/primitives.h). Objects built against the old set would load in a "
    "runtime with the new one. In abi/kp_abi.h set\n"
    "  #define KP_ABI_VERSION ${next}\n"
    "  #define KP_ABI_PRIMITIVES_VERSION ${next}\n"
    "  #define KP_ABI_PRIMITIVES_SHA256 \"${for_next}\"\n"
    "and say in the KP_ABI_VERSION comment what changed.")
endif()
message(STATUS "kp_dev_* primitives as recorded for KP_ABI_VERSION ${primitives_version} "
               "(current ${abi}): ${current}")
