/* A nested function (GCC only) in a file with kernels: clang, which compiles the kernels'
 * half, cannot parse it, so it is a GCC error naming the construct, before clang runs. */
#include <kernplug.h>

__attribute__((kernel)) void k(float *x) { x[0] = 1; }

int apply(int v) {
  int twice(int a) { return 2 * a; }
  // DIAG: diag_nested_function.c:[[@LINE-1]]:{{[0-9]+}}: error: nested functions are a GCC extension clang cannot compile
  // DIAG-NOT: kernel side
  return twice(v);
}
