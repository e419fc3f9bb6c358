/* doubled.c — the two 2D kernels of seed 003: each thread of one block of (3, 3) threads
 * doubles the element it names in a 3x3 float32 array, first from threadIdx.x/.y, then from
 * cuda.grid(2), the thread's absolute 2D index (blockIdx * blockDim + threadIdx per axis).
 *
 *   @cuda.jit
 *   def doubled(arr):
 *       x_idx = cuda.threadIdx.x
 *       y_idx = cuda.threadIdx.y
 *       arr[x_idx, y_idx] *= 2
 *
 *   @cuda.jit
 *   def doubled_auto_grid(arr):
 *       x_idx, y_idx = cuda.grid(2)
 *       arr[x_idx, y_idx] *= 2
 *
 *   arr = np.random.randn(3, 3).astype(np.float32)
 *   doubled[1, (3, 3)](arr)
 *
 * The array is a C `float[3][3]`; the kernels take a pointer to its rows, so `arr[x][y]`
 * indexes it as NumPy's arr[x, y] does. grid(2) returns a kp_int2 {x, y} where Python unpacks
 * a tuple. Numba copies the array implicitly; here the transfers are written out. */
#include "example_util.h"
#include "kernplug.h"

enum { rows = 3, cols = 3 };

__attribute__((kernel)) void doubled(float (*arr)[cols]) {
  unsigned x_idx = threadIdx.x;
  unsigned y_idx = threadIdx.y;
  arr[x_idx][y_idx] *= 2;
}

__attribute__((kernel)) void doubled_auto_grid(float (*arr)[cols]) {
  kp_int2 idx = grid(2);
  arr[idx.x][idx.y] *= 2;
}

static void random_array(float arr[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) /* values in [-2, 2): randn's role, no libm needed */
      arr[i][j] = 4.0f * (float)rand() / ((float)RAND_MAX + 1.0f) - 2.0f;
}

/* Prints before -> after and returns how many elements are not doubled. */
static int check(const char *name, float before[rows][cols], float after[rows][cols],
                 double ms) {
  int bad = 0;
  for (int i = 0; i < rows; i++) {
    printf("[% .4f % .4f % .4f] -> [% .4f % .4f % .4f]\n", before[i][0], before[i][1],
           before[i][2], after[i][0], after[i][1], after[i][2]);
    for (int j = 0; j < cols; j++) bad += after[i][j] != 2 * before[i][j];
  }
  printf("%s[1, (3, 3)](arr): %s, %.3f ms\n", name, bad ? "wrong" : "doubled", ms);
  return bad;
}

int main(void) {
  const char *backend = example_start("doubled");
  float arr[rows][cols], before[rows][cols];
  srand(3);
  int bad = 0;

  random_array(before);
  double t0 = example_now_ms();
  float(*d_arr)[cols] = to_device(before, rows);
  launch(doubled, 1, dim3(3, 3))(d_arr);
  copy_to_host(arr, d_arr, rows);
  double ms = example_now_ms() - t0;
  bad += check("doubled", before, arr, ms);

  random_array(before);
  t0 = example_now_ms();
  copy_to_device(d_arr, before, rows);
  launch(doubled_auto_grid, 1, dim3(3, 3))(d_arr);
  copy_to_host(arr, d_arr, rows);
  double ms_auto = example_now_ms() - t0;
  bad += check("doubled_auto_grid", before, arr, ms_auto);

  kp_free(d_arr);
  printf("doubled: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms + ms_auto);
  return bad ? 1 : 0;
}
