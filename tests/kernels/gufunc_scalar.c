/* gufunc_scalar.c — a "()" input taken by value ('(n),()->(n)', numba's gufunc called with a
 * Python number): every block gets the same number, converted to the parameter's type as a C
 * assignment would (a double literal into a float, an int into a double, a negative number
 * into a signed char), beside a "()" input passed as an array (one element per block), on host,
 * device and managed arrays. */
#include "kernel_test.h"

__attribute__((guvectorize("(n),()->(n)"))) void scale_row(const float *x, float a, float *o,
                                                           int n) {
  for (int i = 0; i < n; i++) o[i] = a * x[i];
}

/* One by-value "()" input, one per-block "()" array, a signed char by value. */
__attribute__((guvectorize("(n),(),(),()->()"))) void affine_sum(const double *x,
                                                                 const double *shift,
                                                                 double scale, signed char bias,
                                                                 double *out, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) acc += x[i];
  *out = acc * scale + shift[0] + bias;
}

enum { BLOCKS = 50, N = 7 };

int main(void) {
  kt_start("gufunc_scalar");
  static float x[BLOCKS * N], o[BLOCKS * N];
  for (int i = 0; i < BLOCKS * N; i++) x[i] = (float)(i % 11) - 5;
  KT_CHECK(gufunc(scale_row, BLOCKS, x, 2.5, o, N) == KP_SUCCESS, "scale_row, host arrays");
  for (int i = 0; i < BLOCKS * N; i++)
    KT_CHECK(o[i] == 2.5f * x[i], "scale_row: o[%d] = %g, expected %g", i, o[i], 2.5f * x[i]);

  float *dx = to_device(x, BLOCKS * N), *dout = device_array(float, BLOCKS * N);
  KT_CHECK(gufunc(scale_row, BLOCKS, dx, 3, dout, N) == KP_SUCCESS, "scale_row, device");
  copy_to_host(o, dout, BLOCKS * N);
  for (int i = 0; i < BLOCKS * N; i++)
    KT_CHECK(o[i] == 3.0f * x[i], "scale_row (device): o[%d] = %g, expected %g", i, o[i],
             3.0f * x[i]);
  kp_free(dx);
  kp_free(dout);

  double *xd = managed_array(double, BLOCKS * N), *shift = managed_array(double, BLOCKS);
  double *out = managed_array(double, BLOCKS);
  for (int i = 0; i < BLOCKS * N; i++) xd[i] = i % 5;
  for (int b = 0; b < BLOCKS; b++) shift[b] = b * 0.5, out[b] = -1;
  KT_CHECK(gufunc(affine_sum, BLOCKS, xd, shift, 2, -3, out, N) == KP_SUCCESS, "affine_sum");
  kp_synchronize();
  for (int b = 0; b < BLOCKS; b++) {
    double acc = 0;
    for (int i = 0; i < N; i++) acc += xd[b * N + i];
    double want = acc * 2 + b * 0.5 - 3;
    KT_CHECK(out[b] == want, "affine_sum: out[%d] = %g, expected %g", b, out[b], want);
  }
  kp_free(xd);
  kp_free(shift);
  kp_free(out);
  printf("gufunc_scalar: by-value operands reached every block\n");
  return 0;
}
