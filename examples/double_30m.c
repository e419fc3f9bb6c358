/* double_30m.c — seed 001's "something a little bigger": double every element of a
 * 30-million element array of random numbers with 128 threads per block, timed the ways the
 * notebook times it.
 *
 *   random_array = np.random.random((30_000_000))
 *   output = np.zeros_like(random_array)
 *
 *   %%time                          # "only taking a few hundred milliseconds"
 *   threads = 128
 *   blocks = math.ceil(random_array.shape[0] / threads)
 *   @cuda.jit
 *   def foo(input_array, output_array):
 *       i = cuda.grid(1)
 *       output_array[i] = input_array[i] * 2
 *   foo[blocks, threads](random_array, output)
 *
 *   %%time
 *   random_array * 2                # NumPy on the CPU: faster than the kernel above
 *
 *   gpu_random_array = cuda.to_device(random_array)
 *   gpu_output = cuda.to_device(np.zeros_like(random_array))
 *   %%timeit -n 100
 *   foo[blocks, threads](gpu_random_array, gpu_output)   # now faster than NumPy
 *   gpu_output.copy_to_host()
 *
 * 1. The kernel on host arrays: the C counterpart of NumPy arrays that Numba copies implicitly
 *    is a pinned array, which launch copies to the device before the kernel and back after it
 *    (`input_array` is a pointer to const, so it only goes in). The first launch also loads
 *    the GPU code, as the notebook's first call compiled the kernel.
 * 2. `random_array * 2` is a loop on the host (NumPy's role; the seed's pure-Python loop,
 *    ~10 s, has no C counterpart).
 * 3. The kernel on device arrays, the mean of 100 launches (of 3 on the CPU backend, to keep
 *    the run short), then copy_to_host.
 * Each result is checked against random_array * 2. The kernel checks i < n: the seed's relies
 * on the last block being exactly full, which it is not in general.
 *
 * Usage: double_30m [n]   (default 30000000) */
#include <stdint.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((kernel)) void foo(const double *input_array, double *output_array, int n) {
  int i = grid(1);
  if (i < n) output_array[i] = input_array[i] * 2;
}

static long long check(const char *what, const double *in, const double *out, long long n) {
  long long bad = 0;
  for (long long i = 0; i < n; i++)
    if (out[i] != in[i] * 2 && bad++ < 3)
      fprintf(stderr, "double_30m (%s): output[%lld] = %g, want %g\n", what, i, out[i],
              in[i] * 2);
  return bad;
}

int main(int argc, char **argv) {
  const char *backend = example_start("double_30m");
  long long n = argc > 1 ? atoll(argv[1]) : 30000000LL;
  if (n < 1 || n > 2000000000LL) {
    fprintf(stderr, "double_30m: n must be between 1 and 2e9\n");
    return 2;
  }
  double *random_array = pinned_array(double, n);
  double *output = pinned_array(double, n);
  if (!random_array || !output) return 1; /* kp_* has reported why */
  uint64_t state = 0x9e3779b97f4a7c15u; /* xorshift: numpy.random.random's role */
  for (long long i = 0; i < n; i++) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    random_array[i] = (double)(state >> 11) / 9007199254740992.0;
    output[i] = 0;
  }
  int threads = 128;
  long long blocks = (n + threads - 1) / threads;
  printf("n = %lld, %lld blocks x %d threads\n", n, blocks, threads);
  long long bad = 0;

  /* 1. host (pinned) arrays, copied in and out by launch */
  double t0 = example_now_ms();
  launch(foo, blocks, threads)(random_array, output, (int)n);
  double implicit_first = example_now_ms() - t0;
  bad += check("host arrays", random_array, output, n);
  for (long long i = 0; i < n; i++) output[i] = 0;
  t0 = example_now_ms();
  launch(foo, blocks, threads)(random_array, output, (int)n);
  double implicit = example_now_ms() - t0;
  bad += check("host arrays, again", random_array, output, n);
  printf("foo[blocks, threads](random_array, output):  %9.3f ms (first call: %.3f ms)\n",
         implicit, implicit_first);

  /* 2. random_array * 2 on the host */
  double *host_output = malloc(sizeof *host_output * (size_t)n);
  if (!host_output) return 1;
  t0 = example_now_ms();
  for (long long i = 0; i < n; i++) host_output[i] = random_array[i] * 2;
  double host = example_now_ms() - t0;
  bad += check("host loop", random_array, host_output, n);
  printf("random_array * 2 (host loop):                %9.3f ms\n", host);
  free(host_output);

  /* 3. device arrays */
  t0 = example_now_ms();
  double *gpu_random_array = to_device(random_array, n);
  for (long long i = 0; i < n; i++) output[i] = 0;
  double *gpu_output = to_device(output, n);
  double to_dev = example_now_ms() - t0;
  int runs = strcmp(backend, "cpu") == 0 ? 3 : 100;
  t0 = example_now_ms();
  for (int r = 0; r < runs; r++)
    launch(foo, blocks, threads)(gpu_random_array, gpu_output, (int)n);
  kp_synchronize();
  double on_device = (example_now_ms() - t0) / runs;
  t0 = example_now_ms();
  copy_to_host(output, gpu_output, n);
  double to_host = example_now_ms() - t0;
  bad += check("device arrays", random_array, output, n);
  printf("cuda.to_device (both arrays):                %9.3f ms\n", to_dev);
  printf("foo[blocks, threads](gpu_random_array, ...): %9.3f ms per loop (mean of %d)\n",
         on_device, runs);
  printf("gpu_output.copy_to_host():                   %9.3f ms\n", to_host);
  printf("output[:3] = [%g, %g, %g]\n", output[0], output[n > 1], output[n > 2 ? 2 : 0]);

  printf("double_30m: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", on_device);
  kp_free(gpu_random_array);
  kp_free(gpu_output);
  kp_free(random_array);
  kp_free(output);
  return bad ? 1 : 0;
}
