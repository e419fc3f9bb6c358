/* barrier_split_flags.c — per-thread flags tested after a barrier, as Rodinia hotspot's
 * `computed`: the CPU backend's split entry recomputes such a flag after the barrier from the
 * branches that set it (BarrierFission.cpp, recomputeFlags) instead of saving it per thread,
 * where the branches' conditions can be recomputed (thread indices, arguments, a loop's
 * counter); a flag set under a condition on memory is saved as before. 1D pyramids of a
 * varying number of steps over blocks of 64 threads, compared with the same computation in
 * plain C, block by block. */
#include <math.h>
#include <stdlib.h>

#include "kernel_test.h"

enum { B = 64, MAX_STEPS = 8 };

/* A flag on the thread's indices and the loop's counter: recomputed after the barriers. */
__attribute__((kernel)) void pyramid(const float *in, float *out, int n, int steps) {
  static __attribute__((shared)) float cur[B];
  static __attribute__((shared)) float nxt[B];
  int tx = (int)threadIdx.x;
  int out_w = B - 2 * steps;
  int gx = (int)blockIdx.x * out_w + tx - steps;
  int inside = gx >= 0 && gx < n;
  cur[tx] = inside ? in[gx] : 0.0f;
  syncthreads();
  int computed = 0;
  for (int step = 0; step < steps; step++) {
    computed = 0;
    if (inside && tx > step && tx < B - 1 - step) {
      computed = 1;
      nxt[tx] = 0.25f * cur[tx - 1] + 0.5f * cur[tx] + 0.25f * cur[tx + 1] + (float)step;
    }
    syncthreads();
    if (computed)
      cur[tx] = nxt[tx];
    syncthreads();
  }
  if (computed && tx >= steps && tx < B - steps)
    out[gx] = cur[tx];
}

/* The same with the flag also set under a condition on the data: saved per thread. */
__attribute__((kernel)) void pyramid_data(const float *in, float *out, int n, int steps) {
  static __attribute__((shared)) float cur[B];
  static __attribute__((shared)) float nxt[B];
  int tx = (int)threadIdx.x;
  int out_w = B - 2 * steps;
  int gx = (int)blockIdx.x * out_w + tx - steps;
  int inside = gx >= 0 && gx < n;
  cur[tx] = inside ? in[gx] : 0.0f;
  syncthreads();
  int computed = 0;
  for (int step = 0; step < steps; step++) {
    computed = 0;
    if (inside && tx > step && tx < B - 1 - step && cur[tx] < 1000.0f) {
      computed = 1;
      nxt[tx] = 0.25f * cur[tx - 1] + 0.5f * cur[tx] + 0.25f * cur[tx + 1] + (float)step;
    }
    syncthreads();
    if (computed)
      cur[tx] = nxt[tx];
    syncthreads();
  }
  if (computed && tx >= steps && tx < B - steps)
    out[gx] = cur[tx];
}

/* One block of the kernels above in plain C: the threads' steps one after another. */
static void reference(const float *in, float *out, int n, int steps, int data_cond) {
  int out_w = B - 2 * steps;
  int blocks = (n + out_w - 1) / out_w;
  for (int b = 0; b < blocks; b++) {
    float cur[B], nxt[B];
    int computed[B];
    for (int tx = 0; tx < B; tx++) {
      int gx = b * out_w + tx - steps;
      cur[tx] = gx >= 0 && gx < n ? in[gx] : 0.0f;
      computed[tx] = 0;
    }
    for (int step = 0; step < steps; step++) {
      for (int tx = 0; tx < B; tx++) {
        int gx = b * out_w + tx - steps;
        computed[tx] = gx >= 0 && gx < n && tx > step && tx < B - 1 - step &&
                       (!data_cond || cur[tx] < 1000.0f);
        if (computed[tx])
          nxt[tx] = 0.25f * cur[tx - 1] + 0.5f * cur[tx] + 0.25f * cur[tx + 1] + (float)step;
      }
      for (int tx = 0; tx < B; tx++)
        if (computed[tx])
          cur[tx] = nxt[tx];
    }
    for (int tx = 0; tx < B; tx++) {
      int gx = b * out_w + tx - steps;
      if (computed[tx] && tx >= steps && tx < B - steps)
        out[gx] = cur[tx];
    }
  }
}

static void check(int n, int steps, int data_cond) {
  float *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  float *ref = malloc((size_t)n * sizeof *ref);
  for (int i = 0; i < n; i++) {
    in[i] = (float)((i * 37 + 11) % 101) * (data_cond && i % 7 == 3 ? 20.0f : 0.5f);
    out[i] = ref[i] = -1.0f;
  }
  reference(in, ref, n, steps, data_cond);
  float *din = device_array(float, (size_t)n), *dout = device_array(float, (size_t)n);
  copy_to_device(din, in, (size_t)n);
  copy_to_device(dout, out, (size_t)n);
  unsigned blocks = (unsigned)((n + B - 2 * steps - 1) / (B - 2 * steps));
  if (data_cond)
    launch(pyramid_data, blocks, B)(din, dout, n, steps);
  else
    launch(pyramid, blocks, B)(din, dout, n, steps);
  copy_to_host(out, dout, (size_t)n);
  for (int i = 0; i < n; i++)
    KT_CHECK(fabsf(out[i] - ref[i]) <= 1e-4f * fmaxf(1.0f, fabsf(ref[i])),
             "%s n=%d steps=%d: out[%d] = %.6f, expected %.6f",
             data_cond ? "pyramid_data" : "pyramid", n, steps, i, out[i], ref[i]);
  kp_free(din), kp_free(dout);
  free(in), free(out), free(ref);
}

int main(void) {
  kt_start("barrier_split_flags");
  for (int data_cond = 0; data_cond < 2; data_cond++)
    for (int steps = 1; steps <= MAX_STEPS; steps++) {
      check(1000, steps, data_cond);
      check(57, steps, data_cond); /* fewer than a block */
      check(1, steps, data_cond);
    }
  printf("barrier_split_flags: ok\n");
  return 0;
}
