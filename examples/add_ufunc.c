/* add_ufunc.c — seed 002's first ufuncs: add_ten, then add_ufunc on int64 and float32, on
 * host arrays (copied to the device and back by ufunc), with a broadcast scalar, and on device
 * arrays with an `out=` device array (no transfer at all until copy_to_host), timed as the
 * seed times them.
 *
 *   @vectorize
 *   def add_ten(num):
 *       return num + 10
 *   add_ten(np.arange(10))                         # array([10, 11, ..., 19])
 *
 *   @vectorize(['int64(int64, int64)'], target='cuda')
 *   def add_ufunc(x, y):
 *       return x + y
 *   a = np.array([1, 2, 3, 4]); b = np.array([10, 20, 30, 40])
 *   c = np.arange(4*4).reshape((4,4))
 *   add_ufunc(a, b)                                # array([11, 22, 33, 44])
 *   add_ufunc(a, 100)                              # array([101, 102, 103, 104])
 *   %timeit np.add(b, c)                           # NumPy on CPU: 1.05 us
 *   %timeit add_ufunc(b, c)                        # Numba on GPU: 695 us
 *
 *   @vectorize(['float32(float32, float32)'], target='cuda')
 *   def add_ufunc(x, y):
 *       return x + y
 *   n = 100000
 *   x = np.arange(n).astype(np.float32); y = 2 * x
 *   %timeit add_ufunc(x, y)                        # host arrays: 1.14 ms
 *   x_device = cuda.to_device(x); y_device = cuda.to_device(y)
 *   %timeit add_ufunc(x_device, y_device)          # 563 us (the output still comes back)
 *   out_device = cuda.device_array(shape=(n,), dtype=np.float32)
 *   %timeit add_ufunc(x_device, y_device, out=out_device)   # 451 us
 *   out_host = out_device.copy_to_host()           # [ 0.  3.  6.  9. 12. ...]
 *
 * One C function serves both signatures: the generated kernels convert each element to the C
 * parameter type (double: exact for float32 and for int64 up to 2^53) and the result back.
 * ufunc() runs over n elements of flat arrays, so NumPy's broadcast of b (4) over the rows of
 * c (4 x 4) is one call per row. Timings are the mean of 100 calls (%timeit's mean); the calls
 * that leave their output on the device are followed by kp_synchronize(), since they return
 * without waiting for the kernel. Every result is checked against the host's sums. */
#include <stdint.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((vectorize("int64(int64)"))) long long add_ten(long long num) {
  return num + 10;
}

__attribute__((vectorize("int64(int64, int64)", "float32(float32, float32)")))
double add_ufunc(double x, double y) {
  return x + y;
}

enum { RUNS = 100 };

static void print_i64(const char *what, const int64_t *v, int n) {
  printf("%s = [", what);
  for (int i = 0; i < n; i++) printf("%s%lld", i ? " " : "", (long long)v[i]);
  printf("]\n");
}

int main(void) {
  const char *backend = example_start("add_ufunc");
  int bad = 0;

  /* add_ten(np.arange(10)) */
  int64_t nums[10], tens[10];
  for (int i = 0; i < 10; i++) nums[i] = i;
  ufunc(add_ten, 10, tens, nums);
  print_i64("add_ten(nums)", tens, 10);
  for (int i = 0; i < 10; i++) bad += tens[i] != nums[i] + 10;

  /* int64 on host arrays, with a scalar broadcast, and b broadcast over the rows of c */
  int64_t a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, out[4], c[4][4], bc[4][4], want[4][4];
  ufunc(add_ufunc, 4, out, a, b);
  print_i64("add_ufunc(a, b)", out, 4);
  for (int i = 0; i < 4; i++) bad += out[i] != a[i] + b[i];
  ufunc(add_ufunc, 4, out, a, 100);
  print_i64("add_ufunc(a, 100)", out, 4);
  for (int i = 0; i < 4; i++) bad += out[i] != a[i] + 100;
  for (int i = 0; i < 16; i++) c[i / 4][i % 4] = i;

  volatile int64_t zero = 0; /* read every run: the loop cannot be hoisted out */
  double t0 = example_now_ms();
  for (int r = 0; r < RUNS; r++)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) want[i][j] = b[j] + c[i][j] + zero; /* np.add(b, c) */
  double np_add_us = (example_now_ms() - t0) * 1e3 / RUNS;
  t0 = example_now_ms();
  for (int r = 0; r < RUNS; r++)
    for (int i = 0; i < 4; i++) ufunc(add_ufunc, 4, bc[i], b, c[i]);
  double bc_us = (example_now_ms() - t0) * 1e3 / RUNS;
  for (int i = 0; i < 4; i++) {
    print_i64(i ? "                " : "add_ufunc(b, c) ", bc[i], 4);
    for (int j = 0; j < 4; j++) bad += bc[i][j] != want[i][j];
  }
  printf("np.add(b, c) (host loop):   %10.3f us per loop\n", np_add_us);
  printf("add_ufunc(b, c) (4 calls):  %10.3f us per loop\n", bc_us);

  /* float32: host arrays, device inputs, then device inputs and output */
  enum { n = 100000 };
  static float x[n], y[n], out_host[n];
  for (int i = 0; i < n; i++) x[i] = (float)i, y[i] = 2 * x[i];
  t0 = example_now_ms();
  for (int r = 0; r < RUNS; r++) ufunc(add_ufunc, n, out_host, x, y);
  double host_us = (example_now_ms() - t0) * 1e3 / RUNS;
  for (int i = 0; i < n; i++) bad += out_host[i] != x[i] + y[i];

  float *x_device = to_device(x, n), *y_device = to_device(y, n);
  for (int i = 0; i < n; i++) out_host[i] = -1;
  t0 = example_now_ms();
  for (int r = 0; r < RUNS; r++) ufunc(add_ufunc, n, out_host, x_device, y_device);
  double dev_in_us = (example_now_ms() - t0) * 1e3 / RUNS;
  for (int i = 0; i < n; i++) bad += out_host[i] != x[i] + y[i];

  float *out_device = device_array(float, n);
  t0 = example_now_ms();
  for (int r = 0; r < RUNS; r++) ufunc(add_ufunc, n, out_device, x_device, y_device);
  kp_synchronize();
  double dev_us = (example_now_ms() - t0) * 1e3 / RUNS;
  copy_to_host(out_host, out_device, n);
  printf("add_ufunc(x, y) (host arrays):                    %10.3f us per loop\n", host_us);
  printf("add_ufunc(x_device, y_device):                    %10.3f us per loop\n", dev_in_us);
  printf("add_ufunc(x_device, y_device, out=out_device):    %10.3f us per loop\n", dev_us);
  printf("out_host[:10] = [");
  for (int i = 0; i < 10; i++) printf("%s%g", i ? " " : "", out_host[i]);
  printf("]\n");
  for (int i = 0; i < n; i++) bad += out_host[i] != x[i] + y[i];

  printf("add_ufunc: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", dev_us / 1e3);
  kp_free(x_device);
  kp_free(y_device);
  kp_free(out_device);
  return bad ? 1 : 0;
}
