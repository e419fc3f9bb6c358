/* ufunc_memory.c — where ufunc() reads and writes: every mix of host and device arrays for
 * the output and two inputs, outputs that alias an input (host and device), device pointers
 * into the middle of an allocation, the stream variant on the default stream, chained calls
 * that stay on the device, and 5 million elements (more than one grid of threads, so the
 * kernel's grid-stride loop takes several rounds on either backend). */
#include <stdint.h>

#include "kernel_test.h"

__attribute__((vectorize("f32(f32, f32)", "i32(i32, i32)")))
float lerp_half(float a, float b) {
  return a + (b - a) * 0.5f;
}

enum { N = 4099 };

static float g_a[N], g_b[N], g_out[N];

static void fill(void) {
  for (int i = 0; i < N; i++) g_a[i] = (float)i, g_b[i] = (float)(3 * i % 1001), g_out[i] = -1;
}

static void check_out(const float *out, const char *what) {
  for (int i = 0; i < N; i++) {
    float want = lerp_half(g_a[i], g_b[i]);
    KT_CHECK(out[i] == want, "%s i=%d: %g != %g", what, i, out[i], want);
  }
}

/* out, a, b each on the host or the device: 8 combinations. */
static void check_mixes(void) {
  fill();
  float *d_a = to_device(g_a, N), *d_b = to_device(g_b, N), *d_out = device_array(float, N);
  for (int mask = 0; mask < 8; mask++) {
    float *out = mask & 1 ? d_out : g_out;
    const float *a = mask & 2 ? d_a : g_a, *b = mask & 4 ? d_b : g_b;
    static float host[N];
    for (int i = 0; i < N; i++) g_out[i] = -1;
    copy_to_device(d_out, g_out, N);
    ufunc(lerp_half, N, out, a, b);
    if (mask & 1) {
      copy_to_host(host, d_out, N);
      out = host;
    }
    char what[32];
    snprintf(what, sizeof what, "mix %d", mask);
    check_out(out, what);
  }
  kp_free(d_a);
  kp_free(d_b);
  kp_free(d_out);
}

/* out == an input: the element is read before it is written, on host and device arrays. */
static void check_in_place(void) {
  fill();
  static float a[N];
  memcpy(a, g_a, sizeof a);
  ufunc(lerp_half, N, a, a, g_b);
  check_out(a, "in place, host");
  float *d = to_device(g_b, N);
  ufunc(lerp_half, N, d, g_a, d);
  static float host[N];
  copy_to_host(host, d, N);
  check_out(host, "in place, device");
  kp_free(d);
}

/* A pointer into a device array: d + 100 covers N elements of a larger allocation. */
static void check_interior(void) {
  fill();
  float *d = device_array(float, N + 200);
  copy_to_device(d + 100, g_a, N);
  float *d_out = device_array(float, N + 10);
  ufunc(lerp_half, N, d_out + 10, d + 100, g_b);
  static float host[N];
  copy_to_host(host, d_out + 10, N);
  check_out(host, "interior pointers");
  kp_free(d);
  kp_free(d_out);
}

/* ufunc_stream on the default stream, then chained calls with one copy back. */
static void check_stream_and_chain(void) {
  fill();
  KT_CHECK(ufunc_stream((kp_stream)0, lerp_half, N, g_out, g_a, g_b) == KP_SUCCESS, "stream");
  check_out(g_out, "ufunc_stream");
  float *d_a = to_device(g_a, N), *d_t = device_array(float, N);
  ufunc(lerp_half, N, d_t, d_a, 0.0f);  /* a / 2 */
  ufunc(lerp_half, N, d_t, d_t, d_a);   /* (a / 2 + a) / 2 = 3a / 4 */
  ufunc_stream((kp_stream)0, lerp_half, N, d_t, d_t, 0); /* 3a / 8 */
  static float host[N];
  copy_to_host(host, d_t, N);
  for (int i = 0; i < N; i++) {
    float want = lerp_half(lerp_half(lerp_half(g_a[i], 0.0f), g_a[i]), 0);
    KT_CHECK(host[i] == want, "chain i=%d: %g != %g", i, host[i], want);
  }
  kp_free(d_a);
  kp_free(d_t);
}

/* More elements than threads in the grid; the integer signature keeps the check exact. */
static void check_large(void) {
  const long long n = 5000000;
  int32_t *a = malloc(n * sizeof *a), *out = malloc(n * sizeof *out);
  KT_CHECK(a && out, "out of memory");
  for (long long i = 0; i < n; i++) a[i] = (int32_t)(i * 7 % 100003), out[i] = -1;
  int32_t *d_a = to_device(a, n), *d_out = device_array(int32_t, n);
  ufunc(lerp_half, n, d_out, d_a, 1000);
  ufunc(lerp_half, n, out, a, d_a); /* host output, host + device inputs */
  for (long long i = 0; i < n; i++) KT_CHECK(out[i] == a[i], "large host i=%lld", i);
  copy_to_host(out, d_out, n);
  for (long long i = 0; i < n; i++) {
    int32_t want = (int32_t)lerp_half((float)a[i], 1000.0f);
    KT_CHECK(out[i] == want, "large i=%lld: %d != %d", i, out[i], want);
  }
  kp_free(d_a);
  kp_free(d_out);
  free(a);
  free(out);
}

/* n == 0 touches nothing, not even a NULL output. */
static void check_empty(void) {
  float *none = NULL;
  KT_CHECK(ufunc(lerp_half, 0, none, none, 1.0f) == KP_SUCCESS, "n = 0");
}

int main(void) {
  kt_start("ufunc_memory");
  check_mixes();
  check_in_place();
  check_interior();
  check_stream_and_chain();
  check_large();
  check_empty();
  KT_CHECK(lerp_half(2.0f, 4.0f) == 3.0f, "the host function");
  printf("ufunc_memory: OK\n");
  return 0;
}
