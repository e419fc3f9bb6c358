/* app.c — kernels calling the device functions of physics.c (tests/rdc). With the argument
 * "launch-only" it launches without checking results (the fake driver runs no kernels). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics.h"

__attribute__((kernel)) void step(float *f, float *e, const float *x, int n) {
  int i = grid(1);
  if (i < n) {
    f[i] = physics_force(x[i], 2.0f);
    e[i] = physics_energy(x[i], 2.0f);
  }
}

__attribute__((kernel)) void block_sums(float *out, const float *x) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = physics_block_sum(x[i]);
}

int main(int argc, char **argv) {
  enum { N = 1000, THREADS = 128, BLOCKS = 4 };
  int check = !(argc > 1 && strcmp(argv[1], "launch-only") == 0);
  static float x[N], f[N], e[N], s[BLOCKS * THREADS];
  for (int i = 0; i < N; i++) x[i] = (float)(i % 97) / 97.0f - 0.5f;
  float *dx = to_device(x, N), *df = device_array(float, N), *de = device_array(float, N);
  launch(step, (N + THREADS - 1) / THREADS, THREADS)(df, de, dx, N);
  float *ds = device_array(float, BLOCKS * THREADS);
  launch(block_sums, BLOCKS, THREADS)(ds, dx);
  copy_to_host(f, df, N);
  copy_to_host(e, de, N);
  copy_to_host(s, ds, BLOCKS * THREADS);
  kp_free(dx);
  kp_free(df);
  kp_free(de);
  kp_free(ds);
  if (!check) {
    puts("launched");
    return 0;
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += f[i] != -2.0f * x[i] || fabsf(e[i] - x[i] * x[i]) > 1e-6f;
  for (int b = 0; b < BLOCKS; b++) {
    float want = 0;
    for (int t = 0; t < THREADS; t++) want += x[b * THREADS + t];
    for (int t = 0; t < THREADS; t++) bad += fabsf(s[b * THREADS + t] - want) > 1e-3f;
  }
  printf("%s: %d wrong\n", bad ? "FAIL" : "ok", bad);
  return bad != 0;
}
