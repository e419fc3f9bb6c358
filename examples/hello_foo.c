/* hello_foo.c — the seeds' first kernel (001: "Hello world"): each thread writes its own
 * index, foo[1, len(data)](data, output) in Numba.
 *
 *   @cuda.jit
 *   def foo(input_array, output_array):
 *       i = cuda.grid(1)
 *       output_array[i] = i
 *
 * Prints the output like the notebook does and exits non-zero if any element is wrong. */
#include <stdio.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((kernel)) void foo(const float *in, float *out) {
  (void)in;
  int i = grid(1);
  out[i] = i;
}

int main(void) {
  const char *backend = example_start("hello_foo");
  enum { N = 10 };
  float data[N], out[N];
  for (int i = 0; i < N; i++) data[i] = (float)i, out[i] = 0;

  double t0 = example_now_ms();
  float *d_in = to_device(data, N);
  float *d_out = device_array(float, N);
  launch(foo, 1, N)(d_in, d_out);
  copy_to_host(out, d_out, N);
  kp_free(d_in);
  kp_free(d_out);
  double ms = example_now_ms() - t0;

  printf("output: [");
  int bad = 0;
  for (int i = 0; i < N; i++) {
    printf("%s%g", i ? ", " : "", out[i]);
    bad += out[i] != (float)i;
  }
  printf("]\n");
  printf("hello_foo: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  if (bad) {
    fprintf(stderr, "hello_foo: %d wrong elements\n", bad);
    return 1;
  }
  return 0;
}
