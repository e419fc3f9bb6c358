/* gpu_reduce.c — the grid-stride sum of seed 004: each thread adds up every gridsize(1)-th
 * element starting at its grid(1) index, then adds its partial sum to out_array[0] with an
 * atomic add. float32, n = 1024, 256 threads per block.
 *
 *   @cuda.jit
 *   def gpu_reduce(in_array, out_array):
 *       thread_id = cuda.grid(1)
 *       stride = cuda.gridsize(1)
 *       temp_sum = 0.0
 *       for i in range(thread_id, in_array.shape[0], stride):
 *           temp_sum += in_array[i]
 *       cuda.atomic.add(out_array, 0, temp_sum)
 *
 *   n = 1024
 *   in_array = np.arange(n, dtype=np.float32)
 *   out_array = np.zeros(1, dtype=np.float32)
 *   threadsperblock = 256
 *   blockspergrid = (n + (threadsperblock - 1)) // threadsperblock
 *   gpu_reduce[blockspergrid, threadsperblock](in_array, out_array)
 *
 * The seed's grid has one thread per element, so no thread strides; a second run sums 1000003
 * elements with only 3 blocks of 128 threads, where each thread visits ~2600 elements. The
 * elements are small integers, so every partial sum is exact in float and the result must
 * equal the host's sum exactly, whatever order the atomic adds happen in. */
#include "example_util.h"
#include "kernplug.h"

__attribute__((kernel)) void gpu_reduce(const float *in_array, int n, float *out_array) {
  int thread_id = grid(1);
  int stride = gridsize(1);
  float temp_sum = 0.0f;
  for (int i = thread_id; i < n; i += stride) temp_sum += in_array[i];
  atomic_add(&out_array[0], temp_sum);
}

/* Sums in[0..n) on the backend with the given grid; returns 1 if it differs from the host. */
static int run_case(const float *in, int n, int blockspergrid, int threadsperblock, double *ms) {
  float out = 0.0f;
  double t0 = example_now_ms();
  float *d_in = to_device(in, n), *d_out = to_device(&out, 1);
  launch(gpu_reduce, blockspergrid, threadsperblock)(d_in, n, d_out);
  copy_to_host(&out, d_out, 1);
  *ms += example_now_ms() - t0;

  double expected = 0;
  for (int i = 0; i < n; i++) expected += in[i];
  printf("Sum of %d array elements (%d x %d threads): %.1f (host: %.1f)\n", n, blockspergrid,
         threadsperblock, out, expected);
  kp_free(d_in);
  kp_free(d_out);
  return out != expected;
}

int main(void) {
  const char *backend = example_start("gpu_reduce");
  double ms = 0;

  enum { n = 1024 };
  static float in_array[n];
  for (int i = 0; i < n; i++) in_array[i] = (float)i; /* np.arange(n) */
  int threadsperblock = 256;
  int blockspergrid = (n + (threadsperblock - 1)) / threadsperblock;
  int bad = run_case(in_array, n, blockspergrid, threadsperblock, &ms);

  enum { big = 1000003 }; /* sum < 2^24: exact in float */
  float *many = malloc(sizeof *many * big);
  for (int i = 0; i < big; i++) many[i] = (float)(i % 16);
  bad += run_case(many, big, 3, 128, &ms);
  free(many);

  printf("gpu_reduce: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
