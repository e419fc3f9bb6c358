/* matmul_check.h — host side shared by the matrix-product examples (gpu_matmul.c,
 * fast_matmul.c): random inputs and a check against a double-precision host product. Not part
 * of kernplug's API. */
#ifndef KP_MATMUL_CHECK_H
#define KP_MATMUL_CHECK_H

#include <stdlib.h>

/* A rows x cols row-major matrix of floats uniform in [lo, hi). */
static inline float *random_matrix(int rows, int cols, float lo, float hi) {
  float *a = malloc(sizeof *a * (size_t)rows * (size_t)cols);
  for (int i = 0; i < rows * cols; i++)
    a[i] = lo + (hi - lo) * ((float)rand() / ((float)RAND_MAX + 1.0f));
  return a;
}

/* Elements of C (m x n) = A (m x k) * B (k x n) that differ from a double-precision host
 * product by more than twice the worst-case rounding error of a float dot product of k terms,
 * (k + 1) * 2^-24 * sum |a*b|. */
static inline int count_matmul_mismatches(const float *A, const float *B, const float *C, int m,
                                          int k, int n) {
  int bad = 0;
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      double ref = 0, mag = 0;
      for (int i = 0; i < k; i++) {
        double p = (double)A[r * k + i] * B[i * n + c];
        ref += p;
        mag += p < 0 ? -p : p;
      }
      double err = C[r * n + c] - ref;
      if ((err < 0 ? -err : err) > 2 * (k + 1) * 0x1p-24 * mag) bad++;
    }
  return bad;
}

#endif
