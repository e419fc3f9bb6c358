/* doubled_gufunc.c — seed 003's generalized ufunc on the GPU: every element of a 3x3 float32
 * matrix doubled, the whole matrix being one core block "(m,n)->(m,n)", the output a device
 * array like Numba's cuda.device_array_like(arr).
 *
 *   @guvectorize([(float32[:, :], float32[:, :])], "(m,n)->(m,n)", target="cuda")
 *   def doubled_gufunc(arr, out):
 *       for i in range(arr.shape[0]):
 *           for j in range(arr.shape[1]):
 *               out[i, j] = arr[i, j] * 2
 *
 *   arr = np.random.randn(3, 3).astype(np.float32)
 *   out = cuda.device_array_like(arr)
 *   doubled_gufunc(arr, out)
 *   out = out.copy_to_host()
 *
 * The sizes m and n follow the two pointers, in the order the layout first names them; the
 * function indexes its rows through a pointer to arrays of n floats, as arr[i, j] does. Then
 * the same function over a stack of 1000 matrices of 4x5: gufunc's loop dimension. */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((guvectorize("(m,n)->(m,n)")))
void doubled_gufunc(const float *arr, float *out, int m, int n) {
  const float(*a)[n] = (const float(*)[n])arr;
  float(*o)[n] = (float(*)[n])out;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) o[i][j] = a[i][j] * 2;
}

/* A normal variate from a fixed seed (Box-Muller over an LCG), like np.random.randn. */
static float randn(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  double u1 = ((*seed >> 8) + 1) / 16777217.0;
  *seed = *seed * 1103515245u + 12345u;
  double u2 = (*seed >> 8) / 16777216.0;
  return (float)(sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
}

int main(void) {
  const char *backend = example_start("doubled_gufunc");
  unsigned seed = 2024;
  int bad = 0;

  float arr[3][3], out[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) arr[i][j] = randn(&seed);
  float *d_out = device_array(float, 3 * 3); /* cuda.device_array_like(arr) */
  double t0 = example_now_ms();
  gufunc(doubled_gufunc, 1, &arr[0][0], d_out, 3, 3);
  copy_to_host(&out[0][0], d_out, 3 * 3);
  double ms = example_now_ms() - t0;
  for (int i = 0; i < 3; i++) {
    printf("[%10.6f %10.6f %10.6f] -> [%10.6f %10.6f %10.6f]\n", arr[i][0], arr[i][1], arr[i][2],
           out[i][0], out[i][1], out[i][2]);
    for (int j = 0; j < 3; j++) bad += out[i][j] != arr[i][j] * 2;
  }
  kp_free(d_out);

  /* A stack of matrices: one call doubles each 4x5 block, on host arrays. */
  enum { count = 1000, m = 4, n = 5 };
  static float stack[count][m][n], doubled[count][m][n];
  for (int k = 0; k < count; k++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) stack[k][i][j] = randn(&seed);
  gufunc(doubled_gufunc, count, &stack[0][0][0], &doubled[0][0][0], m, n);
  for (int k = 0; k < count; k++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) bad += doubled[k][i][j] != stack[k][i][j] * 2;

  printf("doubled_gufunc: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
