/* warp_split.c — kernels with warp collectives that the CPU backend splits at them and runs
 * warp by warp (BarrierFission.cpp, WarpCollectives.cpp): the shared-memory tree reduction
 * ending in a warp-shuffle reduction by the first warp, per-warp reductions combined by the
 * first warp, a block scan from warp-shuffle scans, warp votes under a branch that is the
 * same across each warp, and one shuffle under a branch that is not (fibers). Block shapes
 * include partial last warps and rows of 16 threads (fibers at run time: a warp then spans
 * two rows). Also built with cpu-barriers=fibers (barrier_paths.cmake). Compared with plain C. */
#include <stdlib.h>

#include "kernel_test.h"

enum { MAX_T = 1024 };
#define FULL 0xffffffffu

/* out[block] = the block's sum: a tree in shared memory down to 64 values, then warp 0
 * shuffles. blockDim.x a power of two. */
__attribute__((kernel)) void tree_reduce(const int *in, int *out, int n) {
  static __attribute__((shared)) int s[MAX_T];
  unsigned t = threadIdx.x, gid = blockIdx.x * blockDim.x + t;
  s[t] = gid < (unsigned)n ? in[gid] : 0;
  syncthreads();
  for (unsigned k = blockDim.x / 2; k > 32; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    syncthreads();
  }
  if (t < 32) {
    int v = s[t] + (blockDim.x >= 64 ? s[t + 32] : 0);
    for (int off = 16; off > 0; off >>= 1) v += shfl_down_sync(FULL, v, (unsigned)off);
    if (t == 0) out[blockIdx.x] = v;
  }
}

/* out[block] = the block's maximum: each warp by xor shuffles, then warp 0 over the warps. */
__attribute__((kernel)) void warp_max(const int *in, int *out) {
  static __attribute__((shared)) int partial[32];
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned warps = (blockDim.x + 31) / 32;
  int v = in[blockIdx.x * blockDim.x + t];
  for (int m = 16; m > 0; m >>= 1) {
    int o = shfl_xor_sync(FULL, v, m);
    v = o > v ? o : v;
  }
  if (lane == 0) partial[warp] = v;
  syncthreads();
  if (warp == 0) {
    v = lane < warps ? partial[lane] : partial[0];
    for (int m = 16; m > 0; m >>= 1) {
      int o = shfl_xor_sync(FULL, v, m);
      v = o > v ? o : v;
    }
    if (lane == 0) out[blockIdx.x] = v;
  }
}

/* Inclusive scan of each block (any shape): warp scans by shfl_up, the warps' totals scanned
 * by warp 0, added back. Threads in linear order, rows of blockDim.x. */
