/* warp_loop_unroll.c — loops of warp collectives with a constant trip count, which the CPU split
 * unrolls before splitting (WarpLoopUnroll.cpp): each shuffle then has a constant offset and a
 * region of its own. The cuda-samples tree reduction (a shared-memory tree, then shfl_down at
 * offsets 16, 8, 4, 2, 1 in the first warp), a non-commutative shfl_down loop whose value is used
 * after the loop, the same on floats (whose bits the shuffles move), a shfl_xor butterfly, a shfl_up
 * scan, and a loop whose trip count is a parameter (kept as a loop). Full warps, partial last
 * warps and blocks of several rows; each compared with plain C. A source lane that does not
 * exist gives the lane's own value on the CPU (the runtime's rule) and is undefined on a GPU:
 * those lanes are checked on the CPU only. Also built with cpu-barriers=fibers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

#define FULL 0xffffffffu

enum { TPB = 256 };

/* cuda-samples reduce, as bench/cpu/idioms_shared.c's tree_sum, on integers (exact). */
__attribute__((kernel)) void tree_sum(const int *in, int *total, int n) {
  static __attribute__((shared)) int s[TPB];
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
    for (int offset = 16; offset > 0; offset /= 2) v += shfl_down_sync(FULL, v, offset);
    if (tid == 0) atomic_add(total, v);
  }
}

__attribute__((device)) unsigned linear_tid(void) {
  return threadIdx.x + blockDim.x * threadIdx.y;
}

/* Non-commutative: each step's order matters. The loop's value and a value computed before it
 * are both used after it. */
__attribute__((kernel)) void down_steps(const unsigned *in, unsigned *out) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid], w = v ^ 0x9e3779b9u;
  for (unsigned d = 16; d > 0; d /= 2) v = 3u * v + shfl_down_sync(FULL, v, d);
  out[gid] = v + w;
}

/* A float: the shuffle moves its bits (the value read back after each shuffle is the float the
 * lane stored). Small integers, so that the sums are exact. */
__attribute__((kernel)) void down_float(const unsigned *in, unsigned *out) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  float v = (float)(in[gid] % 1000u);
  for (int d = 16; d > 0; d /= 2) v = 2.0f * v + shfl_down_sync(FULL, v, d);
  out[gid] = (unsigned)v;
}

__attribute__((kernel)) void xor_butterfly(const unsigned *in, unsigned *out) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  for (int m = 1; m < 32; m *= 2) v = 5u * v + shfl_xor_sync(FULL, v, (unsigned)m);
  out[gid] = v;
}

__attribute__((kernel)) void up_scan(const unsigned *in, unsigned *out) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned u = shfl_up_sync(FULL, v, d);
    if (linear_tid() % 32u >= d) v += u;
  }
  out[gid] = v;
}

/* A trip count known at run time only: kept as a loop. */
__attribute__((kernel)) void down_param(const unsigned *in, unsigned *out, unsigned d0) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  for (unsigned d = d0; d > 0; d /= 2) v = 2u * v + shfl_down_sync(FULL, v, d);
  out[gid] = v;
}

static int on_cpu(void) {
  const char *b = getenv("KP_BACKEND");
  return b && strcmp(b, "cpu") == 0;
}

/* One warp's shuffle with the runtime's rules: Src(l) where it exists, else the lane's own.
 * Def: 0 where a GPU leaves the result undefined (a source lane in 0..31 that does not exist). */
enum { DOWN, XOR, UP };
static void shuffle(const unsigned *v, unsigned *r, int *def, unsigned lanes, int kind,
                    unsigned arg) {
  for (unsigned l = 0; l < lanes; l++) {
    long long src = kind == DOWN ? (long long)l + arg : kind == XOR ? (long long)(l ^ arg)
                                                                    : (long long)l - arg;
    int takes = src >= 0 && src < (long long)lanes;
    r[l] = takes ? v[src] : v[l];
    if (!takes && src >= 0 && src < 32)
      def[l] = 0;
    if (takes && !def[src])
      def[l] = 0;
  }
}

typedef void steps_fn(unsigned *v, int *def, unsigned lanes, unsigned param);

