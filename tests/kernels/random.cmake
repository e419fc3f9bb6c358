# random_xoroshiro.c's draws against numba.cuda.random's algorithm, in Python (standard
# library only): kernel.random_numba on the CPU backend, kernel.random_numba.gpu on a GPU.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  foreach(variant cpu gpu)
    set(name kernel.random_numba)
    set(backend cpu)
    if(variant STREQUAL "gpu")
      set(name kernel.random_numba.gpu)
      set(backend cuda)
    endif()
    add_test(NAME ${name}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/random_numba_reference.py
                     $<TARGET_FILE:kt_random_xoroshiro>)
    set_tests_properties(${name} PROPERTIES LABELS ${variant} ENVIRONMENT "KP_BACKEND=${backend}"
                         SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endif()
