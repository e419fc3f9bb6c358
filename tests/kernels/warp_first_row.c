/* warp_first_row.c — in the CPU split, a warp's first lane (x, y, z) in the loop over a
 * block's warps is (32w, 0, 0) in the block's first row, taken without dividing 32w by
 * blockDim.x and .y; the other rows divide (BarrierFission.cpp, warpStartOf). Each lane of a
 * warp that runs past a barrier, then a shuffle, records the threadIdx it sees after the
 * shuffle and the shuffled values; compared with plain C over blocks of one row (every warp
 * in the first row, a partial last warp), of several rows and of several planes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

#define FULL 0xffffffffu

__attribute__((kernel)) void record_lanes(const unsigned *in, unsigned *out) {
  unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  unsigned gid = blockIdx.x * per_block + linear;
  unsigned v = in[gid];
  syncthreads();
  unsigned d = shfl_down_sync(FULL, v, 1);
  unsigned x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  unsigned e = shfl_down_sync(FULL, 7u * v + d, 4);
  out[4 * gid] = x, out[4 * gid + 1] = y, out[4 * gid + 2] = z;
  out[4 * gid + 3] = e + threadIdx.x + 3u * threadIdx.y + 5u * threadIdx.z;
}

static int on_cpu(void) {
  const char *b = getenv("KP_BACKEND");
  return b && strcmp(b, "cpu") == 0;
}

/* Lane l's shfl_down by k in a warp of `lanes` lanes: lane l + k's value where it exists,
 * else the lane's own (the CPU runtime's rule; undefined on a GPU for a missing lane). */
static unsigned down(const unsigned *v, unsigned l, unsigned lanes, unsigned k, int *def) {
  if (l + k < lanes)
    return v[l + k];
  if (l + k < 32)
    *def = 0;
  return v[l];
}

static void run_shape(unsigned bx, unsigned by, unsigned bz, unsigned blocks) {
  unsigned threads = bx * by * bz, total = threads * blocks;
  unsigned *in = malloc(total * sizeof *in), *out = malloc(4 * total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = i * 2654435761u ^ (i >> 3);
  unsigned *d_in = device_array(unsigned, total), *d_out = device_array(unsigned, 4 * total);
  copy_to_device(d_in, in, total);
  launch(record_lanes, blocks, dim3(bx, by, bz))(d_in, d_out);
  copy_to_host(out, d_out, 4 * total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned first = 0; first < threads; first += 32) {
      unsigned lanes = threads - first < 32 ? threads - first : 32, w[32];
      int def[32];
      const unsigned *v = in + b * threads + first;
      for (unsigned l = 0; l < lanes; l++) {
        def[l] = 1;
        w[l] = 7u * v[l] + down(v, l, lanes, 1, &def[l]);
      }
      for (unsigned l = 0; l < lanes; l++) {
        unsigned t = first + l, x = t % bx, y = t / bx % by, z = t / bx / by;
        unsigned i = b * threads + t;
        int ok = def[l];
        unsigned e = down(w, l, lanes, 4, &ok);
        if (l + 4 < lanes && !def[l + 4])
          ok = 0;
        const unsigned *got = out + 4 * i;
        KT_CHECK(got[0] == x && got[1] == y && got[2] == z,
                 "block (%u, %u, %u): thread %u sees (%u, %u, %u), expected (%u, %u, %u)", bx,
                 by, bz, i, got[0], got[1], got[2], x, y, z);
        unsigned want = e + x + 3u * y + 5u * z;
        if (ok || on_cpu())
          KT_CHECK(got[3] == want, "block (%u, %u, %u): out[%u] = %u, expected %u", bx, by, bz,
                   i, got[3], want);
      }
    }
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

int main(void) {
  kt_start("warp_first_row");
  run_shape(80, 1, 1, 3); /* one row, a partial last warp */
  run_shape(256, 1, 1, 2);
  run_shape(32, 3, 2, 2); /* a warp per row, rows in planes */
  run_shape(64, 3, 2, 3); /* two warps per row */
  run_shape(96, 1, 4, 2); /* planes of one row each */
  printf("warp_first_row: OK\n");
  return 0;
}
