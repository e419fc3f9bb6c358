/* warp_part_exits.c — a region over the whole block whose loop over x the CPU split cuts at a
 * branch on threadIdx.x, each part leaving the region one way: the warps below the bound go on
 * to their shuffles, the others wait at the next barrier. Each part stores where it goes once
 * per warp (BarrierFission.cpp, storeExitPerWarp), at the warps' first lanes, the only entries
 * the warps' loop reads. Constant bounds of 32 and 64; bounds of 0, 32, 64 and the whole row
 * from a parameter (threadIdx.x / 32 < k, a branch the split does not cut: every thread stores
 * where it goes, the path before), in blocks of one row (64, 96, 256, 1024 threads) and of
 * several rows (x0 = 0 again on each row); a barrier after the shuffles, so that every warp
 * must have stopped at the right place, and a read of another thread's element after it.
 * Compared with plain C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

#define FULL 0xffffffffu
enum { MAX_THREADS = 1024 };

__attribute__((device)) unsigned linear_tid(void) {
  return threadIdx.x + blockDim.x * threadIdx.y;
}

/* Warps with threadIdx.x < 32 k shuffle twice; then every thread reads its neighbour's
 * element. */
__attribute__((kernel)) void part_exits(const unsigned *in, unsigned *out, unsigned k) {
  static __attribute__((shared)) unsigned s[MAX_THREADS];
  unsigned t = linear_tid(), n = blockDim.x * blockDim.y;
  unsigned gid = blockIdx.x * n + t;
  s[t] = in[gid];
  syncthreads();
  if (threadIdx.x / 32u < k) {
    unsigned w = s[t];
    w = 3u * w + shfl_down_sync(FULL, w, 16);
    w = 5u * w - shfl_down_sync(FULL, w, 1);
    s[t] = w;
  }
  syncthreads();
  out[gid] = s[t] ^ (s[(t + 1) % n] * 7u);
}

/* The same with the bound a constant (the tree reduction's `tid < 32`), which the split cuts
 * the loop over x at. */
#define CONST_BOUND_KERNEL(name, bound)                                                        \
  __attribute__((kernel)) void name(const unsigned *in, unsigned *out) {                       \
    static __attribute__((shared)) unsigned s[MAX_THREADS];                                    \
    unsigned t = linear_tid(), n = blockDim.x * blockDim.y;                                    \
    unsigned gid = blockIdx.x * n + t;                                                         \
    s[t] = in[gid];                                                                            \
    syncthreads();                                                                             \
    if (threadIdx.x < bound) {                                                                 \
      unsigned w = s[t];                                                                       \
      for (unsigned d = 16; d > 0; d /= 2) w = 3u * w + shfl_down_sync(FULL, w, d);            \
      s[t] = w;                                                                                \
    }                                                                                          \
    syncthreads();                                                                             \
    out[gid] = s[t] ^ (s[(t + 1) % n] * 7u);                                                   \
  }
CONST_BOUND_KERNEL(first_warp_exits, 32)
CONST_BOUND_KERNEL(two_warps_exits, 64)

/* One warp's shfl_down step in plain C: lane l takes lane l + d's value where that lane
 * exists, else keeps its own. */
static void down_step(unsigned *v, unsigned lanes, unsigned d, unsigned mul, int sub) {
  unsigned old[32];
  memcpy(old, v, lanes * sizeof *v);
  for (unsigned l = 0; l < lanes; l++) {
    unsigned x = l + d < lanes ? old[l + d] : old[l];
    v[l] = sub ? mul * old[l] - x : mul * old[l] + x;
  }
}

/* The kernels in plain C for one block of bx * by threads; Loop: first_warp_exits's steps. */
static void reference(const unsigned *in, unsigned *out, unsigned bx, unsigned by, unsigned k,
                      int loop) {
  unsigned n = bx * by, s[MAX_THREADS];
  memcpy(s, in, n * sizeof *s);
  for (unsigned first = 0; first < n; first += 32) { /* warps: rows hold whole warps */
    unsigned lanes = n - first < 32 ? n - first : 32;
    if (first % bx >= 32 * k)
      continue;
    if (loop) {
      for (unsigned d = 16; d > 0; d /= 2) down_step(s + first, lanes, d, 3, 0);
    } else {
      down_step(s + first, lanes, 16, 3, 0);
      down_step(s + first, lanes, 1, 5, 1);
    }
  }
  for (unsigned t = 0; t < n; t++) out[t] = s[t] ^ (s[(t + 1) % n] * 7u);
}

static void run_shape(unsigned bx, unsigned by, unsigned blocks) {
  unsigned threads = bx * by, total = threads * blocks;
  unsigned *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  unsigned *want = malloc(total * sizeof *want);
  for (unsigned i = 0; i < total; i++) in[i] = i * 2654435761u ^ (i >> 4);
  unsigned *d_in = device_array(unsigned, total), *d_out = device_array(unsigned, total);
  copy_to_device(d_in, in, total);
  kp_dim3 block = dim3(bx, by);
  static const unsigned bounds[] = {0, 1, 2, 64}; /* in warps */
  enum { PARAMS = sizeof bounds / sizeof *bounds };
  for (unsigned c = 0; c < PARAMS + 2; c++) {
    int loop = c >= PARAMS;
    unsigned k = loop ? c - PARAMS + 1 : bounds[c];
    if (c == PARAMS)
      launch(first_warp_exits, blocks, block)(d_in, d_out);
    else if (c == PARAMS + 1)
      launch(two_warps_exits, blocks, block)(d_in, d_out);
    else
      launch(part_exits, blocks, block)(d_in, d_out, k);
    copy_to_host(out, d_out, total);
    for (unsigned b = 0; b < blocks; b++)
      reference(in + b * threads, want + b * threads, bx, by, k, loop);
    for (unsigned i = 0; i < total; i++)
      KT_CHECK(out[i] == want[i], "%s (%ux%u threads, %u warps): out[%u] = %u, expected %u",
               loop ? "const_bound_exits" : "part_exits", bx, by, k, i, out[i], want[i]);
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out), free(want);
}

int main(void) {
  kt_start("warp_part_exits");
  run_shape(64, 1, 3);
  run_shape(96, 1, 2);
  run_shape(256, 1, 2);
  run_shape(1024, 1, 2);
  run_shape(64, 3, 2); /* rows of two warps */
  run_shape(32, 4, 2); /* rows of one warp */
  printf("warp_part_exits: OK\n");
  return 0;
}
