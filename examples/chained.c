/* chained.c — the seeds' memory-management lesson (001): move the arrays to the device once,
 * run several kernels on them, and copy back once at the end.
 *
 *   data = cuda.to_device(data); output = cuda.to_device(output)
 *   foo[blocks, threads](data, output)
 *   bar[blocks, threads](data, output)
 *   baz[blocks, threads](data, output)
 *   data = data.copy_to_host(); output = output.copy_to_host()
 *
 * foo: output = data * 2; bar: output += data; baz: output = output * output, so the result
 * is (3 * data)^2. Timing compares this with copying in and out around every kernel. */
#include "example_util.h"
#include "kernplug.h"

__attribute__((kernel)) void foo(const float *data, float *output, int n) {
  int i = grid(1);
  if (i < n) output[i] = data[i] * 2;
}

__attribute__((kernel)) void bar(const float *data, float *output, int n) {
  int i = grid(1);
  if (i < n) output[i] += data[i];
}

__attribute__((kernel)) void baz(const float *data, float *output, int n) {
  (void)data;
  int i = grid(1);
  if (i < n) output[i] = output[i] * output[i];
}

enum { N = 1 << 22, THREADS = 256 };

static int check(const char *what, const float *data, const float *output) {
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = (3 * data[i]) * (3 * data[i]);
    if (output[i] != want && bad++ < 5)
      fprintf(stderr, "chained (%s): output[%d] = %g, want %g\n", what, i, output[i], want);
  }
  return bad;
}

int main(void) {
  const char *backend = example_start("chained");
  float *data = malloc(N * sizeof *data), *output = calloc(N, sizeof *output);
  if (!data || !output) return 1;
  for (int i = 0; i < N; i++) data[i] = (float)(i % 1000) * 0.25f;
  int blocks = (N + THREADS - 1) / THREADS;

  /* data kept on the device between kernels */
  double t0 = example_now_ms();
  float *d_data = to_device(data, N);
  float *d_output = to_device(output, N);
  launch(foo, blocks, THREADS)(d_data, d_output, N);
  launch(bar, blocks, THREADS)(d_data, d_output, N);
  launch(baz, blocks, THREADS)(d_data, d_output, N);
  copy_to_host(data, d_data, N);
  copy_to_host(output, d_output, N);
  double kept = example_now_ms() - t0;
  int bad = check("kept on device", data, output);

  /* the same with a round trip around every kernel, as implicit transfers would do */
  for (int i = 0; i < N; i++) output[i] = 0;
  t0 = example_now_ms();
  for (int k = 0; k < 3; k++) {
    copy_to_device(d_data, data, N);
    copy_to_device(d_output, output, N);
    if (k == 0) launch(foo, blocks, THREADS)(d_data, d_output, N);
    if (k == 1) launch(bar, blocks, THREADS)(d_data, d_output, N);
    if (k == 2) launch(baz, blocks, THREADS)(d_data, d_output, N);
    copy_to_host(data, d_data, N);
    copy_to_host(output, d_output, N);
  }
  double round_trips = example_now_ms() - t0;
  bad += check("round trips", data, output);

  printf("%d elements, 3 kernels\n", N);
  printf("data kept on the device: %9.3f ms\n", kept);
  printf("copies around each kernel: %7.3f ms\n", round_trips);
  printf("chained: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", kept);
  kp_free(d_data);
  kp_free(d_output);
  free(data);
  free(output);
  return bad ? 1 : 0;
}
