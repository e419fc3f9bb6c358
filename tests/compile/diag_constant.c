// `constant` variables: declared at file scope and defined here, never written by C code
// (kernels or host), each an error at the place.
#include <kernplug.h>

__attribute__((constant)) float table[8];
__attribute__((constant)) struct { int n; float w[4]; } params;
extern __attribute__((constant)) float elsewhere[8];
// DIAG-DAG: diag_constant.c:[[@LINE-1]]:40: error: constant variable 'elsewhere' must be defined in this file (kernels of other files cannot see it)
_Thread_local __attribute__((constant)) int per_thread;
// DIAG-DAG: diag_constant.c:[[@LINE-1]]:45: error: constant variable 'per_thread' cannot be thread-local

__attribute__((kernel)) void k(float *out) {
  table[threadIdx.x] = 1;
  // DIAG-DAG: diag_constant.c:[[@LINE-1]]:22: error: 'table' is constant memory, read-only in C code: fill it from the host with kp_copy_to_constant(table, src, bytes)
  params.w[1] += 2;
  // DIAG-DAG: diag_constant.c:[[@LINE-1]]:15: error: 'params' is constant memory, read-only in C code
  params.n++;
  // DIAG-DAG: diag_constant.c:[[@LINE-1]]:11: error: 'params' is constant memory, read-only in C code
  out[threadIdx.x] = table[threadIdx.x] + params.w[0] + elsewhere[0];
}

void host(void) {
  table[0] = 3;
  // DIAG-DAG: diag_constant.c:[[@LINE-1]]:12: error: 'table' is constant memory, read-only in C code
  float t[8] = {0};
  kp_copy_to_constant(table, t, sizeof t); // the way to fill it
}
