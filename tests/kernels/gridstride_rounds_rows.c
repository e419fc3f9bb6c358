/* gridstride_rounds_rows.c — grid-stride loops that the CPU backend runs as one loop over each
 * round's elements by the first thread of each row of the block (GridStrideRounds.h): the
 * loop carries nothing but its counter and does the same in any thread given i, so each
 * row's first thread runs the iterations of the row's threads, round by round, between two
 * barriers. Every result is checked against a plain C count of what each GPU thread does:
 *   hist_rows  the shared-memory histogram (docs/kernels.md), on 1-D blocks and on 2-D
 *              blocks (every row of a block has the same iterations: each counts them)
 *   hist_le    `i <= last` and a body with a branch and two arrays
 *   hist_wrap  starts that wrap past INT_MAX in a block (base + blockIdx.x * blockDim.x +
 *              threadIdx.x in unsigned arithmetic): the block runs the loop thread by thread
 *   hist_tid   a body that reads threadIdx.x: not the rows' loop (rounds counted by the
 *              block), for comparison */
#include <limits.h>
#include <stdlib.h>

#include "kernel_test.h"

enum { BINS = 256, MAXN = 100003, WRAPN = 4000 };

__attribute__((kernel)) void hist_rows(const unsigned char *v, int n, unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  unsigned flat = threadIdx.y * blockDim.x + threadIdx.x, size = blockDim.x * blockDim.y;
  for (unsigned b = flat; b < BINS; b += size) local[b] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1u);
  syncthreads();
  for (unsigned b = flat; b < BINS; b += size) atomic_add(&bins[b], local[b]);
}

__attribute__((kernel)) void hist_le(const unsigned char *v, const unsigned short *w, int last,
                                     unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (int i = grid(1); i <= last; i += gridsize(1)) {
    if (v[i] & 1)
      atomic_add(&local[v[i]], 2u);
    else
      atomic_add(&local[(w[i] + (unsigned)i) & (BINS - 1)], 1u);
  }
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

__attribute__((kernel)) void hist_wrap(const unsigned char *v, int base, int limit,
                                       unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  int start = (int)((unsigned)base + blockIdx.x * blockDim.x + threadIdx.x);
  for (int i = start; i < limit; i += gridsize(1))
    atomic_add(&local[v[(unsigned)i - 0x80000000u]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

__attribute__((kernel)) void hist_tid(const unsigned char *v, int n, unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1))
    atomic_add(&local[(v[i] ^ threadIdx.x) & (BINS - 1)], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

static unsigned char g_v[MAXN];
static unsigned short g_w[MAXN];

static void check_bins(const char *what, unsigned blocks, unsigned tx, unsigned ty, int n,
                       const unsigned *got, const unsigned *want) {
  for (int b = 0; b < BINS; b++)
    KT_CHECK(got[b] == want[b], "%s %u x (%u x %u), n %d, bin %d: %u != %u", what, blocks, tx,
             ty, n, b, got[b], want[b]);
}

static void run_rows(unsigned blocks, unsigned tx, unsigned ty, int n, unsigned char *dv,
                     unsigned *dbins) {
  unsigned total = blocks * tx, want[BINS] = {0}, got[BINS], zero[BINS] = {0};
  for (unsigned t = 0; t < total; t++)
    for (long i = t; i < n; i += total)
      want[g_v[i]] += ty; /* each of the block's ty rows has the same iterations */
  copy_to_device(dbins, zero, BINS);
  launch(hist_rows, blocks, dim3(tx, ty))(dv, n, dbins);
  copy_to_host(got, dbins, BINS);
  check_bins("hist_rows", blocks, tx, ty, n, got, want);
}

static void check_one(unsigned blocks, unsigned threads, int n) {
  unsigned total = blocks * threads;
  unsigned want_le[BINS] = {0}, want_tid[BINS] = {0}, got[BINS], zero[BINS] = {0};
  int last = n - 1;
  for (unsigned t = 0; t < total; t++) {
    for (long i = t; i <= last; i += total) {
      if (g_v[i] & 1)
        want_le[g_v[i]] += 2;
      else
        want_le[(g_w[i] + (unsigned)i) & (BINS - 1)]++;
    }
    for (long i = t; i < n; i += total)
      want_tid[(g_v[i] ^ (t % threads)) & (BINS - 1)]++;
  }
  unsigned char *dv = to_device(g_v, MAXN);
  unsigned short *dw = to_device(g_w, MAXN);
  unsigned *bins = device_array(unsigned, BINS);

  run_rows(blocks, threads, 1, n, dv, bins);
  if (threads <= 256) {
    run_rows(blocks, threads, 3, n, dv, bins);
  }

  copy_to_device(bins, zero, BINS);
  launch(hist_le, blocks, threads)(dv, dw, last, bins);
  copy_to_host(got, bins, BINS);
  check_bins("hist_le", blocks, threads, 1, n, got, want_le);

  copy_to_device(bins, zero, BINS);
  launch(hist_tid, blocks, threads)(dv, n, bins);
  copy_to_host(got, bins, BINS);
  check_bins("hist_tid", blocks, threads, 1, n, got, want_tid);

  /* The starts of the threads past INT_MAX - base wrap to INT_MIN + ...: those threads walk
   * [INT_MIN, limit), the others have no iteration. */
  int base = INT_MAX - 100, limit = INT_MIN + WRAPN;
  unsigned want_wrap[BINS] = {0};
  for (unsigned t = 0; t < total; t++)
    for (long i = (int)(t + (unsigned)base); i < limit; i += total)
      want_wrap[g_v[(unsigned)i - 0x80000000u]]++;
  copy_to_device(bins, zero, BINS);
  launch(hist_wrap, blocks, threads)(dv, base, limit, bins);
  copy_to_host(got, bins, BINS);
  check_bins("hist_wrap", blocks, threads, 1, n, got, want_wrap);

  kp_free(dv), kp_free(dw), kp_free(bins);
}

int main(void) {
  kt_start("gridstride_rounds_rows");
  for (unsigned i = 0; i < MAXN; i++) {
    g_v[i] = (unsigned char)((i * 2654435761u) >> 24);
    g_w[i] = (unsigned short)((i * 40503u + 7u) >> 3);
  }
  static const unsigned threads[] = {1, 32, 96, 256, 1024};
  static const unsigned blocks[] = {1, 3, 16};
  static const int sizes[] = {0, 1, 50, 4096, MAXN};
  for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        check_one(blocks[b], threads[t], sizes[s]);
  printf("gridstride_rounds_rows: finished\n");
  return 0;
}
