/* saxpy.c — y = a*x + y on the GPU (or the CPU backend), then the sum of y with a reduce
 * function; checks both against the host and exits non-zero on a mismatch.
 *
 * The out-of-tree example: built against an installed kernplug with find_package(kernplug)
 * (CMakeLists.txt), pkg-config or kpcc (Makefile). See README.md here and docs/compiling.md. */
#include <kernplug.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((kernel)) void saxpy(float a, const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) y[i] = a * x[i] + y[i];
}

__attribute__((reduce)) float sum(float a, float b) { return a + b; }

int main(void) {
  enum { n = 100000 };
  const float a = 2.0f;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  if (!x || !y) return 1;
  for (int i = 0; i < n; i++) x[i] = (float)(i % 100), y[i] = 1.0f;

  float *d_x = to_device(x, n), *d_y = to_device(y, n);
  int threads = 256, blocks = (n + threads - 1) / threads;
  launch(saxpy, blocks, threads)(a, d_x, d_y, n);
  float total = kp_reduce(sum, d_y, n); /* sums the device array where it is */
  copy_to_host(y, d_y, n);

  int bad = 0;
  double want_total = 0;
  for (int i = 0; i < n; i++) {
    float want = a * (float)(i % 100) + 1.0f;
    bad += y[i] != want;
    want_total += want;
  }
  /* Exact: every partial sum is an integer below 2^24. */
  bad += fabs(total - want_total) > 0.5;
  printf("saxpy: %s backend, y[99] = %g, sum(y) = %.0f (host: %.0f), %s\n", kp_backend_name(),
         y[99], total, want_total, bad ? "FAIL" : "OK");
  kp_free(d_x);
  kp_free(d_y);
  free(x);
  free(y);
  return bad ? 1 : 0;
}
