# KP_CPU_SCHEDULE (runtime/backend/cpu/cpu_schedule.c, docs/debugging.md): the default runs
# blocks in index order, random:<seed> in a new order each launch, anything else is an error;
# self-checking programs stay right whatever the order.
kp_kernel_expect(schedule_ordered schedule_expect EXPECT success ARGS ordered
                 ENV KP_BACKEND=cpu KP_NUM_THREADS=1 STDOUT "index order ok")
kp_kernel_expect(schedule_random schedule_expect EXPECT success ARGS random
                 ENV KP_BACKEND=cpu KP_NUM_THREADS=1 KP_CPU_SCHEDULE=random:7
                 STDOUT "random order ok")
kp_kernel_expect(schedule_bad_value schedule_expect EXPECT fail
                 ENV KP_BACKEND=cpu KP_CPU_SCHEDULE=shuffle
                 STDERR "KP_CPU_SCHEDULE=shuffle: expected 'ordered' or 'random:<seed>'")
# Schedule fuzzing: programs that check their own results, under two seeds and two workers.
foreach(prog barriers barrier_split warp_split atomics_semantics grid_stride shared_atomics
             grids_3d)
  if(NOT TARGET kt_${prog})
    continue()
  endif()
  foreach(seed 1 2)
    add_test(NAME kernel.${prog}.schedule_random_${seed} COMMAND kt_${prog})
    set_tests_properties(kernel.${prog}.schedule_random_${seed} PROPERTIES LABELS cpu
      TIMEOUT 300 ENVIRONMENT "KP_BACKEND=cpu;KP_NUM_THREADS=2;KP_CPU_SCHEDULE=random:${seed}")
  endforeach()
endforeach()

# The threads of a block that runs as fibers: a new order at every barrier round under
# random:<seed>, the same again for the same seed whatever the workers, another for another
# seed (a racy kernel that records the order, built for fibers). Split entries keep index
# order under any schedule (kt_schedule_threads_expect, built by default, splits its kernel).
kernplug_add_program(kt_schedule_threads_fibers schedule_threads_expect.c)
target_compile_options(kt_schedule_threads_fibers PRIVATE
                       -fplugin-arg-kernplug-cpu-barriers=fibers)
target_include_directories(kt_schedule_threads_fibers PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
kp_kernel_expect(schedule_threads_fibers_ordered schedule_threads_fibers EXPECT success
                 ARGS index ENV KP_BACKEND=cpu STDOUT "thread order index")
kp_kernel_expect(schedule_threads_fibers_random schedule_threads_fibers EXPECT success
                 ARGS random ENV KP_BACKEND=cpu KP_CPU_SCHEDULE=random:3
                 STDOUT "thread order random")
kp_kernel_expect(schedule_threads_split_ordered schedule_threads_expect EXPECT success
                 ARGS index ENV KP_BACKEND=cpu KP_CPU_SCHEDULE=random:3
                 STDOUT "thread order index")
add_test(NAME kernel.schedule_threads_fibers_seeds
         COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:kt_schedule_threads_fibers>" -DARGS=random
                 -DSAME=5,1/5,2 -DDIFFERENT=6,1
                 -P ${PROJECT_SOURCE_DIR}/tests/runtime/schedule_digests.cmake)
set_tests_properties(kernel.schedule_threads_fibers_seeds PROPERTIES LABELS cpu TIMEOUT 300)
# Fuzzing the fiber path's thread order: programs that check their own results, built for
# fibers (barrier_paths.cmake), under two seeds.
foreach(prog barriers barrier_split barrier_split_adversarial barrier_split_votes warp_split
             shared_static shared_dynamic)
  if(NOT TARGET kt_${prog}_fibers)
    continue()
  endif()
  foreach(seed 1 2)
    add_test(NAME kernel.${prog}.fibers.schedule_random_${seed} COMMAND kt_${prog}_fibers)
    set_tests_properties(kernel.${prog}.fibers.schedule_random_${seed} PROPERTIES LABELS cpu
      TIMEOUT 300 ENVIRONMENT "KP_BACKEND=cpu;KP_NUM_THREADS=2;KP_CPU_SCHEDULE=random:${seed}")
  endforeach()
endforeach()
