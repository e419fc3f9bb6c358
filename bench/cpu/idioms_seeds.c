/* idioms_seeds.c — rows whose kernels are the seeds' and the documentation's
 * (bench/common/kp_kernels.h): grid-stride add, seed 004's atomic grid-stride sum, the tiled
 * and naive matmuls, empty launches, vector add at small sizes; and, outside the targets,
 * vector add with one element per thread at 2^27 and kp_reduce. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "groups.h"
#include "kernplug.h"
#include "kp_kernels.h"
#include "loops.h"

/* The grid-stride add as CUDA and Numba programmers write it; launched with one GPU thread
 * per 8 elements (as the generated ufunc kernels are). */
__attribute__((kernel)) void vec_add_gs(const float *x, const float *y, float *out, int n) {
  for (int i = grid(1); i < n; i += gridsize(1)) out[i] = x[i] + y[i];
}

typedef struct stream_ctx {
  float *x, *y, *out;
  long n;
  unsigned blocks, tpb;
  int threads;
} stream_ctx;

static void kp_add_gs(void *p) {
  stream_ctx *c = p;
  launch(vec_add_gs, c->blocks, c->tpb)(c->x, c->y, c->out, (int)c->n);
  kp_synchronize();
}
static void kp_add(void *p) {
  stream_ctx *c = p;
  launch(vec_add, c->blocks, c->tpb)(c->x, c->y, c->out, (int)c->n);
  kp_synchronize();
}
static void mp_add(void *p) {
  stream_ctx *c = p;
  omp_vec_add(c->x, c->y, c->out, c->n, c->threads);
}
static void se_add(void *p) {
  stream_ctx *c = p;
  serial_vec_add(c->x, c->y, c->out, c->n, c->threads);
}

/* Seed 004's gpu_reduce (kp_kernels.h atomic_sum): out[0] is zeroed first, as the seed's
 * host code does. */
static void kp_atomic_sum(void *p) {
  stream_ctx *c = p;
  c->out[0] = 0.0f;
  launch(atomic_sum, c->blocks, c->tpb)(c->x, c->out, (int)c->n);
  kp_synchronize();
}
static void kp_reduce_sum(void *p) {
  stream_ctx *c = p;
  c->out[0] = kp_reduce(sum_f32, c->x, c->n);
}
static void mp_sum(void *p) {
  stream_ctx *c = p;
  c->out[0] = omp_sum(c->x, c->n, c->threads);
}
static void se_sum(void *p) {
  stream_ctx *c = p;
  c->out[0] = serial_sum(c->x, c->n, c->threads);
}

static double sum_abs(const float *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += fabs(x[i]);
  return s;
}

static void size_name(char *buf, size_t size, long n, const char *what) {
  if (n == (n & -n))
    snprintf(buf, size, "2^%d %s", __builtin_ctzl((unsigned long)n), what);
  else if (n == 100000000)
    snprintf(buf, size, "10^8 %s", what);
  else
    snprintf(buf, size, "%ld %s", n, what);
}

void rows_grid_stride(const bench_opts *o) {
  if (!harness_wants("grid-stride add, 8 per thread") &&
      !harness_wants("atomic grid-stride sum (seed 004)"))
    return;
  long big = o->check_only ? 100003 : 1l << 27, ten8 = o->check_only ? 65536 : 100000000;
  long nsum = o->check_only ? 100003 : 1l << 25;
  stream_ctx c = {.threads = o->threads, .tpb = 256};
  c.x = bench_device_uniform(big, 1, -1.0f, 1.0f);
  c.y = bench_device_uniform(big, 2, -1.0f, 1.0f);
  c.out = device_array(float, big);
  char size[2][64];
  long sizes[2] = {big, ten8};
  for (int k = 0; k < 2; k++) {
    c.n = sizes[k], c.blocks = (unsigned)((c.n + 2047) / 2048);
    char what[48];
    snprintf(what, sizeof what, "floats, %u x 256", c.blocks);
    size_name(size[k], sizeof size[k], c.n, what);
    harness_row(&(idiom_row){"grid-stride add, 8 per thread", size[k], 1, kp_add_gs, mp_add,
                             se_add, &c, c.out, (size_t)c.n, OUT_F32, 1e-6, 0, 0, 0});
  }
  /* Seed 004's gpu_reduce on a fixed grid: each of 4096 or 8192 threads walks the array. */
  char asize[2][64];
  unsigned grids[2] = {16, 32};
  c.n = nsum;
  double scale = sum_abs(c.x, c.n);
  for (int k = 0; k < 2; k++) {
    c.blocks = grids[k];
    char what[48];
    snprintf(what, sizeof what, "floats, %u x 256", c.blocks);
    size_name(asize[k], sizeof asize[k], c.n, what);
    harness_row(&(idiom_row){"atomic grid-stride sum (seed 004)", asize[k], 1, kp_atomic_sum,
                             mp_sum, se_sum, &c, c.out, 1, OUT_F32_SUM, 1e-5, scale, 0, 0});
  }
  kp_free(c.x), kp_free(c.y), kp_free(c.out);
}

/* ---- matmul ------------------------------------------------------------------------------ */

typedef struct matmul_ctx {
  float *A, *B, *C;
  int m, threads;
} matmul_ctx;

