// What device code cannot do, located at the offending expression, with a
// note naming the kernel that makes a helper device code.
#include <kernplug.h>
#include <stdlib.h>

int counter;
extern const int table[4];
__thread int tls;
void host_only(void);

static int helper(int *p) {
  host_only();
  // DIAG-DAG: diag_device_code.c:[[@LINE-1]]:3: error: 'host_only' has no definition in this file and is not provided on the GPU
  void *m = malloc(4);
  // DIAG-DAG: diag_device_code.c:[[@LINE-1]]:13: error: 'malloc' has no definition in this file
  // DIAG-DAG: note: 'helper' is device code because kernel 'uses_helper' reaches it
  return p[0] + (m != 0);
}

__attribute__((kernel)) void uses_helper(int *p) { p[1] = helper(p); }

__attribute__((kernel)) void bad_globals(int *p) {
  counter++;
  // DIAG-DAG: [[@LINE-1]]:3: error: device code cannot use the non-const global variable 'counter'; pass it to the kernel as an argument
  p[0] = table[1];
  // DIAG-DAG: [[@LINE-1]]:10: error: const global 'table' has no initializer in this file
  p[1] = tls;
  // DIAG-DAG: [[@LINE-1]]:10: error: device code cannot use the thread-local variable 'tls'
  static int st;
  // DIAG-DAG: [[@LINE-1]]:14: error: static variable 'st' in device code must be const, or a 'shared' array
  p[2] = st;
  float vla[p[3]];
  // DIAG-DAG: [[@LINE-1]]:9: error: variable-length array 'vla' is not supported in device code (GPU threads have no dynamic stack)
  vla[0] = 1;
  p[4] = (int)vla[0];
}

__attribute__((kernel)) void bad_constructs(int *p, double d) {
  long double x = d;
  // DIAG-DAG: [[@LINE-1]]:15: error: 'long double' is not supported in device code; use double
  p[0] = (int)x;
  __asm__ volatile("nop");
  // DIAG-DAG: [[@LINE-1]]:3: error: inline assembly is not supported in device code
  int (*fp)(int *) = helper;
  // DIAG-DAG: [[@LINE-1]]:22: error: device code cannot take the address of function 'helper'
  p[1] = fp(p);
  // DIAG-DAG: [[@LINE-1]]:10: error: device code cannot call through a function pointer
}

// Host code may do all of this.
int host_code(void) { counter++; host_only(); return tls; }


__attribute__((kernel)) void complex_ops(float _Complex *z, double _Complex *w) {
  z[0] = z[1] * z[2];
  // DIAG-DAG: [[@LINE-1]]:15: error: complex multiplication is not supported in device code with full-range checks; compile with -fcx-limited-range or -fcomplex-arithmetic=improved
  w[0] /= w[1];
  // DIAG-DAG: [[@LINE-1]]:8: error: complex division is not supported in device code with full-range checks
  z[3] = z[4] * 2.0f + z[5];
}
