/* barrier_split_ranges.c — split kernels whose regions branch on threadIdx.x: the CPU
 * backend runs such a region's loop over x in consecutive parts below, in and above the
 * interval where the condition holds, with the branch folded in each (ThreadRangeSplit.cpp),
 * and stores uniform values live across a barrier once per block. Shapes: a Hillis-Steele
 * block scan (tid >= offset), a tree reduction ending in warp shuffles (tid < stride), a 2D
 * stencil tile with signed bounds on x + offset (hotspot's pyramid), a condition with a leaf
 * that is not about x, an `or` of two bounds, a bound on x + y, and conditions the split must
 * leave alone: a bound read from memory, a wrapping unsigned difference. Warp shuffles whose
 * offset is the same in every lane (copies of ranges of lanes) and ones whose is not. Block sizes include ragged ones. Also built with cpu-barriers=fibers (barrier_paths.cmake). Compared with C. */
#include <stdlib.h>

#include "kernel_test.h"

enum { MAX_T = 1024, TILE = 16, PYR = 2 };
#define FULL 0xffffffffu

/* Each block's inclusive prefix sums, double-buffered (GPU Gems 3's naive scan). */
__attribute__((kernel)) void scan(const int *in, int *out, int n) {
  static __attribute__((shared)) int buf[2][MAX_T];
  unsigned tid = threadIdx.x;
  int i = (int)(blockIdx.x * blockDim.x + tid);
  int pout = 0, pin = 1;
  buf[pout][tid] = i < n ? in[i] : 0;
  syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout, pin = 1 - pout;
    if (tid >= offset)
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
    else
      buf[pout][tid] = buf[pin][tid];
    syncthreads();
  }
  if (i < n) out[i] = buf[pout][tid];
}

/* out[block] = the sum of 2 * blockDim.x inputs: two loads per thread, a tree down to 64
 * values, warp 0's shuffles (blockDim.x a power of two, at least 64). */
__attribute__((kernel)) void tree(const int *in, int *out, int n) {
  static __attribute__((shared)) int s[MAX_T];
  unsigned tid = threadIdx.x;
  int i = (int)(blockIdx.x * (2 * blockDim.x) + tid);
  int v = i < n ? in[i] : 0;
  if (i + (int)blockDim.x < n) v += in[i + (int)blockDim.x];
  s[tid] = v;
  syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) s[tid] = v = v + s[tid + stride];
    syncthreads();
  }
  if (tid < 32) {
    v = s[tid] + s[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) v += shfl_down_sync(FULL, v, (unsigned)offset);
    if (tid == 0) out[blockIdx.x] = v;
  }
}

/* Tiles of TILE x TILE overlapping by PYR: PYR smoothing steps in shared memory, the inner
 * cells written; cells off the grid (signed: negative at the first tiles) do not take part. */
__attribute__((kernel)) void pyramid(const int *in, int *out, int rows, int cols) {
  static __attribute__((shared)) int t[TILE][TILE], nx[TILE][TILE];
  int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
  int gx = (int)blockIdx.x * (TILE - 2 * PYR) + tx - PYR;
  int gy = (int)blockIdx.y * (TILE - 2 * PYR) + ty - PYR;
  int inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
  t[ty][tx] = inside ? in[gy * cols + gx] : 0;
  syncthreads();
  for (int step = 0; step < PYR; step++) {
    if (tx > step && tx < TILE - 1 - step && ty > step && ty < TILE - 1 - step)
      nx[ty][tx] = t[ty][tx] + t[ty - 1][tx] + t[ty + 1][tx] + t[ty][tx - 1] + t[ty][tx + 1];
    syncthreads();
    if (tx > step && tx < TILE - 1 - step && ty > step && ty < TILE - 1 - step)
      t[ty][tx] = nx[ty][tx] % 1000;
    syncthreads();
  }
  if (inside && tx >= PYR && tx < TILE - PYR && ty >= PYR && ty < TILE - PYR)
    out[gy * cols + gx] = t[ty][tx];
}

/* Branches the split takes in part or not at all, each after a barrier: a leaf about the
 * data (kept as a branch), an `or` of two bounds, a bound on x + y, a bound loaded from memory
 * (no split), an unsigned difference that wraps (no split: not monotone). */
__attribute__((kernel)) void mixed(const int *in, int *out, const unsigned *bound, unsigned lo,
                                   unsigned hi) {
  static __attribute__((shared)) int s[MAX_T];
  unsigned x = threadIdx.x, y = threadIdx.y;
  unsigned w = blockDim.x, t = x + w * y;
  unsigned base = blockIdx.x * w * blockDim.y;
  s[t] = in[base + t];
  syncthreads();
  int r = 0;
  if (x < hi && s[t] % 3 != 0) r += s[t];
  syncthreads();
  if (x < lo || x >= hi) r += 7;
  else r -= s[t ^ 1u];
  syncthreads();
  if ((int)x + (int)y < (int)lo) r *= 3;
  syncthreads();
  if (x < bound[blockIdx.x]) r += 1000;
  syncthreads();
  if (x - 4u < 8u) r += 100000;
  out[base + t] = r;
}

