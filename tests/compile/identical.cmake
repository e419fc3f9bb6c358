# Compiles SRC with and without the plugin and fails unless the objects match.
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CC} ${OPT} -c ${SRC} -o ${WORK}/without.o RESULT_VARIABLE r1)
execute_process(COMMAND ${CC} ${OPT} -fplugin=${PLUGIN} -c ${SRC} -o ${WORK}/with.o
                RESULT_VARIABLE r2)
if(NOT r1 EQUAL 0 OR NOT r2 EQUAL 0)
  message(FATAL_ERROR "compilation failed (${r1}, ${r2})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/without.o ${WORK}/with.o
                RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "${SRC} ${OPT}: the plugin changed an object without annotations")
endif()
