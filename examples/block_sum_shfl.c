/* block_sum_shfl.c — a block-level sum with warp shuffles, the usual CUDA pattern that
 * numba-cuda code writes with cuda.shfl_down_sync:
 *   1. each warp adds up its 32 values with shfl_down_sync (no shared memory, no barrier);
 *   2. lane 0 of each warp writes the warp's sum to a shared array; syncthreads();
 *   3. the first warp adds up those per-warp sums the same way, and its lane 0 writes the
 *      block's sum to block_sums[blockIdx.x] and adds it to *total with one atomic_add.
 * n is not a multiple of the block size: threads past the end contribute 0 but still take part
 * in every shuffle and barrier, since shfl_down_sync(0xffffffff, ...) needs all 32 lanes.
 * Block sizes must be multiples of 32 (whole warps), up to 1024. The values are small
 * integers, so every sum is exact in float and must equal the host's exactly. */
#include "example_util.h"
#include "kernplug.h"

#define FULL_MASK 0xffffffffu /* all 32 lanes of the warp take part */

/* The sum of v over the 32 lanes of the warp, in lane 0 (other lanes get partial sums). */
__attribute__((device)) static float warp_sum(float v) {
  for (unsigned offset = warpsize / 2; offset > 0; offset /= 2)
    v += shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__attribute__((kernel)) void block_sum(const float *in, int n, float *block_sums, float *total) {
  static __attribute__((shared)) float warp_sums[1024 / 32];
  int i = grid(1);
  int lane = laneid(), warp = (int)threadIdx.x / warpsize;

  float v = warp_sum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  syncthreads(); /* every warp's sum is in shared memory */

  if (warp == 0) {
    int warps = (int)blockDim.x / warpsize;
    v = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
    if (lane == 0) {
      block_sums[blockIdx.x] = v;
      atomic_add(total, v);
    }
  }
}

/* Sums in[0..n) in blocks of `threads`; returns the number of wrong block sums (+1 if the
 * total is wrong). */
static int run_case(const float *in, int n, int threads, double *ms) {
  int blocks = (n + threads - 1) / threads;
  float *block_sums = malloc(sizeof *block_sums * (size_t)blocks);
  float total = 0.0f;

  double t0 = example_now_ms();
  float *d_in = to_device(in, n), *d_block_sums = device_array(float, blocks);
  float *d_total = to_device(&total, 1);
  launch(block_sum, blocks, threads)(d_in, n, d_block_sums, d_total);
  copy_to_host(block_sums, d_block_sums, blocks);
  copy_to_host(&total, d_total, 1);
  *ms += example_now_ms() - t0;

  int bad = 0;
  double expected_total = 0;
  for (int b = 0; b < blocks; b++) {
    double expected = 0;
    for (int i = b * threads; i < n && i < (b + 1) * threads; i++) expected += in[i];
    bad += block_sums[b] != expected;
    expected_total += expected;
  }
  bad += total != expected_total;
  printf("%d elements, %d blocks of %d: total %.1f (host %.1f), last block %.1f, %d wrong\n", n,
         blocks, threads, total, expected_total, block_sums[blocks - 1], bad);
  kp_free(d_in);
  kp_free(d_block_sums);
  kp_free(d_total);
  free(block_sums);
  return bad;
}

int main(void) {
  const char *backend = example_start("block_sum_shfl");
  enum { n = 1000003 }; /* not a multiple of any block size; total < 2^24: exact in float */
  float *in = malloc(sizeof *in * n);
  for (int i = 0; i < n; i++) in[i] = (float)(i * 7 % 16);

  double ms = 0;
  int bad = run_case(in, n, 256, &ms);
  bad += run_case(in, n, 1024, &ms); /* 32 warps: the first warp reduces a full warp of sums */
  bad += run_case(in, 45, 64, &ms);   /* one block, the second warp only partly inside n */
  free(in);
  printf("block_sum_shfl: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