static int *device_copy(const int *h, size_t count) {
  int *d = device_array(int, count);
  copy_to_device(d, h, count);
  return d;
}

/* Shuffles with a mask and offset that are the same in every lane (offsets past the warp,
 * partial last warps), with a per-lane offset, and xor: each result kept apart. Every lane
 * calls them, so the mask must name every lane (fibers stop at one that does not). */
__attribute__((kernel)) void shuffles(const int *in, int *out, unsigned mask, unsigned d) {
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  out[5 * i + 0] = shfl_down_sync(mask, v, d);
  out[5 * i + 1] = shfl_up_sync(mask, v, d);
  out[5 * i + 2] = shfl_sync(mask, v, d);
  out[5 * i + 3] = shfl_down_sync(mask, v, t % 5);
  out[5 * i + 4] = shfl_xor_sync(mask, v, d);
}

/* The CPU backend's rules (cpu_block.c): the source lane's value where that lane is in the
 * warp and in the mask, else the lane's own. */
static int shuffled(const int *warp, unsigned lanes, unsigned mask, unsigned lane, long src) {
  if (src < 0 || src >= (long)lanes || !(mask >> src & 1u)) return warp[lane];
  return warp[src];
}

static void check_shuffles(unsigned tpb, unsigned mask, unsigned d) {
  const unsigned blocks = 3, n = tpb * blocks;
  int *in = malloc(n * sizeof *in), *out = malloc(5 * n * sizeof *out);
  for (unsigned i = 0; i < n; i++) in[i] = (int)(i * 29 % 1009);
  int *din = device_copy(in, n), *dout = device_array(int, 5 * n);
  launch(shuffles, blocks, tpb)(din, dout, mask, d);
  copy_to_host(out, dout, 5 * n);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < tpb; t++) {
      unsigned w0 = t / 32 * 32, lane = t % 32, lanes = tpb - w0 < 32 ? tpb - w0 : 32;
      const int *warp = in + b * tpb + w0;
      long s[5] = {(long)lane + d, (long)lane - (long)d, (long)(d % 32), (long)lane + t % 5,
                   (long)(lane ^ d)};
      for (int k = 0; k < 5; k++) {
        int want = shuffled(warp, lanes, mask, lane, s[k]);
        int got = out[5 * (b * tpb + t) + (unsigned)k];
        KT_CHECK(got == want, "shuffles %u mask %#x d %u: block %u thread %u kind %d = %d, "
                 "expected %d", tpb, mask, d, b, t, k, got, want);
      }
    }
  kp_free(din), kp_free(dout), free(in), free(out);
}


static void check_scan(unsigned tpb, int n) {
  int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = (i * 7 + 3) % 101 - 50;
  int *din = device_copy(in, (size_t)n), *dout = device_array(int, (size_t)n);
  launch(scan, ((unsigned)n + tpb - 1) / tpb, tpb)(din, dout, n);
  copy_to_host(out, dout, (size_t)n);
  int sum = 0;
  for (int i = 0; i < n; i++) {
    sum = i % (int)tpb == 0 ? in[i] : sum + in[i];
    KT_CHECK(out[i] == sum, "scan %u: out[%d] = %d, expected %d", tpb, i, out[i], sum);
  }
  kp_free(din), kp_free(dout), free(in), free(out);
}

