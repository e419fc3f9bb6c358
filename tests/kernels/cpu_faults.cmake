# Kernels that trap, abort, fail an assert, overflow a thread's stack or write past the end of
# a device array (see cpu_faults_errors_expect.c): on the CPU backend each is a launch error
# naming the kernel, block and thread, as on a GPU, not a process killed by a signal.
set(cpu KP_BACKEND=cpu)
kp_kernel_fails(cpu_faults trap
  "kernplug: error: kernel 'trap_at', block (2, 0, 0), thread (13, 0, 0): trap: __builtin_trap() or an illegal instruction (SIGILL)"
  "CUDA_ERROR_LAUNCH_FAILED")
kp_kernel_fails(cpu_faults abort
  "kernplug: error: kernel 'abort_at', block (2, 0, 0), thread (13, 0, 0): abort() or a failed assert() (SIGABRT)")
# glibc prints the assertion (file:line, function, expression); the launch error adds the thread.
kp_kernel_fails(cpu_faults assert
  "cpu_faults_errors_expect.c:" "Assertion `i != bad' failed."
  "kernplug: error: kernel 'assert_at', block (2, 0, 0), thread (13, 0, 0): abort() or a failed assert() (SIGABRT)"
  "CUDA_ERROR_ASSERT")
# Return mode: each fault is an error and the runtime stays usable; a second fault is caught
# too (the signal mask is restored after each).
kp_kernel_expect(cpu_faults_recover cpu_faults_errors_expect EXPECT success ARGS recover
  ENV ${cpu} STDOUT "trap: kernel 'trap_at', block (2, 0, 0), thread (13, 0, 0): trap"
  "assert again: kernel 'assert_at', block (0, 0, 0), thread (3, 0, 0): abort() or a failed assert()"
  "cpu_faults recover: finished")
# abort() in host code still aborts, silently as without kernplug.
kp_kernel_expect(cpu_faults_host_abort cpu_faults_errors_expect EXPECT fail ARGS host_abort
  ENV ${cpu} STDOUT "cpu_faults host_abort: aborting" LACKS "kernplug: error")
# A 12 MiB frame on 1 MiB stacks (launching thread and workers): a stack overflow naming the
# knob, whichever thread ran the block; with 16 MiB worker stacks it runs.
kp_kernel_expect(cpu_faults_worker_stack_overflow cpu_faults_errors_expect EXPECT success
  ARGS stack_overflow ENV ${cpu} KP_CPU_WORKER_STACK=1048576 KP_NUM_THREADS=2
  STDERR "kernel 'deep_frame', block (" "stack overflow: the kernel ran off the end of the 1048576-byte stack of the"
  "KP_CPU_WORKER_STACK" STDOUT "cpu_faults stack_overflow: finished")
kp_kernel_expect(cpu_faults_worker_stack_raised cpu_faults_errors_expect EXPECT success
  ARGS stack_raised ENV ${cpu} KP_CPU_WORKER_STACK=16777216 KP_NUM_THREADS=2
  STDOUT "cpu_faults stack_raised: finished")
kp_kernel_expect(cpu_faults_worker_stack_invalid cpu_faults_errors_expect EXPECT fail
  ARGS trap ENV ${cpu} KP_CPU_WORKER_STACK=4096
  STDERR "KP_CPU_WORKER_STACK=4096 is below the minimum of 65536 bytes")
# A write one element past the end of a device array faults on the guard page after it.
kp_kernel_fails(cpu_faults past_end
  "kernplug: error: kernel 'write_past_end', block (1, 0, 0), thread (31, 0, 0): invalid memory access (SIGSEGV)"
  "CUDA_ERROR_ILLEGAL_ADDRESS), 0 bytes past the end of the device array of 256 bytes at 0x"
  "(from device_array)")
