/* warp_source_bound.c — where a shfl_down's source lane leaves the warp. The CPU split tests
 * it on the lane loop's x against x0 + lanes - offset (WarpCollectives.cpp, sourceInWarp): the
 * lanes from lanes - offset on keep their own value. Constant offsets (the unrolled loop of the
 * tree reduction) and an offset from a parameter (0, 1, 31, 32, 33: clamped to 32, every lane
 * its own), in every warp of a row (x0 = 0, 32, ..., 992 in a block of 1024 threads, the CPU
 * backend's largest), partial last warps (48 and 80 threads) and blocks of several rows
 * (x0 = 0 again on each row). Non-commutative steps, so that a lane taking the wrong value
 * shows. A source lane that does not exist gives the lane's own value on the CPU (the
 * runtime's rule) and is undefined on a GPU: checked on the CPU only. Compared with plain C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

#define FULL 0xffffffffu

__attribute__((device)) unsigned linear_tid(void) {
  return threadIdx.x + blockDim.x * threadIdx.y;
}

/* Offsets 16, 8, 4, 2, 1, each a constant once the loop is unrolled. */
__attribute__((kernel)) void down_const(const unsigned *in, unsigned *out) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  for (unsigned d = 16; d > 0; d /= 2) v = 3u * v + shfl_down_sync(FULL, v, d);
  out[gid] = v;
}

/* One offset from a parameter, then a constant one. */
__attribute__((kernel)) void down_param(const unsigned *in, unsigned *out, unsigned d) {
  unsigned gid = blockIdx.x * blockDim.x * blockDim.y + linear_tid();
  unsigned v = in[gid];
  v = 5u * v - shfl_down_sync(FULL, v, d);
  v = 7u * v + shfl_down_sync(FULL, v, 3);
  out[gid] = v;
}

/* One warp's shfl_down step in plain C: lane l takes lane l + d's value where that lane
 * exists, else keeps its own; Def[l] clears where a GPU leaves the result undefined. */
static void down_step(unsigned *v, int *def, unsigned lanes, unsigned d, unsigned mul, int sub) {
  unsigned old[32];
  int old_def[32];
  memcpy(old, v, lanes * sizeof *v);
  memcpy(old_def, def, lanes * sizeof *def);
  for (unsigned l = 0; l < lanes; l++) {
    unsigned long long src = (unsigned long long)l + d;
    int takes = src < lanes;
    unsigned x = takes ? old[src] : old[l];
    def[l] = old_def[l] && (takes ? old_def[src] : !(src < 32));
    v[l] = sub ? mul * old[l] - x : mul * old[l] + x;
  }
}

static int on_cpu(void) {
  const char *b = getenv("KP_BACKEND");
  return b && strcmp(b, "cpu") == 0;
}

/* Out against plain C, warp by warp (32 consecutive linear ids of a block); D: ~0u for
 * down_const, else down_param's offset. */
static void check(const char *name, const unsigned *in, const unsigned *out, unsigned threads,
                  unsigned blocks, unsigned d) {
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned first = 0; first < threads; first += 32) {
      unsigned lanes = threads - first < 32 ? threads - first : 32, v[32];
      int def[32];
      for (unsigned l = 0; l < lanes; l++) v[l] = in[b * threads + first + l], def[l] = 1;
      if (d == ~0u) {
        for (unsigned k = 16; k > 0; k /= 2) down_step(v, def, lanes, k, 3, 0);
      } else {
        down_step(v, def, lanes, d, 5, 1);
        down_step(v, def, lanes, 3, 7, 0);
      }
      for (unsigned l = 0; l < lanes; l++) {
        unsigned i = b * threads + first + l;
        if (def[l] || on_cpu())
          KT_CHECK(out[i] == v[l], "%s (%u threads, offset %u): out[%u] = %u, expected %u", name,
                   threads, d, i, out[i], v[l]);
      }
    }
}

static void run_shape(unsigned bx, unsigned by, unsigned blocks) {
  unsigned threads = bx * by, total = threads * blocks;
  unsigned *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = i * 2654435761u ^ (i >> 5);
  unsigned *d_in = device_array(unsigned, total), *d_out = device_array(unsigned, total);
  copy_to_device(d_in, in, total);
  kp_dim3 block = dim3(bx, by);
  launch(down_const, blocks, block)(d_in, d_out);
  copy_to_host(out, d_out, total);
  check("down_const", in, out, threads, blocks, ~0u);
  static const unsigned offsets[] = {0, 1, 31, 32, 33};
  for (unsigned k = 0; k < sizeof offsets / sizeof *offsets; k++) {
    launch(down_param, blocks, block)(d_in, d_out, offsets[k]);
    copy_to_host(out, d_out, total);
    check("down_param", in, out, threads, blocks, offsets[k]);
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

int main(void) {
  kt_start("warp_source_bound");
  run_shape(1024, 1, 2); /* x0 up to 992 */
  run_shape(48, 1, 3);   /* a last warp of 16 lanes at x0 = 32 */
  run_shape(80, 1, 2);
  run_shape(64, 3, 2);   /* rows of two warps: x0 = 0, 32 on each row */
  printf("warp_source_bound: OK\n");
  return 0;
}
