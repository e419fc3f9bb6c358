// A C++ host program that launches the C kernels of cxx_kernels.c: compiled by g++, clang++
// and kpcc with -Wall -Wextra -Werror, linked by kpcc, run on the CPU backend (cxx_link.sh).
// std::vector and the exception make the object need the C++ runtime (operator new,
// __gxx_personality_v0), which kpcc must link.
#include <kernplug.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

// The documented pattern: kernels defined in C, declared in C++ as extern "C" prototypes.
extern "C" {
void cxx_axpy(float *y, const float *x, float a, int n);
void cxx_iota2d(int *out, int w, int h);
double cxx_add(double x, double y);                      // vectorize
void cxx_sum_rows(const float *row, float *out, int i); // guvectorize("(i)->()")
int cxx_max(int a, int b);                               // reduce
}

static void expect(bool ok, const char *what) {
  if (!ok)
    throw std::runtime_error(what);
}

static void run() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  float *dx = to_device(x.data(), n); // typed in C++ too
  float *dy = device_array(float, n);
  float *dy_copy = device_array_like(dy);
  copy_to_device(dy, y.data(), n);
  launch(cxx_axpy, (n + 127) / 128, 128)(dy, dx, 2.0f, n);

  kp_stream s = kp_stream_create();
  expect(s != nullptr, "kp_stream_create");
  launch(cxx_axpy, (size_t)8, 128u, 0, s)(dy, dx, 1.0f, n); // size_t and unsigned extents
  copy_to_host_async(y.data(), dy, n, s);
  kp_stream_synchronize(s);
  kp_stream_destroy(s);
  for (int i = 0; i < n; i++)
    expect(y[i] == 1.0f + 3.0f * (float)i, "axpy result");

  const int w = 37, h = 21;
  int *m = managed_array(int, w * h);
  launch(cxx_iota2d, dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16))(m, w, h);
  kp_synchronize();
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++)
      expect(m[r * w + c] == r * 1000 + c, "iota2d result");

  // A launch the runtime refuses (a host pointer) is an error the C++ caller can see.
  kp_set_error_mode(KP_ERRORS_RETURN);
  launch(cxx_axpy, 1, 32)(y.data(), dx, 1.0f, n);
  expect(kp_last_error() != KP_SUCCESS, "a host pointer must be refused");
  kp_set_error_mode(KP_ERRORS_ABORT);

  // ufunc, gufunc and kp_reduce: overloads and variadic templates in place of _Generic.
  long long a[4] = {1, 2, 3, 4}, sum[4];
  ufunc(cxx_add, 4, sum, a, 100LL); // host arrays, a broadcast scalar, the int64 signature
  for (int i = 0; i < 4; i++)
    expect(sum[i] == a[i] + 100, "ufunc int64 result");
  ufunc(cxx_add, n, dy_copy, dx, (const float *)x.data()); // device and host arrays, float32
  copy_to_host(y.data(), dy_copy, n);
  for (int i = 0; i < n; i++)
    expect(y[i] == 2.0f * (float)i, "ufunc float32 result");
  float sums[n / 2];
  gufunc(cxx_sum_rows, n / 2, x.data(), sums, 2); // n/2 rows of 2
  for (int r = 0; r < n / 2; r++)
    expect(sums[r] == (float)(4 * r + 1), "gufunc result");
  std::vector<int> v(n);
  int largest = -1;
  for (int i = 0; i < n; i++) {
    v[i] = (i * 37) % 1001 - 500;
    largest = v[i] > largest ? v[i] : largest;
  }
  expect(kp_reduce(cxx_max, v.data(), n) == largest, "kp_reduce result");
  expect(kp_reduce_init(cxx_max, v.data(), n, 5000) == 5000, "kp_reduce_init result");

  kp_free(m);
  kp_free(dy_copy);
  kp_free(dy);
  kp_free(dx);
}

int main() {
  try {
    run();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "FAIL: %s\n", e.what());
    return 1;
  }
  std::printf("ok: C++ launched the C kernels on the %s backend\n", kp_backend_name());
  return 0;
}
