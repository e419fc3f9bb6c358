/* warp_split_uniform_saves.c — values the same in every thread of a block, live across block
 * barriers of a kernel the CPU backend splits at warp collectives too (BarrierFission.cpp):
 * stored once per block instead of by every thread where the region after the barrier (which
 * runs over the whole block) reads thread 0's copy, also when the region that stores them runs
 * warp by warp (after a shuffle). A loop of rounds: a shuffle, a uniform value updated after it,
 * two block barriers with shared-memory exchanges between warps. Compared with plain C. Also
 * built with cpu-barriers=fibers (barrier_paths.cmake). */
#include <stdio.h>
#include <stdlib.h>

#include "kernel_test.h"

enum { MAX_T = 1024 };
#define FULL 0xffffffffu

__attribute__((kernel)) void rounds(const unsigned *in, unsigned *out, unsigned count) {
  static __attribute__((shared)) unsigned acc[MAX_T];
  unsigned t = threadIdx.x, n = blockDim.x, gid = blockIdx.x * n + t;
  unsigned v = in[gid], scale = 1u + blockIdx.x;
  for (unsigned r = 0; r < count; r++) {
    v = v * scale + shfl_down_sync(FULL, v, 1u + r % 4u);
    scale = scale * 3u + r; /* uniform, saved across the barriers below */
    acc[t] = v;
    syncthreads();
    v += acc[(t + 32u) % n] ^ scale;
    syncthreads();
  }
  out[gid] = v + scale;
}

static void check(unsigned threads, unsigned blocks, unsigned count) {
  unsigned total = threads * blocks;
  unsigned *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  unsigned *v = malloc(threads * sizeof *v), *acc = malloc(threads * sizeof *acc);
  for (unsigned i = 0; i < total; i++) in[i] = i * 2246822519u + 7u;
  unsigned *d_in = device_array(unsigned, total), *d_out = device_array(unsigned, total);
  copy_to_device(d_in, in, total);
  launch(rounds, blocks, threads)(d_in, d_out, count);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) {
    unsigned scale = 1u + b;
    for (unsigned t = 0; t < threads; t++) v[t] = in[b * threads + t];
    for (unsigned r = 0; r < count; r++) {
      unsigned d = 1u + r % 4u;
      for (unsigned t = 0; t < threads; t++) /* whole warps: a source past lane 31 is own */
        acc[t] = t % 32 + d < 32 ? v[t + d] : v[t];
      for (unsigned t = 0; t < threads; t++) acc[t] = v[t] * scale + acc[t];
      scale = scale * 3u + r;
      for (unsigned t = 0; t < threads; t++) v[t] = acc[t];
      for (unsigned t = 0; t < threads; t++) v[t] += acc[(t + 32u) % threads] ^ scale;
    }
    for (unsigned t = 0; t < threads; t++) {
      unsigned i = b * threads + t;
      KT_CHECK(out[i] == v[t] + scale, "rounds (%u threads, %u rounds): out[%u] = %u, expected %u",
               threads, count, i, out[i], v[t] + scale);
    }
  }
  kp_free(d_in), kp_free(d_out), free(in), free(out), free(v), free(acc);
}

/* Blocks of whole warps: a GPU leaves a shuffle from a lane that does not exist undefined. */
int main(void) {
  kt_start("warp_split_uniform_saves");
  check(64, 3, 5);
  check(256, 2, 7);
  check(1024, 1, 3);
  check(96, 2, 4);
  printf("warp_split_uniform_saves: OK\n");
  return 0;
}
