// A kernel argument of another pointer type is reported with the kernel and the parameter
// even when the file has other errors: clang 22 makes the argument itself an error
// (-Wincompatible-pointer-types is an error there by default), so kernplug's check cannot
// wait for an error-free file. An unrelated error here makes both clangs take that path.
// Checks after errors cover kernel calls only: launch_bounds and constant-memory checks need
// a valid file, and calls clang could not build are skipped.
#include <kernplug.h>

__attribute__((kernel)) void scale(float *x, float a, int n) {
  int i = grid(1);
  if (i < n) x[i] *= a;
}

void host(int *ip, float *fp) {
  int broken = undeclared_name;
  // DIAG: diag_launch_args_after_error.c:[[@LINE-1]]:16: error: use of undeclared identifier 'undeclared_name'
  (void)broken;
  launch(scale, 1, 32)(ip, 2.0f, 4);
  // DIAG: diag_launch_args_after_error.c:[[@LINE-1]]:24: error: argument 1 of kernel 'scale' has type 'int *', but parameter 'x' is 'float *'
  launch(scale, 1, 32)(ip, 2.0f, undeclared_too); // clang could not build it: not checked
  scale(fp, 1.0f, 4);
}
// DIAG-NOT: error: argument
