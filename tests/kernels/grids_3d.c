/* grids_3d.c — 2D and 3D grids and blocks: threadIdx, blockIdx, blockDim, gridDim on every
 * axis, grid(1/2/3) and gridsize(1/2/3). Every thread writes what it sees into the cell of its
 * global coordinates; the host checks every cell against the coordinates it must have come
 * from, so a wrong index, a missing thread or a thread run twice with wrong indices fails. */
#include "kernel_test.h"

/* UNWRITTEN apart: beside it (over INT_MAX) clang 22 makes every constant of the enum unsigned. */
enum { FIELDS3 = 18, FIELDS2 = 6 };
#define UNWRITTEN 0xdeadbeefu

/* Cell (x, y, z) of a gridsize(3)-shaped box gets the 18 values this thread sees. */
__attribute__((kernel)) void record_3d(unsigned *out) {
  kp_int3 g = grid(3), s = gridsize(3);
  kp_dim3 t = threadIdx, b = blockIdx, bd = blockDim, gd = gridDim;
  size_t cell = ((size_t)g.z * (size_t)s.y + (size_t)g.y) * (size_t)s.x + (size_t)g.x;
  unsigned v[FIELDS3] = {t.x,  t.y,  t.z,  b.x,  b.y,  b.z,  bd.x, bd.y, bd.z,
                         gd.x, gd.y, gd.z, (unsigned)g.x, (unsigned)g.y, (unsigned)g.z,
                         (unsigned)s.x, (unsigned)s.y, (unsigned)s.z};
  for (int f = 0; f < FIELDS3; f++) out[cell * FIELDS3 + (size_t)f] = v[f];
}

/* Cell (x, y) of the gridsize(2) rectangle: grid(2), gridsize(2) and grid(1), gridsize(1). */
__attribute__((kernel)) void record_2d(int *out) {
  kp_int2 g = grid(2), s = gridsize(2);
  size_t cell = (size_t)g.y * (size_t)s.x + (size_t)g.x;
  int v[FIELDS2] = {g.x, g.y, s.x, s.y, grid(1), gridsize(1)};
  for (int f = 0; f < FIELDS2; f++) out[cell * FIELDS2 + (size_t)f] = v[f];
}

static void check_3d(kp_dim3 blocks, kp_dim3 threads) {
  unsigned sx = blocks.x * threads.x, sy = blocks.y * threads.y, sz = blocks.z * threads.z;
  size_t cells = (size_t)sx * sy * sz, n = cells * FIELDS3;
  unsigned *out = malloc(n * sizeof *out);
  for (size_t i = 0; i < n; i++) out[i] = UNWRITTEN;
  unsigned *d = to_device(out, n);
  launch(record_3d, blocks, threads)(d);
  copy_to_host(out, d, n);
  kp_free(d);
  for (unsigned z = 0; z < sz; z++)
    for (unsigned y = 0; y < sy; y++)
      for (unsigned x = 0; x < sx; x++) {
        const unsigned *o = out + (((size_t)z * sy + y) * sx + x) * FIELDS3;
        unsigned want[FIELDS3] = {x % threads.x, y % threads.y, z % threads.z,
                                  x / threads.x, y / threads.y, z / threads.z,
                                  threads.x,     threads.y,     threads.z,
                                  blocks.x,      blocks.y,      blocks.z,
                                  x,             y,             z,
                                  sx,            sy,            sz};
        for (int f = 0; f < FIELDS3; f++)
          KT_CHECK(o[f] == want[f],
                   "blocks (%u,%u,%u) threads (%u,%u,%u): cell (%u,%u,%u) field %d is %u, "
                   "expected %u",
                   blocks.x, blocks.y, blocks.z, threads.x, threads.y, threads.z, x, y, z, f,
                   o[f], want[f]);
      }
  free(out);
}

static void check_2d(kp_dim3 blocks, kp_dim3 threads) {
  int sx = (int)(blocks.x * threads.x), sy = (int)(blocks.y * threads.y);
  size_t n = (size_t)sx * (size_t)sy * FIELDS2;
  int *out = malloc(n * sizeof *out);
  for (size_t i = 0; i < n; i++) out[i] = (int)UNWRITTEN;
  int *d = to_device(out, n);
  launch(record_2d, blocks, threads)(d);
  copy_to_host(out, d, n);
  kp_free(d);
  for (int y = 0; y < sy; y++)
    for (int x = 0; x < sx; x++) {
      const int *o = out + ((size_t)y * (size_t)sx + (size_t)x) * FIELDS2;
      int want[FIELDS2] = {x, y, sx, sy, x, sx};
      for (int f = 0; f < FIELDS2; f++)
        KT_CHECK(o[f] == want[f],
                 "blocks (%u,%u) threads (%u,%u): cell (%d,%d) field %d is %d, expected %d",
                 blocks.x, blocks.y, threads.x, threads.y, x, y, f, o[f], want[f]);
    }
  free(out);
}

int main(void) {
  kt_start("grids_3d");
  /* non-cubic blocks and grids, every axis above 1 somewhere */
  check_3d(dim3(3, 2, 2), dim3(8, 4, 2));
  check_3d(dim3(1, 5, 3), dim3(4, 2, 8));
  check_3d(dim3(5, 1, 7), dim3(1, 1, 64));
  check_3d(dim3(2, 3, 4), dim3(5, 3, 7));
  check_3d(dim3(1, 1, 1), dim3(16, 16, 4)); /* one block of 1024 threads */
  check_3d(dim3(1, 200, 3), dim3(2, 1, 1)); /* many blocks along y */
  check_3d(dim3(7), dim3(33));               /* 1D through the 3D view */
  check_2d(dim3(3, 4), dim3(16, 8));
  check_2d(dim3(1, 9), dim3(32, 2));
  check_2d(dim3(6, 1), dim3(7, 13));
  puts("grids_3d: OK");
  return 0;
}
