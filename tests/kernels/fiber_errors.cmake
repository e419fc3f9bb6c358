# The CPU backend's reports of kernels that cannot finish (see fiber_errors_expect.c).
# kt_fiber_errors_expect_fibers (barrier_paths.cmake) keeps every barrier kernel on fibers;
# in kt_fiber_errors_expect the plugin splits those whose barriers all threads reach.
set(cpu KP_BACKEND=cpu)
kp_kernel_expect(fiber_early_return fiber_errors_expect EXPECT fail ARGS early_return ENV ${cpu}
  STDERR "kernplug: error: kernel 'early_return', block (0, 0, 0): syncthreads() was reached by 40 of the block's 64 threads; the other 24 exited without reaching it (first: thread (40, 0, 0))")
kp_kernel_expect(fiber_early_return_fibers fiber_errors_expect_fibers EXPECT fail ARGS early_return
  ENV ${cpu} STDERR "kernplug: error: kernel 'early_return', block (0, 0, 0): syncthreads() was reached by 40 of the block's 64 threads")
kp_kernel_expect(fiber_all_reach fiber_errors_expect EXPECT success ARGS all_reach ENV ${cpu}
  STDOUT "fiber_errors all_reach: finished")
kp_kernel_expect(fiber_all_reach_fibers fiber_errors_expect_fibers EXPECT success ARGS all_reach
  ENV ${cpu} STDOUT "fiber_errors all_reach: finished")
kp_kernel_expect(fiber_lane_exits fiber_errors_expect EXPECT fail ARGS lane_exits ENV ${cpu}
  STDERR "kernplug: error: kernel 'lane_exits', block (0, 0, 0): thread (0, 0, 0) called shfl_down_sync() with mask 0xffffffff, but lane 7 (thread (7, 0, 0)) had already exited")
kp_kernel_expect(fiber_split_warp fiber_errors_expect EXPECT fail ARGS split_warp ENV ${cpu}
  STDERR "kernplug: error: kernel 'split_warp', block (0, 0, 0): threads wait for each other forever: 16 at syncthreads() (first: thread (0, 0, 0)) and 16 at shfl_sync() (first: thread (16, 0, 0), mask 0xffffffff)")
kp_kernel_expect(fiber_stack_overflow fiber_errors_expect_fibers EXPECT fail ARGS deep_recursion ENV ${cpu}
  STDERR "kernplug: error: kernel 'deep_recursion', block (0, 0, 0), thread (0, 0, 0): stack overflow" "set KP_CPU_STACK_SIZE")
kp_kernel_expect(fiber_stack_raised fiber_errors_expect_fibers EXPECT success ARGS deep_recursion
  ENV ${cpu} KP_CPU_STACK_SIZE=4194304 STDOUT "fiber_errors deep_recursion: finished")
# Split at its barrier, the same kernel runs on the worker's own stack: no fiber stack to overflow.
kp_kernel_expect(split_deep_recursion fiber_errors_expect EXPECT success ARGS deep_recursion
  ENV ${cpu} STDOUT "fiber_errors deep_recursion: finished")
kp_kernel_expect(fiber_stack_size_invalid fiber_errors_expect EXPECT fail ARGS all_reach
  ENV ${cpu} KP_CPU_STACK_SIZE=1000 STDERR "KP_CPU_STACK_SIZE=1000 is below the minimum of 16384 bytes")
kp_kernel_expect(cpu_wild_write fiber_errors_expect EXPECT fail ARGS wild_write ENV ${cpu}
  STDERR "kernplug: error: kernel 'write_through', block (0, 0, 0), thread (0, 0, 0): invalid memory access (SIGSEGV) at address " "CUDA_ERROR_ILLEGAL_ADDRESS")
kp_kernel_expect(cpu_wild_write_fibers fiber_errors_expect_fibers EXPECT fail ARGS wild_write_fibers
  ENV ${cpu} STDERR "kernplug: error: kernel 'write_through_with_barrier', block (" "invalid memory access (SIGSEGV)")
# A fault in a split kernel: the block is replayed as fibers to name the thread.
kp_kernel_expect(cpu_wild_write_split fiber_errors_expect EXPECT fail ARGS wild_write_fibers ENV ${cpu}
  STDERR "kernplug: error: kernel 'write_through_with_barrier', block (" "), thread (0, 0, 0): invalid memory access (SIGSEGV)")
# A fault in the middle of a run of blocks the split entry ran in one call: the run is
# replayed block by block as fibers to name the block and the thread.
foreach(variant split fibers)
  set(prog fiber_errors_expect)
  if(variant STREQUAL "fibers")
    set(prog fiber_errors_expect_fibers)
  endif()
  kp_kernel_expect(cpu_run_fault_${variant} ${prog} EXPECT fail ARGS run_fault
    ENV ${cpu} KP_NUM_THREADS=2
    STDERR "kernplug: error: kernel 'fault_in_run', block (2, 1, 0), thread (2, 1, 0): invalid memory access (SIGSEGV)")
  kp_kernel_expect(cpu_warp_run_fault_${variant} ${prog} EXPECT fail ARGS warp_run_fault
    ENV ${cpu} KP_NUM_THREADS=2
    STDERR "kernplug: error: kernel 'fault_in_warp_run', block (6, 0, 0), thread (17, 0, 0): invalid memory access (SIGSEGV)")
endforeach()
kp_kernel_expect(cpu_divide_by_zero fiber_errors_expect EXPECT fail ARGS divide_by_zero ENV ${cpu}
  STDERR "kernplug: error: kernel 'divide', block (0, 0, 0), thread (0, 0, 0): arithmetic exception")
kp_kernel_expect(cpu_errors_recover fiber_errors_expect EXPECT success ARGS recover ENV ${cpu}
  STDOUT "fiber_errors recover: finished")
kp_kernel_expect(fiber_big_frame fiber_errors_expect EXPECT fail ARGS big_frame ENV ${cpu}
  STDERR "kernplug: error: kernel 'big_frame', block (0, 0, 0), thread (0, 0, 0): stack overflow")
kp_kernel_expect(fiber_big_frame_raised fiber_errors_expect EXPECT success ARGS big_frame
  ENV ${cpu} KP_CPU_STACK_SIZE=2097152 STDOUT "fiber_errors big_frame: finished")
# The same through a helper's frame: every function the kernel reaches probes its stack.
kp_kernel_expect(fiber_helper_frame fiber_errors_expect EXPECT fail ARGS helper_frame ENV ${cpu}
  STDERR "kernplug: error: kernel 'helper_frame', block (0, 0, 0), thread (1, 0, 0): stack overflow")
kp_kernel_expect(fiber_helper_frame_raised fiber_errors_expect EXPECT success ARGS helper_frame
  ENV ${cpu} KP_CPU_STACK_SIZE=1048576 STDOUT "fiber_errors helper_frame: finished")

# A UBSan build (cmake/Sanitize.cmake) would stop at UBSan's own report of the division by
# zero that cpu_divide_by_zero makes on purpose, before the SIGFPE the test is about.
if(KP_SANITIZE MATCHES "undefined")
  foreach(t kt_fiber_errors_expect kt_fiber_errors_expect_fibers)
    if(TARGET ${t})
      target_compile_options(${t} PRIVATE -fno-sanitize=integer-divide-by-zero)
    endif()
  endforeach()
endif()
