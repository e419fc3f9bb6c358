/* warp_shuffle_in_place.c — shuffles the CPU split reads in place (WarpCollectives.cpp): each
 * lane of a shfl_down reads its source lane's stored value in the lane loop (the source is
 * never below the reader and the lanes run in ascending order), and a shfl_idx whose mask and
 * lane are the same in all lanes reads the source lane's value once before the lanes run.
 * Offsets from a kernel parameter (0, small, 31, 32 and above), offsets that differ between
 * lanes, shuffles in a loop (a lane overwrites its own value before the lanes above it read
 * theirs), chains of shuffles, masks computed in the kernel, partial last warps and blocks of
 * several rows. A source lane that does not exist gives the lane's own value on the CPU (the
 * runtime's rule) and is undefined on a GPU: checked on the CPU only. Compared with plain C.
 * Also built with cpu-barriers=fibers (barrier_paths.cmake). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

#define FULL 0xffffffffu

__attribute__((device)) unsigned linear_tid(void) {
  return threadIdx.x + blockDim.x * threadIdx.y;
}

/* A loop of shfl_down with a uniform offset from d0 down to 1, combining non-commutatively. */
__attribute__((kernel)) void down_loop(const unsigned *in, unsigned *out, unsigned d0) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  for (unsigned d = d0; d > 0; d /= 2) v = 2u * v + shfl_down_sync(FULL, v, d);
  out[gid] = v;
}

/* Two shuffles in a row, the second's offset a parameter that may be 32 or more. */
__attribute__((kernel)) void down_chain(const unsigned *in, unsigned *out, unsigned d1,
                                        unsigned d2) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  v = 3u * v + shfl_down_sync(FULL, v, d1);
  v = 5u * v - shfl_down_sync(FULL, v, d2);
  out[gid] = v;
}

/* An offset that differs between the lanes. */
__attribute__((kernel)) void down_per_lane(const unsigned *in, unsigned *out) {
  unsigned t = linear_tid(), gid = blockIdx.x * blockDim.x * blockDim.y + t;
  unsigned v = in[gid];
  for (int k = 0; k < 2; k++) v = 7u * v + shfl_down_sync(FULL, v, (t % 32u) % 7u + (unsigned)k);
  out[gid] = v;
}

/* A broadcast from a parameter's lane, in a loop that rewrites every lane's value. */
__attribute__((kernel)) void idx_loop(const unsigned *in, unsigned *out, unsigned src, int steps) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  for (int k = 0; k < steps; k++) v = 2u * v + shfl_sync(FULL, v, src + (unsigned)k);
  out[gid] = v;
}

/* A mask computed in the kernel: the lanes of the warp that exist (the same in all lanes, not
 * a constant). */
__attribute__((kernel)) void down_masked(const unsigned *in, unsigned *out, unsigned d) {
  unsigned t = linear_tid(), n = blockDim.x * blockDim.y, first = t / 32u * 32u;
  unsigned gid = blockIdx.x * n + t, lanes = n - first < 32u ? n - first : 32u;
  unsigned mask = lanes == 32u ? FULL : (1u << lanes) - 1u;
  unsigned v = in[gid];
  v = 2u * v + shfl_down_sync(mask, v, d);
  v = 3u * v + shfl_sync(mask, v, d);
  out[gid] = v;
}

/* The reference: one warp's step, with the runtime's rules. Src: the source lane (may be out
 * of range); a lane takes it where it exists (< lanes) and is in the mask, else keeps its own.
 * Def: 0 where a GPU leaves the result undefined (a source in 0..31 that does not exist). */
enum { DOWN, IDX };
static void warp_step(unsigned *v, int *def, unsigned lanes, unsigned mask, int kind,
                      unsigned arg, unsigned mul, int sub, unsigned lane_offset_mod) {
  unsigned old[32];
  int old_def[32];
  memcpy(old, v, lanes * sizeof *v);
  memcpy(old_def, def, lanes * sizeof *def);
  for (unsigned l = 0; l < lanes; l++) {
    unsigned a = lane_offset_mod ? l % lane_offset_mod + arg : arg;
    unsigned long long src = kind == DOWN ? (unsigned long long)l + a : (a & 31u);
    int takes = src < lanes && (mask >> src & 1u);
    unsigned x = takes ? old[src] : old[l];
    def[l] = old_def[l] && (takes ? old_def[src] : !(src < 32 && src >= lanes));
    v[l] = sub ? mul * old[l] - x : mul * old[l] + x;
  }
}

typedef void step_fn(unsigned *v, int *def, unsigned lanes, const unsigned *params);

