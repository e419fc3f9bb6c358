/* grid_sync.c — grid-wide barriers (numba's cuda.cg.this_grid().sync()): kernels that reach
 * grid_sync() are launched cooperatively, every block resident at once.
 *   sequential_rows  numba's documentation example: each row of a matrix is computed from
 *                    the previous one (the opposite column, written by another block) with a
 *                    grid sync between rows;
 *   reduce_phases    a sum in two phases with a grid sync between them: every block writes
 *                    its partial sum, then block 0 adds them all; and with shared memory and
 *                    block barriers between grid syncs;
 *   via_device       grid_sync() reached through a device function of the file.
 * Each launch is repeated back to back, and the grid sizes stay within
 * kp_max_cooperative_grid_blocks, which must allow them. */
#include "kernel_test.h"

enum { COLS = 256, ROWS = 64, ROW_THREADS = 32 };

__attribute__((kernel)) void sequential_rows(int *m, int rows, int cols) {
  int col = grid(1);
  for (int row = 1; row < rows; row++) {
    int opposite = cols - col - 1;
    /* Each row's elements are one greater than the previous row's */
    m[row * cols + col] = m[(row - 1) * cols + opposite] + 1;
    grid_sync(); /* every column of this row written before the next reads it */
  }
}

enum { SUM_BLOCKS = 8, SUM_THREADS = 64, SUM_N = 10000 };

__attribute__((kernel)) void reduce_phases(const int *in, int n, long long *partial,
                                           long long *out) {
  static __attribute__((shared)) long long sums[SUM_THREADS];
  long long mine = 0;
  for (int i = grid(1); i < n; i += gridsize(1)) mine += in[i];
  sums[threadIdx.x] = mine;
  syncthreads();
  for (int s = SUM_THREADS / 2; s > 0; s /= 2) {
    if ((int)threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
    syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
  grid_sync(); /* every partial sum written */
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long total = 0;
    for (unsigned b = 0; b < gridDim.x; b++) total += partial[b];
    *out = total;
  }
  grid_sync(); /* the total written: every block reads it */
  if (threadIdx.x == 0) partial[blockIdx.x] = *out - partial[blockIdx.x];
}

__attribute__((device)) void wait_for_grid(void) { kp_grid_sync(); }

__attribute__((device)) void step(int *v, int i) {
  v[i] += 1;
  wait_for_grid();
}

__attribute__((kernel)) void via_device(int *v, int *seen, int rounds) {
  int i = grid(1), n = gridsize(1);
  for (int r = 0; r < rounds; r++) {
    step(v, i);
    /* after the sync every element has been incremented r + 1 times */
    if (v[(i + 1) % n] != r + 1) atomic_add(seen, 1);
    grid_sync();
  }
}

int main(void) {
  kt_start("grid_sync");
  long long limit = kp_max_cooperative_grid_blocks(sequential_rows, ROW_THREADS, 0);
  printf("grid_sync: at most %lld co-resident blocks of %d threads\n", limit, ROW_THREADS);
  KT_CHECK(limit >= COLS / ROW_THREADS, "only %lld co-resident blocks of %d threads", limit,
           ROW_THREADS);

  int *m = managed_array(int, ROWS * COLS);
  for (int rep = 0; rep < 2; rep++) {
    memset(m, 0, sizeof(int) * ROWS * COLS);
    launch(sequential_rows, COLS / ROW_THREADS, ROW_THREADS)(m, ROWS, COLS);
    kp_synchronize();
    for (int r = 0; r < ROWS; r++)
      for (int c = 0; c < COLS; c++)
        KT_CHECK(m[r * COLS + c] == r, "launch %d: m[%d][%d] = %d, expected %d", rep, r, c,
                 m[r * COLS + c], r);
  }

  int *in = managed_array(int, SUM_N);
  long long *partial = managed_array(long long, SUM_BLOCKS), *out = managed_array(long long, 1);
  long long want = 0;
  for (int i = 0; i < SUM_N; i++) in[i] = (i * 7919) % 1000 - 300, want += in[i];
  for (int rep = 0; rep < 3; rep++) {
    *out = 0;
    launch(reduce_phases, SUM_BLOCKS, SUM_THREADS)(in, SUM_N, partial, out);
    kp_synchronize();
    KT_CHECK(*out == want, "launch %d: sum %lld, expected %lld", rep, *out, want);
    long long others = 0;
    for (int b = 0; b < SUM_BLOCKS; b++) others += partial[b];
    /* each block holds total - its own partial: together (blocks - 1) * total */
    KT_CHECK(others == (SUM_BLOCKS - 1) * want, "launch %d: second phase %lld, expected %lld",
             rep, others, (SUM_BLOCKS - 1) * want);
  }

  enum { V_BLOCKS = 4, V_THREADS = 48, ROUNDS = 5 };
  int *v = managed_array(int, V_BLOCKS * V_THREADS), *seen = managed_array(int, 1);
  memset(v, 0, sizeof(int) * V_BLOCKS * V_THREADS);
  *seen = 0;
  launch(via_device, V_BLOCKS, V_THREADS)(v, seen, ROUNDS);
  kp_synchronize();
  KT_CHECK(*seen == 0, "%d reads saw an element not yet incremented", *seen);
  for (int i = 0; i < V_BLOCKS * V_THREADS; i++)
    KT_CHECK(v[i] == ROUNDS, "v[%d] = %d, expected %d", i, v[i], ROUNDS);

  printf("grid_sync: %d rows over %d blocks, sums, device function: ok\n", ROWS,
         COLS / ROW_THREADS);
  kp_free(m), kp_free(in), kp_free(partial), kp_free(out), kp_free(v), kp_free(seen);
  return 0;
}

/* PTX-LABEL: .visible .entry sequential_rows(
 * PTX: bar.sync 0;
 * PTX: membar.gl;
 * PTX: atom.global.add.u32
 * PTX: nanosleep.u32
 * PTX: membar.gl;
 * PTX: bar.sync 0;
 *
 * REMARK: kernel 'sequential_rows': CPU entry = fibers, launched cooperatively: grid_sync() needs every thread of the grid alive at once
 * REMARK: kernel 'via_device': CPU entry = fibers, launched cooperatively
 */
