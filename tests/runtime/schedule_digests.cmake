# schedule_digests.cmake — runs one program under KP_CPU_SCHEDULE=random:<seed> for several
# seeds and compares the order digests it prints ("digest <hex>"):
#   -DCMD=<program> -DARGS=<arg>
#   -DSAME=<seed>,<threads>/<seed>,<threads>   runs that must print one digest
#   -DDIFFERENT=<seed>,<threads>               a run that must print another
# <threads> is KP_NUM_THREADS for that run: the order must not depend on the workers.
function(run_digest spec out)
  string(REPLACE "," ";" parts "${spec}")
  list(GET parts 0 seed)
  list(GET parts 1 threads)
  set(ENV{KP_BACKEND} cpu)
  set(ENV{KP_CPU_SCHEDULE} "random:${seed}")
  set(ENV{KP_NUM_THREADS} "${threads}")
  execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE rv OUTPUT_VARIABLE o
                  ERROR_VARIABLE e TIMEOUT 120)
  message("random:${seed} KP_NUM_THREADS=${threads}: exit ${rv}\n${o}${e}")
  if(NOT rv STREQUAL "0")
    message(FATAL_ERROR "random:${seed} failed")
  endif()
  if(NOT o MATCHES "digest ([0-9a-f]+)")
    message(FATAL_ERROR "random:${seed}: no digest in the output")
  endif()
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

set(first "")
string(REPLACE "/" ";" same_runs "${SAME}")
foreach(spec IN LISTS same_runs)
  run_digest("${spec}" d)
  if(first STREQUAL "")
    set(first "${d}")
  elseif(NOT d STREQUAL first)
    message(FATAL_ERROR "the same seed gave two orders: ${first} and ${d}")
  endif()
endforeach()
run_digest("${DIFFERENT}" other)
if(other STREQUAL first)
  message(FATAL_ERROR "two seeds gave the same order (${first})")
endif()
message("same seed: ${first} every time; other seed: ${other}")