__attribute__((kernel)) void block_scan(const int *in, int *out) {
  static __attribute__((shared)) int totals[32];
  unsigned n = blockDim.x * blockDim.y;
  unsigned t = threadIdx.x + blockDim.x * threadIdx.y, lane = t % 32, warp = t / 32;
  int v = in[blockIdx.x * n + t];
  for (unsigned d = 1; d < 32; d *= 2) {
    int up = shfl_up_sync(FULL, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31 || t == n - 1) totals[warp] = v;
  syncthreads();
  if (warp == 0) {
    int w = lane < (n + 31) / 32 ? totals[lane] : 0;
    for (unsigned d = 1; d < 32; d *= 2) {
      int up = shfl_up_sync(FULL, w, d);
      if (lane >= d) w += up;
    }
    totals[lane] = w;
  }
  syncthreads();
  out[blockIdx.x * n + t] = v + (warp > 0 ? totals[warp - 1] : 0);
}

/* Votes in even warps only (a branch the same across each warp); odd warps take the value of
 * lane 5 of their warp. */
__attribute__((kernel)) void warp_votes(const int *in, int *out) {
  unsigned t = threadIdx.x, gid = blockIdx.x * blockDim.x + t;
  int x = in[gid];
  int r;
  if ((t / 32) % 2 == 0) {
    unsigned b = ballot_sync(FULL, x % 3 == 0);
    r = (int)(b % 1000u) * 100 + all_sync(FULL, x >= 0) * 10 + any_sync(FULL, x % 7 == 0);
  } else {
    r = shfl_sync(FULL, x, 5) - 1000000;
  }
  out[gid] = r;
}

/* A shuffle only half of each warp makes: the split cannot run it, fibers do. */
__attribute__((kernel)) void half_warp(const int *in, int *out) {
  unsigned t = threadIdx.x, gid = blockIdx.x * blockDim.x + t;
  int v = in[gid];
  if (t % 32 < 16) v += shfl_down_sync(0x0000ffffu, v, 1);
  out[gid] = v;
}

static int *device_copy(const int *h, size_t count) {
  int *d = device_array(int, count);
  copy_to_device(d, h, count);
  return d;
}

static void check_reductions(unsigned threads, unsigned blocks) {
  unsigned total = threads * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(blocks * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 7919u + 3u) % 2001u) - 1000;
  int *d_in = device_copy(in, total), *d_out = device_array(int, blocks);
  int n = (int)total - (int)threads / 3; /* a ragged end */
  if ((threads & (threads - 1)) == 0 && threads >= 32) {
    launch(tree_reduce, blocks, threads)(d_in, d_out, n);
    copy_to_host(out, d_out, blocks);
    for (unsigned b = 0; b < blocks; b++) {
      int sum = 0;
      for (unsigned t = 0; t < threads; t++)
        if ((int)(b * threads + t) < n) sum += in[b * threads + t];
      KT_CHECK(out[b] == sum, "tree_reduce %u: block %u = %d, expected %d", threads, b, out[b],
               sum);
    }
  }
  launch(warp_max, blocks, threads)(d_in, d_out);
  copy_to_host(out, d_out, blocks);
  for (unsigned b = 0; b < blocks; b++) {
    int max = in[b * threads];
    for (unsigned t = 0; t < threads; t++) max = in[b * threads + t] > max ? in[b * threads + t] : max;
    KT_CHECK(out[b] == max, "warp_max %u: block %u = %d, expected %d", threads, b, out[b], max);
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

/* What a full-mask shuffle of a warp's lanes gives on a GPU: the lanes that exist. */
static void check_scan(unsigned bx, unsigned by, unsigned blocks) {
  unsigned n = bx * by, total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 31u + 7u) % 97u) - 40;
  int *d_in = device_copy(in, total), *d_out = device_array(int, total);
  launch(block_scan, blocks, dim3(bx, by))(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    int acc = 0;
    for (unsigned t = 0; t < n; t++) {
      acc += in[b * n + t];
      KT_CHECK(out[b * n + t] == acc, "block_scan (%u, %u): out[%u] = %d, expected %d", bx, by,
               b * n + t, out[b * n + t], acc);
    }
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

static void check_votes(unsigned threads, unsigned blocks) {
  unsigned total = threads * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 2654435761u) >> 22) - (i % 50 == 0);
  int *d_in = device_copy(in, total), *d_out = device_array(int, total);
  launch(warp_votes, blocks, threads)(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      unsigned first = t / 32 * 32, lanes = threads - first < 32 ? threads - first : 32;
      const int *w = in + b * threads + first;
      int expect;
      if ((t / 32) % 2 == 0) {
        unsigned ballot = 0;
        int all = 1, any = 0;
        for (unsigned l = 0; l < lanes; l++) {
          ballot |= (unsigned)(w[l] % 3 == 0) << l;
          all &= w[l] >= 0, any |= w[l] % 7 == 0;
        }
        expect = (int)(ballot % 1000u) * 100 + all * 10 + any;
      } else {
        expect = (5 < lanes ? w[5] : w[t - first]) - 1000000;
      }
      KT_CHECK(out[b * threads + t] == expect, "warp_votes %u: out[%u] = %d, expected %d",
               threads, b * threads + t, out[b * threads + t], expect);
    }
  launch(half_warp, blocks, threads)(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned i = 0; i < total; i++) {
    unsigned t = i % threads, lane = t % 32;
    int expect = in[i];
    if (lane < 16) expect += lane < 15 && t + 1 < threads ? in[i + 1] : in[i];
    KT_CHECK(out[i] == expect, "half_warp %u: out[%u] = %d, expected %d", threads, i, out[i],
             expect);
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

int main(void) {
  kt_start("warp_split");
  check_reductions(32, 3);
  check_reductions(64, 5);
  check_reductions(256, 7);
  check_reductions(1024, 2);
  check_reductions(80, 3); /* a partial last warp */
  check_reductions(1, 2);
  check_scan(256, 1, 4);
  check_scan(32, 4, 3);  /* rows of whole warps */
  check_scan(16, 4, 3);  /* rows of half a warp: fibers at run time */
  check_scan(100, 1, 2); /* a partial last warp */
  check_scan(1024, 1, 2);
  check_votes(128, 3);
  check_votes(96, 2);
  check_votes(70, 2);
  printf("warp_split: OK\n");
  return 0;
}
