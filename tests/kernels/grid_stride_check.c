/* grid_stride_check.c — grid-stride kernels whose interchanged CPU entry checks the loop's
 * range at each block's first and last thread only (start = threadIdx.x plus a per-block
 * value; kernplug-grid-stride-interchange): starts that cross zero or wrap inside a block (the
 * group runs in the original order), 2-D blocks whose rows share their starts, a 64-bit
 * counter, and a start of the linear form the check does not cover (thread by thread). Each
 * result is checked against the same loops run on the host. */
#include <stdlib.h>

#include "kernel_test.h"
#include "kernplug.h"

/* Starts below zero in the first block: its group fails the check. */
__attribute__((kernel)) void gsc_shift(int *out, int shift, int n) {
  int first = (int)(blockIdx.x * blockDim.x) - shift;
  for (int i = (int)threadIdx.x + first; i < n; i += gridsize(1))
    if (i >= 0) out[i] += i + 1;
}

/* An unsigned start that wraps inside the first block (base = 2^32 - 16). */
__attribute__((kernel)) void gsc_wrap(int *out, unsigned base, unsigned n) {
  unsigned first = blockIdx.x * blockDim.x + base;
  for (unsigned i = threadIdx.x + first; i < n; i += gridDim.x * blockDim.x) out[i] += 1;
}

/* A 64-bit counter from an unsigned start that wraps inside the first block: the start
 * (zero-extended) passes the bound at the block's first and last thread, but does not move
 * with threadIdx.x in between, so the group runs in the original order. */
__attribute__((kernel)) void gsc_zext(int *out, unsigned base, long long n) {
  unsigned first = blockIdx.x * blockDim.x + base;
  for (long long i = (unsigned)(threadIdx.x + first); i < n; i += gridsize(1)) out[i] += 1;
}

/* 2-D blocks: the rows of a block share their starts (threadIdx.x only). */
__attribute__((kernel)) void gsc_rows(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomic_add(&out[i], (int)threadIdx.y + 1);
}

/* A 64-bit counter from the 32-bit index: start is a sign extension. */
__attribute__((kernel)) void gsc_wide(const float *x, float *y, long long n) {
  for (long long i = grid(1); i < n; i += gridsize(1)) y[i] = 2.0f * x[i] + 1.0f;
}

/* Start from threadIdx.y too: checked thread by thread. */
__attribute__((kernel)) void gsc_linear(int *out, int n) {
  int t = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = t; i < n; i += gridDim.x * blockDim.x * blockDim.y) out[i] += 2 * i;
}

static void check_shift(int n, int shift, unsigned blocks, unsigned threads) {
  int *out = calloc((size_t)n, sizeof(int));
  int *dout = to_device(out, (size_t)n);
  launch(gsc_shift, blocks, threads)(dout, shift, n);
  copy_to_host(out, dout, (size_t)n);
  for (int i = 0; i < n; i++)
    KT_CHECK(out[i] == i + 1, "gsc_shift n=%d shift=%d %ux%u: out[%d] = %d", n, shift, blocks,
             threads, i, out[i]);
  kp_free(dout);
  free(out);
}

static void check_wrap(unsigned n, unsigned base, unsigned blocks, unsigned threads) {
  int *out = calloc(n, sizeof(int)), *want = calloc(n, sizeof(int));
  unsigned total = blocks * threads;
  for (unsigned t = 0; t < total; t++)
    for (unsigned i = t + base; i < n; i += total) want[i] += 1;
  int *dout = to_device(out, n);
  launch(gsc_wrap, blocks, threads)(dout, base, n);
  copy_to_host(out, dout, n);
  for (unsigned i = 0; i < n; i++)
    KT_CHECK(out[i] == want[i], "gsc_wrap n=%u base=%u %ux%u: out[%u] = %d, expected %d", n,
             base, blocks, threads, i, out[i], want[i]);
  kp_free(dout);
  free(out), free(want);
}

