/* grid_stride.c — grid-stride kernels, which the CPU backend runs with the grid-stride loop
 * outside the loop over a worker's threads (kernplug-grid-stride-interchange), and small
 * blocks, several of which one call of a block entry runs. Each result is checked against
 * the same computation on the host; grids cover one iteration per thread, many, none, a
 * partial last block, and the run-time check's fallback (a start beyond 2^29). */
#include <stdlib.h>

#include "kernel_test.h"
#include "kernplug.h"

__attribute__((kernel)) void gs_add(const float *x, const float *y, float *out, int n) {
  for (int i = grid(1); i < n; i += gridsize(1)) out[i] = x[i] + y[i];
}

/* Seed 004: a private partial sum per thread, then one atomic add. */
__attribute__((kernel)) void gs_sum(const float *in, int n, float *out) {
  int thread_id = grid(1);
  int stride = gridsize(1);
  float temp_sum = 0.0f;
  for (int i = thread_id; i < n; i += stride) temp_sum += in[i];
  atomic_add(&out[0], temp_sum);
}

/* Values carried around the loop and used after it, an unsigned counter, a loop inside. */
__attribute__((kernel)) void gs_stats(const int *in, unsigned n, int *count, long long *weighted) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int c = 0;
  long long w = 0;
  for (unsigned i = t; i < n; i += gridDim.x * blockDim.x) {
    c++;
    for (int j = 0; j < in[i] % 4; j++) w += (long long)in[i] * (j + 1);
  }
  count[t] = c;
  weighted[t] = w;
}

/* A start beyond the run-time check's bound (2^29 for a 32-bit counter): the group runs in
 * the original order, with the same results. */
__attribute__((kernel)) void gs_offset(int *out, int offset, int n) {
  for (int i = grid(1) + offset; i < n; i += gridsize(1)) out[i - offset] += i - offset;
}

/* An early return before the loop: not interchanged, still right. */
__attribute__((kernel)) void gs_guarded(float *out, int n, float v) {
  if (v < 0) return;
  for (int i = grid(1); i < n; i += gridsize(1)) out[i] = v * (float)i;
}

/* A 2-D image with 4x4 blocks: many tiny blocks per call of the block entry. */
__attribute__((kernel)) void tiny_blocks(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) img[y * w + x] = (float)(x * 3 + y * 7) + (float)(blockIdx.x + blockIdx.y);
}

static void check_add(int n, unsigned blocks, unsigned threads) {
  float *x = malloc(sizeof(float) * (size_t)(n + 1)), *y = malloc(sizeof(float) * (size_t)(n + 1));
  float *out = malloc(sizeof(float) * (size_t)(n + 1));
  for (int i = 0; i <= n; i++) x[i] = (float)i, y[i] = (float)(2 * i + 1), out[i] = -1.0f;
  float *dx = to_device(x, n + 1), *dy = to_device(y, n + 1), *dout = to_device(out, n + 1);
  launch(gs_add, blocks, threads)(dx, dy, dout, n);
  copy_to_host(out, dout, n + 1);
  for (int i = 0; i < n; i++)
    KT_CHECK(out[i] == (float)(3 * i + 1), "gs_add n=%d %ux%u: out[%d] = %g", n, blocks,
             threads, i, out[i]);
  KT_CHECK(out[n] == -1.0f, "gs_add n=%d: wrote past the end", n);
  kp_free(dx), kp_free(dy), kp_free(dout);
  free(x), free(y), free(out);
}

static void check_sum(int n, unsigned blocks, unsigned threads) {
  float *in = malloc(sizeof(float) * (size_t)n), zero = 0.0f, got;
  double want = 0;
  for (int i = 0; i < n; i++) in[i] = (float)(i % 17), want += in[i];
  float *din = to_device(in, n), *dout = to_device(&zero, 1);
  launch(gs_sum, blocks, threads)(din, n, dout);
  copy_to_host(&got, dout, 1);
  KT_CHECK(got == (float)want, "gs_sum n=%d %ux%u: %g, expected %g", n, blocks, threads, got,
           want);
  kp_free(din), kp_free(dout);
  free(in);
}

