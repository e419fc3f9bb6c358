/* barrier_split_runs.c — split kernels (barriers, votes, warp collectives) on grids whose
 * blocks the CPU backend hands out in runs, several blocks per call of the split entry
 * (KP_KERNEL_CPU_BLOCK_RUNS): small blocks, so that a run holds many; grids that are not a
 * multiple of the run, one block, 2D and 3D grids whose runs cross rows and planes; values
 * saved across a barrier that differ between blocks, so that a block reading another's would
 * show. Also built with cpu-barriers=fibers (barrier_paths.cmake). Compared with plain C. */
#include <stdlib.h>

#include "kernel_test.h"

#define FULL 0xffffffffu
enum { MAX_T = 1024 };

static unsigned linear_block(void) {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* Each block reverses its part of in through shared memory, then adds its block number and a
 * vote of its threads; `base` (block-uniform, live across both barriers) and `mine`
 * (per-thread) must be the block's own. */
__attribute__((kernel)) void reverse_vote(const int *in, int *out) {
  static __attribute__((shared)) int s[MAX_T];
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned b = linear_block();
  int base = (int)(b * 1000u);
  int mine = in[b * n + t];
  s[t] = mine;
  syncthreads();
  int r = s[n - 1 - t];
  int odd = syncthreads_count(mine & 1);
  out[b * n + t] = r + base + odd * 100000 + (mine - in[b * n + t]);
}

/* A warp-shuffle reduction of each warp, the warps' sums added by thread 0 in shared memory. */
__attribute__((kernel)) void warp_sums(const int *in, int *out) {
  static __attribute__((shared)) int partial[32];
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned b = linear_block();
  int v = in[b * blockDim.x + t];
  for (int off = 16; off > 0; off >>= 1) v += shfl_down_sync(FULL, v, (unsigned)off);
  if (lane == 0) partial[warp] = v;
  syncthreads();
  if (t == 0) {
    int sum = 0;
    for (unsigned w = 0; w < (blockDim.x + 31) / 32; w++) sum += partial[w];
    out[b] = sum + (int)b;
  }
}

static int *device_copy(const int *h, size_t count) {
  int *d = device_array(int, count);
  copy_to_device(d, h, count);
  return d;
}

static int value(unsigned i) { return (int)((i * 2654435761u) >> 20) % 5000 - 2500; }

static void check_reverse(kp_dim3 grid, kp_dim3 block) {
  unsigned n = block.x * block.y * block.z, blocks = grid.x * grid.y * grid.z, total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = value(i);
  int *d_in = device_copy(in, total), *d_out = device_array(int, total);
  launch(reverse_vote, grid, block)(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    int odd = 0;
    for (unsigned t = 0; t < n; t++) odd += in[b * n + t] & 1;
    for (unsigned t = 0; t < n; t++) {
      int expect = in[b * n + n - 1 - t] + (int)(b * 1000u) + odd * 100000;
      KT_CHECK(out[b * n + t] == expect,
               "reverse_vote grid (%u, %u, %u) block (%u, %u, %u): out[%u] = %d, expected %d",
               grid.x, grid.y, grid.z, block.x, block.y, block.z, b * n + t, out[b * n + t],
               expect);
    }
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

static void check_warp_sums(kp_dim3 grid, unsigned threads) {
  unsigned blocks = grid.x * grid.y * grid.z, total = threads * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(blocks * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = value(i + 7);
  int *d_in = device_copy(in, total), *d_out = device_array(int, blocks);
  launch(warp_sums, grid, threads)(d_in, d_out);
  copy_to_host(out, d_out, blocks);
  for (unsigned b = 0; b < blocks; b++) {
    int sum = (int)b;
    for (unsigned t = 0; t < threads; t++) sum += in[b * threads + t];
    KT_CHECK(out[b] == sum, "warp_sums grid (%u, %u, %u) x %u: block %u = %d, expected %d",
             grid.x, grid.y, grid.z, threads, b, out[b], sum);
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

int main(void) {
  kt_start("barrier_split_runs");
  check_reverse(dim3(1), dim3(16));           /* one block */
  check_reverse(dim3(37), dim3(16));          /* not a multiple of any run */
  check_reverse(dim3(7, 5), dim3(4, 4));      /* runs across rows of blocks */
  check_reverse(dim3(3, 4, 5), dim3(2, 2, 4)); /* and across planes */
  check_reverse(dim3(301), dim3(8));
  check_reverse(dim3(9), dim3(256));
  check_warp_sums(dim3(1), 32);
  check_warp_sums(dim3(129), 32);
  check_warp_sums(dim3(5, 3, 3), 64);
  check_warp_sums(dim3(41), 96);
  check_warp_sums(dim3(2, 2), 128);
  printf("barrier_split_runs: OK\n");
  return 0;
}
