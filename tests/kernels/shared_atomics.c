/* shared_atomics.c — atomics on shared memory, which the CPU backend runs as plain loads and
 * stores (kernplug-cpu-shared-atomics: a block's threads never run at the same time there).
 * Shared-memory histograms with exact counts, for several block and grid sizes (powers of two
 * and not, one block and many): through a static shared array, the dynamic shared buffer, a
 * helper that gets the shared pointer, a compare-and-swap loop, atomic_inc's wrap-around, and
 * float sums, maxima and exchanges. The per-block results go to global memory with global
 * atomics, which keep their `lock` (every block adds into the same counts). */
#include <stdint.h>
#include <string.h>

#include "kernel_test.h"

enum { BINS = 64, N = 100003 };

static unsigned char bin_of(unsigned i) { return (unsigned char)((i * 2654435761u) >> 26); }

/* Zeroes a block's bins, waits for every thread. */
#define ZERO_BINS(h)                                                                           \
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) h[b] = 0;                          \
  syncthreads()

/* Adds the block's bins into the global counts. */
#define FLUSH_BINS(h, counts)                                                                  \
  syncthreads();                                                                               \
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomic_add(&counts[b], h[b])

__attribute__((kernel)) void hist_static(const unsigned char *data, int n, unsigned *counts) {
  static __attribute__((shared)) unsigned h[BINS];
  ZERO_BINS(h);
  for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += gridDim.x * blockDim.x)
    atomic_add(&h[data[i]], 1u);
  FLUSH_BINS(h, counts);
}

__attribute__((kernel)) void hist_dynamic(const unsigned char *data, int n, unsigned *counts) {
  unsigned *h = kp_dynamic_shared(unsigned);
  ZERO_BINS(h);
  for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += gridDim.x * blockDim.x)
    atomic_add(&h[data[i]], 1u);
  FLUSH_BINS(h, counts);
}

/* The shared pointer reaches the atomic through a helper that is not inlined. */
static __attribute__((noinline)) void bump(unsigned *bins, unsigned char b) {
  atomic_add(&bins[b], 1u);
}
__attribute__((kernel)) void hist_helper(const unsigned char *data, int n, unsigned *counts) {
  static __attribute__((shared)) unsigned h[BINS];
  ZERO_BINS(h);
  for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += gridDim.x * blockDim.x)
    bump(h, data[i]);
  FLUSH_BINS(h, counts);
}

/* Increment by compare-and-swap, as code written before atomicAdd existed does. */
__attribute__((kernel)) void hist_cas(const unsigned char *data, int n, unsigned *counts) {
  static __attribute__((shared)) unsigned h[BINS];
  ZERO_BINS(h);
  for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n;
       i += gridDim.x * blockDim.x) {
    unsigned *p = &h[data[i]], old = *p, seen;
    while ((seen = atomic_cas(p, old, old + 1)) != old) old = seen;
  }
  FLUSH_BINS(h, counts);
}

/* atomic_inc wraps to 0 past its limit: with limit 6 each bin counts modulo 7. */
__attribute__((kernel)) void hist_inc(const unsigned char *data, int n, unsigned *counts) {
  static __attribute__((shared)) unsigned h[BINS];
  ZERO_BINS(h);
  for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += gridDim.x * blockDim.x)
    atomic_inc(&h[data[i]], 6u);
  FLUSH_BINS(h, counts);
}

/* Per block: the sum (exact: small integers) and the maximum of its elements in float, and
 * the last value exchanged in (any element of the block; checked to be one). */
__attribute__((kernel)) void float_stats(const float *x, int n, float *sums, float *maxes,
                                         float *any) {
  static __attribute__((shared)) float s[3];
  if (threadIdx.x == 0) s[0] = 0, s[1] = -1, s[2] = -1;
  syncthreads();
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    atomic_add(&s[0], x[i]);
    atomic_max(&s[1], x[i]);
    atomic_exch(&s[2], x[i]);
  }
  syncthreads();
  if (threadIdx.x == 0) sums[blockIdx.x] = s[0], maxes[blockIdx.x] = s[1], any[blockIdx.x] = s[2];
}

static unsigned char g_data[N];
static float g_x[N];

