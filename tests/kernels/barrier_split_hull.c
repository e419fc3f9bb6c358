/* barrier_split_hull.c — Rodinia hotspot's 16x16 tiles (a pyramid of time steps between
 * barriers, the neighbours clamped at the grid's edge with `gx == 0 ? tx : tx - 1`): the CPU
 * backend's split entry checks the conditions of its guard-free thread loops once per block
 * over the block's range of threadIdx.x (ThreadHull.h, ThreadLoopVersioning.cpp) and each row
 * checks its own only where that fails, i.e. in the blocks on the grid's edge. Grids of odd
 * sizes (edge blocks on every side, grids smaller than one tile, one row or column of blocks),
 * two tile shapes, compared with the same computation in plain C, block by block. */
#include <math.h>
#include <stdlib.h>

#include "kernel_test.h"

#define STENCIL(NAME, TB, PYR)                                                                 \
  __attribute__((kernel)) void NAME(const float *temp, const float *power, float *out,         \
                                    int rows, int cols, float k, float dt) {                   \
    static __attribute__((shared)) float t[TB][TB];                                            \
    static __attribute__((shared)) float p[TB][TB];                                            \
    static __attribute__((shared)) float next[TB][TB];                                         \
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;                                          \
    int gx = (int)blockIdx.x * (TB - 2 * PYR) + tx - PYR;                                      \
    int gy = (int)blockIdx.y * (TB - 2 * PYR) + ty - PYR;                                      \
    int inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;                                 \
    if (inside) {                                                                              \
      t[ty][tx] = temp[gy * cols + gx];                                                        \
      p[ty][tx] = power[gy * cols + gx];                                                       \
    }                                                                                          \
    syncthreads();                                                                             \
    int no = gy == 0 ? ty : ty - 1, so = gy == rows - 1 ? ty : ty + 1;                         \
    int we = gx == 0 ? tx : tx - 1, ea = gx == cols - 1 ? tx : tx + 1;                         \
    int computed = 0;                                                                          \
    for (int step = 0; step < PYR; step++) {                                                   \
      computed = 0;                                                                            \
      if (inside && tx > step && tx < TB - 1 - step && ty > step && ty < TB - 1 - step) {      \
        computed = 1;                                                                          \
        float v = t[ty][tx];                                                                   \
        next[ty][tx] = v + k * (t[no][tx] + t[so][tx] + t[ty][we] + t[ty][ea] - 4.0f * v) +    \
                       dt * p[ty][tx];                                                         \
      }                                                                                        \
      syncthreads();                                                                           \
      if (step == PYR - 1)                                                                     \
        break;                                                                                 \
      if (computed)                                                                            \
        t[ty][tx] = next[ty][tx];                                                              \
      syncthreads();                                                                           \
    }                                                                                          \
    if (computed && tx >= PYR && tx < TB - PYR && ty >= PYR && ty < TB - PYR)                  \
      out[gy * cols + gx] = next[ty][tx];                                                      \
  }

STENCIL(hotspot16, 16, 2)
STENCIL(hotspot8, 8, 1)

