# A fault is a stack overflow only when the stack pointer says the code ran off its stack,
# not whenever the address lies just below a stack (cpu_fault.c; see
# cpu_fault_near_stack_expect.c; return mode, so the messages lack the "kernplug: error: "
# prefix). KP_NUM_THREADS=1: the launching thread, whose stack the
# program maps, runs every block.
set(cpu KP_BACKEND=cpu KP_NUM_THREADS=1)
kp_kernel_expect(cpu_fault_below_stack cpu_fault_near_stack_expect EXPECT success
  ARGS below_stack ENV ${cpu}
  STDERR "kernel 'write_to', block (0, 0, 0), thread (0, 0, 0): invalid memory access (SIGSEGV) at address 0x"
  LACKS "stack overflow" STDOUT "cpu_fault_near_stack below_stack: finished")
kp_kernel_expect(cpu_fault_recursion cpu_fault_near_stack_expect EXPECT success
  ARGS recursion ENV ${cpu}
  STDERR "kernel 'recurse', block (0, 0, 0), thread (0, 0, 0): stack overflow: the kernel ran off the end of the 524288-byte stack of the host thread that launched it"
  STDOUT "cpu_fault_near_stack recursion: finished")
# The reported case: a device array mapped below a worker's stack, written one past its end
# by a block the worker runs (was: "stack overflow … of the CPU worker thread").
kp_kernel_expect(cpu_fault_worker_neighbour cpu_fault_near_stack_expect EXPECT success
  ARGS worker_neighbour ENV KP_BACKEND=cpu KP_NUM_THREADS=2
  STDERR "kernel 'past_end_on_worker', block (" "invalid memory access (SIGSEGV) at address 0x"
  "0 bytes past the end of the device array of 256 bytes" LACKS "stack overflow"
  STDOUT "cpu_fault_near_stack worker_neighbour: finished")
# Under ASan device arrays are the checker's malloc, not mappings of their own (cpu_memory.c):
# none lands next to a stack, and ASan reports the write itself.
if(KP_SANITIZE MATCHES "address")
  set_tests_properties(kernel.cpu_fault_worker_neighbour PROPERTIES DISABLED TRUE)
endif()
if(TARGET kt_fiber_errors_expect_fibers) # cpu-barriers=fibers builds exist (barrier_paths.cmake)
  kernplug_add_program(kt_cpu_fault_near_stack_fibers cpu_fault_near_stack_expect.c)
  target_compile_options(kt_cpu_fault_near_stack_fibers PRIVATE
                         -fplugin-arg-kernplug-cpu-barriers=fibers)
  target_include_directories(kt_cpu_fault_near_stack_fibers PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  kp_kernel_expect(cpu_fault_fiber_guard cpu_fault_near_stack_fibers EXPECT success
    ARGS fiber_guard ENV ${cpu} KP_CPU_STACK_SIZE=131072
    STDERR "kernel 'fiber_write_below', block (0, 0, 0), thread (0, 0, 0): invalid memory access (SIGSEGV) at address 0x"
    LACKS "stack overflow" STDOUT "cpu_fault_near_stack fiber_guard: finished")
  kp_kernel_expect(cpu_fault_fiber_recursion cpu_fault_near_stack_fibers EXPECT success
    ARGS fiber_recursion ENV ${cpu} KP_CPU_STACK_SIZE=131072
    STDERR "kernel 'fiber_write_below', block (0, 0, 0), thread (0, 0, 0): stack overflow" "set KP_CPU_STACK_SIZE"
    STDOUT "cpu_fault_near_stack fiber_recursion: finished")
endif()
