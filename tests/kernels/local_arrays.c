/* local_arrays.c — per-thread local arrays of fixed size indexed with run-time values: an
 * insertion sort per thread, a histogram per thread, a 2D array (a small matrix product), an
 * array of structs, and a local array handed to a device function by pointer. Threads run
 * side by side, so any sharing of what must be private shows up as wrong results. */
#include "kernel_test.h"

enum { SORT_N = 16, BINS = 10, HIST_N = 64, MAT = 4 };

/* Thread i sorts in[i*16 .. i*16+15] in a local array and writes it to out. */
__attribute__((kernel)) void sort16(const int *in, int *out, int threads) {
  int i = grid(1);
  if (i >= threads) return;
  int v[SORT_N];
  for (int k = 0; k < SORT_N; k++) v[k] = in[i * SORT_N + k];
  for (int k = 1; k < SORT_N; k++) {
    int x = v[k], j = k - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
  for (int k = 0; k < SORT_N; k++) out[i * SORT_N + k] = v[k];
}

/* Thread i counts the last decimal digit of its 64 values. */
__attribute__((kernel)) void histogram(const unsigned *in, unsigned *out, int threads) {
  int i = grid(1);
  if (i >= threads) return;
  unsigned h[BINS] = {0};
  for (int k = 0; k < HIST_N; k++) h[in[i * HIST_N + k] % BINS]++;
  for (int b = 0; b < BINS; b++) out[i * BINS + b] = h[b];
}

/* Sums a local array through a pointer: the array's address leaves the kernel's frame. */
__attribute__((device)) double sum_of(const double *a, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) s += a[k];
  return s;
}

/* Thread i builds A (4x4) and B from i, computes C = A*B in a local 2D array and writes the
 * sum of C's row r, where r depends on i at run time, plus the trace. */
__attribute__((kernel)) void matrices(double *out, int threads) {
  int i = grid(1);
  if (i >= threads) return;
  double a[MAT][MAT], b[MAT][MAT], c[MAT][MAT];
  for (int r = 0; r < MAT; r++)
    for (int k = 0; k < MAT; k++) {
      a[r][k] = (double)((i + r * 3 + k) % 7) - 3.0;
      b[r][k] = (double)((i * 2 + r + k * 5) % 5) * 0.5;
    }
  for (int r = 0; r < MAT; r++)
    for (int k = 0; k < MAT; k++) {
      c[r][k] = 0;
      for (int m = 0; m < MAT; m++) c[r][k] += a[r][m] * b[m][k];
    }
  int row = i % MAT;
  double diag[MAT];
  for (int k = 0; k < MAT; k++) diag[k] = c[k][k];
  out[2 * i] = sum_of(c[row], MAT);
  out[2 * i + 1] = sum_of(diag, MAT);
}

typedef struct item {
  int key;
  float weight;
} item;

/* A local array of structs: the heaviest of 8 generated items, found by index. */
__attribute__((kernel)) void heaviest(int *out, int threads) {
  int i = grid(1);
  if (i >= threads) return;
  item items[8];
  for (int k = 0; k < 8; k++) items[k] = (item){i * 8 + k, (float)((i * 5 + k * 3) % 8)};
  int best = 0;
  for (int k = 1; k < 8; k++)
    if (items[k].weight > items[best].weight) best = k;
  out[i] = items[best].key;
}

