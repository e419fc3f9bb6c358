/* ufunc_ranges.c — ufunc and gufunc through the CPU backend's range entries (kp_abi.h:
 * cpu_range_entry): [0, n) cut into contiguous chunks over the workers, each a vectorised
 * loop. Every result is checked against the same function called in plain C, for element
 * types of every width, each shape of call (all arrays, only the first, the general kernel's
 * broadcast mixes), operands that start at odd offsets into their arrays (unaligned for the
 * vector loop) or are device arrays, an output that is also an input, and sizes 0, 1, odd,
 * around the chunk and vector widths, below and above the size the caller runs alone, and
 * large. On a GPU the same calls run the grid-stride kernels. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernel_test.h"

__attribute__((vectorize("f32(f32, f32)", "f64(f64, f64)", "i8(i8, i8)", "u16(u16, u16)",
                         "i32(i32, i32)", "i64(i64, i64)")))
double mix(double a, double b) {
  return a * 3 - b; /* exact, and in range, in every type for the operands below */
}

/* Three inputs: the general kernel's mixes of arrays and scalars. */
__attribute__((vectorize("f32(f32, f32, f32)"))) float gaussian(float x, float mean, float sigma) {
  float z = (x - mean) / sigma;
  return expf(-0.5f * z * z) / (sigma * 2.5066283f);
}

/* A conversion on the way: i32 in, f64 out. */
__attribute__((vectorize("f64(i32)"))) double halve(int x) { return x / 2.0; }

/* gufunc: a row sum per block of m elements. */
__attribute__((guvectorize("(m)->()"))) void row_sum(const float *row, float *sum, int m) {
  float s = 0;
  for (int i = 0; i < m; i++) s += row[i];
  *sum = s;
}

/* 0, 1, odd, around vector and chunk widths, around the caller-alone size (2^14), large. */
static const long long sizes[] = {0,    1,     2,     7,     63,      64,          65,
                                  1000, 16383, 16384, 16385, 100003, (1 << 20) + 7};
enum { NSIZES = sizeof sizes / sizeof sizes[0], OFF = 3 /* odd element offset */ };