static void steps_down_loop(unsigned *v, int *def, unsigned lanes, const unsigned *p) {
  for (unsigned d = p[0]; d > 0; d /= 2) warp_step(v, def, lanes, FULL, DOWN, d, 2, 0, 0);
}
static void steps_down_chain(unsigned *v, int *def, unsigned lanes, const unsigned *p) {
  warp_step(v, def, lanes, FULL, DOWN, p[0], 3, 0, 0);
  warp_step(v, def, lanes, FULL, DOWN, p[1], 5, 1, 0);
}
static void steps_down_per_lane(unsigned *v, int *def, unsigned lanes, const unsigned *p) {
  (void)p;
  for (unsigned k = 0; k < 2; k++) warp_step(v, def, lanes, FULL, DOWN, k, 7, 0, 7);
}
static void steps_idx_loop(unsigned *v, int *def, unsigned lanes, const unsigned *p) {
  for (unsigned k = 0; k < p[1]; k++) warp_step(v, def, lanes, FULL, IDX, p[0] + k, 2, 0, 0);
}
static void steps_down_masked(unsigned *v, int *def, unsigned lanes, const unsigned *p) {
  unsigned mask = lanes == 32 ? FULL : (1u << lanes) - 1u;
  warp_step(v, def, lanes, mask, DOWN, p[0], 2, 0, 0);
  warp_step(v, def, lanes, mask, IDX, p[0], 3, 0, 0);
}

static int on_cpu(void) {
  const char *b = getenv("KP_BACKEND");
  return b && strcmp(b, "cpu") == 0;
}

/* Checks out against the reference, warp by warp (32 consecutive linear ids of a block). */
static void check(const char *name, const unsigned *in, const unsigned *out, unsigned threads,
                  unsigned blocks, step_fn *steps, const unsigned *params) {
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned first = 0; first < threads; first += 32) {
      unsigned lanes = threads - first < 32 ? threads - first : 32, v[32];
      int def[32];
      for (unsigned l = 0; l < lanes; l++) v[l] = in[b * threads + first + l], def[l] = 1;
      steps(v, def, lanes, params);
      for (unsigned l = 0; l < lanes; l++) {
        unsigned i = b * threads + first + l;
        if (def[l] || on_cpu())
          KT_CHECK(out[i] == v[l], "%s (%u threads, params %u %u): out[%u] = %u, expected %u",
                   name, threads, params[0], params[1], i, out[i], v[l]);
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
#define RUN(kernel, steps, p0, p1, ...)                                                          \
  do {                                                                                         \
    unsigned params[2] = {p0, p1};                                                             \
    launch(kernel, blocks, block)(d_in, d_out, __VA_ARGS__);                                   \
    copy_to_host(out, d_out, total);                                                           \
    check(#kernel, in, out, threads, blocks, steps, params);                                   \
  } while (0)
  static const unsigned starts[] = {0, 1, 3, 16, 31, 32, 40};
  for (unsigned k = 0; k < sizeof starts / sizeof *starts; k++)
    RUN(down_loop, steps_down_loop, starts[k], 0, starts[k]);
  static const unsigned pairs[][2] = {{1, 2}, {16, 8}, {5, 32}, {0, 0xffffffffu}, {31, 33}};
  for (unsigned k = 0; k < sizeof pairs / sizeof *pairs; k++)
    RUN(down_chain, steps_down_chain, pairs[k][0], pairs[k][1], pairs[k][0], pairs[k][1]);
  launch(down_per_lane, blocks, block)(d_in, d_out);
  copy_to_host(out, d_out, total);
  check("down_per_lane", in, out, threads, blocks, steps_down_per_lane, (unsigned[2]){0, 0});
  /* A GPU defines a broadcast only from a lane that exists. */
  unsigned last = threads % 32 ? threads % 32 : 32;
  for (unsigned src = 0; src < 32; src += 7)
    if (on_cpu() || src + 2 < last)
      RUN(idx_loop, steps_idx_loop, src, 3, src, 3);
  for (unsigned d = 0; d < 40; d += 13)
    if (on_cpu() || d < last)
      RUN(down_masked, steps_down_masked, d, 0, d);
#undef RUN
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

int main(void) {
  kt_start("warp_shuffle_in_place");
  run_shape(32, 1, 3);
  run_shape(256, 1, 2);
  run_shape(80, 1, 3); /* a partial last warp */
  run_shape(32, 3, 2); /* rows of a warp each */
  run_shape(64, 2, 2);
  printf("warp_shuffle_in_place: OK\n");
  return 0;
}
