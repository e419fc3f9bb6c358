/* kp_kernels.h — the kernplug side of every benchmark case, written as a Numba user would
 * write them (the seeds' style: one element per thread and `if (i < n)`, the documented
 * tiled matmul, the seed's atomic grid-stride sum). Included by exactly one translation unit
 * of each benchmark program, compiled with the plugin. bench/gpu/cuda_bench.cu and
 * bench/gpu/numba_bench.py hold the same kernels in CUDA C and in Python, line for line. */
#ifndef KP_BENCH_KERNELS_H
#define KP_BENCH_KERNELS_H

#include <math.h>

#include "kernplug.h"

/* ---- streaming ------------------------------------------------------------------------- */

__attribute__((kernel)) void vec_add(const float *x, const float *y, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = x[i] + y[i];
}

__attribute__((kernel)) void saxpy(float a, const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) y[i] = a * x[i] + y[i];
}

/* Seed 002's gaussian_pdf ufunc. */
#define BENCH_SQRT_2PI 2.50662827463f
__attribute__((vectorize("float32(float32, float32, float32)")))
float gaussian_pdf(float x, float mean, float sigma) {
  float z = (x - mean) / sigma;
  return expf(-0.5f * z * z) / (sigma * BENCH_SQRT_2PI);
}

/* Seed 002's hidden-layer assessment: three kernels, as in the accepted solution. */
__attribute__((kernel)) void hl_normalize(const float *grayscales, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = grayscales[i] / 255.0f;
}
__attribute__((kernel)) void hl_weigh(const float *values, const float *weights, float *out,
                                      int n) {
  int i = grid(1);
  if (i < n) out[i] = values[i] * weights[i];
}
__attribute__((kernel)) void hl_activate(const float *values, float *out, int n) {
  int i = grid(1);
  if (i < n) {
    float v = values[i];
    out[i] = (expf(v) - expf(-v)) / (expf(v) + expf(-v));
  }
}

/* ---- compute --------------------------------------------------------------------------- */

/* Seed 000's prime check as a vectorize function: the number for a prime, else 0. */
__attribute__((vectorize("int32(int32)"))) int check_prime(int num) {
  for (int i = 2; i < num / 2 + 1; i++)
    if (num % i == 0) return 0;
  return num;
}

/* Seed 004's matmul: one thread per element of C (x: column, y: row); n x n matrices. */
__attribute__((kernel)) void matmul_naive(const float *A, const float *B, float *C, int n) {
  kp_int2 g = grid(2);
  int col = g.x, row = g.y;
  if (row < n && col < n) {
    float tmp = 0.0f;
    for (int k = 0; k < n; k++) tmp += A[row * n + k] * B[k * n + col];
    C[row * n + col] = tmp;
  }
}

/* The numba-cuda documentation's fast_matmul: TPB x TPB tiles in shared memory. */
enum { BENCH_TPB = 16 };
__attribute__((kernel)) void matmul_tiled(const float *A, const float *B, float *C, int n) {
  static __attribute__((shared)) float sA[BENCH_TPB][BENCH_TPB];
  static __attribute__((shared)) float sB[BENCH_TPB][BENCH_TPB];
  kp_int2 g = grid(2);
  int x = g.x, y = g.y;
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  int tiles = (n + BENCH_TPB - 1) / BENCH_TPB;
  float tmp = 0.0f;
  for (int i = 0; i < tiles; i++) {
    int a_col = (int)tx + i * BENCH_TPB, b_row = (int)ty + i * BENCH_TPB;
    sA[ty][tx] = y < n && a_col < n ? A[y * n + a_col] : 0.0f;
    sB[ty][tx] = x < n && b_row < n ? B[b_row * n + x] : 0.0f;
    syncthreads();
    for (int j = 0; j < BENCH_TPB; j++) tmp += sA[ty][j] * sB[j][tx];
    syncthreads();
  }
  if (y < n && x < n) C[y * n + x] = tmp;
}

/* ---- reductions ------------------------------------------------------------------------ */

__attribute__((reduce)) float sum_f32(float a, float b) { return a + b; }

/* Seed 004's gpu_reduce: a grid-stride partial sum per thread, then one atomic per thread. */
__attribute__((kernel)) void atomic_sum(const float *in, float *out, int n) {
  float s = 0.0f;
  for (int i = grid(1); i < n; i += gridsize(1)) s += in[i];
  atomic_add(&out[0], s);
}

/* ---- launch cost ----------------------------------------------------------------------- */

__attribute__((kernel)) void empty0(void) {}
__attribute__((kernel)) void empty4(float *a0, float *a1, float *a2, float *a3) {
  (void)a0, (void)a1, (void)a2, (void)a3;
}
__attribute__((kernel)) void empty16(float *a0, float *a1, float *a2, float *a3, float *a4,
                                     float *a5, float *a6, float *a7, float *a8, float *a9,
                                     float *a10, float *a11, float *a12, float *a13,
                                     float *a14, float *a15) {
  (void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7;
  (void)a8, (void)a9, (void)a10, (void)a11, (void)a12, (void)a13, (void)a14, (void)a15;
}

#endif
