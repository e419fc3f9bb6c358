/* l2_norm.c — seed 002's generalized ufunc: the L2 norm along the last axis of a 10x2
 * float32 array of points on the unit circle, one norm per row.
 *
 *   @guvectorize(['(float32[:], float32[:])'], # have to include the output array in the type signature
 *                '(i)->()',                 # map a 1D array to a scalar output
 *                target='cuda')
 *   def l2_norm(vec, out):
 *       acc = 0.0
 *       for value in vec:
 *           acc += value**2
 *       out[0] = math.sqrt(acc)
 *
 *   angles = np.random.uniform(-np.pi, np.pi, 10)
 *   coords = np.stack([np.cos(angles), np.sin(angles)], axis=1)
 *   l2_norm(coords)      # array([1., 1., 1., 1., 1., 1., 1., 1., 1., 1.], dtype=float32)
 *
 * The C function takes one pointer per operand of the layout, then the size of its core
 * dimension i; its parameter types are the element types (Numba's type list is not needed).
 * gufunc(l2_norm, 10, coords, norms, 2) applies it to the 10 rows: the loop dimension, then
 * exactly l2_norm's arguments. The host arrays are copied to the device and the norms back. */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((guvectorize("(i)->()")))
void l2_norm(const float *vec, float *out, int i) {
  float acc = 0.0f;
  for (int k = 0; k < i; k++) acc += vec[k] * vec[k];
  out[0] = sqrtf(acc);
}

int main(void) {
  const char *backend = example_start("l2_norm");
  enum { rows = 10, cols = 2 };
  float coords[rows][cols], norms[rows];
  unsigned seed = 12345; /* a fixed LCG stands in for np.random.uniform */
  for (int r = 0; r < rows; r++) {
    seed = seed * 1103515245u + 12345u;
    double angle = ((seed >> 8) / 16777216.0 * 2 - 1) * 3.14159265358979;
    coords[r][0] = (float)cos(angle);
    coords[r][1] = (float)sin(angle);
    printf("[%11.8f %11.8f]\n", coords[r][0], coords[r][1]);
  }

  double t0 = example_now_ms();
  gufunc(l2_norm, rows, &coords[0][0], norms, cols);
  double ms = example_now_ms() - t0;

  /* The host's loop, in double: the GPU may fuse the multiply-adds, so allow an ulp or two. */
  int bad = 0;
  printf("array([");
  for (int r = 0; r < rows; r++) {
    double want = sqrt((double)coords[r][0] * coords[r][0] + (double)coords[r][1] * coords[r][1]);
    bad += fabs(norms[r] - want) > 4e-7 || fabsf(norms[r] - 1.0f) > 1e-6f;
    printf("%s%.7f", r ? ", " : "", norms[r]);
  }
  printf("], dtype=float32)\n");
  printf("l2_norm: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
