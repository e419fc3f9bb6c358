/* region_exits.c — the CPU backend's split entry goes from a region that every thread leaves
 * one way straight to the next region (BarrierFission.cpp, DirectExits), and through the
 * dispatch where a region has two ways out. Kernels: a loop with a barrier whose trip count
 * is an argument (the loop's test decided before each region's thread loops: each way one
 * exit), and a branch between two barriers on a value read from memory in the region (two
 * exits, the same in every thread), inside the same loop. Results compared with plain C. */
#include <stdlib.h>

#include "kernel_test.h"

enum { TPB = 128 };

/* rounds rotations of each block's values by one place, then a branch on flags[round]:
 * add 1 to each value, or double it, each way with its own barrier. */
__attribute__((kernel)) void rotate(int *x, const int *flags, int rounds, int n) {
  static __attribute__((shared)) int s[2][TPB];
  unsigned t = threadIdx.x;
  int i = (int)(blockIdx.x * blockDim.x + t);
  s[0][t] = i < n ? x[i] : 0;
  syncthreads();
  for (int r = 0; r < rounds; r++) {
    int v = s[r & 1][(t + 1) % blockDim.x];
    if (flags[r]) {
      s[(r + 1) & 1][t] = v + 1;
      syncthreads();
    } else {
      s[(r + 1) & 1][t] = 2 * v;
      syncthreads();
    }
  }
  if (i < n) x[i] = s[rounds & 1][t];
}

static void check(unsigned tpb, int rounds, int n) {
  int *h = malloc((size_t)n * sizeof *h), *want = malloc((size_t)n * sizeof *want);
  int *flags = malloc((size_t)(rounds + 1) * sizeof *flags);
  for (int r = 0; r <= rounds; r++) flags[r] = (r * 7 + 3) % 3 != 0;
  for (int i = 0; i < n; i++) h[i] = (i * 37 + 11) % 1000;
  int blocks = (n + (int)tpb - 1) / (int)tpb;
  for (int b = 0; b < blocks; b++) { /* plain C: the same rounds on each block */
    int cur[TPB], next[TPB];
    for (unsigned t = 0; t < tpb; t++) {
      int i = b * (int)tpb + (int)t;
      cur[t] = i < n ? h[i] : 0;
    }
    for (int r = 0; r < rounds; r++) {
      for (unsigned t = 0; t < tpb; t++) {
        int v = cur[(t + 1) % tpb];
        next[t] = flags[r] ? v + 1 : 2 * v;
      }
      for (unsigned t = 0; t < tpb; t++) cur[t] = next[t];
    }
    for (unsigned t = 0; t < tpb; t++)
      if (b * (int)tpb + (int)t < n) want[b * (int)tpb + (int)t] = cur[t];
  }
  int *dx = device_array(int, (size_t)n), *dflags = device_array(int, (size_t)(rounds + 1));
  copy_to_device(dx, h, (size_t)n);
  copy_to_device(dflags, flags, (size_t)(rounds + 1));
  launch(rotate, (unsigned)blocks, tpb)(dx, dflags, rounds, n);
  copy_to_host(h, dx, (size_t)n);
  for (int i = 0; i < n; i++)
    KT_CHECK(h[i] == want[i], "rotate %u threads, %d rounds: x[%d] = %d, expected %d", tpb,
             rounds, i, h[i], want[i]);
  kp_free(dx), kp_free(dflags), free(h), free(want), free(flags);
}

int main(void) {
  kt_start("region_exits");
  check(TPB, 0, 1000);
  check(TPB, 1, 1000);
  check(TPB, 6, 4099);
  check(64, 5, 1000);
  check(7, 9, 100);
  check(1, 3, 5);
  printf("region_exits: OK\n");
  return 0;
}
