/* abort() and assert() in device code, as CUDA C has them.
 *
 * The host copy of a kernel (CPU backend) calls the C library's abort() and __assert_fail(),
 * which cpu_fault.c turns into a launch error naming the kernel, block and thread. On the GPU
 * the same calls resolve here: abort() is a trap (the launch fails with
 * CUDA_ERROR_LAUNCH_FAILED); a failed assert() calls the driver's __assertfail, which prints
 * "file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `expr` failed." and fails the
 * launch with CUDA_ERROR_ASSERT — what nvcc's assert() does. */
#include "kp_device.h"

/* Provided by the CUDA driver, like vprintf (clang's CUDA headers declare it the same way). */
extern void __assertfail(const char *message, const char *file, unsigned line,
                         const char *function, size_t char_size);

__attribute__((noreturn)) void abort(void) { __builtin_trap(); }

/* glibc's assert() expands to this call; its signature is glibc's. */
__attribute__((noreturn)) void __assert_fail(const char *assertion, const char *file,
                                             unsigned line, const char *function) {
  __assertfail(assertion, file, line, function, sizeof(char));
  __builtin_trap(); /* __assertfail does not return; tell the compiler so */
}
