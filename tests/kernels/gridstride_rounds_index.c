/* gridstride_rounds_index.c — the index of grid-stride loops that the CPU backend runs in
 * rounds counted by the block (GridStrideRounds.h): in a thread's own iterations the 64-bit
 * index is start + k * step itself (no sign extension of its 32-bit truncation per element),
 * and the prefetches of later rounds are made from it. Every result is checked against a
 * plain C count of what each GPU thread does:
 *   hist_two   two arrays read at i and i itself in the bin: the 64-bit index and the 32-bit
 *              value of the same counter, two prefetched arrays
 *   hist_high  a counter that runs just below INT_MAX (start = grid(1) + base): the last
 *              additions of every thread end within a grid's size of INT_MAX
 *   hist_ofs   v[i] read through a pointer moved back by the start, so that i itself is
 *              large while the bytes read are the array's
 * (These loops carry nothing but i: they now run as the rows' loop, one loop over each
 * round's elements in the row's first thread, with the same 64-bit index; see
 * gridstride_rounds_rows.c.) */
#include <limits.h>
#include <stdlib.h>

#include "kernel_test.h"

enum { BINS = 256, MAXN = 100003 };

__attribute__((kernel)) void hist_two(const unsigned char *v, const unsigned char *w, int n,
                                      unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1))
    atomic_add(&local[(v[i] + w[i] + (unsigned)i) & (BINS - 1)], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

__attribute__((kernel)) void hist_high(const unsigned char *v, int base, int limit,
                                       unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (int i = grid(1) + base; i < limit; i += gridsize(1)) atomic_add(&local[v[i - base]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

__attribute__((kernel)) void hist_ofs(const unsigned char *v, int base, int limit,
                                      unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  const unsigned char *p = v - base;
  for (int i = grid(1) + base; i < limit; i += gridsize(1)) atomic_add(&local[p[i]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

static unsigned char g_v[MAXN], g_w[MAXN];

static void check_bins(const char *what, unsigned blocks, unsigned threads, int n,
                       const unsigned *got, const unsigned *want) {
  for (int b = 0; b < BINS; b++)
    KT_CHECK(got[b] == want[b], "%s %u x %u, n %d, bin %d: %u != %u", what, blocks, threads, n,
             b, got[b], want[b]);
}

static void check_one(unsigned blocks, unsigned threads, int n) {
  unsigned total = blocks * threads;
  unsigned want_two[BINS] = {0}, want[BINS] = {0}, got[BINS], zero[BINS] = {0};
  for (unsigned t = 0; t < total; t++)
    for (long i = t; i < n; i += total) {
      want_two[(g_v[i] + g_w[i] + (unsigned)i) & (BINS - 1)]++;
      want[g_v[i]]++;
    }
  unsigned char *dv = to_device(g_v, n > 0 ? (size_t)n : 1);
  unsigned char *dw = to_device(g_w, n > 0 ? (size_t)n : 1);
  unsigned *bins = device_array(unsigned, BINS);

  copy_to_device(bins, zero, BINS);
  launch(hist_two, blocks, threads)(dv, dw, n, bins);
  copy_to_host(got, bins, BINS);
  check_bins("hist_two", blocks, threads, n, got, want_two);

  /* i runs over [base, limit) with limit + the grid's size still an int: no thread's
   * additions overflow (that would be undefined), and the last ones end just below INT_MAX. */
  int limit = INT_MAX - (int)total, base = limit - n;
  copy_to_device(bins, zero, BINS);
  launch(hist_high, blocks, threads)(dv, base, limit, bins);
  copy_to_host(got, bins, BINS);
  check_bins("hist_high", blocks, threads, n, got, want);

  copy_to_device(bins, zero, BINS);
  launch(hist_ofs, blocks, threads)(dv, base, limit, bins);
  copy_to_host(got, bins, BINS);
  check_bins("hist_ofs", blocks, threads, n, got, want);

  kp_free(dv), kp_free(dw), kp_free(bins);
}

int main(void) {
  kt_start("gridstride_rounds_index");
  for (unsigned i = 0; i < MAXN; i++) {
    g_v[i] = (unsigned char)((i * 2654435761u) >> 24);
    g_w[i] = (unsigned char)((i * 40503u + 7u) >> 5);
  }
  static const unsigned threads[] = {1, 32, 96, 256, 1024};
  static const unsigned blocks[] = {1, 3, 16};
  static const int sizes[] = {0, 50, 4096, MAXN};
  for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        check_one(blocks[b], threads[t], sizes[s]);
  printf("gridstride_rounds_index: finished\n");
  return 0;
}
