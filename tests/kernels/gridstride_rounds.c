/* gridstride_rounds.c — grid-stride loops between barriers, which the CPU backend runs in
 * rounds of the block's threads (GridStrideRounds.h: iteration k of every thread, then k+1)
 * where the only shared memory they touch is through relaxed commutative atomics whose
 * results go unused, and thread by thread otherwise. Every result is checked against a plain
 * C count of what each GPU thread does:
 *   hist        the shared-memory histogram (in rounds), at several grid and block sizes,
 *               n of 0, fewer elements than threads, and not a multiple of the grid
 *   hist_u      the same on an unsigned counter (in rounds that vote: it may wrap)
 *   hist_long   the same on a 64-bit counter (in rounds that vote)
 *   hist_hash   the same with a per-thread hash of its elements in visit order carried across
 *               the loop (in rounds: each thread must still see its own elements in order)
 *   slots       an atomic whose result is used (a slot per element): kept thread by thread;
 *               checked as a multiset, which any order gives
 *   own_cells   a plain shared store per thread, read by thread 0 after the barrier: kept
 *   odd_threads the loop under a branch on the thread: the split keeps the kernel as it is */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

enum { BINS = 256, MAXN = 200003, CAP = 1 << 16 };

__attribute__((kernel)) void hist(const unsigned char *v, int n, unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

__attribute__((kernel)) void hist_u(const unsigned char *v, unsigned n, unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (unsigned i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

__attribute__((kernel)) void hist_long(const unsigned char *v, long n, unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (long i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

/* hash[t] = the thread's elements folded in the order it visits them. */
__attribute__((kernel)) void hist_hash(const unsigned char *v, int n, unsigned *bins,
                                       unsigned *hash) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  unsigned h = 17;
  for (int i = grid(1); i < n; i += gridsize(1)) {
    atomic_add(&local[v[i]], 1u);
    h = h * 31u + v[i];
  }
  hash[grid(1)] = h;
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

/* Each element claims a slot of its block's list: the atomic's result is used. */
__attribute__((kernel)) void slots(const unsigned char *v, int n, unsigned *lists,
                                   unsigned *lengths) {
  static __attribute__((shared)) unsigned count[1];
  if (threadIdx.x == 0) count[0] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1)) {
    unsigned slot = atomic_add(&count[0], 1u);
    lists[blockIdx.x * (unsigned)CAP + slot] = v[i];
  }
  syncthreads();
  if (threadIdx.x == 0) lengths[blockIdx.x] = count[0];
}

/* A plain store into the thread's cell, which thread 0 reads after the barrier. */
__attribute__((kernel)) void own_cells(const unsigned char *v, int n, unsigned *sums) {
  static __attribute__((shared)) unsigned cell[1024];
  cell[threadIdx.x] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1)) cell[threadIdx.x] += v[i];
  syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = 0;
    for (unsigned t = 0; t < blockDim.x; t++) s += cell[t];
    sums[blockIdx.x] = s;
  }
}

