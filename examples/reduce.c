/* reduce.c — seed 003's array reduction: a reduce function over a flattened 3x3 array.
 *
 *   @cuda.reduce
 *   def reduce_gpu(a, b):
 *       return a + b
 *   arr = np.random.randn(3, 3).astype(np.float32)
 *   flattened_arr = arr.flatten()
 *   reduced_arr = reduce_gpu(flattened_arr)
 *
 * cuda.reduce takes one-dimensional arrays only; in C a 3x3 array is already nine floats in a
 * row, so &arr[0][0] is the flattened array. kp_reduce also takes device arrays: the second
 * part sums a million floats that stay on the device. Float sums are rounded differently
 * from a sequential loop (the reduction groups them as a tree), so the check allows for it. */
#include <float.h>
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((reduce)) float reduce_gpu(float a, float b) { return a + b; }

/* Standard normal numbers (Irwin-Hall: 12 uniforms minus 6), reproducible everywhere. */
static float randn(unsigned long long *state) {
  float s = -6;
  for (int i = 0; i < 12; i++) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    s += (float)(*state >> 40) / (float)(1 << 24);
  }
  return s;
}

/* |got - want| within a few roundings of the magnitudes summed. */
static int close_enough(float got, double want, double sum_abs, long long n) {
  return fabs(got - want) <= 4 * (double)FLT_EPSILON * sum_abs * log2((double)n + 1) + 1e-30;
}

int main(void) {
  const char *backend = example_start("reduce");
  unsigned long long state = 2024;
  float arr[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) arr[i][j] = randn(&state);
  const float *flattened_arr = &arr[0][0];

  double t0 = example_now_ms();
  float reduced_arr = kp_reduce(reduce_gpu, flattened_arr, 9);
  double ms = example_now_ms() - t0;

  double want = 0, sum_abs = 0;
  for (int i = 0; i < 9; i++) want += flattened_arr[i], sum_abs += fabs(flattened_arr[i]);
  int bad = !close_enough(reduced_arr, want, sum_abs, 9);
  printf("arr = [[%.4f %.4f %.4f] [%.4f %.4f %.4f] [%.4f %.4f %.4f]]\n", arr[0][0], arr[0][1],
         arr[0][2], arr[1][0], arr[1][1], arr[1][2], arr[2][0], arr[2][1], arr[2][2]);
  printf("reduce_gpu(flattened_arr) = %.6f (host: %.6f)\n", reduced_arr, want);

  /* A million floats on the device: only the result comes back. */
  enum { n = 1 << 20 };
  float *big = malloc(n * sizeof *big);
  if (!big) return 1;
  double big_want = 0, big_abs = 0;
  for (int i = 0; i < n; i++) {
    big[i] = randn(&state);
    big_want += big[i], big_abs += fabs(big[i]);
  }
  float *d_big = to_device(big, n);
  double t1 = example_now_ms();
  float big_sum = kp_reduce(reduce_gpu, d_big, n);
  double big_ms = example_now_ms() - t1;
  bad |= !close_enough(big_sum, big_want, big_abs, n);
  printf("sum of %d floats on the device = %.3f (host: %.3f), %.3f ms\n", n, big_sum, big_want,
         big_ms);
  kp_free(d_big);
  free(big);

  printf("reduce: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
