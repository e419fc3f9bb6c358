/* loops_impl.h — the loops of loops.h, included by loops_omp.c and loops_serial.c with
 * LOOP(name) defined to give the names their prefix. Without -fopenmp the `parallel for`
 * pragmas are ignored and each function is the serial loop. */
#include <stddef.h>

#include "loops.h"

#ifdef _OPENMP
#define UNUSED_THREADS(t) ((void)0)
#else
#define UNUSED_THREADS(t) ((void)(t))
#endif

void LOOP(vec_add)(const float *x, const float *y, float *out, long n, int threads) {
  UNUSED_THREADS(threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) out[i] = x[i] + y[i];
}

/* `simd` lets the compiler reassociate within a thread, as a GPU tree does. */
float LOOP(sum)(const float *x, long n, int threads) {
  UNUSED_THREADS(threads);
  float s = 0.0f;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : s)
  for (long i = 0; i < n; i++) s += x[i];
  return s;
}

/* A private histogram per thread (array reduction), added up at the end. */
void LOOP(histogram)(const unsigned char *v, long n, unsigned *bins, int threads) {
  UNUSED_THREADS(threads);
  for (int b = 0; b < 256; b++) bins[b] = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : bins[:256])
  for (long i = 0; i < n; i++) bins[v[i]]++;
}

/* The inclusive scan of each block of `block` elements on its own. */
void LOOP(block_scan)(const int *in, int *out, long n, int block, int threads) {
  UNUSED_THREADS(threads);
  long blocks = (n + block - 1) / block;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long b = 0; b < blocks; b++) {
    long end = (b + 1) * block < n ? (b + 1) * block : n;
    int acc = 0;
    for (long i = b * block; i < end; i++) out[i] = acc += in[i];
  }
}

/* Rodinia hotspot's time steps on the whole grid, one sweep per step (a neighbour outside
 * the grid is the cell itself); the last step writes out. */
void LOOP(hotspot)(const float *temp, const float *power, float *scratch, float *out, int rows,
                   int cols, float k, float dt, int steps, int threads) {
  UNUSED_THREADS(threads);
  const float *src = temp;
  for (int s = 0; s < steps; s++) {
    float *dst = (steps - 1 - s) % 2 == 0 ? out : scratch;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) {
        int no = r == 0 ? r : r - 1, so = r == rows - 1 ? r : r + 1;
        int we = c == 0 ? c : c - 1, ea = c == cols - 1 ? c : c + 1;
        float v = src[r * cols + c];
        dst[r * cols + c] = v + k * (src[no * cols + c] + src[so * cols + c] +
                                     src[r * cols + we] + src[r * cols + ea] - 4.0f * v) +
                            dt * power[r * cols + c];
      }
    src = dst;
  }
}

/* PolyBench-ACC 2DCONV: a 3x3 convolution of the interior; the border is written 0. */
void LOOP(conv2d)(const float *A, float *B, int ni, int nj, int threads) {
  UNUSED_THREADS(threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1)
        B[i * nj + j] = CONV_AT(A, i, j, nj);
      else
        B[i * nj + j] = 0.0f;
    }
}

/* One (row, column) dot product per iteration, k innermost: the GPU thread's loop. */
void LOOP(matmul_naive)(const float *A, const float *B, float *C, int n, int threads) {
  UNUSED_THREADS(threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int row = 0; row < n; row++)
    for (int col = 0; col < n; col++) {
      float tmp = 0.0f;
      for (int k = 0; k < n; k++) tmp += A[row * n + k] * B[k * n + col];
      C[row * n + col] = tmp;
    }
}

/* fast_matmul with each block a loop iteration: the two barriers become the boundaries
 * between "load the tiles" and "multiply them", the block's threads the (ty, tx) loops. */
enum { LOOP_TPB = 16 };
void LOOP(matmul_tiled)(const float *A, const float *B, float *C, int n, int threads) {
  UNUSED_THREADS(threads);
  int nb = (n + LOOP_TPB - 1) / LOOP_TPB;
#pragma omp parallel for num_threads(threads) schedule(static) collapse(2)
  for (int by = 0; by < nb; by++)
    for (int bx = 0; bx < nb; bx++) {
      float sA[LOOP_TPB][LOOP_TPB], sB[LOOP_TPB][LOOP_TPB], tmp[LOOP_TPB][LOOP_TPB] = {{0}};
      for (int i = 0; i < nb; i++) {
        for (int ty = 0; ty < LOOP_TPB; ty++)
          for (int tx = 0; tx < LOOP_TPB; tx++) {
            int x = bx * LOOP_TPB + tx, y = by * LOOP_TPB + ty;
            int a_col = tx + i * LOOP_TPB, b_row = ty + i * LOOP_TPB;
            sA[ty][tx] = y < n && a_col < n ? A[y * n + a_col] : 0.0f;
            sB[ty][tx] = x < n && b_row < n ? B[b_row * n + x] : 0.0f;
          }
        for (int ty = 0; ty < LOOP_TPB; ty++)
          for (int j = 0; j < LOOP_TPB; j++)
            for (int tx = 0; tx < LOOP_TPB; tx++) tmp[ty][tx] += sA[ty][j] * sB[j][tx];
      }
      for (int ty = 0; ty < LOOP_TPB; ty++)
        for (int tx = 0; tx < LOOP_TPB; tx++) {
          int x = bx * LOOP_TPB + tx, y = by * LOOP_TPB + ty;
          if (y < n && x < n) C[y * n + x] = tmp[ty][tx];
        }
    }
}

/* An empty `parallel for`: OpenMP's fork/join, the cost an empty launch is held to. */
void LOOP(empty)(long iters, int threads) {
  UNUSED_THREADS(threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < iters; i++) {
  }
}
