/* checked_expect.c — KP_CHECK, the CPU backend's checked mode (checked.cmake). Built with
 * -fplugin-arg-kernplug-check. Each argument plants one bug; under KP_CHECK the launch must
 * fail naming the kernel, block, thread, parameter or array, offset and size. "clean" runs
 * correct kernels of every kind checked (they must pass), "reduce" the same reduction without
 * reduce7's bad shuffle. */
#include <string.h>

#include "kernel_test.h"

enum { N = 1000, BLOCK = 256 };

/* One element too far: y[n] for the last thread. */
__attribute__((kernel)) void write_past_end(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    y[i] = 1.0f;
}

/* x[i - 1] for thread 0 of block 0. */
__attribute__((kernel)) void read_before_start(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i - 1];
}

/* Through a helper, and from an argument that points into its allocation. */
static void store_at(float *p, int i, float v) { p[i] = v; }
__attribute__((kernel)) void helper_past_end(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    store_at(y, i, 2.0f);
}

/* tile[blockDim.x - 1] with a 64-element array and 65 threads. */
__attribute__((kernel)) void shared_static_past_end(float *y) {
  static __attribute__((shared)) float tile[64];
  tile[threadIdx.x] = (float)threadIdx.x;
  syncthreads();
  y[threadIdx.x] = tile[0];
}

/* One element past the dynamic shared bytes the launch asked for. */
__attribute__((kernel)) void shared_dynamic_past_end(float *y, int n) {
  float *buf = kp_dynamic_shared(float);
  buf[threadIdx.x] = 1.0f; /* n + 1 threads, n floats */
  syncthreads();
  if ((int)threadIdx.x < n)
    y[threadIdx.x] = buf[threadIdx.x];
}

/* cuda-samples' reduce7, its last stage: the first warp adds the per-warp sums with
 * shfl_down_sync over a mask of the lanes that hold one (blockDim.x / 32 of them), so lane 0
 * reads lane 16, outside the mask, when there are fewer than 32 warps (on the CPU it got its
 * own value back and the sum came out wrong). safe=1: the whole first warp takes part, the
 * lanes without a partial sum adding 0. */
__attribute__((kernel)) void reduce7_tail(const int *x, int *sum, int safe) {
  static __attribute__((shared)) int partial[32];
  unsigned tid = threadIdx.x, lane = tid % 32, warps = blockDim.x / 32;
  int v = x[blockIdx.x * blockDim.x + tid];
  for (int offset = 16; offset > 0; offset /= 2)
    v += shfl_down_sync(0xffffffffu, v, offset);
  if (lane == 0)
    partial[tid / 32] = v;
  syncthreads();
  if (safe) { /* the whole first warp, lanes without a partial sum adding 0 */
    if (tid < 32) {
      v = tid < warps ? partial[tid] : 0;
      for (int offset = 16; offset > 0; offset /= 2)
        v += shfl_down_sync(0xffffffffu, v, offset);
    }
  } else {
    unsigned mask = ballot_sync(0xffffffffu, tid < warps);
    if (tid < warps) {
      v = partial[tid];
      for (int offset = 16; offset > 0; offset /= 2)
        v += shfl_down_sync(mask, v, offset);
    }
  }
  if (tid == 0)
    atomic_add(sum, v);
}

__attribute__((kernel)) void copy_shared(const float *x, float *y, int n) {
  static __attribute__((shared)) float tile[BLOCK];
  float *buf = kp_dynamic_shared(float);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  buf[threadIdx.x] = tile[threadIdx.x] * 2.0f;
  syncthreads();
  if (i < n)
    store_at(y, i, buf[threadIdx.x]);
}

static float *filled(int n) {
  float *p = device_array(float, n);
  for (int i = 0; i < n; i++)
    p[i] = (float)i;
  return p;
}

static int run_reduce(int safe) {
  enum { THREADS = 256, BLOCKS = 4 };
  int *x = device_array(int, THREADS * BLOCKS), *sum = device_array(int, 1);
  for (int i = 0; i < THREADS * BLOCKS; i++)
    x[i] = 1;
  sum[0] = 0;
  launch(reduce7_tail, BLOCKS, THREADS)(x, sum, safe);
  kp_synchronize();
  int got = sum[0];
  kp_free(x);
  kp_free(sum);
  return got;
}

int main(int argc, char **argv) {
  kt_start("checked_expect");
  const char *what = argc > 1 ? argv[1] : "clean";
  float *x = filled(N), *y = device_array(float, N);
  int blocks = (N + BLOCK - 1) / BLOCK;
  if (strcmp(what, "write_past_end") == 0) {
    launch(write_past_end, blocks, BLOCK)(y, N);
  } else if (strcmp(what, "read_before_start") == 0) {
    launch(read_before_start, blocks, BLOCK)(x, y, N);
  } else if (strcmp(what, "helper_interior") == 0) {
    launch(helper_past_end, blocks, BLOCK)(y + 100, N - 99);
  } else if (strcmp(what, "shared_static") == 0) {
    launch(shared_static_past_end, 1, 65)(y);
  } else if (strcmp(what, "shared_dynamic") == 0) {
    launch(shared_dynamic_past_end, 1, 33, 32 * sizeof(float))(y, 32);
  } else if (strcmp(what, "shuffle") == 0) {
    printf("sum %d\n", run_reduce(0));
  } else if (strcmp(what, "clean") == 0) {
    launch(copy_shared, blocks, BLOCK, BLOCK * sizeof(float))(x, y, N);
    kp_synchronize();
    for (int i = 0; i < N; i++)
      KT_CHECK(y[i] == 2.0f * (float)i, "y[%d] = %g", i, (double)y[i]);
    launch(write_past_end, blocks, BLOCK)(y, N - 1);
    launch(helper_past_end, blocks, BLOCK)(y + 100, N - 100);
    int sum = run_reduce(1);
    KT_CHECK(sum == 1024, "reduce7 (safe shuffles): sum %d, expected 1024", sum);
  } else {
    fprintf(stderr, "checked_expect: unknown case %s\n", what);
    return 2;
  }
  kp_synchronize();
  kp_free(x);
  kp_free(y);
  printf("checked_expect: %s ran through\n", what);
  return 0;
}
