/* barrier_split_votes.c — syncthreads_count/and/or, which the CPU backend splits like
 * syncthreads() with the vote counted between the two halves: plain votes on every block
 * shape, and a loop that runs until no thread of the block changed anything (a vote deciding
 * whether the block goes round again). Also built with cpu-barriers=fibers
 * (barrier_paths.cmake). Compared with plain C. */
#include <stdlib.h>

#include "kernel_test.h"

enum { MAX_T = 1024 };

static unsigned linear_tid(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* out[i] = count * 10000 + and * 100 + or over the block of predicates in[i] % m == 0, with
 * the value of the thread itself added after the votes. */
__attribute__((kernel)) void votes(const int *in, int *out, int m) {
  unsigned n = blockDim.x * blockDim.y * blockDim.z, t = linear_tid();
  int v = in[blockIdx.x * n + t];
  int c = syncthreads_count(v % m == 0);
  int a = syncthreads_and(v % m != 1);
  int o = syncthreads_or(v % m == 2);
  out[blockIdx.x * n + t] = c * 10000 + a * 100 + o + v % 7;
}

/* Each round every thread takes the larger of its value and its right neighbour's, until no
 * thread's value changes: the block-wide maximum, in as many rounds as the block needs. The
 * number of rounds is written by thread 0. */
__attribute__((kernel)) void spread_max(const int *in, int *out, int *rounds) {
  static __attribute__((shared)) int s[MAX_T];
  unsigned n = blockDim.x, t = threadIdx.x;
  s[t] = in[blockIdx.x * n + t];
  int r = 0, changed;
  do {
    syncthreads();
    int right = s[(t + 1) % n];
    syncthreads();
    changed = right > s[t];
    if (changed) s[t] = right;
    r++;
  } while (syncthreads_or(changed));
  out[blockIdx.x * n + t] = s[t];
  if (t == 0) rounds[blockIdx.x] = r;
}

static void check_votes(unsigned bx, unsigned by, unsigned bz, unsigned blocks, int m) {
  unsigned n = bx * by * bz, total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 7919u + 13u) % 1000u);
  if (blocks > 1)
    for (unsigned t = 0; t < n; t++) in[n + t] = m * (int)t; /* block 1: all votes pass */
  int *d_in = device_array(int, total), *d_out = device_array(int, total);
  copy_to_device(d_in, in, total);
  launch(votes, blocks, dim3(bx, by, bz))(d_in, d_out, m);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    int c = 0, a = 1, o = 0;
    for (unsigned t = 0; t < n; t++) {
      int v = in[b * n + t];
      c += v % m == 0, a &= v % m != 1, o |= v % m == 2;
    }
    for (unsigned t = 0; t < n; t++) {
      int expect = c * 10000 + a * 100 + o + in[b * n + t] % 7;
      KT_CHECK(out[b * n + t] == expect, "votes (%u, %u, %u) m=%d: out[%u] = %d, expected %d",
               bx, by, bz, m, b * n + t, out[b * n + t], expect);
    }
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

static void check_spread(unsigned n, unsigned blocks) {
  unsigned total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  int *rounds = malloc(blocks * sizeof *rounds), *v = malloc(n * sizeof *v);
  int *next = malloc(n * sizeof *next);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 2654435761u) >> 20);
  int *d_in = device_array(int, total), *d_out = device_array(int, total);
  int *d_rounds = device_array(int, blocks);
  copy_to_device(d_in, in, total);
  launch(spread_max, blocks, n)(d_in, d_out, d_rounds);
  copy_to_host(out, d_out, total);
  copy_to_host(rounds, d_rounds, blocks);
  for (unsigned b = 0; b < blocks; b++) {
    for (unsigned t = 0; t < n; t++) v[t] = in[b * n + t];
    int r = 0, changed;
    do {
      changed = 0;
      for (unsigned t = 0; t < n; t++) next[t] = v[(t + 1) % n] > v[t] ? v[(t + 1) % n] : v[t];
      for (unsigned t = 0; t < n; t++) changed |= next[t] != v[t], v[t] = next[t];
      r++;
    } while (changed);
    KT_CHECK(rounds[b] == r, "spread_max %u: block %u took %d rounds, expected %d", n, b,
             rounds[b], r);
    for (unsigned t = 0; t < n; t++)
      KT_CHECK(out[b * n + t] == v[t], "spread_max %u: out[%u] = %d, expected %d", n, b * n + t,
               out[b * n + t], v[t]);
  }
  kp_free(d_in), kp_free(d_out), kp_free(d_rounds);
  free(in), free(out), free(rounds), free(v), free(next);
}

int main(void) {
  kt_start("barrier_split_votes");
  check_votes(1, 1, 1, 3, 2);
  check_votes(64, 1, 1, 4, 3);
  check_votes(7, 5, 3, 3, 4);
  check_votes(1024, 1, 1, 2, 5);
  check_votes(16, 16, 1, 3, 2);
  check_spread(1, 2);
  check_spread(33, 3);
  check_spread(256, 4);
  printf("barrier_split_votes: OK\n");
  return 0;
}
