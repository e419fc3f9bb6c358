# The pool's size (pool_affinity.c): KP_NUM_THREADS overrides the affinity mask.
kp_kernel_expect(pool_affinity_override pool_affinity EXPECT success
                 ENV KP_BACKEND=cpu KP_NUM_THREADS=3
                 STDOUT "pool_affinity: bound to CPU" ": 3 participants" "pool_affinity: ok")
# KP_CPU_SPIN_US: 0 (no spinning) is valid; anything else outside 0...10^6 is an error naming
# the variable.
kp_kernel_expect(pool_spin_zero pool_affinity EXPECT success ENV KP_BACKEND=cpu KP_CPU_SPIN_US=0
                 STDOUT "pool_affinity: ok")
kp_kernel_expect(pool_spin_bad pool_affinity EXPECT fail ENV KP_BACKEND=cpu KP_CPU_SPIN_US=fast
                 STDERR "KP_CPU_SPIN_US=fast is not a whole number between 0 and 1000000")
# Launches from many host threads (pool_many_hosts.c) in a program built with TSan against the
# uninstrumented runtime, as a user would build one: the pool's hand-offs are atomics TSan
# cannot see there, so pool.c announces them (__tsan_acquire/__tsan_release); without that
# this reports the kernels' reads of their arguments as races.
kp_sanitizer_combines(thread combines)
if(combines)
  kernplug_add_program(kt_pool_many_hosts_tsan pool_many_hosts.c)
  target_include_directories(kt_pool_many_hosts_tsan PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(kt_pool_many_hosts_tsan PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(kt_pool_many_hosts_tsan PRIVATE -fsanitize=thread)
  add_test(NAME kernel.pool_many_hosts_tsan COMMAND kt_pool_many_hosts_tsan)
  set_tests_properties(kernel.pool_many_hosts_tsan PROPERTIES LABELS cpu
                       ENVIRONMENT "KP_BACKEND=cpu" TIMEOUT 300)
endif()
# KP_CPU_TIMEOUT_MS on every launch path of the pool (pool_watchdog_expect.c). Not under TSan,
# which holds the watchdog's signal (see cpu_faults.cmake).
kp_kernel_expect(pool_watchdog pool_watchdog_expect EXPECT success
  ENV KP_BACKEND=cpu KP_CPU_TIMEOUT_MS=200
  STDOUT "endless 1x32: kernel 'endless', block (0, 0, 0)" "endless 3x32: kernel 'endless'"
         "endless 160x256: kernel 'endless'" "did not finish within KP_CPU_TIMEOUT_MS=200 ms"
         "pool_watchdog: finished")
if(KP_SANITIZE MATCHES "thread")
  set_tests_properties(kernel.pool_watchdog PROPERTIES DISABLED TRUE)
endif()
# Every block exactly once however the blocks are shared out (pool_lanes.c, cpu_lanes.h): one
# participant (no lanes), 2 and 3 (a lane each), 17 (more participants than lanes).
foreach(n 1 2 3 17)
  kp_kernel_expect(pool_lanes_${n} pool_lanes EXPECT success ENV KP_BACKEND=cpu KP_NUM_THREADS=${n}
                   STDOUT "pool_lanes: " "${n} multiprocessors: ok")
endforeach()
kp_kernel_expect(pool_lanes_random pool_lanes EXPECT success
                 ENV KP_BACKEND=cpu KP_NUM_THREADS=3 KP_CPU_SCHEDULE=random:7
                 STDOUT "3 multiprocessors: ok")