/* ---- host checks ---------------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void check_sort(int threads, int block) {
  size_t n = (size_t)threads * SORT_N;
  int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
  unsigned seed = 12345;
  for (size_t k = 0; k < n; k++) {
    seed = seed * 1103515245u + 12345u;
    in[k] = (int)(seed >> 16) % 1000 - 500;
  }
  int *d_in = to_device(in, n), *d_out = device_array(int, n);
  launch(sort16, (threads + block - 1) / block, block)(d_in, d_out, threads);
  copy_to_host(out, d_out, n);
  for (int i = 0; i < threads; i++) {
    qsort(in + (size_t)i * SORT_N, SORT_N, sizeof *in, cmp_int);
    for (int k = 0; k < SORT_N; k++)
      KT_CHECK(out[i * SORT_N + k] == in[i * SORT_N + k], "sort16: thread %d slot %d is %d, "
               "expected %d", i, k, out[i * SORT_N + k], in[i * SORT_N + k]);
  }
  kp_free(d_in);
  kp_free(d_out);
  free(in);
  free(out);
}

static void check_histogram(int threads) {
  size_t n = (size_t)threads * HIST_N;
  unsigned *in = malloc(n * sizeof *in), *out = malloc((size_t)threads * BINS * sizeof *out);
  for (size_t k = 0; k < n; k++) in[k] = (unsigned)(k * k * 7 + k / 3);
  unsigned *d_in = to_device(in, n), *d_out = device_array(unsigned, (size_t)threads * BINS);
  launch(histogram, (threads + 95) / 96, 96)(d_in, d_out, threads);
  copy_to_host(out, d_out, (size_t)threads * BINS);
  for (int i = 0; i < threads; i++) {
    unsigned h[BINS] = {0};
    for (int k = 0; k < HIST_N; k++) h[in[(size_t)i * HIST_N + (size_t)k] % BINS]++;
    for (int b = 0; b < BINS; b++)
      KT_CHECK(out[i * BINS + b] == h[b], "histogram: thread %d bin %d is %u, expected %u", i,
               b, out[i * BINS + b], h[b]);
  }
  kp_free(d_in);
  kp_free(d_out);
  free(in);
  free(out);
}

static void check_matrices(int threads) {
  double *out = malloc((size_t)threads * 2 * sizeof *out);
  double *d = device_array(double, (size_t)threads * 2);
  launch(matrices, (threads + 63) / 64, 64)(d, threads);
  copy_to_host(out, d, (size_t)threads * 2);
  for (int i = 0; i < threads; i++) {
    double a[MAT][MAT], b[MAT][MAT], c[MAT][MAT];
    for (int r = 0; r < MAT; r++)
      for (int k = 0; k < MAT; k++) {
        a[r][k] = (double)((i + r * 3 + k) % 7) - 3.0;
        b[r][k] = (double)((i * 2 + r + k * 5) % 5) * 0.5;
      }
    double row_sum = 0, trace = 0;
    for (int r = 0; r < MAT; r++)
      for (int k = 0; k < MAT; k++) {
        c[r][k] = 0;
        for (int m = 0; m < MAT; m++) c[r][k] += a[r][m] * b[m][k];
      }
    for (int k = 0; k < MAT; k++) row_sum += c[i % MAT][k], trace += c[k][k];
    KT_CHECK(out[2 * i] == row_sum, "matrices: thread %d row sum %g, expected %g", i,
             out[2 * i], row_sum);
    KT_CHECK(out[2 * i + 1] == trace, "matrices: thread %d trace %g, expected %g", i,
             out[2 * i + 1], trace);
  }
  kp_free(d);
  free(out);
}

static void check_heaviest(int threads) {
  int *out = malloc((size_t)threads * sizeof *out);
  int *d = device_array(int, threads);
  launch(heaviest, (threads + 31) / 32, 32)(d, threads);
  copy_to_host(out, d, threads);
  for (int i = 0; i < threads; i++) {
    int best = 0, best_w = -1;
    for (int k = 0; k < 8; k++)
      if ((i * 5 + k * 3) % 8 > best_w) best_w = (i * 5 + k * 3) % 8, best = k;
    KT_CHECK(out[i] == i * 8 + best, "heaviest: thread %d gave %d, expected %d", i, out[i],
             i * 8 + best);
  }
  kp_free(d);
  free(out);
}

int main(void) {
  kt_start("local_arrays");
  check_sort(1000, 128);
  check_sort(37, 1024);
  check_histogram(777);
  check_matrices(500);
  check_heaviest(333);
  puts("local_arrays: OK");
  return 0;
}
