# make demo: runs every example (the CTest tests labelled `examples`) one after the other and
# prints one line each: name, backend, result, wall time, and the timing the example itself
# reports (the tutorial's figure, from its result line `<name>: <backend> backend, OK, <t> ms`).
# Exits non-zero when any example fails.
#
#   cmake -DBUILD_DIR=build [-DLABEL=examples] -P scripts/demo.cmake
#
# A CMake script rather than shell because it reads CTest's JSON test list (string(JSON)),
# which a fresh Debian has no other tool for. Each example runs through ctest itself, so its
# environment, working directory and skip/pass rules are exactly those of `make test`.
cmake_minimum_required(VERSION 3.20)

if(NOT BUILD_DIR)
  set(BUILD_DIR build)
endif()
if(NOT LABEL)
  set(LABEL examples)
endif()
get_filename_component(BUILD_DIR "${BUILD_DIR}" ABSOLUTE)
set(log_dir ${BUILD_DIR}/demo)
file(MAKE_DIRECTORY ${log_dir})

# Plain lines on stdout (message() writes to stderr).
function(say text)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${text}")
endfunction()

execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${BUILD_DIR} -N -L ${LABEL}
                        --show-only=json-v1
                OUTPUT_VARIABLE tests_json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "demo: cannot list the tests of ${BUILD_DIR}; run `make build` first")
endif()
string(JSON num_tests LENGTH "${tests_json}" tests)
if(num_tests EQUAL 0)
  say("demo: no examples are registered in ${BUILD_DIR} (CTest label `${LABEL}`) yet")
  return()
endif()

# The backend `auto` resolves to, asked of the runtime itself through a one-line program.
function(probe_backend env_assignments out)
  set(probe ${log_dir}/kp-backend-probe)
  if(NOT EXISTS ${probe})
    file(WRITE ${log_dir}/kp-backend-probe.c
      "#include <kernplug.h>\n#include <stdio.h>\n"
      "int main(void) { puts(kp_backend_name()); return 0; }\n")
    execute_process(COMMAND ${BUILD_DIR}/bin/kpcc -o ${probe} ${log_dir}/kp-backend-probe.c
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  endif()
  set(backend "?")
  if(EXISTS ${probe})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env_assignments} ${probe}
                    OUTPUT_VARIABLE backend OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  set(${out} "${backend}" PARENT_SCOPE)
endfunction()

# KP_BACKEND as the test sets it (ENVIRONMENT property), else as this shell has it.
function(test_backend index out)
  set(env "")
  if(DEFINED ENV{KP_BACKEND})
    set(env "KP_BACKEND=$ENV{KP_BACKEND}")
  endif()
  string(JSON num_props ERROR_VARIABLE err LENGTH "${tests_json}" tests ${index} properties)
  if(num_props GREATER 0)
    math(EXPR last "${num_props} - 1")
    foreach(p RANGE ${last})
      string(JSON pname GET "${tests_json}" tests ${index} properties ${p} name)
      if(pname STREQUAL "ENVIRONMENT")
        string(JSON nvals LENGTH "${tests_json}" tests ${index} properties ${p} value)
        math(EXPR lastv "${nvals} - 1")
        foreach(v RANGE ${lastv})
          string(JSON assignment GET "${tests_json}" tests ${index} properties ${p} value ${v})
          if(assignment MATCHES "^KP_BACKEND=")
            set(env "${assignment}")
          endif()
        endforeach()
      endif()
    endforeach()
  endif()
  probe_backend("${env}" backend)
  if(backend STREQUAL "" AND env MATCHES "^KP_BACKEND=(.+)$")
    set(backend "${CMAKE_MATCH_1}") # the probe failed: no such backend here (a skipped test)
  endif()
  set(${out} "${backend}" PARENT_SCOPE)
endfunction()

function(pad text width out)
  string(LENGTH "${text}" len)
  while(len LESS width)
    string(APPEND text " ")
    math(EXPR len "${len} + 1")
  endwhile()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(failed "")
set(lines "")
math(EXPR last "${num_tests} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${tests_json}" tests ${i} name)
  test_backend(${i} backend)
  say("demo: running ${name} ...")
  string(REGEX REPLACE "([][.+*?()^$|\\])" "\\\\\\1" name_re "${name}")
  string(TIMESTAMP t0 "%s%f")
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${BUILD_DIR} -L ${LABEL}
                          -R "^${name_re}$" -V
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  string(TIMESTAMP t1 "%s%f")
  file(WRITE ${log_dir}/${name}.log "${out}")
  math(EXPR ms "(${t1} - ${t0}) / 1000")
  math(EXPR secs "${ms} / 1000")
  math(EXPR frac "${ms} % 1000")
  string(LENGTH "${frac}" flen)
  if(flen EQUAL 1)
    set(frac "00${frac}")
  elseif(flen EQUAL 2)
    set(frac "0${frac}")
  endif()
  # The example's own result line: `<program>: <backend> backend, OK|FAIL[, <timing>]`, its
  # program being the test's name without example_ and _gpu (ctest -V prefixes "<number>: ").
  string(REGEX REPLACE "^example_(.*)$" "\\1" program "${name}")
  string(REGEX REPLACE "_gpu$" "" program "${program}")
  string(REGEX REPLACE "([][.+*?()^$|\\])" "\\\\\\1" program_re "${program}")
  set(reported "")
  if(out MATCHES "(^|\n)([0-9]+: )?${program_re}: ([^\n]*), (OK|FAIL)(, ([^\n]*))?\n")
    set(reported "${CMAKE_MATCH_6}")
    if(CMAKE_MATCH_3 MATCHES "^([A-Za-z0-9_]+)") # "cpu backend", "host (plain C)"
      set(backend "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(out MATCHES "Skipped|Not Run")
    set(result SKIP)
  elseif(rc EQUAL 0)
    set(result OK)
  else()
    set(result FAIL)
    list(APPEND failed ${name})
    say("${out}")
  endif()
  pad("${name}" 46 c1)
  pad("${backend}" 8 c2)
  pad("${result}" 8 c3)
  pad("${secs}.${frac} s" 11 c4)
  list(APPEND lines "${c1}${c2}${c3}${c4}${reported}")
endforeach()

pad("example" 46 h1)
pad("backend" 8 h2)
pad("result" 8 h3)
say("")
pad("wall" 11 h4)
say("${h1}${h2}${h3}${h4}reported")
foreach(line IN LISTS lines)
  say("${line}")
endforeach()
list(LENGTH failed nfailed)
say("")
say("${num_tests} examples, ${nfailed} failed; logs in ${log_dir}")
if(nfailed GREATER 0)
  message(FATAL_ERROR "demo: failed: ${failed}")
endif()
