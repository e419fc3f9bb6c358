/* idioms_shared.c — rows whose kernels use shared memory and barriers, written as the CUDA
 * programs ported to Numba and kernplug write them:
 *   tree reduction   cuda-samples reduce: two loads per thread, a shared-memory tree down to
 *                    64 values, the last warp with shfl_down_sync, one atomic per block
 *   histogram        per-block bins in shared memory with shared atomics, grid-stride input,
 *                    one global atomic per bin (docs/kernels.md's histogram)
 *   block scan       GPU Gems 3's naive (Hillis-Steele) scan of each block, double-buffered
 *   hotspot          Rodinia hotspot: 16x16 tiles with a 2-deep pyramid of time steps in
 *                    shared memory, a barrier between steps
 *   2D convolution   PolyBench-ACC 2DCONV, launched with 4x4 blocks */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "groups.h"
#include "kernplug.h"
#include "loops.h"

#define FULL_MASK 0xffffffffu

/* ---- tree reduction ending in warp shuffles ---------------------------------------------- */

enum { RED_TPB = 256 };
__attribute__((kernel)) void tree_sum(const float *in, float *total, int n) {
  static __attribute__((shared)) float s[RED_TPB];
  unsigned tid = threadIdx.x;
  int i = (int)(blockIdx.x * (2 * blockDim.x) + tid);
  float v = i < n ? in[i] : 0.0f;
  if (i + (int)blockDim.x < n) v += in[i + (int)blockDim.x];
  s[tid] = v;
  syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) s[tid] = v = v + s[tid + stride];
    syncthreads();
  }
  if (tid < 32) {
    v = s[tid] + s[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) v += shfl_down_sync(FULL_MASK, v, offset);
    if (tid == 0) atomic_add(total, v);
  }
}

/* ---- histogram with shared atomics ------------------------------------------------------- */

__attribute__((kernel)) void histogram_shared(const unsigned char *v, int n, unsigned *bins) {
  static __attribute__((shared)) unsigned local[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) atomic_add(&bins[b], local[b]);
}

/* ---- block-wise scan --------------------------------------------------------------------- */

enum { SCAN_TPB = 256 };
__attribute__((kernel)) void block_scan(const int *in, int *out, int n) {
  static __attribute__((shared)) int buf[2][SCAN_TPB];
  unsigned tid = threadIdx.x;
  int i = grid(1);
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

/* ---- Rodinia hotspot: a pyramid of time steps in a 16x16 tile ---------------------------- */

enum { HS_B = 16, HS_PYRAMID = 2, HS_OUT = HS_B - 2 * HS_PYRAMID };
__attribute__((kernel)) void hotspot(const float *temp, const float *power, float *out, int rows,
                                     int cols, float k, float dt) {
  static __attribute__((shared)) float t[HS_B][HS_B];
  static __attribute__((shared)) float p[HS_B][HS_B];
  static __attribute__((shared)) float next[HS_B][HS_B];
  int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
  /* the tile's origin overlaps its neighbours by the pyramid's height on each side */
  int gx = (int)blockIdx.x * HS_OUT + tx - HS_PYRAMID;
  int gy = (int)blockIdx.y * HS_OUT + ty - HS_PYRAMID;
  int inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
  if (inside) {
    t[ty][tx] = temp[gy * cols + gx];
    p[ty][tx] = power[gy * cols + gx];
  }
  syncthreads();
  /* neighbours in the tile; at the grid's edge the cell itself */
  int no = gy == 0 ? ty : ty - 1, so = gy == rows - 1 ? ty : ty + 1;
  int we = gx == 0 ? tx : tx - 1, ea = gx == cols - 1 ? tx : tx + 1;
  int computed = 0;
  for (int step = 0; step < HS_PYRAMID; step++) {
    computed = 0;
    if (inside && tx > step && tx < HS_B - 1 - step && ty > step && ty < HS_B - 1 - step) {
      computed = 1;
      float v = t[ty][tx];
      next[ty][tx] = v + k * (t[no][tx] + t[so][tx] + t[ty][we] + t[ty][ea] - 4.0f * v) +
                     dt * p[ty][tx];
    }
    syncthreads();
    if (step == HS_PYRAMID - 1) break;
    if (computed) t[ty][tx] = next[ty][tx];
    syncthreads();
  }
  if (computed && tx >= HS_PYRAMID && tx < HS_B - HS_PYRAMID && ty >= HS_PYRAMID &&
      ty < HS_B - HS_PYRAMID)
    out[gy * cols + gx] = next[ty][tx];
}

/* ---- PolyBench-ACC 2DCONV with 4x4 blocks ------------------------------------------------ */

__attribute__((kernel)) void conv2d(const float *A, float *B, int ni, int nj) {
  kp_int2 g = grid(2);
  int j = g.x, i = g.y;
  if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1)
    B[i * nj + j] = CONV_AT(A, i, j, nj);
  else if (i < ni && j < nj)
    B[i * nj + j] = 0.0f; /* the loops write the border too, so that every element is checked */
}