kp_kernel_expect(cpu_faults_past_end_recover cpu_faults_errors_expect EXPECT success
  ARGS past_end_recover ENV ${cpu}
  STDOUT "past_end: kernel 'write_past_end'" "cpu_faults past_end_recover: finished")

# KP_CPU_TIMEOUT_MS: a kernel that never returns fails the launch after that long, naming the
# kernel and block; in return mode the program goes on, also after a kernel stopped while it
# printed or waited at a barrier.
kp_kernel_expect(cpu_faults_timeout cpu_faults_errors_expect EXPECT fail ARGS timeout
  ENV ${cpu} KP_CPU_TIMEOUT_MS=300
  STDERR "kernplug: error: kernel 'spin', block (" "did not finish within KP_CPU_TIMEOUT_MS=300 ms; the CPU backend's watchdog stopped it")
kp_kernel_expect(cpu_faults_timeout_recover cpu_faults_errors_expect EXPECT success
  ARGS timeout_recover ENV ${cpu} KP_CPU_TIMEOUT_MS=300
  STDOUT "spin: kernel 'spin', block (" "spin_printing: kernel 'spin_printing', block ("
         "spin_at_barrier: kernel 'spin_at_barrier', block ("
         "cpu_faults timeout_recover: finished")
# Not under TSan (a KP_SANITIZE=thread build): it holds an asynchronous signal until the
# thread calls a function it intercepts, which a kernel spinning in a loop never does, so the
# watchdog's signal never arrives and the process exits after 2 s instead.
if(KP_SANITIZE MATCHES "thread")
  set_tests_properties(kernel.cpu_faults_timeout kernel.cpu_faults_timeout_recover
                       PROPERTIES DISABLED TRUE)
endif()
kp_kernel_expect(cpu_faults_timeout_invalid cpu_faults_errors_expect EXPECT fail ARGS trap
  ENV ${cpu} KP_CPU_TIMEOUT_MS=soon
  STDERR "KP_CPU_TIMEOUT_MS=soon is not a whole number between 1 and")

# Under ThreadSanitizer (the program instrumented, not the runtime): TSan's wrapper blocks
# every signal around a handler, so the runtime restores the faulting code's signal mask after
# each fault; before it did, the second fault (the replay that names the thread) killed the
# process without a message. Only where the compiler has the TSan runtime (Debian:
# libclang-rt-19-dev, which scripts/install-deps.sh installs).
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_FLAGS -fsanitize=thread)
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=thread)
check_c_source_compiles("int main(void) { return 0; }" KP_HAVE_TSAN)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
kp_sanitizer_combines(thread tsan_combines) # not in an ASan build (cmake/Sanitize.cmake)
if(KP_HAVE_TSAN AND tsan_combines)
  kernplug_add_program(kt_cpu_faults_tsan cpu_faults_errors_expect.c)
  target_include_directories(kt_cpu_faults_tsan PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(kt_cpu_faults_tsan PRIVATE -fsanitize=thread)
  target_link_options(kt_cpu_faults_tsan PRIVATE -fsanitize=thread)
  kp_kernel_expect(cpu_faults_recover_tsan cpu_faults_tsan EXPECT success ARGS recover
    ENV ${cpu} TSAN_OPTIONS=halt_on_error=1
    STDOUT "assert again: kernel 'assert_at', block (0, 0, 0), thread (3, 0, 0)"
    "cpu_faults recover: finished" LACKS "ThreadSanitizer")
  kp_kernel_expect(cpu_faults_past_end_tsan cpu_faults_tsan EXPECT fail ARGS past_end ENV ${cpu}
    STDERR "kernplug: error: kernel 'write_past_end', block (1, 0, 0), thread (31, 0, 0): invalid memory access (SIGSEGV)")
elseif(NOT KP_HAVE_TSAN)
  message(STATUS "kernplug: no ThreadSanitizer runtime for ${CMAKE_C_COMPILER}: "
                 "kernel.cpu_faults_*_tsan not built")
endif()
