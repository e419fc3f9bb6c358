// The kernel collector lists kernels before vectorize, guvectorize and reduce functions, so
// the -save-temps error names a kernel even when a vectorize function is defined first.
// DIAG: error: kernplug: 'scale' ({{.*}}diag_save_temps_order.c:10) and the other kernels of this file would not be compiled
#include "kernplug.h"

__attribute__((vectorize("float32(float32)"))) float half(float x) { return x / 2; }

__attribute__((reduce)) int add(int a, int b) { return a + b; }

__attribute__((kernel)) void scale(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] *= 3;
}
