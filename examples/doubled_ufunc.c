/* doubled_ufunc.c — seed 003's vectorize function on a 2D array: a ufunc works element by
 * element, so the 3 x 3 array is passed flattened (&arr[0][0], 9 elements) and the result
 * keeps its shape.
 *
 *   @vectorize([float32(float32), ], target="cuda")
 *   def doubled_ufunc(arr):
 *       arr *= 2
 *       return arr
 *
 *   arr = np.random.randn(3, 3).astype(np.float32)
 *   out = doubled_ufunc(arr)
 */
#include "example_util.h"
#include "kernplug.h"

__attribute__((vectorize("float32(float32)"))) float doubled_ufunc(float arr) {
  arr *= 2; /* the parameter is a copy, as in Python */
  return arr;
}

int main(void) {
  const char *backend = example_start("doubled_ufunc");
  float arr[3][3], out[3][3];
  unsigned seed = 12345;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      seed = seed * 1103515245u + 12345u;
      arr[i][j] = (float)((int)(seed >> 16 & 0x7fff) - 16384) / 8192.0f;
    }

  double t0 = example_now_ms();
  ufunc(doubled_ufunc, 3 * 3, &out[0][0], &arr[0][0]);
  double ms = example_now_ms() - t0;

  int bad = 0;
  for (int i = 0; i < 3; i++) {
    printf("[% .4f % .4f % .4f] -> [% .4f % .4f % .4f]\n", arr[i][0], arr[i][1], arr[i][2],
           out[i][0], out[i][1], out[i][2]);
    for (int j = 0; j < 3; j++) bad += out[i][j] != 2 * arr[i][j];
  }
  printf("doubled_ufunc: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
