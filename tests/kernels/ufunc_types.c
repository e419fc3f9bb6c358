/* ufunc_types.c — ufunc() over every element type, at sizes 0, 1, odd and larger than one
 * grid, against the same arithmetic on the host.
 *
 * One C function per type family serves all its widths: the generated kernel converts each
 * element to the C parameter type and the result back to the signature's type exactly as C
 * assignment does, so the host reference is the C function itself called on the elements,
 * converted the same way. Also: signatures whose element types differ from the C types
 * (i16/u16 into int/float), _Bool, plain char and long arrays (which are i8/i64 by their C
 * ABI), and the scalar function still callable on the host. */
#include <math.h>
#include <stdint.h>

#include "kernel_test.h"

__attribute__((vectorize("i8(i8, i8)", "i16(i16, i16)", "i32(i32, i32)", "i64(i64, i64)")))
long long iwrap(long long a, long long b) {
  /* Unsigned arithmetic: wraps without overflow, and again when the result is converted
   * back to the narrow types. */
  return (long long)((unsigned long long)a * 3u - (unsigned long long)b);
}

__attribute__((vectorize("u8(u8, u8)", "u16(u16, u16)", "u32(u32, u32)", "u64(u64, u64)")))
unsigned long long uwrap(unsigned long long a, unsigned long long b) {
  return a * 7 + (b >> 1);
}

__attribute__((vectorize("f32(f32, f32)", "f64(f64, f64)")))
double fmix(double a, double b) {
  /* * 0.5 is exact, so a GPU that fuses it into an fma rounds the same as the host. */
  return sqrt(fabs(a)) * 0.5 - b / 3.0;
}

/* Element types unlike the C types: a narrow integer into float math and back. */
__attribute__((vectorize("i16(i16, u16)", "f64(u8, i64)")))
float mixed(float a, int b) {
  return a * 0.25f + (float)b;
}

enum { SIZES = 5 };
static const long long g_sizes[SIZES] = {0, 1, 1001, 65537, 2000003};

/* Deterministic inputs that reach negative values, the type's extremes and wrap-around. */
static unsigned long long pattern(long long i, int salt) {
  unsigned long long x = (unsigned long long)i * 0x9E3779B97F4A7C15ull + (unsigned)salt;
  return x ^ (x >> 29);
}