static void check_stats(unsigned n, unsigned blocks, unsigned threads) {
  unsigned total = blocks * threads;
  int *in = malloc(sizeof(int) * (n + 1));
  for (unsigned i = 0; i < n; i++) in[i] = (int)((i * 2654435761u) >> 20);
  int *count = calloc(total, sizeof(int));
  long long *weighted = calloc(total, sizeof(long long));
  int *din = to_device(in, n + 1), *dcount = to_device(count, total);
  long long *dw = to_device(weighted, total);
  launch(gs_stats, blocks, threads)(din, n, dcount, dw);
  copy_to_host(count, dcount, total);
  copy_to_host(weighted, dw, total);
  for (unsigned t = 0; t < total; t++) {
    int c = 0;
    long long w = 0;
    for (unsigned i = t; i < n; i += total) {
      c++;
      for (int j = 0; j < in[i] % 4; j++) w += (long long)in[i] * (j + 1);
    }
    KT_CHECK(count[t] == c && weighted[t] == w, "gs_stats n=%u %ux%u: thread %u got %d/%lld, "
             "expected %d/%lld", n, blocks, threads, t, count[t], weighted[t], c, w);
  }
  kp_free(din), kp_free(dcount), kp_free(dw);
  free(in), free(count), free(weighted);
}

static void check_offset(void) {
  enum { N = 5000 };
  int offset = 1 << 29;
  int *out = calloc(N, sizeof(int));
  int *dout = to_device(out, N);
  launch(gs_offset, 3, 128)(dout, offset, offset + N);
  copy_to_host(out, dout, N);
  for (int i = 0; i < N; i++) KT_CHECK(out[i] == i, "gs_offset: out[%d] = %d", i, out[i]);
  kp_free(dout);
  free(out);
}

static void check_guarded(void) {
  enum { N = 3001 };
  float *out = calloc(N, sizeof(float));
  float *dout = to_device(out, N);
  launch(gs_guarded, 5, 64)(dout, N, 0.5f);
  copy_to_host(out, dout, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == 0.5f * (float)i, "gs_guarded: out[%d] = %g", i, out[i]);
  kp_free(dout);
  free(out);
}

static void check_tiny_blocks(int w, int h) {
  size_t n = (size_t)w * (size_t)h;
  float *img = malloc(sizeof(float) * n);
  for (size_t i = 0; i < n; i++) img[i] = -1.0f;
  float *dimg = to_device(img, n);
  launch(tiny_blocks, kp_dim3((unsigned)(w + 3) / 4, (unsigned)(h + 3) / 4), kp_dim3(4, 4))(dimg, w, h);
  copy_to_host(img, dimg, n);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float want = (float)(x * 3 + y * 7) + (float)(x / 4 + y / 4);
      KT_CHECK(img[y * w + x] == want, "tiny_blocks %dx%d: (%d, %d) = %g, expected %g", w, h,
               x, y, img[y * w + x], want);
    }
  kp_free(dimg);
  free(img);
}

int main(void) {
  kt_start("grid_stride");
  check_add(1000, 4, 256);      /* one iteration per thread, a partial last one */
  check_add(100003, 7, 96);     /* ~150 iterations per thread */
  check_add(10, 16, 256);       /* most threads have none */
  check_add(0, 2, 32);          /* no thread has one */
  check_add(1 << 20, 512, 256); /* 8 per thread, many blocks per worker */
  check_sum(1024, 4, 256);      /* the seed's grid */
  check_sum(1 << 20, 16, 256);
  check_sum(1 << 20, 32, 256);
  check_sum(1000003, 3, 128);
  check_stats(70001, 9, 64);
  check_stats(100, 2, 128);
  check_offset();
  check_guarded();
  check_tiny_blocks(1024, 1024);
  check_tiny_blocks(37, 101);
  check_tiny_blocks(3, 2);
  printf("grid_stride: ok\n");
  return 0;
}