static kp_dim3 tiles_for(int m) {
  return dim3((unsigned)(m + BENCH_TPB - 1) / BENCH_TPB, (unsigned)(m + BENCH_TPB - 1) / BENCH_TPB);
}
static void kp_tiled(void *p) {
  matmul_ctx *c = p;
  launch(matmul_tiled, tiles_for(c->m), dim3(BENCH_TPB, BENCH_TPB))(c->A, c->B, c->C, c->m);
  kp_synchronize();
}
static void mp_tiled(void *p) {
  matmul_ctx *c = p;
  omp_matmul_tiled(c->A, c->B, c->C, c->m, c->threads);
}
static void se_tiled(void *p) {
  matmul_ctx *c = p;
  serial_matmul_tiled(c->A, c->B, c->C, c->m, c->threads);
}
static void kp_naive(void *p) {
  matmul_ctx *c = p;
  launch(matmul_naive, tiles_for(c->m), dim3(BENCH_TPB, BENCH_TPB))(c->A, c->B, c->C, c->m);
  kp_synchronize();
}
static void mp_naive(void *p) {
  matmul_ctx *c = p;
  omp_matmul_naive(c->A, c->B, c->C, c->m, c->threads);
}
static void se_naive(void *p) {
  matmul_ctx *c = p;
  serial_matmul_naive(c->A, c->B, c->C, c->m, c->threads);
}

void rows_matmul(const bench_opts *o, int m) {
  if (!harness_wants("tiled matmul (shared tiles, 2 barriers)") &&
      !harness_wants("naive matmul"))
    return;
  matmul_ctx c = {.m = m, .threads = o->threads};
  c.A = bench_device_uniform((long)m * m, 3, -1.0f, 1.0f);
  c.B = bench_device_uniform((long)m * m, 4, -1.0f, 1.0f);
  c.C = device_array(float, (long)m * m);
  char size[64];
  snprintf(size, sizeof size, "%d^2, 16x16 blocks", m);
  size_t mm = (size_t)m * (size_t)m;
  harness_row(&(idiom_row){"tiled matmul (shared tiles, 2 barriers)", size, 1, kp_tiled, mp_tiled,
                           se_tiled, &c, c.C, mm, OUT_F32, 1e-5, 0, 0, 0});
  harness_row(&(idiom_row){"naive matmul", size, 1, kp_naive, mp_naive, se_naive, &c, c.C, mm,
                           OUT_F32, 1e-5, 0, 0, 0});
  kp_free(c.A), kp_free(c.B), kp_free(c.C);
}

/* ---- launch cost ------------------------------------------------------------------------- */

static void kp_empty(void *p) {
  stream_ctx *c = p;
  launch(empty0, c->blocks, c->tpb)();
  kp_synchronize();
}
static void mp_empty(void *p) {
  stream_ctx *c = p;
  omp_empty((long)c->blocks * c->tpb, c->threads);
}

void rows_launch(const bench_opts *o) {
  stream_ctx c = {.threads = o->threads, .tpb = 32, .blocks = 1};
  harness_row(&(idiom_row){"empty launch / empty parallel for", "1 x 32", 1, kp_empty, mp_empty,
                           NULL, &c, NULL, 0, OUT_NONE, 0, 0, 0, 1});
  stream_ctx d = {.threads = o->threads, .tpb = 256, .blocks = 64};
  harness_row(&(idiom_row){"empty launch / empty parallel for", "64 x 256", 1, kp_empty, mp_empty,
                           NULL, &d, NULL, 0, OUT_NONE, 0, 0, 0, 1});
  if (!harness_wants("vector add, one per thread")) return;
  long nmax = 100000;
  stream_ctx v = {.threads = o->threads, .tpb = 256};
  v.x = bench_device_uniform(nmax, 5, -1.0f, 1.0f);
  v.y = bench_device_uniform(nmax, 6, -1.0f, 1.0f);
  v.out = device_array(float, nmax);
  char size[3][32];
  for (int k = 0; k < 3; k++) {
    v.n = k == 0 ? 1000 : k == 1 ? 10000 : 100000;
    v.blocks = (unsigned)((v.n + 255) / 256);
    snprintf(size[k], sizeof size[k], "10^%d floats", 3 + k);
    harness_row(&(idiom_row){"vector add, one per thread", size[k], 1, kp_add, mp_add, se_add,
                             &v, v.out, (size_t)v.n, OUT_F32, 1e-6, 0, 0, 0});
  }
  kp_free(v.x), kp_free(v.y), kp_free(v.out);
}

/* ---- outside the targets ----------------------------------------------------------------- */

void rows_other(const bench_opts *o) {
  long n = o->check_only ? 100003 : 1l << 27;
  if (!harness_wants("vector add, one per thread") &&
      !harness_wants("sum: kp_reduce / OpenMP reduction"))
    return;
  stream_ctx c = {.threads = o->threads, .tpb = 256, .n = n};
  c.blocks = (unsigned)((n + 255) / 256);
  c.x = bench_device_uniform(n, 1, -1.0f, 1.0f);
  c.y = bench_device_uniform(n, 2, -1.0f, 1.0f);
  c.out = device_array(float, n);
  char size[64];
  size_name(size, sizeof size, n, "floats");
  harness_row(&(idiom_row){"vector add, one per thread", size, 0, kp_add, mp_add, se_add, &c,
                           c.out, (size_t)n, OUT_F32, 1e-6, 0, 0, 0});
  harness_row(&(idiom_row){"sum: kp_reduce / OpenMP reduction", size, 0, kp_reduce_sum, mp_sum,
                           se_sum, &c, c.out, 1, OUT_F32_SUM, 1e-5, sum_abs(c.x, n), 0, 0});
  kp_free(c.x), kp_free(c.y), kp_free(c.out);
}
