/* debugger_expect.c — kernels gdb must stop in with their locals (debugger.cmake runs gdb in
 * batch mode on it, built -g -O0): a block-loop kernel, and one with a barrier, split at it or
 * run as fibers. The lines the gdb scripts break at are marked. */
#include "kernel_test.h"

__attribute__((device)) float twice(float v) {
  float doubled = 2.0f * v; /* BREAK device */
  return doubled;
}

__attribute__((kernel)) void scale(const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) {
    float v = twice(x[i]); /* BREAK scale */
    y[i] = v;
  }
}

__attribute__((kernel)) void reverse(float *y) {
  __attribute__((shared)) static float tile[64];
  int t = threadIdx.x;
  tile[t] = y[blockIdx.x * 64 + t];
  syncthreads();
  float v = tile[63 - t]; /* BREAK reverse */
  y[blockIdx.x * 64 + t] = v;
}

int main(void) {
  kt_start("debugger_expect");
  int n = 1000;
  float *x = device_array(float, n), *y = device_array(float, n);
  for (int i = 0; i < n; i++)
    x[i] = (float)i;
  launch(scale, 4, 256)(x, y, n);
  kp_synchronize();
  launch(reverse, 2, 64)(y);
  kp_synchronize();
  printf("debugger_expect: y[0] = %g\n", y[0]);
  kp_free(x);
  kp_free(y);
  return 0;
}