static void check_histograms(unsigned grid_blocks, unsigned threads) {
  unsigned want[BINS] = {0}, want_mod7[BINS] = {0};
  for (int i = 0; i < N; i++) want[g_data[i]]++;
  unsigned char *d = to_device(g_data, N);
  unsigned *counts = device_array(unsigned, BINS);
  unsigned got[BINS];
  static const char *const names[] = {"static", "dynamic", "helper", "cas", "inc"};
  for (int k = 0; k < 5; k++) {
    unsigned zero[BINS] = {0};
    copy_to_device(counts, zero, BINS);
    switch (k) {
    case 0: launch(hist_static, grid_blocks, threads)(d, N, counts); break;
    case 1: launch(hist_dynamic, grid_blocks, threads, BINS * sizeof(unsigned))(d, N, counts); break;
    case 2: launch(hist_helper, grid_blocks, threads)(d, N, counts); break;
    case 3: launch(hist_cas, grid_blocks, threads)(d, N, counts); break;
    default: launch(hist_inc, grid_blocks, threads)(d, N, counts); break;
    }
    copy_to_host(got, counts, BINS);
    if (k == 4) { /* each block counts modulo 7: recount per block in plain C */
      memset(want_mod7, 0, sizeof want_mod7);
      for (unsigned b = 0; b < grid_blocks; b++) {
        unsigned per[BINS] = {0};
        for (unsigned long long i = (unsigned long long)b * threads; i < N;
             i += (unsigned long long)grid_blocks * threads)
          for (unsigned t = 0; t < threads && i + t < N; t++) per[g_data[i + t]]++;
        for (int bin = 0; bin < BINS; bin++) want_mod7[bin] += per[bin] % 7;
      }
    }
    for (int bin = 0; bin < BINS; bin++)
      KT_CHECK(got[bin] == (k == 4 ? want_mod7[bin] : want[bin]),
               "%s histogram, %u blocks x %u threads, bin %d: %u != %u", names[k], grid_blocks,
               threads, bin, got[bin], k == 4 ? want_mod7[bin] : want[bin]);
  }
  kp_free(d), kp_free(counts);
}

static void check_float_stats(unsigned threads) {
  unsigned blocks = (N + threads - 1) / threads;
  float *dx = to_device(g_x, N);
  float *sums = device_array(float, blocks), *maxes = device_array(float, blocks);
  float *any = device_array(float, blocks);
  launch(float_stats, blocks, threads)(dx, N, sums, maxes, any);
  float *hs = malloc(sizeof(float) * blocks * 3);
  KT_CHECK(hs != NULL, "out of memory");
  copy_to_host(hs, sums, blocks), copy_to_host(hs + blocks, maxes, blocks);
  copy_to_host(hs + 2 * blocks, any, blocks);
  for (unsigned b = 0; b < blocks; b++) {
    float sum = 0, max = -1;
    int found = 0;
    for (unsigned i = b * threads; i < (b + 1) * threads && i < N; i++) {
      sum += g_x[i];
      if (g_x[i] > max) max = g_x[i];
      found |= g_x[i] == hs[2 * blocks + b];
    }
    KT_CHECK(hs[b] == sum, "float sum, %u threads, block %u: %g != %g", threads, b, hs[b], sum);
    KT_CHECK(hs[blocks + b] == max, "float max, %u threads, block %u: %g != %g", threads, b,
             hs[blocks + b], max);
    KT_CHECK(found, "float exch, %u threads, block %u: %g is none of its elements", threads, b,
             hs[2 * blocks + b]);
  }
  free(hs);
  kp_free(dx), kp_free(sums), kp_free(maxes), kp_free(any);
}

int main(void) {
  kt_start("shared_atomics");
  for (unsigned i = 0; i < N; i++) g_data[i] = bin_of(i) % BINS, g_x[i] = (float)(i % 1000);
  static const unsigned threads[] = {1, 32, 48, 128, 256, 1024};
  static const unsigned blocks[] = {1, 3, 16, 391};
  for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
      check_histograms(blocks[b], threads[t]);
  for (size_t t = 1; t < sizeof threads / sizeof threads[0]; t++) check_float_stats(threads[t]);
  printf("shared_atomics: finished\n");
  return 0;
}
