/* scan_rounds.c — Hillis-Steele scans on the CPU backend's split entry, whose rounds run
 * the loop over x in two parts at `tid >= offset` (ThreadRangeSplit.cpp): in the part above
 * the split, `tid - offset` is marked no-wrap (markIntervalNoWrap). Shapes: one scan per row
 * of a 2D block (threadIdx.x against the round's offset, threadIdx.y picking the row), the
 * index `tid - offset` in 64 bits, the comparison written `offset <= tid` and as
 * `tid < offset` with the ways swapped, unsigned sums that wrap, ragged and tiny blocks, and
 * a partial last block. Every result compared with plain C. */
#include <stdlib.h>

#include "kernel_test.h"

enum { MAX_X = 512, MAX_ROWS = 4 };

/* Each row of each block scanned on its own: rows of blockDim.x, blockDim.y rows. */
__attribute__((kernel)) void row_scan(const unsigned *in, unsigned *out, int n) {
  static __attribute__((shared)) unsigned buf[2][MAX_ROWS][MAX_X];
  unsigned tid = threadIdx.x, row = threadIdx.y;
  int i = (int)((blockIdx.x * blockDim.y + row) * blockDim.x + tid);
  int pout = 0, pin = 1;
  buf[pout][row][tid] = i < n ? in[i] : 0u;
  syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout, pin = 1 - pout;
    if (offset <= tid)
      buf[pout][row][tid] = buf[pin][row][tid] + buf[pin][row][tid - offset];
    else
      buf[pout][row][tid] = buf[pin][row][tid];
    syncthreads();
  }
  if (i < n) out[i] = buf[pout][row][tid];
}

/* The same scan over a block, the neighbour's index taken in 64 bits and the copy first. */
__attribute__((kernel)) void wide_scan(const unsigned *in, unsigned *out, int n) {
  static __attribute__((shared)) unsigned buf[2][MAX_X];
  unsigned long tid = threadIdx.x;
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  int pout = 0, pin = 1;
  buf[pout][tid] = i < n ? in[i] : 0u;
  syncthreads();
  for (unsigned long offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout, pin = 1 - pout;
    if (tid < offset)
      buf[pout][tid] = buf[pin][tid];
    else
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
    syncthreads();
  }
  if (i < n) out[i] = buf[pout][tid];
}

static unsigned *device_copy(const unsigned *h, size_t count) {
  unsigned *d = device_array(unsigned, count);
  copy_to_device(d, h, count);
  return d;
}

static unsigned value(int i) { return (unsigned)i * 2654435761u + 12345u; /* wraps */ }

static void check_row_scan(unsigned bx, unsigned by, int n) {
  unsigned *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = value(i);
  unsigned *din = device_copy(in, (size_t)n), *dout = device_array(unsigned, (size_t)n);
  unsigned per_block = bx * by;
  launch(row_scan, ((unsigned)n + per_block - 1) / per_block, dim3(bx, by))(din, dout, n);
  copy_to_host(out, dout, (size_t)n);
  unsigned sum = 0;
  for (int i = 0; i < n; i++) {
    sum = i % (int)bx == 0 ? in[i] : sum + in[i];
    KT_CHECK(out[i] == sum, "row_scan %ux%u: out[%d] = %u, expected %u", bx, by, i, out[i], sum);
  }
  kp_free(din), kp_free(dout), free(in), free(out);
}

static void check_wide_scan(unsigned tpb, int n) {
  unsigned *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = value(i + 7);
  unsigned *din = device_copy(in, (size_t)n), *dout = device_array(unsigned, (size_t)n);
  launch(wide_scan, ((unsigned)n + tpb - 1) / tpb, tpb)(din, dout, n);
  copy_to_host(out, dout, (size_t)n);
  unsigned sum = 0;
  for (int i = 0; i < n; i++) {
    sum = i % (int)tpb == 0 ? in[i] : sum + in[i];
    KT_CHECK(out[i] == sum, "wide_scan %u: out[%d] = %u, expected %u", tpb, i, out[i], sum);
  }
  kp_free(din), kp_free(dout), free(in), free(out);
}

int main(void) {
  kt_start("scan_rounds");
  check_row_scan(256, 1, 100003);
  check_row_scan(64, 4, 5000);
  check_row_scan(100, 3, 1234); /* ragged rows, a partial last block */
  check_row_scan(7, 2, 99);
  check_row_scan(1, 4, 10);
  check_wide_scan(256, 65536 + 3);
  check_wide_scan(512, 3000);
  check_wide_scan(33, 1000);
  check_wide_scan(2, 9);
  printf("scan_rounds: OK\n");
  return 0;
}
