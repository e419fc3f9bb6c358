/* barrier_split.c — kernels whose barriers are all in control flow that is the same for the
 * whole block: the CPU backend splits them at the barriers into loops over the block's
 * threads (no fibers; tests/compile/remark_cpu_barriers.c checks that choice). Built twice:
 * kt_barrier_split (split) and kt_barrier_split_fibers (cpu-barriers=fibers); both must
 * give the host's results, as must a GPU. */
#include <stdlib.h>

#include "kernel_test.h"

enum { TILE = 16, MAX_T = 1024 };

/* The numba-cuda docs' fast_matmul on ragged sizes: C (m x n) = A (m x k) * B (k x n). */
__attribute__((kernel)) void tiled_matmul(const float *A, const float *B, float *C, int m, int k,
                                          int n) {
  static __attribute__((shared)) float sA[TILE][TILE];
  static __attribute__((shared)) float sB[TILE][TILE];
  int col = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  int row = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
    int a_col = (int)tx + t * TILE, b_row = (int)ty + t * TILE;
    sA[ty][tx] = row < m && a_col < k ? A[row * k + a_col] : 0.0f;
    sB[ty][tx] = col < n && b_row < k ? B[b_row * n + col] : 0.0f;
    syncthreads();
    for (int j = 0; j < TILE; j++) acc += sA[ty][j] * sB[j][tx];
    syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = acc;
}

static unsigned linear_tid(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* A loop whose trip count comes from an argument, two barriers per round: each round every
 * thread reads its neighbour's value of the previous round. */
__attribute__((kernel)) void rounds(const int *in, int *out, int count) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = blockDim.x * blockDim.y * blockDim.z, t = linear_tid();
  int v = in[blockIdx.x * n + t];
  for (int r = 0; r < count; r++) {
    buf[t] = v;
    syncthreads();
    v = (v + 3 * buf[(t + 1 + (unsigned)r) % n]) % 100003;
    syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

/* Barriers inside a device function, called twice: the value of the thread `shift` ahead. */
__attribute__((device)) int rotate(int v, unsigned shift) {
  static __attribute__((shared)) int ring[MAX_T];
  unsigned n = blockDim.x * blockDim.y * blockDim.z, t = linear_tid();
  ring[t] = v;
  syncthreads();
  int r = ring[(t + shift) % n];
  syncthreads(); /* the next call's stores must not overtake this call's loads */
  return r;
}

__attribute__((kernel)) void rotate_twice(const int *in, int *out) {
  unsigned n = blockDim.x * blockDim.y * blockDim.z, t = linear_tid();
  int v = in[blockIdx.x * n + t];
  out[blockIdx.x * n + t] = rotate(v, 1) * 1000 + rotate(v, 5) % 1000;
}

/* Values computed before a barrier and used after it: uniform and thread-dependent scalars,
 * a double, a local array indexed at run time (stays an array), and a uniform early return. */
__attribute__((kernel)) void live_values(const int *in, int *out, int scale, int skip) {
  static __attribute__((shared)) int mirror[MAX_T];
  if (skip) return; /* the same for every thread: fine before a barrier */
  unsigned n = blockDim.x * blockDim.y * blockDim.z, t = linear_tid();
  int uniform = scale * 3 + (int)blockIdx.x;
  int mine = in[blockIdx.x * n + t] * 7 + (int)t;
  double half = mine * 0.5;
  int local[6];
  for (int i = 0; i < 6; i++) local[i] = mine + i * uniform;
  mirror[t] = mine;
  syncthreads();
  int sum = 0;
  for (unsigned i = 0; i < 6; i++) sum += local[(t + i) % 6] * (int)(i + 1);
  out[blockIdx.x * n + t] = sum + uniform + mirror[n - 1 - t] + (int)(half * 2.0);
}

/* Between barriers, a loop whose trip count depends on the thread: its result, used after
 * the next barrier, differs per thread. */
__attribute__((kernel)) void prefix_sums(const int *in, int *out) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = blockDim.x * blockDim.y * blockDim.z, t = linear_tid();
  buf[t] = in[blockIdx.x * n + t];
  syncthreads();
  int acc = 0;
  for (unsigned k = 0; k <= t; k++) acc += buf[k];
  syncthreads();
  buf[t] = acc;
  syncthreads();
  out[blockIdx.x * n + t] = buf[n - 1 - t] * 3 + acc;
}

/* A trip count that differs between blocks but not within one. */
__attribute__((kernel)) void per_block_rounds(int *out) {
  static __attribute__((shared)) int acc[MAX_T];
  unsigned n = blockDim.x, t = threadIdx.x;
  acc[t] = (int)t;
  for (unsigned r = 0; r <= blockIdx.x; r++) {
    syncthreads();
    int next = acc[(t + 1) % n] + 1;
    syncthreads();
    acc[t] = next;
  }
  out[blockIdx.x * n + t] = acc[t];
}

static int *device_copy(const int *h, size_t count) {
  int *d = device_array(int, count);
  copy_to_device(d, h, count);
  return d;
}

static void check_matmul(int m, int k, int n) {
  float *A = malloc(sizeof(float) * (size_t)(m * k)), *B = malloc(sizeof(float) * (size_t)(k * n));
  float *C = malloc(sizeof(float) * (size_t)(m * n));
  for (int i = 0; i < m * k; i++) A[i] = (float)(i % 13) - 6.0f;
  for (int i = 0; i < k * n; i++) B[i] = (float)(i % 7) * 0.5f;
  float *dA = device_array(float, (size_t)(m * k)), *dB = device_array(float, (size_t)(k * n));
  float *dC = device_array(float, (size_t)(m * n));
  copy_to_device(dA, A, (size_t)(m * k));
  copy_to_device(dB, B, (size_t)(k * n));
  launch(tiled_matmul, dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE))(
      dA, dB, dC, m, k, n);
  copy_to_host(C, dC, (size_t)(m * n));
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      float ref = 0.0f; /* small integers and halves: exact in any order */
      for (int j = 0; j < k; j++) ref += A[r * k + j] * B[j * n + c];
      KT_CHECK(C[r * n + c] == ref, "matmul %dx%dx%d: C[%d][%d] = %g, expected %g", m, k, n, r,
               c, C[r * n + c], ref);
    }
  kp_free(dA), kp_free(dB), kp_free(dC), free(A), free(B), free(C);
}