static void steps_down(unsigned *v, int *def, unsigned lanes, unsigned param) {
  (void)param;
  unsigned r[32], w[32];
  for (unsigned l = 0; l < lanes; l++) w[l] = v[l] ^ 0x9e3779b9u;
  for (unsigned d = 16; d > 0; d /= 2) {
    int d2[32];
    memcpy(d2, def, sizeof d2);
    shuffle(v, r, d2, lanes, DOWN, d);
    memcpy(def, d2, sizeof d2);
    for (unsigned l = 0; l < lanes; l++) v[l] = 3u * v[l] + r[l];
  }
  for (unsigned l = 0; l < lanes; l++) v[l] += w[l];
}
static void steps_float(unsigned *v, int *def, unsigned lanes, unsigned param) {
  (void)param;
  unsigned r[32];
  for (unsigned l = 0; l < lanes; l++) v[l] %= 1000u;
  for (unsigned d = 16; d > 0; d /= 2) {
    int d2[32];
    memcpy(d2, def, sizeof d2);
    shuffle(v, r, d2, lanes, DOWN, d);
    memcpy(def, d2, sizeof d2);
    for (unsigned l = 0; l < lanes; l++) v[l] = 2u * v[l] + r[l];
  }
}
static void steps_xor(unsigned *v, int *def, unsigned lanes, unsigned param) {
  (void)param;
  unsigned r[32];
  for (unsigned m = 1; m < 32; m *= 2) {
    int d2[32];
    memcpy(d2, def, sizeof d2);
    shuffle(v, r, d2, lanes, XOR, m);
    memcpy(def, d2, sizeof d2);
    for (unsigned l = 0; l < lanes; l++) v[l] = 5u * v[l] + r[l];
  }
}
static void steps_up(unsigned *v, int *def, unsigned lanes, unsigned param) {
  (void)param;
  unsigned r[32];
  for (unsigned d = 1; d < 32; d *= 2) {
    int d2[32];
    memcpy(d2, def, sizeof d2);
    shuffle(v, r, d2, lanes, UP, d);
    for (unsigned l = 0; l < lanes; l++)
      if (l >= d)
        v[l] += r[l], def[l] = d2[l];
  }
}
static void steps_param(unsigned *v, int *def, unsigned lanes, unsigned param) {
  unsigned r[32];
  for (unsigned d = param; d > 0; d /= 2) {
    int d2[32];
    memcpy(d2, def, sizeof d2);
    shuffle(v, r, d2, lanes, DOWN, d);
    memcpy(def, d2, sizeof d2);
    for (unsigned l = 0; l < lanes; l++) v[l] = 2u * v[l] + r[l];
  }
}

static void check(const char *name, const unsigned *in, const unsigned *out, unsigned threads,
                  unsigned blocks, steps_fn *steps, unsigned param) {
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned first = 0; first < threads; first += 32) {
      unsigned lanes = threads - first < 32 ? threads - first : 32, v[32];
      int def[32];
      for (unsigned l = 0; l < 32; l++) def[l] = 1;
      for (unsigned l = 0; l < lanes; l++) v[l] = in[b * threads + first + l];
      steps(v, def, lanes, param);
      for (unsigned l = 0; l < lanes; l++) {
        unsigned i = b * threads + first + l;
        if (def[l] || on_cpu())
          KT_CHECK(out[i] == v[l], "%s (%u threads, param %u): out[%u] = %u, expected %u", name,
                   threads, param, i, out[i], v[l]);
      }
    }
}

static void run_shape(unsigned bx, unsigned by, unsigned blocks) {
  unsigned threads = bx * by, total = threads * blocks;
  unsigned *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = i * 2654435761u ^ (i >> 3);
  unsigned *d_in = device_array(unsigned, total), *d_out = device_array(unsigned, total);
  copy_to_device(d_in, in, total);
  kp_dim3 block = dim3(bx, by);
  launch(down_steps, blocks, block)(d_in, d_out);
  copy_to_host(out, d_out, total);
  check("down_steps", in, out, threads, blocks, steps_down, 0);
  launch(down_float, blocks, block)(d_in, d_out);
  copy_to_host(out, d_out, total);
  check("down_float", in, out, threads, blocks, steps_float, 0);
  launch(xor_butterfly, blocks, block)(d_in, d_out);
  copy_to_host(out, d_out, total);
  check("xor_butterfly", in, out, threads, blocks, steps_xor, 0);
  launch(up_scan, blocks, block)(d_in, d_out);
  copy_to_host(out, d_out, total);
  check("up_scan", in, out, threads, blocks, steps_up, 0);
  static const unsigned starts[] = {0, 1, 16, 40};
  for (unsigned k = 0; k < sizeof starts / sizeof *starts; k++) {
    launch(down_param, blocks, block)(d_in, d_out, starts[k]);
    copy_to_host(out, d_out, total);
    check("down_param", in, out, threads, blocks, steps_param, starts[k]);
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

static void run_tree(int n) {
  int *x = malloc((size_t)n * sizeof *x);
  long long want = 0;
  for (int i = 0; i < n; i++) x[i] = (i * 7919) % 1000 - 500, want += x[i];
  int *d_x = device_array(int, n), *d_total = device_array(int, 1), total = 0;
  copy_to_device(d_x, x, n);
  copy_to_device(d_total, &total, 1);
  launch(tree_sum, (unsigned)((n + 2 * TPB - 1) / (2 * TPB)), TPB)(d_x, d_total, n);
  copy_to_host(&total, d_total, 1);
  KT_CHECK(total == (int)want, "tree_sum(%d elements) = %d, expected %lld", n, total, want);
  kp_free(d_x), kp_free(d_total), free(x);
}

int main(void) {
  kt_start("warp_loop_unroll");
  run_shape(32, 1, 3);
  run_shape(256, 1, 2);
  run_shape(80, 1, 3); /* a partial last warp */
  run_shape(32, 3, 2); /* rows of a warp each */
  run_shape(64, 2, 2);
  static const int sizes[] = {1, 63, 512, 513, 100003};
  for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) run_tree(sizes[k]);
  printf("warp_loop_unroll: OK\n");
  return 0;
}
