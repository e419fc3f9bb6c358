/* one_row_rounds.c — the CPU backend's split entry of a kernel that reads no threadIdx.y or
 * .z runs each split round (a thread loop split at `tid >= offset`, ThreadRangeSplit.cpp)
 * without the loops over y and z when the launch's range is one row, and with them
 * otherwise (BarrierFission.cpp, `OneRow`). Both ways must run every thread of every row
 * exactly once per round, in order: the kernel counts, per thread position, how many
 * threads of that position took the add branch (one per row and round), and scans its
 * block's x positions (every row computes the same scan: a round reads only buf[pin]).
 * 1D blocks (one row), 2D and 3D blocks (rows in y, in z), ragged blocks, a partial last
 * block; every result compared with plain C. */
#include <stdlib.h>

#include "kernel_test.h"

enum { MAX_X = 512 };

__attribute__((kernel)) void x_rounds(const unsigned *in, unsigned *out, unsigned *adds,
                                      int n) {
  static __attribute__((shared)) unsigned buf[2][MAX_X];
  unsigned tid = threadIdx.x;
  int i = (int)(blockIdx.x * blockDim.x + tid);
  int pout = 0, pin = 1;
  buf[pout][tid] = i < n ? in[i] : 0u;
  syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout, pin = 1 - pout;
    if (tid >= offset) {
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
      if (i < n) atomic_add(&adds[i], 1u);
    } else {
      buf[pout][tid] = buf[pin][tid];
    }
    syncthreads();
  }
  if (i < n) out[i] = buf[pout][tid];
}

static unsigned value(int i) { return (unsigned)i * 2246822519u + 374761393u; /* wraps */ }

static void check(unsigned bx, unsigned by, unsigned bz, int n) {
  unsigned *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  unsigned *adds = malloc((size_t)n * sizeof *adds);
  for (int i = 0; i < n; i++) in[i] = value(i), adds[i] = 0;
  unsigned *din = device_array(unsigned, (size_t)n), *dout = device_array(unsigned, (size_t)n);
  unsigned *dadds = device_array(unsigned, (size_t)n);
  copy_to_device(din, in, (size_t)n);
  copy_to_device(dadds, adds, (size_t)n);
  launch(x_rounds, ((unsigned)n + bx - 1) / bx, dim3(bx, by, bz))(din, dout, dadds, n);
  copy_to_host(out, dout, (size_t)n);
  copy_to_host(adds, dadds, (size_t)n);
  unsigned sum = 0;
  for (int i = 0; i < n; i++) {
    unsigned tid = (unsigned)i % bx, rounds = 0;
    for (unsigned offset = 1; offset < bx; offset *= 2) rounds += tid >= offset;
    sum = tid == 0 ? in[i] : sum + in[i];
    KT_CHECK(out[i] == sum, "x_rounds %ux%ux%u: out[%d] = %u, expected %u", bx, by, bz, i,
             out[i], sum);
    KT_CHECK(adds[i] == rounds * by * bz, "x_rounds %ux%ux%u: %u adds at %d, expected %u", bx,
             by, bz, adds[i], i, rounds * by * bz);
  }
  kp_free(din), kp_free(dout), kp_free(dadds), free(in), free(out), free(adds);
}

int main(void) {
  kt_start("one_row_rounds");
  check(256, 1, 1, 65536 + 5); /* one row: the copy without the y and z loops */
  check(512, 1, 1, 3000);
  check(33, 1, 1, 1000);
  check(2, 1, 1, 9);
  check(64, 3, 1, 5000); /* rows in y: the loops over y and z */
  check(100, 1, 2, 1234); /* rows in z only */
  check(16, 2, 2, 333);
  check(1, 4, 1, 10);
  printf("one_row_rounds: OK\n");
  return 0;
}
