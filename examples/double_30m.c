/* double_30m.c — the seeds' "something a little bigger" (001): double every element of a
 * 30-million element array of random numbers, with 128 threads per block and enough blocks to
 * cover it, timing each step on the host as the notebook's %%time does.
 *
 *   threads = 128
 *   blocks = math.ceil(random_array.shape[0] / threads)
 *   @cuda.jit
 *   def foo(input_array, output_array):
 *       i = cuda.grid(1)
 *       output_array[i] = input_array[i] * 2
 *
 * The kernel checks i < n (the Numba version relies on the last block being exactly full,
 * which it is not in general). Usage: double_30m [n]   (default 30000000) */
#include <stdint.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((kernel)) void double_it(const double *in, double *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = in[i] * 2;
}

int main(int argc, char **argv) {
  const char *backend = example_start("double_30m");
  long long n = argc > 1 ? atoll(argv[1]) : 30000000LL;
  if (n < 1 || n > 2000000000LL) {
    fprintf(stderr, "double_30m: n must be between 1 and 2e9\n");
    return 2;
  }
  double *random_array = malloc((size_t)n * sizeof *random_array);
  double *output = calloc((size_t)n, sizeof *output);
  if (!random_array || !output) {
    fprintf(stderr, "double_30m: out of host memory for %lld elements\n", n);
    return 1;
  }
  uint64_t state = 0x9e3779b97f4a7c15u; /* xorshift: numpy.random.random's role */
  for (long long i = 0; i < n; i++) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    random_array[i] = (double)(state >> 11) / 9007199254740992.0;
  }

  int threads = 128;
  long long blocks = (n + threads - 1) / threads;

  double t0 = example_now_ms();
  double *d_in = to_device(random_array, n);
  double *d_out = device_array(double, n);
  double t1 = example_now_ms();
  launch(double_it, blocks, threads)(d_in, d_out, (int)n);
  kp_synchronize();
  double t2 = example_now_ms();
  launch(double_it, blocks, threads)(d_in, d_out, (int)n); /* warm: module already loaded */
  kp_synchronize();
  double t3 = example_now_ms();
  copy_to_host(output, d_out, n);
  double t4 = example_now_ms();

  long long bad = 0;
  for (long long i = 0; i < n; i++) bad += output[i] != random_array[i] * 2;
  printf("n = %lld, %lld blocks x %d threads\n", n, blocks, threads);
  printf("to_device + device_array: %9.3f ms\n", t1 - t0);
  printf("first launch:             %9.3f ms (includes loading the GPU code)\n", t2 - t1);
  printf("second launch:            %9.3f ms\n", t3 - t2);
  printf("copy_to_host:             %9.3f ms\n", t4 - t3);
  printf("output[:3] = [%g, %g, %g]\n", output[0], output[n > 1], output[n > 2 ? 2 : 0]);
  printf("double_30m: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", t4 - t0);
  kp_free(d_in);
  kp_free(d_out);
  free(random_array);
  free(output);
  if (bad) {
    fprintf(stderr, "double_30m: %lld wrong elements\n", bad);
    return 1;
  }
  return 0;
}
