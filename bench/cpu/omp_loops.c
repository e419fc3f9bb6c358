/* omp_loops.c — the OpenMP reference for the CPU benchmark: the same computations as the
 * kernplug kernels of bench/common/kp_kernels.h, each as a `parallel for` over the elements
 * (or rows, or tiles) with a static schedule and a fixed number of threads. Compiled with
 * the same clang and -O2 as the kernplug side, without the plugin. */
#include "omp_loops.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

void omp_vec_add(const float *x, const float *y, float *out, long n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) out[i] = x[i] + y[i];
}

void omp_saxpy(float a, const float *x, float *y, long n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

void omp_gaussian_pdf(const float *x, float mean, float sigma, float *out, long n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) {
    float z = (x[i] - mean) / sigma;
    out[i] = expf(-0.5f * z * z) / (sigma * 2.50662827463f);
  }
}

/* `simd` lets the compiler reassociate the sum within a thread as well (kp_reduce folds in
 * a tree, so neither side keeps the sequential order); without it the loop is one serial
 * chain of dependent adds per thread. */
float omp_sum(const float *x, long n, int threads) {
  float s = 0.0f;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : s)
  for (long i = 0; i < n; i++) s += x[i];
  return s;
}

/* One (row, column) dot product per iteration, k innermost: the GPU thread's loop. */
void omp_matmul_naive(const float *A, const float *B, float *C, int n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int row = 0; row < n; row++)
    for (int col = 0; col < n; col++) {
      float tmp = 0.0f;
      for (int k = 0; k < n; k++) tmp += A[row * n + k] * B[k * n + col];
      C[row * n + col] = tmp;
    }
}

/* fast_matmul with each block a loop iteration: the two barriers become the boundaries
 * between "load the tiles" and "multiply them", and the block's threads become the inner
 * (ty, tx) loops. This is what a CPU backend that splits kernels at barriers would run. */
enum { TPB = 16 };
void omp_matmul_tiled(const float *A, const float *B, float *C, int n, int threads) {
  int nb = (n + TPB - 1) / TPB;
#pragma omp parallel for num_threads(threads) schedule(static) collapse(2)
  for (int by = 0; by < nb; by++)
    for (int bx = 0; bx < nb; bx++) {
      float sA[TPB][TPB], sB[TPB][TPB], tmp[TPB][TPB] = {{0}};
      for (int i = 0; i < nb; i++) {
        for (int ty = 0; ty < TPB; ty++)
          for (int tx = 0; tx < TPB; tx++) {
            int x = bx * TPB + tx, y = by * TPB + ty;
            int a_col = tx + i * TPB, b_row = ty + i * TPB;
            sA[ty][tx] = y < n && a_col < n ? A[y * n + a_col] : 0.0f;
            sB[ty][tx] = x < n && b_row < n ? B[b_row * n + x] : 0.0f;
          }
        for (int ty = 0; ty < TPB; ty++)
          for (int j = 0; j < TPB; j++)
            for (int tx = 0; tx < TPB; tx++) tmp[ty][tx] += sA[ty][j] * sB[j][tx];
      }
      for (int ty = 0; ty < TPB; ty++)
        for (int tx = 0; tx < TPB; tx++) {
          int x = bx * TPB + tx, y = by * TPB + ty;
          if (y < n && x < n) C[y * n + x] = tmp[ty][tx];
        }
    }
}

const char *omp_description(void) {
  static char buf[64];
  snprintf(buf, sizeof buf, "OpenMP %d", _OPENMP);
  return buf;
}