/* ---- the sides --------------------------------------------------------------------------- */

typedef struct shared_ctx {
  float *x, *total; /* tree reduction */
  unsigned char *bytes;
  unsigned *bins; /* histogram */
  int *in, *out;  /* scan */
  float *temp, *power, *scratch, *hot; /* hotspot */
  float *A, *B;                        /* 2D convolution */
  long n;
  int rows, cols, threads;
  unsigned hist_blocks;
} shared_ctx;

static const float HS_K = 0.1f, HS_DT = 0.5f;

static void kp_tree(void *p) {
  shared_ctx *c = p;
  c->total[0] = 0.0f;
  launch(tree_sum, (unsigned)((c->n + 2 * RED_TPB - 1) / (2 * RED_TPB)), RED_TPB)(c->x, c->total,
                                                                               (int)c->n);
  kp_synchronize();
}
static void mp_tree(void *p) {
  shared_ctx *c = p;
  c->total[0] = omp_sum(c->x, c->n, c->threads);
}
static void se_tree(void *p) {
  shared_ctx *c = p;
  c->total[0] = serial_sum(c->x, c->n, c->threads);
}

static void kp_hist(void *p) {
  shared_ctx *c = p;
  memset(c->bins, 0, 256 * sizeof *c->bins);
  launch(histogram_shared, c->hist_blocks, 256)(c->bytes, (int)c->n, c->bins);
  kp_synchronize();
}
static void mp_hist(void *p) {
  shared_ctx *c = p;
  omp_histogram(c->bytes, c->n, c->bins, c->threads);
}
static void se_hist(void *p) {
  shared_ctx *c = p;
  serial_histogram(c->bytes, c->n, c->bins, c->threads);
}

static void kp_scan(void *p) {
  shared_ctx *c = p;
  launch(block_scan, (unsigned)((c->n + SCAN_TPB - 1) / SCAN_TPB), SCAN_TPB)(c->in, c->out,
                                                                            (int)c->n);
  kp_synchronize();
}
static void mp_scan(void *p) {
  shared_ctx *c = p;
  omp_block_scan(c->in, c->out, c->n, SCAN_TPB, c->threads);
}
static void se_scan(void *p) {
  shared_ctx *c = p;
  serial_block_scan(c->in, c->out, c->n, SCAN_TPB, c->threads);
}

static void kp_hotspot(void *p) {
  shared_ctx *c = p;
  kp_dim3 blocks = dim3((unsigned)(c->cols + HS_OUT - 1) / HS_OUT,
                        (unsigned)(c->rows + HS_OUT - 1) / HS_OUT);
  launch(hotspot, blocks, dim3(HS_B, HS_B))(c->temp, c->power, c->hot, c->rows, c->cols, HS_K,
                                            HS_DT);
  kp_synchronize();
}
static void mp_hotspot(void *p) {
  shared_ctx *c = p;
  omp_hotspot(c->temp, c->power, c->scratch, c->hot, c->rows, c->cols, HS_K, HS_DT, HS_PYRAMID,
              c->threads);
}
static void se_hotspot(void *p) {
  shared_ctx *c = p;
  serial_hotspot(c->temp, c->power, c->scratch, c->hot, c->rows, c->cols, HS_K, HS_DT,
                 HS_PYRAMID, c->threads);
}

static void kp_conv(void *p) {
  shared_ctx *c = p;
  launch(conv2d, dim3((unsigned)(c->cols + 3) / 4, (unsigned)(c->rows + 3) / 4), dim3(4, 4))(
      c->A, c->B, c->rows, c->cols);
  kp_synchronize();
}
static void mp_conv(void *p) {
  shared_ctx *c = p;
  omp_conv2d(c->A, c->B, c->rows, c->cols, c->threads);
}
static void se_conv(void *p) {
  shared_ctx *c = p;
  serial_conv2d(c->A, c->B, c->rows, c->cols, c->threads);
}

