/* barrier_split_stencil.c — Rodinia hotspot's kernel (16x16 tiles, a pyramid of 2 time steps
 * in shared memory, neighbours at the grid's edge the cell itself) on grids whose blocks take
 * every path of the CPU backend's split entry: a region's x loop split at `inside && tx > step`
 * and again inside that interval at `tx < 15 - step && ...` (BarrierFission.cpp,
 * nestedIndexRange), and the interval's loop with `gx == 0 ? tx : tx - 1` and
 * `gx == cols - 1 ? tx : tx + 1` folded where the edge is outside the block
 * (ThreadLoopVersioning.cpp, collectEdgeCompares), the guarded loop in blocks at the edge
 * (the first and last block columns, ragged widths, a grid one block wide). Compared with
 * two sweeps of the plain C loop over the whole grid. */
#include <math.h>
#include <stdlib.h>

#include "kernel_test.h"

enum { B = 16, PYRAMID = 2, OUT_W = B - 2 * PYRAMID };

__attribute__((kernel)) void hotspot(const float *temp, const float *power, float *out, int rows,
                                     int cols, float k, float dt) {
  static __attribute__((shared)) float t[B][B];
  static __attribute__((shared)) float p[B][B];
  static __attribute__((shared)) float next[B][B];
  int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
  int gx = (int)blockIdx.x * OUT_W + tx - PYRAMID;
  int gy = (int)blockIdx.y * OUT_W + ty - PYRAMID;
  int inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
  if (inside) {
    t[ty][tx] = temp[gy * cols + gx];
    p[ty][tx] = power[gy * cols + gx];
  }
  syncthreads();
  int no = gy == 0 ? ty : ty - 1, so = gy == rows - 1 ? ty : ty + 1;
  int we = gx == 0 ? tx : tx - 1, ea = gx == cols - 1 ? tx : tx + 1;
  int computed = 0;
  for (int step = 0; step < PYRAMID; step++) {
    computed = 0;
    if (inside && tx > step && tx < B - 1 - step && ty > step && ty < B - 1 - step) {
      computed = 1;
      float v = t[ty][tx];
      next[ty][tx] = v + k * (t[no][tx] + t[so][tx] + t[ty][we] + t[ty][ea] - 4.0f * v) +
                     dt * p[ty][tx];
    }
    syncthreads();
    if (step == PYRAMID - 1) break;
    if (computed) t[ty][tx] = next[ty][tx];
    syncthreads();
  }
  if (computed && tx >= PYRAMID && tx < B - PYRAMID && ty >= PYRAMID && ty < B - PYRAMID)
    out[gy * cols + gx] = next[ty][tx];
}

/* One time step over the whole grid, as the kernel computes each cell. */
static void sweep(const float *src, const float *power, float *dst, int rows, int cols, float k,
                  float dt) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      int no = r == 0 ? r : r - 1, so = r == rows - 1 ? r : r + 1;
      int we = c == 0 ? c : c - 1, ea = c == cols - 1 ? c : c + 1;
      float v = src[r * cols + c];
      dst[r * cols + c] = v + k * (src[no * cols + c] + src[so * cols + c] + src[r * cols + we] +
                                   src[r * cols + ea] - 4.0f * v) +
                          dt * power[r * cols + c];
    }
}

static float *device_copy(const float *h, size_t count) {
  float *d = device_array(float, count);
  copy_to_device(d, h, count);
  return d;
}

static void check(int rows, int cols) {
  size_t n = (size_t)rows * (size_t)cols;
  float *temp = malloc(n * sizeof *temp), *power = malloc(n * sizeof *power);
  float *mid = malloc(n * sizeof *mid), *ref = malloc(n * sizeof *ref);
  float *out = malloc(n * sizeof *out);
  for (size_t i = 0; i < n; i++) {
    temp[i] = 300.0f + (float)((i * 37 + 11) % 101) * 0.25f;
    power[i] = (float)((i * 13 + 5) % 17) * 0.125f;
    out[i] = -1.0f;
  }
  const float k = 0.1f, dt = 0.05f;
  sweep(temp, power, mid, rows, cols, k, dt);
  sweep(mid, power, ref, rows, cols, k, dt);
  float *dtemp = device_copy(temp, n), *dpower = device_copy(power, n);
  float *dout = device_copy(out, n);
  unsigned bx = (unsigned)((cols + OUT_W - 1) / OUT_W), by = (unsigned)((rows + OUT_W - 1) / OUT_W);
  launch(hotspot, dim3(bx, by), dim3(B, B))(dtemp, dpower, dout, rows, cols, k, dt);
  copy_to_host(out, dout, n);
  for (size_t i = 0; i < n; i++)
    KT_CHECK(fabsf(out[i] - ref[i]) <= 1e-4f * fabsf(ref[i]),
             "hotspot %dx%d: out[%zu] (row %zu, column %zu) = %.6f, expected %.6f", rows, cols, i,
             i / (size_t)cols, i % (size_t)cols, out[i], ref[i]);
  kp_free(dtemp), kp_free(dpower), kp_free(dout);
  free(temp), free(power), free(mid), free(ref), free(out);
}

int main(void) {
  kt_start("barrier_split_stencil");
  check(60, 60);   /* 5 x 5 blocks: interior ones take the guard-free loops */
  check(37, 45);   /* ragged: the last block column ends inside its tile */
  check(12, 100);  /* one block row */
  check(100, 11);  /* one block column: every block at both edges */
  check(1, 1);
  check(26, 25);   /* cols - 1 at a tile's last output column */
  printf("barrier_split_stencil: ok\n");
  return 0;
}