static void check_zext(long long n, unsigned base, unsigned blocks, unsigned threads) {
  int *out = calloc((size_t)n, sizeof(int)), *want = calloc((size_t)n, sizeof(int));
  unsigned total = blocks * threads;
  for (unsigned t = 0; t < total; t++)
    for (long long i = (unsigned)(t + base); i < n; i += total) want[i] += 1;
  int *dout = to_device(out, (size_t)n);
  launch(gsc_zext, blocks, threads)(dout, base, n);
  copy_to_host(out, dout, (size_t)n);
  for (long long i = 0; i < n; i++)
    KT_CHECK(out[i] == want[i], "gsc_zext n=%lld base=%u %ux%u: out[%lld] = %d, expected %d",
             n, base, blocks, threads, i, out[i], want[i]);
  kp_free(dout);
  free(out), free(want);
}

static void check_rows(int n, unsigned blocks, unsigned tx, unsigned ty) {
  int *out = calloc((size_t)n, sizeof(int));
  int *dout = to_device(out, (size_t)n);
  launch(gsc_rows, blocks, kp_dim3(tx, ty))(dout, n);
  copy_to_host(out, dout, (size_t)n);
  int want = (int)(ty * (ty + 1) / 2);
  for (int i = 0; i < n; i++)
    KT_CHECK(out[i] == want, "gsc_rows n=%d %ux(%u,%u): out[%d] = %d, expected %d", n, blocks,
             tx, ty, i, out[i], want);
  kp_free(dout);
  free(out);
}

static void check_wide(long long n, unsigned blocks, unsigned threads) {
  float *x = malloc(sizeof(float) * (size_t)(n + 1)), *y = malloc(sizeof(float) * (size_t)(n + 1));
  for (long long i = 0; i <= n; i++) x[i] = (float)(i % 1000), y[i] = -1.0f;
  float *dx = to_device(x, (size_t)(n + 1)), *dy = to_device(y, (size_t)(n + 1));
  launch(gsc_wide, blocks, threads)(dx, dy, n);
  copy_to_host(y, dy, (size_t)(n + 1));
  for (long long i = 0; i < n; i++)
    KT_CHECK(y[i] == 2.0f * (float)(i % 1000) + 1.0f, "gsc_wide n=%lld: y[%lld] = %g", n, i,
             y[i]);
  KT_CHECK(y[n] == -1.0f, "gsc_wide n=%lld: wrote past the end", n);
  kp_free(dx), kp_free(dy);
  free(x), free(y);
}

static void check_linear(int n, unsigned blocks, unsigned tx, unsigned ty) {
  int *out = calloc((size_t)n, sizeof(int));
  int *dout = to_device(out, (size_t)n);
  launch(gsc_linear, blocks, kp_dim3(tx, ty))(dout, n);
  copy_to_host(out, dout, (size_t)n);
  for (int i = 0; i < n; i++)
    KT_CHECK(out[i] == 2 * i, "gsc_linear n=%d %ux(%u,%u): out[%d] = %d", n, blocks, tx, ty, i,
             out[i]);
  kp_free(dout);
  free(out);
}

int main(void) {
  kt_start("grid_stride_check");
  check_shift(10000, 100, 4, 128);  /* the first block crosses zero */
  check_shift(10000, 0, 4, 128);    /* no shift: every group passes */
  check_shift(70001, 300, 9, 64);   /* the first blocks below zero, many strides */
  check_wrap(5000, 0xFFFFFFF0u, 3, 128);
  check_wrap(5000, 0u, 3, 128);
  check_zext(5000, 0xFFFFFFF0u, 3, 128);
  check_zext(5000, 7u, 3, 128);
  check_rows(20000, 5, 32, 4);
  check_rows(1000, 2, 64, 3);       /* a partial last stride */
  check_wide(100003, 7, 96);
  check_wide(10, 16, 256);
  check_linear(30001, 3, 32, 4);
  printf("grid_stride_check: ok\n");
  return 0;
}