void rows_shared(const bench_opts *o) {
  int small = o->check_only;
  shared_ctx c = {.threads = o->threads};
  char size[64];

  if (harness_wants("tree reduction, warp shuffles at the end")) {
    c.n = small ? 100003 : 1l << 25;
    c.x = bench_device_uniform(c.n, 7, -1.0f, 1.0f);
    c.total = device_array(float, 1);
    double scale = 0;
    for (long i = 0; i < c.n; i++) scale += fabs(c.x[i]);
    snprintf(size, sizeof size, "%s floats, %ld x 256", small ? "100003" : "2^25",
             (c.n + 511) / 512);
    harness_row(&(idiom_row){"tree reduction, warp shuffles at the end", size, 1, kp_tree,
                             mp_tree, se_tree, &c, c.total, 1, OUT_F32_SUM, 1e-5, scale, 0, 0});
    kp_free(c.x), kp_free(c.total);
  }

  if (harness_wants("histogram, shared atomics")) {
    c.n = small ? 100003 : 1l << 26;
    c.hist_blocks = 128;
    unsigned char *host = malloc((size_t)c.n);
    if (!host) exit(1);
    uint64_t s = 8;
    for (long i = 0; i < c.n; i++) host[i] = (unsigned char)(bench_next(&s) >> 56);
    c.bytes = to_device(host, c.n);
    free(host);
    c.bins = device_array(unsigned, 256);
    snprintf(size, sizeof size, "%s bytes, 256 bins, %u x 256", small ? "100003" : "2^26",
             c.hist_blocks);
    harness_row(&(idiom_row){"histogram, shared atomics", size, 1, kp_hist, mp_hist, se_hist, &c,
                             c.bins, 256, OUT_I32, 0, 0, 0, 0});
    kp_free(c.bytes), kp_free(c.bins);
  }

  if (harness_wants("block scan (Hillis-Steele, 256 per block)")) {
    c.n = small ? 100003 : 1l << 24;
    int *host = malloc((size_t)c.n * sizeof *host);
    if (!host) exit(1);
    uint64_t s = 9;
    for (long i = 0; i < c.n; i++) host[i] = (int)(bench_next(&s) >> 60); /* 0..15 */
    c.in = to_device(host, c.n);
    free(host);
    c.out = device_array(int, c.n);
    snprintf(size, sizeof size, "%s ints, %ld x 256", small ? "100003" : "2^24",
             (c.n + SCAN_TPB - 1) / SCAN_TPB);
    harness_row(&(idiom_row){"block scan (Hillis-Steele, 256 per block)", size, 1, kp_scan,
                             mp_scan, se_scan, &c, c.out, (size_t)c.n, OUT_I32, 0, 0, 0, 0});
    kp_free(c.in), kp_free(c.out);
  }

  if (harness_wants("hotspot: 16x16 tiles, pyramid of 2 steps")) {
    c.rows = small ? 101 : 3000, c.cols = small ? 77 : 3000;
    long cells = (long)c.rows * c.cols;
    c.temp = bench_device_uniform(cells, 10, 300.0f, 350.0f);
    c.power = bench_device_uniform(cells, 11, 0.0f, 1.0f);
    c.scratch = device_array(float, cells);
    c.hot = device_array(float, cells);
    snprintf(size, sizeof size, "%d x %d floats, %d x %d blocks of 16 x 16", c.rows, c.cols,
             (c.cols + HS_OUT - 1) / HS_OUT, (c.rows + HS_OUT - 1) / HS_OUT);
    harness_row(&(idiom_row){"hotspot: 16x16 tiles, pyramid of 2 steps", size, 1, kp_hotspot,
                             mp_hotspot, se_hotspot, &c, c.hot, (size_t)cells, OUT_F32, 1e-6, 0,
                             0, 0});
    kp_free(c.temp), kp_free(c.power), kp_free(c.scratch), kp_free(c.hot);
  }

  if (harness_wants("2D convolution, 4x4 blocks (PolyBench 2DCONV)")) {
    c.rows = small ? 67 : 4000, c.cols = small ? 45 : 4000;
    long cells = (long)c.rows * c.cols;
    c.A = bench_device_uniform(cells, 12, -1.0f, 1.0f);
    c.B = device_array(float, cells);
    snprintf(size, sizeof size, "%d x %d floats, %d x %d blocks of 4 x 4", c.rows, c.cols,
             (c.cols + 3) / 4, (c.rows + 3) / 4);
    harness_row(&(idiom_row){"2D convolution, 4x4 blocks (PolyBench 2DCONV)", size, 1, kp_conv,
                             mp_conv, se_conv, &c, c.B, (size_t)cells, OUT_F32, 1e-6, 0, 0, 0});
    kp_free(c.A), kp_free(c.B);
  }
}