/* Only odd threads walk the array. */
__attribute__((kernel)) void odd_threads(const unsigned char *v, int n, unsigned *bins) {
  static __attribute__((shared)) unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  syncthreads();
  if (threadIdx.x & 1)
    for (int i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

static unsigned char g_v[MAXN];

static void check_one(unsigned blocks, unsigned threads, int n) {
  unsigned total = blocks * threads;
  unsigned want[BINS] = {0}, want_odd[BINS] = {0}, got[BINS];
  unsigned *want_hash = malloc(total * sizeof *want_hash), *got_hash = malloc(total * 4);
  unsigned *want_sum = calloc(blocks, 4), *got_sum = malloc(blocks * 4);
  unsigned *lengths = malloc(blocks * 4), *lists = malloc((size_t)blocks * CAP * 4);
  KT_CHECK(want_hash && got_hash && want_sum && got_sum && lengths && lists, "out of memory");
  for (unsigned t = 0; t < total; t++) {
    unsigned h = 17;
    for (long i = t; i < n; i += total) {
      want[g_v[i]]++;
      if (t % threads % 2) want_odd[g_v[i]]++;
      want_sum[t / threads] += g_v[i];
      h = h * 31u + g_v[i];
    }
    want_hash[t] = h;
  }
  unsigned char *d = to_device(g_v, n > 0 ? (size_t)n : 1);
  unsigned *bins = device_array(unsigned, BINS), *hash = device_array(unsigned, total);
  unsigned *dsum = device_array(unsigned, blocks), *dlen = device_array(unsigned, blocks);
  unsigned *dlists = device_array(unsigned, (size_t)blocks * CAP);
  unsigned zero[BINS] = {0};

  copy_to_device(bins, zero, BINS);
  launch(hist, blocks, threads)(d, n, bins);
  copy_to_host(got, bins, BINS);
  for (int b = 0; b < BINS; b++)
    KT_CHECK(got[b] == want[b], "hist %u x %u, n %d, bin %d: %u != %u", blocks, threads, n, b,
             got[b], want[b]);

  copy_to_device(bins, zero, BINS);
  launch(hist_u, blocks, threads)(d, (unsigned)n, bins);
  copy_to_host(got, bins, BINS);
  for (int b = 0; b < BINS; b++)
    KT_CHECK(got[b] == want[b], "hist_u %u x %u, n %d, bin %d: %u != %u", blocks, threads, n, b,
             got[b], want[b]);

  copy_to_device(bins, zero, BINS);
  launch(hist_long, blocks, threads)(d, (long)n, bins);
  copy_to_host(got, bins, BINS);
  for (int b = 0; b < BINS; b++)
    KT_CHECK(got[b] == want[b], "hist_long %u x %u, n %d, bin %d: %u != %u", blocks, threads, n,
             b, got[b], want[b]);

  copy_to_device(bins, zero, BINS);
  launch(hist_hash, blocks, threads)(d, n, bins, hash);
  copy_to_host(got, bins, BINS);
  copy_to_host(got_hash, hash, total);
  for (int b = 0; b < BINS; b++)
    KT_CHECK(got[b] == want[b], "hist_hash %u x %u, n %d, bin %d: %u != %u", blocks, threads, n,
             b, got[b], want[b]);
  for (unsigned t = 0; t < total; t++)
    KT_CHECK(got_hash[t] == want_hash[t], "hist_hash %u x %u, n %d, thread %u: %u != %u",
             blocks, threads, n, t, got_hash[t], want_hash[t]);

  copy_to_device(bins, zero, BINS);
  launch(odd_threads, blocks, threads)(d, n, bins);
  copy_to_host(got, bins, BINS);
  for (int b = 0; b < BINS; b++)
    KT_CHECK(got[b] == want_odd[b], "odd_threads %u x %u, n %d, bin %d: %u != %u", blocks,
             threads, n, b, got[b], want_odd[b]);

  launch(own_cells, blocks, threads)(d, n, dsum);
  copy_to_host(got_sum, dsum, blocks);
  for (unsigned b = 0; b < blocks; b++)
    KT_CHECK(got_sum[b] == want_sum[b], "own_cells %u x %u, n %d, block %u: %u != %u", blocks,
             threads, n, b, got_sum[b], want_sum[b]);

  /* Each block's list holds its elements in some order: compare the counts of each value. */
  if ((long)n / total < CAP / (long)threads) {
    launch(slots, blocks, threads)(d, n, dlists, dlen);
    copy_to_host(lengths, dlen, blocks);
    copy_to_host(lists, dlists, (size_t)blocks * CAP);
    for (unsigned b = 0; b < blocks; b++) {
      unsigned have[BINS] = {0}, need[BINS] = {0}, len = 0;
      for (unsigned t = b * threads; t < (b + 1) * threads; t++)
        for (long i = t; i < n; i += total) need[g_v[i]]++, len++;
      KT_CHECK(lengths[b] == len, "slots %u x %u, n %d, block %u: %u elements, not %u", blocks,
               threads, n, b, lengths[b], len);
      for (unsigned s = 0; s < len; s++) have[lists[(size_t)b * CAP + s] & (BINS - 1)]++;
      KT_CHECK(memcmp(have, need, sizeof have) == 0, "slots %u x %u, n %d, block %u: other values",
               blocks, threads, n, b);
    }
  }
  kp_free(d), kp_free(bins), kp_free(hash), kp_free(dsum), kp_free(dlen), kp_free(dlists);
  free(want_hash), free(got_hash), free(want_sum), free(got_sum), free(lengths), free(lists);
}

int main(void) {
  kt_start("gridstride_rounds");
  for (unsigned i = 0; i < MAXN; i++) g_v[i] = (unsigned char)((i * 2654435761u) >> 24);
  static const unsigned threads[] = {1, 32, 96, 256, 1024};
  static const unsigned blocks[] = {1, 3, 16};
  static const int sizes[] = {0, 50, MAXN};
  for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        check_one(blocks[b], threads[t], sizes[s]);
  printf("gridstride_rounds: finished\n");
  return 0;
}
