/* flat_block_rows.c — kernels the CPU backend runs as flat rows of blocks
 * (kernplug-cpu-flat-block-rows: consecutive blocks in x as one loop over blockIdx.x *
 * blockDim.x + threadIdx.x), and kernels that keep the block loop beside them. Each result is
 * checked against the same computation in plain C: tiny and odd block shapes, partial last
 * blocks, grids whose runs of blocks start in the middle of a row (more blocks than one chunk),
 * 3-D grids, a stencil whose guard changes at the domain's edges. */
#include <stdlib.h>

#include "kernel_test.h"
#include "kernplug.h"

/* PolyBench's 2DCONV, as the benchmark launches it (4x4 blocks). */
#define CONV(A, i, j, nj)                                                                      \
  (0.2f * (A)[((i) - 1) * (nj) + ((j) - 1)] + 0.5f * (A)[(i) * (nj) + ((j) - 1)] -            \
   0.8f * (A)[((i) + 1) * (nj) + ((j) - 1)] - 0.3f * (A)[((i) - 1) * (nj) + (j)] +            \
   0.6f * (A)[(i) * (nj) + (j)] - 0.9f * (A)[((i) + 1) * (nj) + (j)] +                        \
   0.4f * (A)[((i) - 1) * (nj) + ((j) + 1)] + 0.7f * (A)[(i) * (nj) + ((j) + 1)] +            \
   0.1f * (A)[((i) + 1) * (nj) + ((j) + 1)])

__attribute__((kernel)) void conv2d(const float *A, float *B, int ni, int nj) {
  kp_int2 g = grid(2);
  int j = g.x, i = g.y;
  if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1)
    B[i * nj + j] = CONV(A, i, j, nj);
  else if (i < ni && j < nj)
    B[i * nj + j] = 0.0f;
}

/* One element per thread, the y and z indices used on their own (allowed). */
__attribute__((kernel)) void fill3(int *out, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < w && y < h && z < d)
    out[(z * h + y) * w + x] = x * 7 + y * 1000 + z * 100000 + (int)threadIdx.y * 3 +
                               (int)blockIdx.z;
}

/* A private array per thread: still whole threads, one after another. */
__attribute__((kernel)) void window_sum(const int *in, int *out, int n) {
  int i = grid(1);
  int w[5];
  for (int k = 0; k < 5; k++) w[k] = i + k < n ? in[i + k] : 0;
  if (i < n) out[i] = w[0] + 2 * w[1] + 3 * w[2] + 4 * w[3] + 5 * w[4];
}

/* threadIdx.x on its own: keeps the block loop (remark), same results. */
__attribute__((kernel)) void block_first(int *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = threadIdx.x == 0 ? -1 : i;
}

static void check_conv(int ni, int nj) {
  size_t n = (size_t)ni * nj;
  float *h = malloc(n * sizeof *h), *got = malloc(n * sizeof *got);
  for (size_t k = 0; k < n; k++) h[k] = (float)((k * 2654435761u) % 1000) / 100.0f;
  float *A = to_device(h, n), *B = device_array(float, n);
  launch(conv2d, dim3((unsigned)(nj + 3) / 4, (unsigned)(ni + 3) / 4), dim3(4, 4))(A, B, ni, nj);
  copy_to_host(got, B, n);
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      float want = i > 0 && j > 0 && i < ni - 1 && j < nj - 1 ? CONV(h, i, j, nj) : 0.0f;
      KT_CHECK(got[(size_t)i * nj + j] == want, "conv2d %dx%d: B[%d][%d] = %g, expected %g", ni,
               nj, i, j, got[(size_t)i * nj + j], want);
    }
  kp_free(A), kp_free(B);
  free(h), free(got);
}

static void check_fill3(int w, int h, int d, kp_dim3 block) {
  size_t n = (size_t)w * h * d;
  int *got = malloc(n * sizeof *got);
  int *out = device_array(int, n);
  kp_dim3 grid_ = dim3((w + block.x - 1) / block.x, (h + block.y - 1) / block.y,
                    (d + block.z - 1) / block.z);
  launch(fill3, grid_, block)(out, w, h, d);
  copy_to_host(got, out, n);
  long bad = 0;
  for (int z = 0; z < d; z++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int want = x * 7 + y * 1000 + z * 100000 + (int)(y % block.y) * 3 + (int)(z / block.z);
        bad += got[((size_t)z * h + y) * w + x] != want;
      }
  KT_CHECK(bad == 0, "fill3 %dx%dx%d, blocks %ux%ux%u: %ld wrong elements", w, h, d, block.x,
           block.y, block.z, bad);
  kp_free(out);
  free(got);
}

static void check_window(int n, unsigned threads) {
  int *in = malloc((size_t)n * sizeof *in), *got = malloc((size_t)n * sizeof *got);
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
  int *din = to_device(in, n), *dout = device_array(int, n);
  launch(window_sum, (unsigned)(n + threads - 1) / threads, threads)(din, dout, n);
  copy_to_host(got, dout, n);
  long bad = 0;
  for (int i = 0; i < n; i++) {
    int want = 0;
    for (int k = 0; k < 5; k++) want += (k + 1) * (i + k < n ? in[i + k] : 0);
    bad += got[i] != want;
  }
  KT_CHECK(bad == 0, "window_sum n=%d x %u: %ld wrong elements", n, threads, bad);
  kp_free(din), kp_free(dout);
  free(in), free(got);
}

static void check_block_first(int n, unsigned threads) {
  int *got = malloc((size_t)n * sizeof *got);
  int *dout = device_array(int, n);
  launch(block_first, (unsigned)(n + threads - 1) / threads, threads)(dout, n);
  copy_to_host(got, dout, n);
  long bad = 0;
  for (int i = 0; i < n; i++) bad += got[i] != (i % (int)threads == 0 ? -1 : i);
  KT_CHECK(bad == 0, "block_first n=%d x %u: %ld wrong elements", n, threads, bad);
  kp_free(dout);
  free(got);
}

int main(void) {
  kt_start("flat_block_rows");
  check_conv(67, 45);    /* one chunk, partial blocks on both edges */
  check_conv(3, 3);      /* one block, one interior element */
  check_conv(130, 401);  /* 101 x 33 blocks: runs start in the middle of rows */
  check_conv(1000, 999); /* 250 x 250 blocks */
  check_fill3(37, 11, 5, dim3(4, 3, 2));
  check_fill3(300, 20, 3, dim3(3, 2, 1)); /* 100 blocks a row, 30 rows: runs cross rows */
  check_fill3(5, 7, 9, dim3(1, 1, 1));
  check_fill3(1000, 4, 2, dim3(32, 2, 2));
  check_window(1, 1);
  check_window(100003, 3);
  check_window(100003, 256);
  check_window(4097, 1024);
  check_block_first(10007, 4);
  check_block_first(10007, 128);
  printf("flat_block_rows: ok\n");
  return 0;
}
