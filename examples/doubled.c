/* doubled.c — the first 2D kernel of seed 003: each thread of one block of (3, 3) threads
 * doubles the element its (threadIdx.x, threadIdx.y) names in a 3x3 float32 array.
 *
 *   @cuda.jit
 *   def doubled(arr):
 *       x_idx = cuda.threadIdx.x
 *       y_idx = cuda.threadIdx.y
 *       arr[x_idx, y_idx] *= 2
 *
 *   arr = np.random.randn(3, 3).astype(np.float32)
 *   doubled[1, (3, 3)](arr)
 *
 * The array is a C `float[3][3]`; the kernel takes a pointer to its rows, so `arr[x][y]` indexes
 * it as NumPy's arr[x, y] does. Numba copies the array implicitly; here the transfers are
 * written out. */
#include "example_util.h"
#include "kernplug.h"

enum { rows = 3, cols = 3 };

__attribute__((kernel)) void doubled(float (*arr)[cols]) {
  unsigned x_idx = threadIdx.x;
  unsigned y_idx = threadIdx.y;
  arr[x_idx][y_idx] *= 2;
}

int main(void) {
  const char *backend = example_start("doubled");
  float arr[rows][cols], before[rows][cols];
  srand(3);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) /* values in [-2, 2): randn's role, no libm needed */
      before[i][j] = arr[i][j] = 4.0f * (float)rand() / ((float)RAND_MAX + 1.0f) - 2.0f;

  double t0 = example_now_ms();
  float(*d_arr)[cols] = to_device(arr, rows);
  launch(doubled, 1, dim3(3, 3))(d_arr);
  copy_to_host(arr, d_arr, rows);
  double ms = example_now_ms() - t0;

  int bad = 0;
  for (int i = 0; i < rows; i++) {
    printf("[% .4f % .4f % .4f] -> [% .4f % .4f % .4f]\n", before[i][0], before[i][1],
           before[i][2], arr[i][0], arr[i][1], arr[i][2]);
    for (int j = 0; j < cols; j++) bad += arr[i][j] != 2 * before[i][j];
  }
  printf("doubled: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  kp_free(d_arr);
  return bad ? 1 : 0;
}
