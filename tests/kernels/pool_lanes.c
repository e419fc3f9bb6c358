/* pool_lanes.c — every block of a grid runs exactly once, however the CPU backend shares the
 * blocks out (cpu_lanes.h: a lane of blocks per participant, taken from its front by its
 * owner and from its back by the others once theirs are empty). Grids of 1 to 4097 blocks,
 * 1-D and 2-D, blocks of 1 to 256 threads; kernels without barriers (the block entry, runs of
 * blocks in one call), split at a barrier, and on fibers (warp shuffles). Some launches come
 * after a pause, so that workers are asleep and their lanes are taken by the others; pool.cmake
 * runs it with 1, 2, 3 and 17 participants (more than the 16 lanes). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <string.h>
#include <time.h>

#include "kernel_test.h"

/* Each thread adds 1 to its element; thread 0 of each block counts the block. */
__attribute__((kernel)) void mark(int *hits, int *blocks, int n) {
  unsigned b = blockIdx.x + blockIdx.y * gridDim.x;
  int i = (int)(b * blockDim.x + threadIdx.x);
  if (i < n) hits[i] += 1;
  if (threadIdx.x == 0) blocks[b] += 1;
}

/* The same through shared memory and a barrier (split at it). */
__attribute__((kernel)) void mark_shared(int *hits, int *blocks, int n) {
  static __attribute__((shared)) int s[256];
  unsigned b = blockIdx.x + blockIdx.y * gridDim.x;
  unsigned t = threadIdx.x;
  s[t] = 1;
  syncthreads();
  int i = (int)(b * blockDim.x + t);
  if (i < n) hits[i] += s[(t + 1) % blockDim.x];
  if (t == 0) blocks[b] += 1;
}

/* A warp shuffle (a warp-split entry or fibers): each lane reads its neighbour's 1. */
__attribute__((kernel)) void mark_warp(int *hits, int *blocks, int n) {
  unsigned b = blockIdx.x + blockIdx.y * gridDim.x;
  int one = shfl_down_sync(0xffffffffu, 1, 1);
  int i = (int)(b * blockDim.x + threadIdx.x);
  if (i < n) hits[i] += one;
  if (threadIdx.x == 0) blocks[b] += 1;
}

enum { MAX_BLOCKS = 4097, MAX_THREADS = 256 };

static void pause_ms(int ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

int main(void) {
  kt_start("pool_lanes");
  int *hits = device_array(int, MAX_BLOCKS * MAX_THREADS);
  int *blocks = device_array(int, MAX_BLOCKS);
  int *h_hits = malloc(sizeof(int) * MAX_BLOCKS * MAX_THREADS);
  int *h_blocks = malloc(sizeof(int) * MAX_BLOCKS);
  KT_CHECK(h_hits && h_blocks, "out of memory");
  const unsigned grids[] = {1, 2, 3, 4, 5, 7, 16, 17, 31, 33, 40, 64, 100, 391, 1000, 4097};
  const unsigned threads[] = {1, 32, 256};
  int launches = 0;
  for (int kernel = 0; kernel < 3; kernel++)
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
      for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
        for (int rows = 1; rows <= 2; rows++) {
          unsigned tpb = kernel == 2 && threads[t] < 32 ? 32 : threads[t];
          unsigned gx = grids[g], gy = gx * rows <= MAX_BLOCKS ? (unsigned)rows : 1;
          unsigned nblocks = gx * gy;
          /* The edge inside the last block where there is one: `if (i < n)`. */
          int n = (int)(nblocks * tpb - (tpb > 1 ? tpb / 3 : 0));
          memset(h_hits, 0, sizeof(int) * nblocks * tpb);
          memset(h_blocks, 0, sizeof(int) * nblocks);
          copy_to_device(hits, h_hits, nblocks * tpb);
          copy_to_device(blocks, h_blocks, nblocks);
          if (++launches % 7 == 0) pause_ms(2); /* workers fall asleep: others take their lanes */
          if (kernel == 0) launch(mark, kp_dim3(gx, gy), tpb)(hits, blocks, n);
          if (kernel == 1) launch(mark_shared, kp_dim3(gx, gy), tpb)(hits, blocks, n);
          if (kernel == 2) launch(mark_warp, kp_dim3(gx, gy), tpb)(hits, blocks, n);
          kp_synchronize();
          copy_to_host(h_hits, hits, nblocks * tpb);
          copy_to_host(h_blocks, blocks, nblocks);
          for (unsigned b = 0; b < nblocks; b++)
            KT_CHECK(h_blocks[b] == 1, "kernel %d, grid %ux%u of %u threads: block %u ran %d times",
                     kernel, gx, gy, tpb, b, h_blocks[b]);
          for (int i = 0; i < (int)(nblocks * tpb); i++)
            KT_CHECK(h_hits[i] == (i < n), "kernel %d, grid %ux%u of %u threads: element %d is %d",
                     kernel, gx, gy, tpb, i, h_hits[i]);
        }
  kp_device_properties p;
  KT_CHECK(kp_device_properties_get(0, &p) == KP_SUCCESS, "kp_device_properties_get");
  printf("pool_lanes: %d launches, %d multiprocessors: ok\n", launches, p.multiprocessors);
  kp_free(hits), kp_free(blocks);
  free(h_hits), free(h_blocks);
  return 0;
}
