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
