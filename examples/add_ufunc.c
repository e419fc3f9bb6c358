/* add_ufunc.c — seed 002's first GPU ufunc, for int64 and float32, with host arrays (copied
 * to the device and back by ufunc), a broadcast scalar, and device arrays with an `out=`
 * device array (no transfer at all until copy_to_host).
 *
 *   @vectorize(['int64(int64, int64)', 'float32(float32, float32)'], target='cuda')
 *   def add_ufunc(x, y):
 *       return x + y
 *
 *   a = np.array([1, 2, 3, 4]); b = np.array([10, 20, 30, 40])
 *   add_ufunc(a, b)                                # array([11, 22, 33, 44])
 *   add_ufunc(a, 100)                              # array([101, 102, 103, 104])
 *   x_device = cuda.to_device(x); y_device = cuda.to_device(y)
 *   out_device = cuda.device_array(shape=(n,), dtype=np.float32)
 *   add_ufunc(x_device, y_device, out=out_device)
 *   out_host = out_device.copy_to_host()           # [ 0.  3.  6.  9. 12. ...]
 *
 * One C function serves both signatures: the generated kernels convert each element to the C
 * parameter type (double: exact for float32 and for int64 up to 2^53) and the result back. */
#include <stdint.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((vectorize("int64(int64, int64)", "float32(float32, float32)")))
double add_ufunc(double x, double y) {
  return x + y;
}

int main(void) {
  const char *backend = example_start("add_ufunc");
  int bad = 0;
  double t0 = example_now_ms();

  /* int64 on host arrays, then with a scalar broadcast */
  int64_t a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, c[4];
  ufunc(add_ufunc, 4, c, a, b);
  printf("add_ufunc(a, b) = [%lld %lld %lld %lld]\n", (long long)c[0], (long long)c[1],
         (long long)c[2], (long long)c[3]);
  for (int i = 0; i < 4; i++) bad += c[i] != a[i] + b[i];
  ufunc(add_ufunc, 4, c, a, 100);
  printf("add_ufunc(a, 100) = [%lld %lld %lld %lld]\n", (long long)c[0], (long long)c[1],
         (long long)c[2], (long long)c[3]);
  for (int i = 0; i < 4; i++) bad += c[i] != a[i] + 100;

  /* float32 on device arrays, the output left on the device */
  enum { n = 100000 };
  static float x[n], y[n], out_host[n];
  for (int i = 0; i < n; i++) x[i] = (float)i, y[i] = 2 * x[i];
  float *x_device = to_device(x, n), *y_device = to_device(y, n);
  float *out_device = device_array(float, n);
  ufunc(add_ufunc, n, out_device, x_device, y_device);
  copy_to_host(out_host, out_device, n);
  double ms = example_now_ms() - t0;
  printf("out_host[:10] = [");
  for (int i = 0; i < 10; i++) printf("%s%g", i ? " " : "", out_host[i]);
  printf("]\n");
  for (int i = 0; i < n; i++) bad += out_host[i] != x[i] + y[i];

  printf("add_ufunc: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  kp_free(x_device);
  kp_free(y_device);
  kp_free(out_device);
  return bad ? 1 : 0;
}
