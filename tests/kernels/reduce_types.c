/* reduce_types.c — kp_reduce over every arithmetic element type: a sum (wrapping for the
 * narrow types) and a max per type, on sizes 0, 1, odd ones, partial tiles and more than one
 * grid's worth, from host arrays, device arrays and unaligned pointers into both, with and
 * without an initial value. Every result is compared with the same function folded on the
 * host. Float data are small integers, so that sums are exact in any grouping.
 *   reduce_types [small]   small: sizes up to 300001 (for the reduce-fibers build) */
#include "kernel_test.h"

/* T sum_<s>(T, T) and T max_<s>(T, T) for one element type. */
#define KT_REDUCE_FUNCTIONS(sfx, T)                                                            \
  __attribute__((reduce)) T sum_##sfx(T a, T b) { return (T)(a + b); }                        \
  __attribute__((reduce)) T max_##sfx(T a, T b) { return a > b ? a : b; }

typedef signed char schar;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef long long llong;
typedef unsigned long long ullong;
KT_REDUCE_FUNCTIONS(bool, _Bool)
KT_REDUCE_FUNCTIONS(char, char)
KT_REDUCE_FUNCTIONS(schar, schar)
KT_REDUCE_FUNCTIONS(uchar, uchar)
KT_REDUCE_FUNCTIONS(short, short)
KT_REDUCE_FUNCTIONS(ushort, ushort)
KT_REDUCE_FUNCTIONS(int, int)
KT_REDUCE_FUNCTIONS(uint, unsigned)
KT_REDUCE_FUNCTIONS(long, long)
KT_REDUCE_FUNCTIONS(ulong, ulong)
KT_REDUCE_FUNCTIONS(llong, llong)
KT_REDUCE_FUNCTIONS(ullong, ullong)
KT_REDUCE_FUNCTIONS(float, float)
KT_REDUCE_FUNCTIONS(double, double)

static long long g_sizes[] = {0, 1, 2, 7, 31, 33, 255, 257, 1001, 4099, 65537, 300001, 9000001};
static int g_num_sizes = sizeof g_sizes / sizeof g_sizes[0];

static unsigned long long g_seed;
static unsigned next_random(void) {
  g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(g_seed >> 33);
}

/* Values in [-8, 8] for signed types (sums of int stay far from overflow, float sums exact),
 * 31 random bits for unsigned ones (their sums wrap, as the narrow signed ones do on
 * conversion), 0 or 1 for _Bool (the only type where (T)2 == 1). */
#define KT_CHECK_TYPE(sfx, T, is_signed)                                                       \
  static void check_##sfx(long long n) {                                                       \
    T *h = malloc((size_t)(n + 1) * sizeof(T));                                                \
    KT_CHECK(h, "out of memory");                                                              \
    for (long long i = 0; i <= n; i++)                                                         \
      h[i] = (is_signed)      ? (T)((int)(next_random() % 17) - 8)                             \
             : (T)2 == (T)1 ? (T)(next_random() & 1)                                           \
                            : (T)next_random();                                                \
    T *d = n ? to_device(h, n + 1) : NULL;                                                     \
    T (*fns[2])(T, T) = {sum_##sfx, max_##sfx};                                                \
    const char *names[2] = {"sum_" #sfx, "max_" #sfx};                                         \
    for (int f = 0; f < 2; f++) {                                                              \
      /* from element 0 and from element 1 (unaligned for the device code) */                 \
      for (int off = 0; off < 2 && off <= n; off++) {                                          \
        long long m = n - off;                                                                 \
        T want = 0;                                                                            \
        for (long long i = 0; i < m; i++) want = i ? fns[f](want, h[off + i]) : h[off];        \
        T got = f ? kp_reduce(max_##sfx, h + off, m) : kp_reduce(sum_##sfx, h + off, m);      \
        KT_CHECK(got == want, "%s, host array, n = %lld from %d: got %.17g, want %.17g",       \
                 names[f], m, off, (double)got, (double)want);                                 \
        if (d) {                                                                               \
          got = f ? kp_reduce(max_##sfx, d + off, m) : kp_reduce(sum_##sfx, d + off, m);      \
          KT_CHECK(got == want, "%s, device array, n = %lld from %d: got %.17g, want %.17g",   \
                   names[f], m, off, (double)got, (double)want);                               \
        }                                                                                      \
        T init = (T)(is_signed ? 3 : 250);                                                     \
        T want_init = m ? fns[f](init, want) : init;                                           \
        got = f ? kp_reduce_init(max_##sfx, h + off, m, init)                                  \
                : kp_reduce_init(sum_##sfx, h + off, m, init);                                 \
        KT_CHECK(got == want_init, "%s with init, n = %lld: got %.17g, want %.17g", names[f], \
                 m, (double)got, (double)want_init);                                           \
      }                                                                                        \
    }                                                                                          \
    if (d) kp_free(d);                                                                         \
    free(h);                                                                                   \
  }

KT_CHECK_TYPE(bool, _Bool, 0)
KT_CHECK_TYPE(char, char, 1)
KT_CHECK_TYPE(schar, schar, 1)
KT_CHECK_TYPE(uchar, uchar, 0)
KT_CHECK_TYPE(short, short, 1)
KT_CHECK_TYPE(ushort, ushort, 0)
KT_CHECK_TYPE(int, int, 1)
KT_CHECK_TYPE(uint, unsigned, 0)
KT_CHECK_TYPE(long, long, 1)
KT_CHECK_TYPE(ulong, ulong, 0)
KT_CHECK_TYPE(llong, llong, 1)
KT_CHECK_TYPE(ullong, ullong, 0)
KT_CHECK_TYPE(float, float, 1)
KT_CHECK_TYPE(double, double, 1)

int main(int argc, char **argv) {
  kt_start("reduce_types");
  long long limit = argc > 1 && strcmp(argv[1], "small") == 0 ? 300001 : 1LL << 40;
  for (int s = 0; s < g_num_sizes && g_sizes[s] <= limit; s++) {
    long long n = g_sizes[s];
    g_seed = (unsigned long long)n;
    check_bool(n), check_char(n), check_schar(n), check_uchar(n), check_short(n);
    check_ushort(n), check_int(n), check_uint(n), check_long(n), check_ulong(n);
    check_llong(n), check_ullong(n), check_float(n), check_double(n);
  }
  /* kp_reduce without init returns 0 for an empty array, like Numba's default init=0. */
  float none[1] = {42};
  KT_CHECK(kp_reduce(sum_float, none, 0) == 0, "empty sum is not 0");
  printf("reduce_types: finished\n");
  return 0;
}