#define CHECK_INT_FAMILY(T, fn, R)                                                             \
  do {                                                                                         \
    for (int s = 0; s < SIZES; s++) {                                                          \
      long long n = g_sizes[s];                                                                \
      T *a = malloc(((size_t)n + 1) * sizeof *a), *b = malloc(((size_t)n + 1) * sizeof *b);     \
      T *out = malloc(((size_t)n + 1) * sizeof *out);                                          \
      for (long long i = 0; i < n; i++)                                                        \
        a[i] = (T)pattern(i, 1), b[i] = (T)pattern(i, 2), out[i] = (T)99;                      \
      out[n] = (T)42; /* past the end: must stay */                                            \
      KT_CHECK(ufunc(fn, n, out, a, b) == KP_SUCCESS, "%s", #T);                               \
      for (long long i = 0; i < n; i++) {                                                      \
        T want = (T)fn((R)a[i], (R)b[i]);                                                      \
        KT_CHECK(out[i] == want, "%s n=%lld i=%lld: %lld != %lld", #T, n, i,                  \
                 (long long)out[i], (long long)want);                                          \
      }                                                                                        \
      KT_CHECK(out[n] == (T)42, "%s n=%lld: wrote past the end", #T, n);                      \
      free(a), free(b), free(out);                                                             \
    }                                                                                          \
  } while (0)

#define CHECK_FLOAT_FAMILY(T)                                                                  \
  do {                                                                                         \
    for (int s = 0; s < SIZES; s++) {                                                          \
      long long n = g_sizes[s];                                                                \
      T *a = malloc(((size_t)n + 1) * sizeof *a), *b = malloc(((size_t)n + 1) * sizeof *b);     \
      T *out = malloc(((size_t)n + 1) * sizeof *out);                                          \
      for (long long i = 0; i < n; i++)                                                        \
        a[i] = (T)((double)(long long)pattern(i, 3) / 1e15),                                   \
        b[i] = (T)((double)(int)pattern(i, 4) / 1e6);                                          \
      out[n] = (T)42;                                                                          \
      KT_CHECK(ufunc(fmix, n, out, a, b) == KP_SUCCESS, "%s", #T);                             \
      for (long long i = 0; i < n; i++) {                                                      \
        T want = (T)fmix(a[i], b[i]);                                                          \
        KT_CHECK(out[i] == want, "%s n=%lld i=%lld: %.17g != %.17g", #T, n, i,                \
                 (double)out[i], (double)want);                                                \
      }                                                                                        \
      KT_CHECK(out[n] == (T)42, "%s n=%lld: wrote past the end", #T, n);                      \
      free(a), free(b), free(out);                                                             \
    }                                                                                          \
  } while (0)

static void check_mixed(void) {
  enum { n = 3001 };
  static int16_t a16[n], o16[n];
  static uint16_t b16[n];
  static uint8_t a8[n];
  static int64_t b64[n];
  static double o64[n];
  for (int i = 0; i < n; i++) {
    a16[i] = (int16_t)pattern(i, 5), b16[i] = (uint16_t)(pattern(i, 6) % 1000);
    a8[i] = (uint8_t)pattern(i, 7), b64[i] = (int64_t)(pattern(i, 8) % 100000) - 50000;
  }
  ufunc(mixed, n, o16, a16, b16);
  ufunc(mixed, n, o64, a8, b64);
  for (int i = 0; i < n; i++) {
    int16_t w16 = (int16_t)mixed((float)a16[i], (int)b16[i]);
    double w64 = (double)mixed((float)a8[i], (int)b64[i]);
    KT_CHECK(o16[i] == w16, "mixed i16 i=%d: %d != %d", i, o16[i], w16);
    KT_CHECK(o64[i] == w64, "mixed f64 i=%d: %g != %g", i, o64[i], w64);
  }
}

/* C types whose element type comes from the ABI: _Bool (u8), char (i8 here), long (i64). */
static void check_c_types(void) {
  enum { n = 257 };
  static _Bool flags[n];
  static unsigned char bytes[n];
  static char chars[n], cout[n];
  static long longs[n], lout[n];
  for (int i = 0; i < n; i++) {
    flags[i] = i % 3 == 0, bytes[i] = (unsigned char)i;
    chars[i] = (char)(i - 128), longs[i] = (long)pattern(i, 9);
  }
  ufunc(uwrap, n, bytes, flags, flags); /* u8(u8, u8): in place over bytes */
  ufunc(iwrap, n, cout, chars, chars);
  ufunc(iwrap, n, lout, longs, 5);
  for (int i = 0; i < n; i++) {
    KT_CHECK(bytes[i] == (unsigned char)uwrap(flags[i], flags[i]), "_Bool i=%d", i);
    KT_CHECK(cout[i] == (char)iwrap(chars[i], chars[i]), "char i=%d", i);
    KT_CHECK(lout[i] == (long)iwrap(longs[i], 5), "long i=%d", i);
  }
}

int main(void) {
  kt_start("ufunc_types");
  CHECK_INT_FAMILY(int8_t, iwrap, long long);
  CHECK_INT_FAMILY(int16_t, iwrap, long long);
  CHECK_INT_FAMILY(int32_t, iwrap, long long);
  CHECK_INT_FAMILY(int64_t, iwrap, long long);
  CHECK_INT_FAMILY(uint8_t, uwrap, unsigned long long);
  CHECK_INT_FAMILY(uint16_t, uwrap, unsigned long long);
  CHECK_INT_FAMILY(uint32_t, uwrap, unsigned long long);
  CHECK_INT_FAMILY(uint64_t, uwrap, unsigned long long);
  CHECK_FLOAT_FAMILY(float);
  CHECK_FLOAT_FAMILY(double);
  check_mixed();
  check_c_types();
  /* The scalar functions are still ordinary host functions. */
  KT_CHECK(iwrap(5, 1) == 14 && uwrap(1, 4) == 9 && fmix(4.0, 3.0) == 0.0, "host calls");
  printf("ufunc_types: OK\n");
  return 0;
}
