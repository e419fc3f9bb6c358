/* gufunc_scalar_fake_expect.c — on the fake CUDA driver (gufunc.cmake checks its log): a "()"
 * input taken by value reaches the kernel as the parameter's own bytes (2.5 as a float,
 * 0x40200000; -3 as a signed char, 0xfd), with nothing staged for it. */
#include "kernel_test.h"

__attribute__((guvectorize("(n),(),()->(n)"))) void scale_row(const float *x, float a,
                                                              signed char b, float *o, int n) {
  for (int i = 0; i < n; i++) o[i] = a * x[i] + b;
}

int main(void) {
  kt_start("gufunc_scalar_fake");
  static float x[10 * 7], o[10 * 7];
  KT_CHECK(gufunc(scale_row, 10, x, 2.5, -3, o, 7) == KP_SUCCESS, "gufunc");
  printf("gufunc_scalar_fake: finished\n");
  return 0;
}