static void check_shape(unsigned bx, unsigned by, unsigned bz, unsigned blocks) {
  unsigned n = bx * by * bz, total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  int *ref = malloc(total * sizeof *ref), *tmp = malloc(n * sizeof *tmp);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 37 + 11) % 1000);
  int *d_in = device_copy(in, total), *d_out = device_array(int, total);
  const int count = 5, scale = 4;

  launch(rounds, blocks, dim3(bx, by, bz))(d_in, d_out, count);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    int *v = ref + b * n;
    for (unsigned t = 0; t < n; t++) v[t] = in[b * n + t];
    for (int r = 0; r < count; r++) {
      for (unsigned t = 0; t < n; t++) tmp[t] = v[t];
      for (unsigned t = 0; t < n; t++) v[t] = (v[t] + 3 * tmp[(t + 1 + (unsigned)r) % n]) % 100003;
    }
  }
  for (unsigned i = 0; i < total; i++)
    KT_CHECK(out[i] == ref[i], "rounds (%u, %u, %u): out[%u] = %d, expected %d", bx, by, bz, i,
             out[i], ref[i]);

  launch(rotate_twice, blocks, dim3(bx, by, bz))(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) {
      int expect = in[b * n + (t + 1) % n] * 1000 + in[b * n + (t + 5) % n] % 1000;
      KT_CHECK(out[b * n + t] == expect, "rotate_twice (%u, %u, %u): out[%u] = %d, expected %d",
               bx, by, bz, b * n + t, out[b * n + t], expect);
    }

  launch(live_values, blocks, dim3(bx, by, bz))(d_in, d_out, scale, 0);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) {
      int uniform = scale * 3 + (int)b, mine = in[b * n + t] * 7 + (int)t, sum = 0;
      for (unsigned i = 0; i < 6; i++) sum += (mine + (int)((t + i) % 6) * uniform) * (int)(i + 1);
      int expect = sum + uniform + (in[b * n + n - 1 - t] * 7 + (int)(n - 1 - t)) + mine;
      KT_CHECK(out[b * n + t] == expect, "live_values (%u, %u, %u): out[%u] = %d, expected %d",
               bx, by, bz, b * n + t, out[b * n + t], expect);
    }
  copy_to_device(d_out, in, total); /* skip = 1: every thread returns at once */
  launch(live_values, blocks, dim3(bx, by, bz))(d_in, d_out, scale, 1);
  copy_to_host(out, d_out, total);
  for (unsigned i = 0; i < total; i++)
    KT_CHECK(out[i] == in[i], "live_values skipped: out[%u] = %d, expected %d", i, out[i], in[i]);
  launch(prefix_sums, blocks, dim3(bx, by, bz))(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    for (unsigned t = 0, acc = 0; t < n; t++) tmp[t] = (int)(acc += (unsigned)in[b * n + t]);
    for (unsigned t = 0; t < n; t++)
      KT_CHECK(out[b * n + t] == tmp[n - 1 - t] * 3 + tmp[t],
               "prefix_sums (%u, %u, %u): out[%u] = %d, expected %d", bx, by, bz, b * n + t,
               out[b * n + t], tmp[n - 1 - t] * 3 + tmp[t]);
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out), free(ref), free(tmp);
}

static void check_per_block_rounds(unsigned n, unsigned blocks) {
  int *out = malloc(n * blocks * sizeof *out), *acc = malloc(n * sizeof *acc),
      *next = malloc(n * sizeof *next);
  int *d_out = device_array(int, n * blocks);
  launch(per_block_rounds, blocks, n)(d_out);
  copy_to_host(out, d_out, n * blocks);
  for (unsigned b = 0; b < blocks; b++) {
    for (unsigned t = 0; t < n; t++) acc[t] = (int)t;
    for (unsigned r = 0; r <= b; r++) {
      for (unsigned t = 0; t < n; t++) next[t] = acc[(t + 1) % n] + 1;
      for (unsigned t = 0; t < n; t++) acc[t] = next[t];
    }
    for (unsigned t = 0; t < n; t++)
      KT_CHECK(out[b * n + t] == acc[t], "per_block_rounds %u: out[%u] = %d, expected %d", n,
               b * n + t, out[b * n + t], acc[t]);
  }
  kp_free(d_out), free(out), free(acc), free(next);
}

int main(void) {
  kt_start("barrier_split");
  check_matmul(37, 23, 45);
  check_matmul(16, 16, 16);
  check_matmul(1, 1, 1);
  check_matmul(64, 50, 33);
  check_shape(1, 1, 1, 3);    /* one thread */
  check_shape(1024, 1, 1, 2); /* the most a block may have */
  check_shape(7, 5, 3, 4);    /* 105 threads: a multiple of nothing useful */
  check_shape(16, 16, 1, 3);  /* 2D */
  check_shape(8, 4, 2, 5);    /* 3D */
  check_shape(33, 1, 1, 9);
  check_per_block_rounds(64, 6);
  check_per_block_rounds(13, 3);
  printf("barrier_split: OK\n");
  return 0;
}