/* The kernels above in plain C: each block's threads one after another between barriers. */
static void reference(const float *temp, const float *power, float *out, int rows, int cols,
                      float k, float dt, int tb, int pyr) {
  enum { MAX = 16 };
  int ow = tb - 2 * pyr, bx_n = (cols + ow - 1) / ow, by_n = (rows + ow - 1) / ow;
  for (int by = 0; by < by_n; by++)
    for (int bx = 0; bx < bx_n; bx++) {
      float t[MAX][MAX] = {{0}}, p[MAX][MAX] = {{0}}, next[MAX][MAX] = {{0}};
      int computed[MAX][MAX] = {{0}};
      for (int ty = 0; ty < tb; ty++)
        for (int tx = 0; tx < tb; tx++) {
          int gx = bx * ow + tx - pyr, gy = by * ow + ty - pyr;
          if (gx >= 0 && gx < cols && gy >= 0 && gy < rows) {
            t[ty][tx] = temp[gy * cols + gx];
            p[ty][tx] = power[gy * cols + gx];
          }
        }
      for (int step = 0; step < pyr; step++) {
        for (int ty = 0; ty < tb; ty++)
          for (int tx = 0; tx < tb; tx++) {
            int gx = bx * ow + tx - pyr, gy = by * ow + ty - pyr;
            int inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
            int no = gy == 0 ? ty : ty - 1, so = gy == rows - 1 ? ty : ty + 1;
            int we = gx == 0 ? tx : tx - 1, ea = gx == cols - 1 ? tx : tx + 1;
            computed[ty][tx] =
                inside && tx > step && tx < tb - 1 - step && ty > step && ty < tb - 1 - step;
            if (computed[ty][tx]) {
              float v = t[ty][tx];
              next[ty][tx] = v + k * (t[no][tx] + t[so][tx] + t[ty][we] + t[ty][ea] - 4.0f * v) +
                             dt * p[ty][tx];
            }
          }
        if (step == pyr - 1)
          break;
        for (int ty = 0; ty < tb; ty++)
          for (int tx = 0; tx < tb; tx++)
            if (computed[ty][tx])
              t[ty][tx] = next[ty][tx];
      }
      for (int ty = 0; ty < tb; ty++)
        for (int tx = 0; tx < tb; tx++) {
          int gx = bx * ow + tx - pyr, gy = by * ow + ty - pyr;
          if (computed[ty][tx] && tx >= pyr && tx < tb - pyr && ty >= pyr && ty < tb - pyr)
            out[gy * cols + gx] = next[ty][tx];
        }
    }
}

static void check(int rows, int cols, int tb) {
  int pyr = tb == 16 ? 2 : 1, ow = tb - 2 * pyr;
  size_t n = (size_t)rows * (size_t)cols;
  float *temp = malloc(n * sizeof *temp), *power = malloc(n * sizeof *power);
  float *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
  for (size_t i = 0; i < n; i++) {
    temp[i] = 320.0f + (float)((i * 37 + 11) % 101) * 0.25f;
    power[i] = (float)((i * 13 + 5) % 17) * 0.01f;
    out[i] = ref[i] = -1.0f;
  }
  float k = 0.1f, dt = 0.5f;
  reference(temp, power, ref, rows, cols, k, dt, tb, pyr);
  float *dtemp = device_array(float, n), *dpower = device_array(float, n);
  float *dout = device_array(float, n);
  copy_to_device(dtemp, temp, n);
  copy_to_device(dpower, power, n);
  copy_to_device(dout, out, n);
  kp_dim3 blocks = dim3((unsigned)((cols + ow - 1) / ow), (unsigned)((rows + ow - 1) / ow));
  if (tb == 16)
    launch(hotspot16, blocks, dim3(16, 16))(dtemp, dpower, dout, rows, cols, k, dt);
  else
    launch(hotspot8, blocks, dim3(8, 8))(dtemp, dpower, dout, rows, cols, k, dt);
  copy_to_host(out, dout, n);
  for (size_t i = 0; i < n; i++)
    KT_CHECK(fabsf(out[i] - ref[i]) <= 1e-4f * fmaxf(1.0f, fabsf(ref[i])),
             "%dx%d tiles, %d x %d grid: out[%zu] = %.6f, expected %.6f", tb, tb, rows, cols, i,
             out[i], ref[i]);
  kp_free(dtemp), kp_free(dpower), kp_free(dout);
  free(temp), free(power), free(out), free(ref);
}

int main(void) {
  kt_start("barrier_split_hull");
  static const int sizes[][2] = {{101, 77}, {77, 101}, {1, 1},   {1, 50},  {50, 1},
                                 {12, 12},  {13, 25},  {24, 36}, {37, 12}, {5, 200}};
  for (int tb = 8; tb <= 16; tb += 8)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      check(sizes[s][0], sizes[s][1], tb);
  printf("barrier_split_hull: ok\n");
  return 0;
}
