# KP_SANITIZE: build the runtime, the tests and the examples with clang's sanitizers, in a
# build directory of their own (scripts/sanitize.sh, `make test-sanitize`; docs/internals.md,
# "Sanitizer builds"). A comma-separated list for -fsanitize=: address,undefined (ASan with
# LeakSanitizer, and UBSan) or thread (TSan); the two kinds cannot be combined.
#
# Every C target is compiled and linked with it, programs compiled with the plugin included
# (their CPU copies of kernels are checked; the plugin keeps the checks out of device code,
# docs/compiling.md#sanitizers); C++ (the plugin, which runs inside clang, and the attribute
# library) is not.
set(KP_SANITIZE "" CACHE STRING
    "Sanitizers for the runtime, tests and examples: address,undefined or thread (empty: none)")

if(KP_SANITIZE)
  string(REPLACE "," ";" kp_sanitizers "${KP_SANITIZE}")
  foreach(s IN LISTS kp_sanitizers)
    if(NOT s MATCHES "^(address|undefined|thread|leak)$")
      message(FATAL_ERROR "KP_SANITIZE=${KP_SANITIZE}: '${s}' is not one of address, "
                          "undefined, thread, leak")
    endif()
  endforeach()
  if("thread" IN_LIST kp_sanitizers AND ("address" IN_LIST kp_sanitizers
                                         OR "leak" IN_LIST kp_sanitizers))
    message(FATAL_ERROR "KP_SANITIZE=${KP_SANITIZE}: thread cannot be combined with address "
                        "or leak; build them in separate directories")
  endif()
  message(STATUS "kernplug: sanitizers: ${KP_SANITIZE} (the plugin is not sanitized)")
  # Fatal at the first report, so that a test fails instead of printing and passing.
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fsanitize=${KP_SANITIZE}>
                      $<$<COMPILE_LANGUAGE:C>:-fno-sanitize-recover=all>
                      $<$<COMPILE_LANGUAGE:C>:-fno-omit-frame-pointer>)
  add_link_options($<$<LINK_LANGUAGE:C>:-fsanitize=${KP_SANITIZE}>)
endif()

# kp_sanitizer_combines(<sanitizer> <var>): whether a target may add -fsanitize=<sanitizer> to
# this build's (tests/kernels/sanitizers.cmake): thread does not go with address or leak.
function(kp_sanitizer_combines sanitizer var)
  set(ok TRUE)
  if(KP_SANITIZE)
    string(REPLACE "," ";" have "${KP_SANITIZE}")
    if(sanitizer STREQUAL "thread" AND ("address" IN_LIST have OR "leak" IN_LIST have))
      set(ok FALSE)
    elseif(sanitizer MATCHES "^(address|leak)$" AND "thread" IN_LIST have)
      set(ok FALSE)
    endif()
  endif()
  set(${var} ${ok} PARENT_SCOPE)
endfunction()

# What the tests of a sanitizer build run with, added by kp_sanitize_tests() to every test of
# the directory that calls it (at its end): ASan's fake stacks for use-after-return on (they
# are what fiber switches and stack measurements must cope with), UBSan's stack traces, TSan
# stopping at its first report (otherwise a report only changes the exit status, which tests
# that expect a failure do not look at) and with tests/sanitize/tsan.supp, which says why each
# of its suppressions is not a bug the tests can fix.
set(KP_SANITIZE_ENV "")
if(KP_SANITIZE)
  set(kp_tsan_supp ${PROJECT_SOURCE_DIR}/tests/sanitize/tsan.supp)
  set(KP_SANITIZE_ENV "ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1"
                      "UBSAN_OPTIONS=print_stacktrace=1"
                      "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=${kp_tsan_supp}")
endif()

# A test's own <X>SAN_OPTIONS come after these in the merged value, so they win.
function(kp_sanitize_tests)
  if(NOT KP_SANITIZE_ENV)
    return()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} ENVIRONMENT env)
    if(NOT env)
      set(env "")
    endif()
    foreach(option IN LISTS KP_SANITIZE_ENV)
      string(REGEX MATCH "^[A-Z]+_OPTIONS=" name "${option}")
      set(merged "${option}")
      set(rest "")
      foreach(e IN LISTS env)
        if(e MATCHES "^${name}(.*)$")
          set(merged "${merged}:${CMAKE_MATCH_1}")
        else()
          list(APPEND rest "${e}")
        endif()
      endforeach()
      set(env ${rest} "${merged}")
    endforeach()
    set_tests_properties(${t} PROPERTIES ENVIRONMENT "${env}")
  endforeach()
endfunction()
