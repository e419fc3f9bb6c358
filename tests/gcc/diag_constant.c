/* gcc -fplugin=kernplug_gcc.so: `constant` variables used wrongly are errors of clang's half
 * (which compiles the whole file's front end), at the original lines and columns, once, with
 * the clang plugin's messages (tests/compile/diag_constant.c); GCC
 * adds that the kernel side failed. */
#include <kernplug.h>

__attribute__((constant)) float table[8];
extern __attribute__((constant)) float elsewhere[8];
// DIAG-DAG: diag_constant.c:[[@LINE-1]]:40: error: constant variable 'elsewhere' must be defined in this file (kernels of other files cannot see it)
_Thread_local __attribute__((constant)) int per_thread;
// DIAG-DAG: diag_constant.c:[[@LINE-1]]:45: error: constant variable 'per_thread' cannot be thread-local

__attribute__((kernel)) void k(float *out) {
  table[threadIdx.x] = 1;
  // DIAG-DAG: diag_constant.c:[[@LINE-1]]:22: error: 'table' is constant memory, read-only in C code: fill it from the host with kp_copy_to_constant(table, src, bytes)
  out[threadIdx.x] = table[threadIdx.x] + elsewhere[0];
}

void host(void) {
  table[0] = 3;
  // DIAG-DAG: diag_constant.c:[[@LINE-1]]:12: error: 'table' is constant memory, read-only in C code
  float t[8] = {0};
  kp_copy_to_constant(table, t, sizeof t); // the way to fill it
}
// DIAG: error: kernplug-gcc: the kernel side of '{{.*}}diag_constant.c'
// DIAG-NOT: error
