# Programs whose bugs depended on the optimisation level (a call's convention dropped only
# mattered from -O1, a `const` index helper was hoisted at some levels and not others), built
# again at the other levels: kernel.<name>.O0, .O1 and .O3fast (-O3 -ffast-math); the
# default build is -O2.
foreach(prog calling_conventions const_index_helpers struct_odd_sizes)
  foreach(level O0 O1 O3fast)
    set(flags -${level})
    if(level STREQUAL "O3fast")
      set(flags -O3 -ffast-math)
    endif()
    kernplug_add_program(kt_${prog}_${level} ${prog}.c)
    target_compile_options(kt_${prog}_${level} PRIVATE ${flags})
    target_include_directories(kt_${prog}_${level} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(kt_${prog}_${level} PRIVATE m)
    add_test(NAME kernel.${prog}.${level} COMMAND kt_${prog}_${level})
    set_tests_properties(kernel.${prog}.${level} PROPERTIES LABELS cpu
                         ENVIRONMENT "KP_BACKEND=cpu" TIMEOUT 300)
  endforeach()
endforeach()
