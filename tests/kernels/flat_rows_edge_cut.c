/* flat_rows_edge_cut.c — kernels whose flat rows of blocks are cut where their guard
 * `blockIdx.x * blockDim.x + threadIdx.x < n` stops holding (FlatRowsEdgeCut.h: the edge
 * block's threads below n run the guard-free copy, the rest the guarded one). Each result is
 * checked against plain C: n at, just below and just above block edges, n = 0, a negative n,
 * grids with whole blocks past n, one-thread blocks, an unsigned and a swapped guard, and a
 * kernel whose threads past n write too (their else side must still run, once each). */
#include <stdlib.h>

#include "kernel_test.h"
#include "kernplug.h"

__attribute__((kernel)) void add_signed(const float *x, const float *y, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = x[i] + y[i];
}

__attribute__((kernel)) void add_unsigned(const float *x, const float *y, float *out,
                                          unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * y[i];
}

__attribute__((kernel)) void add_swapped(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) out[i] = 2.0f * x[i];
}

/* Threads past n mark their slot: every thread of the grid runs exactly once. */
__attribute__((kernel)) void mark_past(const int *x, int *out, int n) {
  int i = grid(1);
  if (i < n)
    out[i] = x[i] * 3 + 1;
  else
    out[i] += -1000 - i;
}

static float fx(long k) { return (float)((k * 2654435761u) % 1000) / 8.0f; }

static void check_signed(int n, unsigned blocks, unsigned threads) {
  size_t cap = (size_t)blocks * threads + 1; /* one past the grid: never written */
  float *hx = malloc(cap * sizeof *hx), *hy = malloc(cap * sizeof *hy);
  float *got = malloc(cap * sizeof *got);
  for (size_t k = 0; k < cap; k++) hx[k] = fx((long)k), hy[k] = fx((long)k + 77);
  float *x = to_device(hx, cap), *y = to_device(hy, cap), *out = device_array(float, cap);
  for (size_t k = 0; k < cap; k++) got[k] = -7.0f;
  copy_to_device(out, got, cap);
  launch(add_signed, blocks, threads)(x, y, out, n);
  copy_to_host(got, out, cap);
  long bad = 0;
  for (size_t k = 0; k < cap; k++)
    bad += got[k] != ((long)k < n && k + 1 < cap ? hx[k] + hy[k] : -7.0f);
  KT_CHECK(bad == 0, "add_signed n=%d, %u x %u: %ld wrong elements", n, blocks, threads, bad);
  kp_free(x), kp_free(y), kp_free(out);
  free(hx), free(hy), free(got);
}

static void check_unsigned(unsigned n, unsigned blocks, unsigned threads) {
  size_t cap = (size_t)blocks * threads + 1; /* one past the grid: never written */
  float *hx = malloc(cap * sizeof *hx), *got = malloc(cap * sizeof *got);
  for (size_t k = 0; k < cap; k++) hx[k] = fx((long)k);
  float *x = to_device(hx, cap), *out = device_array(float, cap);
  for (size_t k = 0; k < cap; k++) got[k] = -7.0f;
  copy_to_device(out, got, cap);
  launch(add_unsigned, blocks, threads)(x, x, out, n);
  copy_to_host(got, out, cap);
  long bad = 0;
  for (size_t k = 0; k < cap; k++) bad += got[k] != (k < n && k + 1 < cap ? hx[k] * hx[k] : -7.0f);
  KT_CHECK(bad == 0, "add_unsigned n=%u, %u x %u: %ld wrong elements", n, blocks, threads, bad);
  launch(add_swapped, blocks, threads)(x, out, (int)n);
  copy_to_host(got, out, cap);
  bad = 0;
  for (size_t k = 0; k < cap; k++) bad += got[k] != (k < n && k + 1 < cap ? 2.0f * hx[k] : -7.0f);
  KT_CHECK(bad == 0, "add_swapped n=%u, %u x %u: %ld wrong elements", n, blocks, threads, bad);
  kp_free(x), kp_free(out);
  free(hx), free(got);
}

static void check_mark(int n, unsigned blocks, unsigned threads) {
  size_t cap = (size_t)blocks * threads;
  int *hx = malloc(cap * sizeof *hx), *got = malloc(cap * sizeof *got);
  for (size_t k = 0; k < cap; k++) hx[k] = (int)(k * 37 % 101) - 50, got[k] = 5;
  int *x = to_device(hx, cap), *out = to_device(got, cap);
  launch(mark_past, blocks, threads)(x, out, n);
  copy_to_host(got, out, cap);
  long bad = 0;
  for (size_t k = 0; k < cap; k++)
    bad += got[k] != ((long)k < n ? hx[k] * 3 + 1 : 5 - 1000 - (int)k);
  KT_CHECK(bad == 0, "mark_past n=%d, %u x %u: %ld wrong elements", n, blocks, threads, bad);
  kp_free(x), kp_free(out);
  free(hx), free(got);
}

int main(void) {
  kt_start("flat_rows_edge_cut");
  static const int sizes[] = {0, 1, 7, 255, 256, 257, 1000, 10000, 100000, 100003};
  static const unsigned tpbs[] = {1, 3, 32, 256, 1024};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
    for (size_t t = 0; t < sizeof tpbs / sizeof *tpbs; t++) {
      int n = sizes[s];
      unsigned tpb = tpbs[t], blocks = n > 0 ? ((unsigned)n + tpb - 1) / tpb : 1;
      if ((size_t)blocks * tpb > 400000)
        continue;
      check_signed(n, blocks, tpb);
      check_signed(n, blocks + 3, tpb); /* whole blocks past n */
      check_unsigned((unsigned)n, blocks, tpb);
      check_mark(n, blocks + 1, tpb);
    }
  check_signed(-5, 4, 256);   /* nothing in the domain */
  check_mark(-300, 3, 256);   /* every thread past the bound */
  check_signed(1000, 1, 256); /* n past the whole grid */
  check_mark(5000, 2, 1024);
  printf("flat_rows_edge_cut: ok\n");
  return 0;
}
