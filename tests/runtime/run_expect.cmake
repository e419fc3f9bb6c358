# run_expect.cmake — runs one program and checks how it ended.
#   -DCMD=<program>  -DARGS=<arg>[|<arg>...]
#   -DEXPECT=fail|success          (fail: a non-zero exit or a signal, e.g. abort())
#   -DSTDERR_HAS=<text>[@@<text>...] literal substrings stderr must contain
#   -DSTDOUT_HAS=<text>[@@<text>...] literal substrings stdout must contain
#   -DSTDERR_LACKS=<text>            a literal substring stderr must not contain
# The environment (KP_BACKEND, KP_LIBCUDA, FAKE_CUDA_FAIL, …) comes from the test's
# ENVIRONMENT property. Literal substrings, not regexes, so messages need no escaping.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${CMD} ${args}
                RESULT_VARIABLE rv OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
message("exit: ${rv}\n--- stdout ---\n${out}--- stderr ---\n${err}--------------")
if(EXPECT STREQUAL "fail")
  if(rv STREQUAL "0")
    message(FATAL_ERROR "expected the program to fail, but it exited with 0")
  endif()
  if(rv MATCHES "timeout")
    message(FATAL_ERROR "the program hung (timeout)")
  endif()
elseif(NOT rv STREQUAL "0")
  message(FATAL_ERROR "expected success, got exit ${rv}")
endif()
foreach(stream STDERR STDOUT)
  if(stream STREQUAL "STDERR")
    set(text "${err}")
  else()
    set(text "${out}")
  endif()
  if(DEFINED ${stream}_HAS AND NOT "${${stream}_HAS}" STREQUAL "")
    string(REPLACE "@@" ";" wanted "${${stream}_HAS}")
    foreach(w IN LISTS wanted)
      string(FIND "${text}" "${w}" pos)
      if(pos EQUAL -1)
        message(FATAL_ERROR "${stream} lacks: ${w}")
      endif()
    endforeach()
  endif()
endforeach()
if(DEFINED STDERR_LACKS AND NOT STDERR_LACKS STREQUAL "")
  string(FIND "${err}" "${STDERR_LACKS}" pos)
  if(NOT pos EQUAL -1)
    message(FATAL_ERROR "stderr should not contain: ${STDERR_LACKS}")
  endif()
endif()
