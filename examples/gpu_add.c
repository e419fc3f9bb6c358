/* gpu_add.c — the array addition of seed 004: out = x + y for 1024 float32 elements, 128
 * threads per block and enough blocks to cover n.
 *
 *   @cuda.jit
 *   def gpu_add(x, y, out):
 *       idx = cuda.grid(1)
 *       out[idx] = x[idx] + y[idx]
 *   gpu_add[blockspergrid, threadsperblock](x, y, out)
 *
 * Numba copies the NumPy arrays implicitly; here the transfers are written out. */
#include "example_util.h"
#include "kernplug.h"

__attribute__((kernel)) void gpu_add(const float *x, const float *y, float *out) {
  int idx = grid(1);
  out[idx] = x[idx] + y[idx];
}

int main(void) {
  const char *backend = example_start("gpu_add");
  enum { n = 1024 };
  float x[n], y[n], out[n];
  for (int i = 0; i < n; i++) x[i] = (float)i, y[i] = (float)i, out[i] = -1;

  int threadsperblock = 128;
  int blockspergrid = (n + (threadsperblock - 1)) / threadsperblock;

  double t0 = example_now_ms();
  float *d_x = to_device(x, n), *d_y = to_device(y, n);
  float *d_out = device_array(float, n);
  launch(gpu_add, blockspergrid, threadsperblock)(d_x, d_y, d_out);
  copy_to_host(out, d_out, n);
  double ms = example_now_ms() - t0;

  int bad = 0;
  for (int i = 0; i < n; i++) bad += out[i] != x[i] + y[i];
  printf("First 5 elements of output: [%g %g %g %g %g]\n", out[0], out[1], out[2], out[3],
         out[4]);
  printf("gpu_add: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  kp_free(d_x);
  kp_free(d_y);
  kp_free(d_out);
  return bad ? 1 : 0;
}
