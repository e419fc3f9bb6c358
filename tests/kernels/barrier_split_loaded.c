/* barrier_split_loaded.c — barriers in loops whose trip count is read from memory: from a
 * parameter array (the same for the whole grid, or per block), and from a shared variable
 * one thread wrote before a barrier. Such a load is the same in every thread of a block, so
 * the CPU backend splits these kernels at their barriers (tests/compile/remark_cpu_barriers.c
 * checks that choice); also built with cpu-barriers=fibers (barrier_paths.cmake). Each result
 * is compared with plain C. */
#include <stdlib.h>

#include "kernel_test.h"

enum { MAX_T = 1024 };

/* params[0] rounds for every block, then params[1 + blockIdx.x] more; out written in the
 * interval that also reads the bound. */
__attribute__((kernel)) void loaded_rounds(const int *params, const int *in, int *out) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = blockDim.x, t = threadIdx.x;
  int v = in[blockIdx.x * n + t];
  for (int r = 0; r < params[0]; r++) {
    buf[t] = v;
    syncthreads();
    v = (v + 3 * buf[(t + 1 + (unsigned)r) % n]) % 100003;
    syncthreads();
  }
  for (int r = 0; r < params[1 + blockIdx.x]; r++) {
    buf[t] = v;
    syncthreads();
    v = (v * 5 + buf[n - 1 - t]) % 100019;
    syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

/* Thread 0 decides the number of rounds (into shared memory); every thread reads it after
 * the barrier. */
__attribute__((kernel)) void shared_bound(const int *in, int *out) {
  static __attribute__((shared)) int s_rounds[1];
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = blockDim.x, t = threadIdx.x;
  int v = in[blockIdx.x * n + t];
  if (t == 0) s_rounds[0] = in[blockIdx.x * n] % 4 + 1;
  syncthreads();
  for (int r = 0; r < s_rounds[0]; r++) {
    buf[t] = v;
    syncthreads();
    v += buf[(t + 2) % n];
    syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

static void reference_rounds(int *v, int *tmp, unsigned n, int rounds, int kind) {
  for (int r = 0; r < rounds; r++) {
    for (unsigned t = 0; t < n; t++) tmp[t] = v[t];
    for (unsigned t = 0; t < n; t++)
      v[t] = kind == 0   ? (v[t] + 3 * tmp[(t + 1 + (unsigned)r) % n]) % 100003
             : kind == 1 ? (v[t] * 5 + tmp[n - 1 - t]) % 100019
                         : v[t] + tmp[(t + 2) % n];
  }
}

static void check(unsigned n, unsigned blocks) {
  unsigned total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  int *ref = malloc(total * sizeof *ref), *tmp = malloc(n * sizeof *tmp);
  int *params = malloc((blocks + 1) * sizeof *params);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 37 + 11) % 1000);
  params[0] = 3;
  for (unsigned b = 0; b < blocks; b++) params[1 + b] = (int)(b % 3);
  int *d_in = device_array(int, total), *d_out = device_array(int, total);
  int *d_params = device_array(int, blocks + 1);
  copy_to_device(d_in, in, total);
  copy_to_device(d_params, params, blocks + 1);

  launch(loaded_rounds, blocks, n)(d_params, d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    int *v = ref + b * n;
    for (unsigned t = 0; t < n; t++) v[t] = in[b * n + t];
    reference_rounds(v, tmp, n, params[0], 0);
    reference_rounds(v, tmp, n, params[1 + b], 1);
  }
  for (unsigned i = 0; i < total; i++)
    KT_CHECK(out[i] == ref[i], "loaded_rounds %u: out[%u] = %d, expected %d", n, i, out[i],
             ref[i]);

  launch(shared_bound, blocks, n)(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    int *v = ref + b * n;
    for (unsigned t = 0; t < n; t++) v[t] = in[b * n + t];
    reference_rounds(v, tmp, n, in[b * n] % 4 + 1, 2);
  }
  for (unsigned i = 0; i < total; i++)
    KT_CHECK(out[i] == ref[i], "shared_bound %u: out[%u] = %d, expected %d", n, i, out[i],
             ref[i]);
  kp_free(d_in), kp_free(d_out), kp_free(d_params);
  free(in), free(out), free(ref), free(tmp), free(params);
}

int main(void) {
  kt_start("barrier_split_loaded");
  check(1, 3);
  check(64, 5);
  check(100, 4);
  check(1024, 2);
  printf("barrier_split_loaded: OK\n");
  return 0;
}