static void check_tree(unsigned tpb, int n) {
  unsigned blocks = ((unsigned)n + 2 * tpb - 1) / (2 * tpb);
  int *in = malloc((size_t)n * sizeof *in), *out = malloc(blocks * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = (i * 13 + 5) % 97 - 48;
  int *din = device_copy(in, (size_t)n), *dout = device_array(int, blocks);
  launch(tree, blocks, tpb)(din, dout, n);
  copy_to_host(out, dout, blocks);
  for (unsigned b = 0; b < blocks; b++) {
    int sum = 0;
    for (unsigned k = 0; k < 2 * tpb && b * 2 * tpb + k < (unsigned)n; k++) sum += in[b * 2 * tpb + k];
    KT_CHECK(out[b] == sum, "tree %u: out[%u] = %d, expected %d", tpb, b, out[b], sum);
  }
  kp_free(din), kp_free(dout), free(in), free(out);
}

static void check_pyramid(int rows, int cols) {
  size_t n = (size_t)rows * (size_t)cols;
  int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
  int *ref = malloc(n * sizeof *ref);
  for (size_t i = 0; i < n; i++) in[i] = (int)((i * 31 + 7) % 50), ref[i] = -1;
  int *din = device_copy(in, n), *dout = device_copy(ref, n);
  const int out_w = TILE - 2 * PYR;
  unsigned bx = (unsigned)((cols + out_w - 1) / out_w), by = (unsigned)((rows + out_w - 1) / out_w);
  launch(pyramid, dim3(bx, by), dim3(TILE, TILE))(din, dout, rows, cols);
  copy_to_host(out, dout, n);
  int t[TILE][TILE], nx[TILE][TILE];
  for (unsigned b_y = 0; b_y < by; b_y++)
    for (unsigned b_x = 0; b_x < bx; b_x++) {
      for (int y = 0; y < TILE; y++)
        for (int x = 0; x < TILE; x++) {
          int gx = (int)b_x * out_w + x - PYR, gy = (int)b_y * out_w + y - PYR;
          t[y][x] = gx >= 0 && gx < cols && gy >= 0 && gy < rows ? in[gy * cols + gx] : 0;
        }
      for (int step = 0; step < PYR; step++) {
        for (int y = step + 1; y < TILE - 1 - step; y++)
          for (int x = step + 1; x < TILE - 1 - step; x++)
            nx[y][x] = t[y][x] + t[y - 1][x] + t[y + 1][x] + t[y][x - 1] + t[y][x + 1];
        for (int y = step + 1; y < TILE - 1 - step; y++)
          for (int x = step + 1; x < TILE - 1 - step; x++) t[y][x] = nx[y][x] % 1000;
      }
      for (int y = PYR; y < TILE - PYR; y++)
        for (int x = PYR; x < TILE - PYR; x++) {
          int gx = (int)b_x * out_w + x - PYR, gy = (int)b_y * out_w + y - PYR;
          if (gx < cols && gy < rows) ref[gy * cols + gx] = t[y][x];
        }
    }
  for (size_t i = 0; i < n; i++)
    KT_CHECK(out[i] == ref[i], "pyramid %dx%d: out[%zu] = %d, expected %d", rows, cols, i, out[i],
             ref[i]);
  kp_free(din), kp_free(dout), free(in), free(out), free(ref);
}

static void check_mixed(unsigned bx, unsigned by, unsigned lo, unsigned hi) {
  const unsigned blocks = 5, n = bx * by, total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  unsigned bound[5];
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 17 + 1) % 23);
  for (unsigned b = 0; b < blocks; b++) bound[b] = (b * 7) % (bx + 3);
  int *din = device_copy(in, total), *dout = device_array(int, total);
  unsigned *dbound = device_array(unsigned, blocks);
  copy_to_device(dbound, bound, blocks);
  launch(mixed, blocks, dim3(bx, by))(din, dout, dbound, lo, hi);
  copy_to_host(out, dout, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned y = 0; y < by; y++)
      for (unsigned x = 0; x < bx; x++) {
        unsigned t = x + bx * y;
        const int *s = in + b * n;
        int r = 0;
        if (x < hi && s[t] % 3 != 0) r += s[t];
        if (x < lo || x >= hi) r += 7;
        else r -= (t ^ 1u) < n ? s[t ^ 1u] : 0;
        if ((int)x + (int)y < (int)lo) r *= 3;
        if (x < bound[b]) r += 1000;
        if (x - 4u < 8u) r += 100000;
        KT_CHECK(out[b * n + t] == r, "mixed (%u, %u) [%u, %u): block %u thread (%u, %u) = %d, "
                 "expected %d", bx, by, lo, hi, b, x, y, out[b * n + t], r);
      }
  kp_free(din), kp_free(dout), kp_free(dbound), free(in), free(out);
}

int main(void) {
  kt_start("barrier_split_ranges");
  check_scan(256, 100003);
  check_scan(96, 1000);
  check_scan(1000, 2500);
  check_scan(1, 5);
  check_tree(256, 100003);
  check_tree(64, 1000);
  check_tree(1024, 5000);
  check_pyramid(45, 37);
  check_pyramid(12, 100);
  check_mixed(32, 4, 3, 20);
  check_mixed(30, 3, 0, 40);
  check_mixed(16, 16, 9, 5);
  check_mixed(64, 1, 20, 64);
  check_shuffles(64, 0xffffffffu, 3);
  check_shuffles(80, 0xffffffffu, 1); /* a partial last warp */
  check_shuffles(32, 0xffffffffu, 40); /* an offset past the warp */
  check_shuffles(96, 0xffffffffu, 0);
  printf("barrier_split_ranges: OK\n");
  return 0;
}
