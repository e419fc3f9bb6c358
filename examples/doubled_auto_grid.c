/* doubled_auto_grid.c — seed 003's `doubled` rewritten with cuda.grid(2), which computes the
 * thread's absolute 2D index (blockIdx * blockDim + threadIdx on each axis); launched as the
 * seed does, one block of (3, 3) threads over a 3x3 float32 array.
 *
 *   @cuda.jit
 *   def doubled_auto_grid(arr):
 *       x_idx, y_idx = cuda.grid(2)
 *       arr[x_idx, y_idx] *= 2
 *
 *   arr = np.random.randn(3, 3).astype(np.float32)
 *   doubled_auto_grid[1, (3, 3)](arr)
 *
 * grid(2) returns a kp_int2 {x, y} where Python unpacks a tuple. */
#include "example_util.h"
#include "kernplug.h"

enum { rows = 3, cols = 3 };

__attribute__((kernel)) void doubled_auto_grid(float (*arr)[cols]) {
  kp_int2 idx = grid(2);
  arr[idx.x][idx.y] *= 2;
}

int main(void) {
  const char *backend = example_start("doubled_auto_grid");
  float arr[rows][cols], before[rows][cols];
  srand(3);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) /* values in [-2, 2): randn's role, no libm needed */
      before[i][j] = arr[i][j] = 4.0f * (float)rand() / ((float)RAND_MAX + 1.0f) - 2.0f;

  double t0 = example_now_ms();
  float(*d_arr)[cols] = to_device(arr, rows);
  launch(doubled_auto_grid, 1, dim3(3, 3))(d_arr);
  copy_to_host(arr, d_arr, rows);
  double ms = example_now_ms() - t0;

  int bad = 0;
  for (int i = 0; i < rows; i++) {
    printf("[% .4f % .4f % .4f] -> [% .4f % .4f % .4f]\n", before[i][0], before[i][1],
           before[i][2], arr[i][0], arr[i][1], arr[i][2]);
    for (int j = 0; j < cols; j++) bad += arr[i][j] != 2 * before[i][j];
  }
  printf("doubled_auto_grid: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  kp_free(d_arr);
  return bad ? 1 : 0;
}
