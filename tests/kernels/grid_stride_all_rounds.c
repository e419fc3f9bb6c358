/* grid_stride_all_rounds.c — grid-stride kernels whose interchanged CPU entry runs the rounds
 * every thread of a group has without the loop's test (kernplug-grid-stride-interchange: the
 * check phase counts them per block, the fewest over the group's blocks), then the tested
 * rounds. Each thread counts its own iterations and each element its visits; both are checked
 * against the loop run on the host, at sizes where no round, some rounds or every round is
 * complete, with bounds that differ between blocks (the fewest rounds decide), `i <= n`, a
 * negative n, 2-D blocks and grids of several groups (more than 16384 threads). */
#include <stdlib.h>

#include "kernel_test.h"
#include "kernplug.h"

/* i < n with a per-block end: block b stops at n - b * cut. */
__attribute__((kernel)) void gar_count(int *visits, int *iters, int n, int cut) {
  int end = n - (int)blockIdx.x * cut;
  int count = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < end; i += gridDim.x * blockDim.x) {
    visits[i] += 1;
    count++;
  }
  iters[blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x] += count;
}

/* i <= n, unsigned. */
__attribute__((kernel)) void gar_upto(int *visits, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += gridDim.x * blockDim.x)
    visits[i] += 1;
}

/* A sum carried through the rounds (seed 004's shape), one per thread. */
__attribute__((kernel)) void gar_sum(const int *x, long long *sums, int n) {
  long long s = 0;
  for (int i = grid(1); i < n; i += gridsize(1)) s += x[i];
  sums[grid(1)] = s;
}

static void check_count(int n, int cut, unsigned blocks, unsigned tx, unsigned ty) {
  int last_end = n - (int)(blocks - 1) * cut, max_end = last_end > n ? last_end : n;
  size_t len = max_end > 0 ? (size_t)max_end : 1, threads = (size_t)blocks * tx * ty;
  int *visits = calloc(len, sizeof(int)), *iters = calloc(threads, sizeof(int));
  int *want_v = calloc(len, sizeof(int)), *want_i = calloc(threads, sizeof(int));
  int stride = (int)(blocks * tx);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned y = 0; y < ty; y++)
      for (unsigned x = 0; x < tx; x++) {
        int end = n - (int)b * cut, count = 0;
        for (int i = (int)(b * tx + x); i < end; i += stride) want_v[i] += 1, count++;
        want_i[(b * ty + y) * tx + x] = count;
      }
  int *dv = to_device(visits, len), *di = to_device(iters, threads);
  launch(gar_count, blocks, kp_dim3(tx, ty))(dv, di, n, cut);
  copy_to_host(visits, dv, len);
  copy_to_host(iters, di, threads);
  for (int i = 0; i < max_end; i++)
    KT_CHECK(visits[i] == want_v[i], "gar_count n=%d cut=%d %ux(%u,%u): visits[%d] = %d, expected %d",
             n, cut, blocks, tx, ty, i, visits[i], want_v[i]);
  for (size_t t = 0; t < threads; t++)
    KT_CHECK(iters[t] == want_i[t], "gar_count n=%d cut=%d %ux(%u,%u): thread %zu ran %d iterations, expected %d",
             n, cut, blocks, tx, ty, t, iters[t], want_i[t]);
  kp_free(dv), kp_free(di);
  free(visits), free(iters), free(want_v), free(want_i);
}

static void check_upto(unsigned n, unsigned blocks, unsigned threads) {
  int *visits = calloc((size_t)n + 2, sizeof(int));
  int *dv = to_device(visits, (size_t)n + 2);
  launch(gar_upto, blocks, threads)(dv, n);
  copy_to_host(visits, dv, (size_t)n + 2);
  for (unsigned i = 0; i <= n + 1; i++)
    KT_CHECK(visits[i] == (i <= n), "gar_upto n=%u %ux%u: visits[%u] = %d", n, blocks, threads,
             i, visits[i]);
  kp_free(dv);
  free(visits);
}

static void check_sum(int n, unsigned blocks, unsigned threads) {
  size_t len = n > 0 ? (size_t)n : 1, total = (size_t)blocks * threads;
  int *x = malloc(len * sizeof(int));
  for (size_t i = 0; i < len; i++) x[i] = (int)(i * 7 % 1001) - 500;
  long long *sums = calloc(total, sizeof(long long));
  int *dx = to_device(x, len);
  long long *ds = to_device(sums, total);
  launch(gar_sum, blocks, threads)(dx, ds, n);
  copy_to_host(sums, ds, total);
  for (size_t t = 0; t < total; t++) {
    long long want = 0;
    for (long long i = (long long)t; i < n; i += (long long)total) want += x[i];
    KT_CHECK(sums[t] == want, "gar_sum n=%d %ux%u: thread %zu summed %lld, expected %lld", n,
             blocks, threads, t, sums[t], want);
  }
  kp_free(dx), kp_free(ds);
  free(x), free(sums);
}

int main(void) {
  kt_start("grid_stride_all_rounds");
  check_count(0, 0, 4, 64, 1);         /* no round at all */
  check_count(100, 0, 4, 64, 1);       /* fewer elements than threads: no complete round */
  check_count(256 * 5, 0, 4, 64, 1);   /* every round complete */
  check_count(256 * 5 + 77, 0, 4, 64, 1); /* a partial last round */
  check_count(10007, 13, 8, 32, 1);    /* ends that differ between blocks */
  check_count(10007, -40, 8, 32, 1);   /* later blocks end later */
  check_count(3000, 0, 5, 32, 3);      /* 2-D blocks: rows share their starts */
  check_count(-5, 0, 3, 32, 1);        /* a negative n: no round */
  check_count(300000, 1, 96, 256, 1);  /* several groups of blocks */
  check_upto(0, 2, 32);
  check_upto(4095, 4, 64);
  check_upto(4096, 4, 64);
  check_upto(5000, 3, 128);
  check_sum(1 << 20, 16, 256);
  check_sum((1 << 20) + 333, 32, 256);
  check_sum(1000, 16, 256);
  printf("grid_stride_all_rounds: ok\n");
  return 0;
}