#define CHECK_TYPE(T, fmt)                                                                     \
  static void check_##T(long long n) {                                                         \
    T *a = calloc((size_t)n + OFF + 1, sizeof(T)), *b = calloc((size_t)n + OFF + 1, sizeof(T)); \
    T *out = calloc((size_t)n + OFF + 1, sizeof(T));                                           \
    KT_CHECK(a && b && out, "out of memory");                                                  \
    for (long long i = 0; i < n + OFF; i++) a[i] = (T)(4 + i % 37), b[i] = (T)(i % 13);            \
    out[OFF + n] = (T)99; /* the element after the range stays */                              \
    /* all arrays, at an odd offset (the _arrays variant) */                                   \
    ufunc(mix, n, out + OFF, a + OFF, b + OFF);                                                \
    for (long long i = 0; i < n; i++)                                                          \
      KT_CHECK(out[OFF + i] == (T)mix(a[OFF + i], b[OFF + i]), #T " arrays n=%lld i=%lld: " fmt, \
               n, i, out[OFF + i]);                                                            \
    KT_CHECK(out[OFF + n] == (T)99, #T " n=%lld: wrote past the end", n);                      \
    /* first input an array, second a scalar (the _first_array variant) */                     \
    ufunc(mix, n, out, a, (T)5);                                                               \
    for (long long i = 0; i < n; i++)                                                          \
      KT_CHECK(out[i] == (T)mix(a[i], 5), #T " first n=%lld i=%lld: " fmt, n, i, out[i]);     \
    /* first a scalar, second an array (the general kernel, stride 0 for input 0) */           \
    ufunc(mix, n, out, (T)20, b);                                                              \
    for (long long i = 0; i < n; i++)                                                          \
      KT_CHECK(out[i] == (T)mix(20, b[i]), #T " scalar-first n=%lld i=%lld: " fmt, n, i, out[i]); \
    /* the output is the first input */                                                        \
    for (long long i = 0; i < n; i++) out[i] = a[i];                                           \
    ufunc(mix, n, out, out, b);                                                                \
    for (long long i = 0; i < n; i++)                                                          \
      KT_CHECK(out[i] == (T)mix(a[i], b[i]), #T " in place n=%lld i=%lld: " fmt, n, i, out[i]); \
    free(a), free(b), free(out);                                                               \
  }
CHECK_TYPE(float, "%g")
CHECK_TYPE(double, "%g")
CHECK_TYPE(int8_t, "%d")
CHECK_TYPE(uint16_t, "%u")
CHECK_TYPE(int32_t, "%d")
CHECK_TYPE(int64_t, "%" PRId64)

/* Each of the 8 mixes of arrays and scalars over three inputs, on device arrays. */
static void check_gaussian(long long n) {
  float *x = malloc(sizeof(float) * (size_t)(n + 1)), *m = malloc(sizeof(float) * (size_t)(n + 1));
  float *s = malloc(sizeof(float) * (size_t)(n + 1)), *out = malloc(sizeof(float) * (size_t)(n + 1));
  KT_CHECK(x && m && s && out, "out of memory");
  for (long long i = 0; i < n; i++)
    x[i] = (float)(i % 101) / 25.0f - 2.0f, m[i] = (float)(i % 7) / 8.0f,
    s[i] = 0.5f + (float)(i % 5) / 4.0f;
  float *dx = to_device(x, n + 1), *dm = to_device(m, n + 1), *ds = to_device(s, n + 1);
  float *dout = device_array(float, n + 1);
  const float cm = 0.25f, cs = 1.5f;
  for (int mask = 0; mask < 8; mask++) {
    switch (mask) {
    case 0: ufunc(gaussian, n, dout, dx, dm, ds); break;
    case 1: ufunc(gaussian, n, dout, 0.5f, dm, ds); break;
    case 2: ufunc(gaussian, n, dout, dx, cm, ds); break;
    case 3: ufunc(gaussian, n, dout, 0.5f, cm, ds); break;
    case 4: ufunc(gaussian, n, dout, dx, dm, cs); break;
    case 5: ufunc(gaussian, n, dout, 0.5f, dm, cs); break;
    case 6: ufunc(gaussian, n, dout, dx, cm, cs); break;
    default: ufunc(gaussian, n, dout, 0.5f, cm, cs); break;
    }
    copy_to_host(out, dout, n);
    for (long long i = 0; i < n; i++) {
      float want = gaussian(mask & 1 ? 0.5f : x[i], mask & 2 ? cm : m[i], mask & 4 ? cs : s[i]);
      /* expf may be a vector library's (a few ulp) when the user enables one */
      KT_CHECK(fabsf(out[i] - want) <= 1e-6f + 1e-5f * fabsf(want),
               "gaussian mask %d n=%lld i=%lld: %.9g != %.9g", mask, n, i, out[i], want);
    }
  }
  kp_free(dx), kp_free(dm), kp_free(ds), kp_free(dout);
  free(x), free(m), free(s), free(out);
}

static void check_halve(long long n) {
  int32_t *a = malloc(sizeof(int32_t) * (size_t)(n + 1));
  double *out = malloc(sizeof(double) * (size_t)(n + 1));
  KT_CHECK(a && out, "out of memory");
  for (long long i = 0; i < n; i++) a[i] = (int32_t)(i * 7919 % 100003) - 50000;
  ufunc(halve, n, out, a);
  for (long long i = 0; i < n; i++)
    KT_CHECK(out[i] == halve(a[i]), "halve n=%lld i=%lld: %g", n, i, out[i]);
  free(a), free(out);
}

static void check_row_sum(long long n) {
  enum { M = 5 };
  float *rows = malloc(sizeof(float) * (size_t)(n * M + 1)), *sums = malloc(sizeof(float) * (size_t)(n + 1));
  KT_CHECK(rows && sums, "out of memory");
  for (long long i = 0; i < n * M; i++) rows[i] = (float)(i % 17);
  sums[n] = -1;
  gufunc(row_sum, n, rows, sums, M);
  for (long long k = 0; k < n; k++) {
    float want;
    row_sum(rows + k * M, &want, M);
    KT_CHECK(sums[k] == want, "row_sum n=%lld k=%lld: %g != %g", n, k, sums[k], want);
  }
  KT_CHECK(sums[n] == -1, "row_sum n=%lld: wrote past the end", n);
  free(rows), free(sums);
}

int main(void) {
  kt_start("ufunc_ranges");
  for (int s = 0; s < NSIZES; s++) {
    long long n = sizes[s];
    check_float(n), check_double(n), check_int8_t(n), check_uint16_t(n);
    check_int32_t(n), check_int64_t(n);
    check_gaussian(n);
    check_halve(n);
    check_row_sum(n);
  }
  kp_synchronize();
  printf("ufunc_ranges: finished\n");
  return 0;
}
