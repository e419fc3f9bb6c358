/* memory_management.c — seed 001's memory-management lesson with chained kernels, timed.
 * Three kernels run one after another on the same two arrays. With NumPy arrays Numba copies
 * both to the device and back around every kernel:
 *
 *   # move array to GPU
 *   foo[blocks, threads](data, output)
 *   # move data back to CPU
 *
 *   # move array to GPU
 *   bar[blocks, threads](data, output)
 *   # move data back to CPU
 *
 *   # move array to GPU
 *   baz[blocks, threads](data, output)
 *   # move data back to CPU
 *
 * and the seed's remedy moves the arrays once, chains the kernels on the device and copies
 * back once:
 *
 *   data = cuda.to_device(data)
 *   output = cuda.to_device(output)
 *   foo[blocks, threads](data, output)
 *   bar[blocks, threads](data, output)
 *   baz[blocks, threads](data, output)
 *   data = data.copy_to_host()
 *   output = output.copy_to_host()
 *
 * foo: output = data * 2; bar: output += data; baz: output = output * output, so the result
 * is (3 * data)^2. The C version of a NumPy array copied implicitly is a pinned host array
 * passed to the kernel: launch() copies it in before and back after (data is a pointer to
 * const, so it only goes in). A managed array is the third way: no copies are written, the
 * driver moves pages on demand. The program times the three (best of 5) and checks each
 * against (3 * data)^2 computed on the host. */
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

enum { N = 1 << 22, THREADS = 256, REPEAT = 5 };

static int check(const char *what, const float *data, const float *output) {
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = (3 * data[i]) * (3 * data[i]);
    if (output[i] != want && bad++ < 5)
      fprintf(stderr, "memory_management (%s): output[%d] = %g, want %g\n", what, i, output[i],
              want);
  }
  return bad;
}

static void three_kernels(const float *data, float *output) {
  int blocks = (N + THREADS - 1) / THREADS;
  launch(foo, blocks, THREADS)(data, output, N);
  launch(bar, blocks, THREADS)(data, output, N);
  launch(baz, blocks, THREADS)(data, output, N);
}

static void fill(float *data, float *output) {
  for (int i = 0; i < N; i++) data[i] = (float)(i % 1000) * 0.25f, output[i] = 0;
}

int main(void) {
  const char *backend = example_start("memory_management");
  float *data = pinned_array(float, N), *output = pinned_array(float, N);
  float *m_data = managed_array(float, N), *m_output = managed_array(float, N);
  float *d_data = device_array(float, N), *d_output = device_array(float, N);
  if (!data || !output || !m_data || !m_output || !d_data || !d_output) return 1;
  fill(data, output);
  three_kernels(d_data, d_output); /* loads the kernels: not part of the timings */
  kp_synchronize();

  double implicit = 1e30, explicit_ = 1e30, managed = 1e30;
  int bad = 0;
  for (int r = 0; r < REPEAT; r++) { /* best of REPEAT */
    /* implicit: every launch copies data in and output in and back */
    fill(data, output);
    double t0 = example_now_ms();
    three_kernels(data, output);
    double t = example_now_ms() - t0;
    implicit = t < implicit ? t : implicit;
    bad += check("implicit", data, output);

    /* explicit: in once, three kernels on the device, out once */
    fill(data, output);
    t0 = example_now_ms();
    copy_to_device(d_data, data, N);
    copy_to_device(d_output, output, N);
    three_kernels(d_data, d_output);
    copy_to_host(data, d_data, N);
    copy_to_host(output, d_output, N);
    t = example_now_ms() - t0;
    explicit_ = t < explicit_ ? t : explicit_;
    bad += check("explicit", data, output);

    /* managed: the same pointers on host and device */
    fill(m_data, m_output);
    t0 = example_now_ms();
    three_kernels(m_data, m_output);
    kp_synchronize(); /* before the host reads managed memory */
    t = example_now_ms() - t0;
    managed = t < managed ? t : managed;
    bad += check("managed", m_data, m_output);
  }

  printf("%d float32 elements, 3 kernels, best of %d\n", N, REPEAT);
  printf("implicit copies (pinned arrays to each kernel): %9.3f ms\n", implicit);
  printf("explicit copies (once in, once out):            %9.3f ms  (%.1fx faster)\n", explicit_,
         implicit / explicit_);
  printf("managed arrays (no copies written):             %9.3f ms\n", managed);
  printf("memory_management: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK",
         explicit_);
  kp_free(data);
  kp_free(output);
  kp_free(m_data);
  kp_free(m_output);
  kp_free(d_data);
  kp_free(d_output);
  return bad ? 1 : 0;
}
