/* atomics_contention.c — every atomic op on every type it accepts, under contention: about a
 * million updates from many blocks to ONE address (plus add spread over a few addresses),
 * checked against the exact value the host computes. The values returned ("each returns the
 * old value") are checked where their multiset is known whatever the order of the updates:
 * add/sub/cas tickets are a permutation, exch forms a chain, inc/dec visit a fixed cycle.
 * The NaN rules themselves are in atomics_semantics.c. */
#include <math.h>

#include "kernel_test.h"

enum { N = 1 << 20, SPREAD = 5, BLOCKS = 512, THREADS = 256 };
#define KERNEL __attribute__((kernel)) void
#define FOR_EACH_UPDATE(i, n) for (int i = grid(1); i < (n); i += gridsize(1))

/* A permutation of 0..n-1 (n a power of two, 7919 odd): the updates arrive in no order. */
static inline unsigned perm(int i, int n) { return ((unsigned)i * 7919u) & (unsigned)(n - 1); }
/* Floats: every 61st value is NaN, which max/min/nanmax/nanmin must all ignore. */
static inline int is_nan_slot(int i, int n) { return perm(i, n) % 61 == 5; }
/* A 64-bit pattern per update for xor. */
static inline unsigned long long mix(int i) {
  unsigned long long x = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 29);
}

/* max/min operands: OFFSET + perm(i), so the extremes are OFFSET and OFFSET + n - 1; the
 * 64-bit offsets put the values beyond 32 bits (all exact in double). */
#define OFFSET_i32 (-(N / 2))
#define OFFSET_u32 7u
#define OFFSET_i64 (-(1ll << 40))
#define OFFSET_u64 (1ull << 40)
#define OFFSET_f32 (-(N / 2))
#define OFFSET_f64 (-(1ll << 40))

/* nan_or: the initial value of "nanmax from NaN": NaN, or `other` for integers (never NaN). */
#define INT_VALUE(S, T)                                                                        \
  static inline T value_##S(int i, int n) { return (T)(OFFSET_##S + (T)perm(i, n)); }         \
  static inline T nan_or_##S(T other) { return other; }
#define FLOAT_VALUE(S, T)                                                                      \
  static inline T value_##S(int i, int n) {                                                    \
    return is_nan_slot(i, n) ? (T)NAN : (T)OFFSET_##S + (T)perm(i, n);                         \
  }                                                                                            \
  static inline T nan_or_##S(T other) { return (void)other, (T)NAN; }
INT_VALUE(i32, int)
INT_VALUE(u32, unsigned)
INT_VALUE(i64, long long)
INT_VALUE(u64, unsigned long long)
FLOAT_VALUE(f32, float)
FLOAT_VALUE(f64, double)

/* Kernels every type has. cas is a counter: retry with the value the failed cas returned. */
#define COMMON_KERNELS(S, T)                                                                   \
  KERNEL add_##S(T *p, T *olds, int n) { FOR_EACH_UPDATE(i, n) olds[i] = atomic_add(p, (T)1); } \
  KERNEL sub_##S(T *p, T *olds, int n) { FOR_EACH_UPDATE(i, n) olds[i] = atomic_sub(p, (T)1); } \
  KERNEL add_spread_##S(T *p, int n) {                                                         \
    FOR_EACH_UPDATE(i, n) atomic_add(&p[i % SPREAD], (T)(i % 7 + 1));                          \
  }                                                                                            \
  KERNEL max_##S(T *p, T *olds, int n) {                                                       \
    FOR_EACH_UPDATE(i, n) olds[i] = atomic_max(p, value_##S(i, n));                            \
  }                                                                                            \
  KERNEL min_##S(T *p, T *olds, int n) {                                                       \
    FOR_EACH_UPDATE(i, n) olds[i] = atomic_min(p, value_##S(i, n));                            \
  }                                                                                            \
  KERNEL nanmax_##S(T *p, T *olds, int n) {                                                    \
    FOR_EACH_UPDATE(i, n) olds[i] = atomic_nanmax(p, value_##S(i, n));                         \
  }                                                                                            \
  KERNEL nanmin_##S(T *p, T *olds, int n) {                                                    \
    FOR_EACH_UPDATE(i, n) olds[i] = atomic_nanmin(p, value_##S(i, n));                         \
  }                                                                                            \
  KERNEL exch_##S(T *p, T *olds, int n) {                                                      \
    FOR_EACH_UPDATE(i, n) olds[i] = atomic_exch(p, (T)(i + 1));                                \
  }                                                                                            \
  KERNEL cas_##S(T *p, T *olds, int n) {                                                       \
    FOR_EACH_UPDATE(i, n) {                                                                    \
      T cur = 0, seen;                                                                         \
      while ((seen = atomic_cas(p, cur, (T)(cur + 1))) != cur) cur = seen;                     \
      olds[i] = cur;                                                                           \
    }                                                                                          \
  }

/* Bit operations (integers): or sets bit perm % W, and clears it unless it is in KEEP_BITS,
 * xor folds in mix(i). */
#define KEEP_BITS 0x9249249249249249ull /* every third bit */
#define BIT_KERNELS(S, T, U)                                                                   \
  KERNEL or_##S(T *p, int n) {                                                                 \
    FOR_EACH_UPDATE(i, n) atomic_or(p, (T)((U)1 << perm(i, n) % (8 * sizeof(T))));            \
  }                                                                                            \
  KERNEL and_##S(T *p, int n) {                                                                \
    FOR_EACH_UPDATE(i, n) {                                                                    \
      U bit = (U)1 << perm(i, n) % (8 * sizeof(T));                                            \
      atomic_and(p, (T)((bit & (U)KEEP_BITS) ? ~(U)0 : ~bit));                                 \
    }                                                                                          \
  }                                                                                            \
  KERNEL xor_##S(T *p, int n) { FOR_EACH_UPDATE(i, n) atomic_xor(p, (T)(U)mix(i)); }

/* inc/dec (unsigned): the stored value runs through a fixed cycle, whatever the order. */
#define WRAP_KERNELS(S, T)                                                                     \
  KERNEL inc_##S(T *p, T *olds, int n, T limit) {                                              \
    FOR_EACH_UPDATE(i, n) olds[i] = atomic_inc(p, limit);                                      \
  }                                                                                            \
  KERNEL dec_##S(T *p, T *olds, int n, T limit) {                                              \
    FOR_EACH_UPDATE(i, n) olds[i] = atomic_dec(p, limit);                                      \
  }

COMMON_KERNELS(i32, int)
COMMON_KERNELS(u32, unsigned)
COMMON_KERNELS(i64, long long)
COMMON_KERNELS(u64, unsigned long long)
COMMON_KERNELS(f32, float)
COMMON_KERNELS(f64, double)
BIT_KERNELS(i32, int, unsigned)
BIT_KERNELS(u32, unsigned, unsigned)
BIT_KERNELS(i64, long long, unsigned long long)
BIT_KERNELS(u64, unsigned long long, unsigned long long)
WRAP_KERNELS(u32, unsigned)
WRAP_KERNELS(u64, unsigned long long)

/* ---- host checks, on the returned values converted to double (all exact here) ---- */

static double *g_olds;         /* the olds of the last kernel, as doubles */
static unsigned char *g_seen;  /* one flag per value, for the permutation checks */

/* olds (plus `extra` values) must be exactly {lo, lo+1, ..., lo+count-1}. */
static void check_permutation(const char *what, const double *extra, int n_extra, double lo,
                              int count) {
  memset(g_seen, 0, (size_t)count);
  for (int i = 0; i < N + n_extra; i++) {
    double v = i < N ? g_olds[i] : extra[i - N];
    double k = v - lo;
    KT_CHECK(k >= 0 && k < count && k == (double)(long long)k, "%s: value %.17g at %d is not in "
             "%.17g..%.17g", what, v, i, lo, lo + count - 1);
    KT_CHECK(!g_seen[(long long)k], "%s: value %.17g returned twice", what, v);
    g_seen[(long long)k] = 1;
  }
}

/* max/min: every returned value is the initial one or some operand, and some thread saw the
 * initial value. A NaN initial value counts as seen by any NaN returned. */
static void check_minmax_olds(const char *what, double init, double lo, double hi) {
  int saw_init = 0;
  for (int i = 0; i < N; i++) {
    double v = g_olds[i];
    int is_init = isnan(init) ? isnan(v) : v == init;
    saw_init |= is_init;
    KT_CHECK(is_init || (v >= lo && v <= hi), "%s: thread %d got %.17g", what, i, v);
  }
  KT_CHECK(saw_init, "%s: no thread saw the initial value %.17g", what, init);
}

/* inc/dec: the returned values, counted, equal those of n updates made one after another. */
static void check_cycle(const char *what, int is_inc, unsigned long long init,
                        unsigned long long limit, unsigned long long final) {
  enum { MAX_LIMIT = 4096 };
  static long long expected[MAX_LIMIT + 1], got[MAX_LIMIT + 1];
  KT_CHECK(limit <= MAX_LIMIT && init <= limit, "%s: bad test parameters", what);
  memset(expected, 0, sizeof expected);
  memset(got, 0, sizeof got);
  unsigned long long v = init;
  for (int i = 0; i < N; i++) {
    expected[v]++;
    v = is_inc ? (v >= limit ? 0 : v + 1) : (v == 0 || v > limit ? limit : v - 1);
  }
  KT_CHECK(final == v, "%s: final %llu, expected %llu", what, final, v);
  for (int i = 0; i < N; i++) {
    double o = g_olds[i];
    KT_CHECK(o >= 0 && o <= (double)limit, "%s: thread %d got %.17g", what, i, o);
    got[(unsigned long long)o]++;
  }
  for (unsigned long long k = 0; k <= limit; k++)
    KT_CHECK(got[k] == expected[k], "%s: %llu returned %lld times, expected %lld", what, k,
             got[k], expected[k]);
}

#define SET(d, value)                                                                          \
  do {                                                                                         \
    __typeof__(*(d)) set_v_ = (value);                                                         \
    copy_to_device((d), &set_v_, 1);                                                           \
  } while (0)

/* One type's run: d_p the contended address(es), d_olds one returned value per update. */
#define TEST_COMMON(S, T)                                                                      \
  static T read_##S(const T *d) {                                                              \
    T v;                                                                                       \
    copy_to_host(&v, d, 1);                                                                    \
    return v;                                                                                  \
  }                                                                                            \
  static void fetch_olds_##S(const T *d_olds, T *h_olds) {                                     \
    copy_to_host(h_olds, d_olds, N);                                                           \
    for (int i = 0; i < N; i++) g_olds[i] = (double)h_olds[i];                                 \
  }                                                                                            \
  static void test_common_##S(T *d_p, T *d_olds, T *h_olds) {                                  \
    const double lo = (double)(T)OFFSET_##S, hi = lo + (N - 1);                                \
    T final;                                                                                   \
    SET(d_p, (T)0);                                                                            \
    launch(add_##S, BLOCKS, THREADS)(d_p, d_olds, N);                                          \
    final = read_##S(d_p);                                                                     \
    KT_CHECK(final == (T)N, #S " add: %.17g, expected %d", (double)final, N);                  \
    fetch_olds_##S(d_olds, h_olds);                                                            \
    check_permutation(#S " add tickets", NULL, 0, 0, N);                                       \
                                                                                               \
    SET(d_p, (T)N);                                                                            \
    launch(sub_##S, BLOCKS, THREADS)(d_p, d_olds, N);                                          \
    final = read_##S(d_p);                                                                     \
    KT_CHECK(final == (T)0, #S " sub: %.17g, expected 0", (double)final);                      \
    fetch_olds_##S(d_olds, h_olds);                                                            \
    check_permutation(#S " sub tickets", NULL, 0, 1, N);                                       \
                                                                                               \
    T spread[SPREAD] = {0}, want[SPREAD] = {0};                                                \
    copy_to_device(d_p, spread, SPREAD);                                                       \
    launch(add_spread_##S, BLOCKS, THREADS)(d_p, N);                                           \
    copy_to_host(spread, d_p, SPREAD);                                                         \
    for (int i = 0; i < N; i++) want[i % SPREAD] += (T)(i % 7 + 1);                            \
    for (int k = 0; k < SPREAD; k++)                                                           \
      KT_CHECK(spread[k] == want[k], #S " add spread [%d]: %.17g, expected %.17g", k,          \
               (double)spread[k], (double)want[k]);                                            \
                                                                                               \
    /* Extremes of the non-NaN operands, as the host sees them. */                             \
    T vmax = value_##S(0, N), vmin = vmax;                                                     \
    for (int i = 0; i < N; i++) {                                                              \
      T v = value_##S(i, N);                                                                   \
      if (v == v && v > vmax) vmax = v;                                                        \
      if (v == v && v < vmin) vmin = v;                                                        \
    }                                                                                          \
    KT_CHECK((double)vmax == hi && (double)vmin == lo, #S ": bad operand range");              \
    T init_max = (T)(vmin + 1), init_min = (T)(vmax - 1); /* operands pass them both ways */   \
    struct {                                                                                   \
      const char *name;                                                                        \
      void (*k)(T *, T *, int);                                                                \
      T init, want;                                                                            \
    } minmax[] = {{#S " max", max_##S, init_max, vmax},                                        \
                  {#S " min", min_##S, init_min, vmin},                                        \
                  {#S " nanmax", nanmax_##S, init_max, vmax},                                  \
                  {#S " nanmin", nanmin_##S, init_min, vmin},                                  \
                  /* nanmax/nanmin replace a NaN (integers: the same runs again) */            \
                  {#S " nanmax from NaN", nanmax_##S, nan_or_##S(init_max), vmax},           \
                  {#S " nanmin from NaN", nanmin_##S, nan_or_##S(init_min), vmin}};          \
    for (size_t t = 0; t < sizeof minmax / sizeof minmax[0]; t++) {                            \
      SET(d_p, minmax[t].init);                                                                \
      launch(minmax[t].k, BLOCKS, THREADS)(d_p, d_olds, N);                                    \
      final = read_##S(d_p);                                                                   \
      KT_CHECK(final == minmax[t].want, "%s: %.17g, expected %.17g", minmax[t].name,           \
               (double)final, (double)minmax[t].want);                                         \
      fetch_olds_##S(d_olds, h_olds);                                                          \
      check_minmax_olds(minmax[t].name, (double)minmax[t].init, lo, hi);                       \
    }                                                                                          \
                                                                                               \
    SET(d_p, (T)0);                                                                            \
    launch(exch_##S, BLOCKS, THREADS)(d_p, d_olds, N);                                         \
    double last = (double)read_##S(d_p);                                                       \
    fetch_olds_##S(d_olds, h_olds);                                                            \
    check_permutation(#S " exch chain", &last, 1, 0, N + 1);                                   \
                                                                                               \
    SET(d_p, (T)0);                                                                            \
    launch(cas_##S, BLOCKS, THREADS)(d_p, d_olds, N);                                          \
    final = read_##S(d_p);                                                                     \
    KT_CHECK(final == (T)N, #S " cas counter: %.17g, expected %d", (double)final, N);          \
    fetch_olds_##S(d_olds, h_olds);                                                            \
    check_permutation(#S " cas tickets", NULL, 0, 0, N);                                       \
  }

#define TEST_BITS(S, T, U)                                                                     \
  static void test_bits_##S(T *d_p) {                                                          \
    const unsigned w = 8 * sizeof(T);                                                          \
    U want_and = ~(U)0, want_xor = (U)0x5a5a5a5a;                                              \
    for (int i = 0; i < N; i++) {                                                              \
      U bit = (U)1 << perm(i, N) % w;                                                          \
      want_and &= (bit & (U)KEEP_BITS) ? ~(U)0 : ~bit;                                         \
      want_xor ^= (U)mix(i);                                                                   \
    }                                                                                          \
    SET(d_p, (T)0);                                                                            \
    launch(or_##S, BLOCKS, THREADS)(d_p, N);                                                   \
    KT_CHECK((U)read_##S(d_p) == ~(U)0, #S " or: %#llx", (unsigned long long)read_##S(d_p));   \
    SET(d_p, (T)~(U)0);                                                                        \
    launch(and_##S, BLOCKS, THREADS)(d_p, N);                                                  \
    KT_CHECK((U)read_##S(d_p) == want_and, #S " and: %#llx, expected %#llx",                   \
             (unsigned long long)read_##S(d_p), (unsigned long long)want_and);                 \
    SET(d_p, (T)(U)0x5a5a5a5a);                                                                \
    launch(xor_##S, BLOCKS, THREADS)(d_p, N);                                                  \
    KT_CHECK((U)read_##S(d_p) == want_xor, #S " xor: %#llx, expected %#llx",                   \
             (unsigned long long)read_##S(d_p), (unsigned long long)want_xor);                 \
  }

#define TEST_WRAP(S, T)                                                                        \
  static void test_wrap_##S(T *d_p, T *d_olds, T *h_olds) {                                   \
    /* 1000 values do not divide N: the final value is not the initial one. */                 \
    SET(d_p, (T)0);                                                                            \
    launch(inc_##S, BLOCKS, THREADS)(d_p, d_olds, N, (T)999);                                  \
    fetch_olds_##S(d_olds, h_olds);                                                            \
    check_cycle(#S " inc", 1, 0, 999, (unsigned long long)read_##S(d_p));                      \
    SET(d_p, (T)5);                                                                            \
    launch(dec_##S, BLOCKS, THREADS)(d_p, d_olds, N, (T)776);                                  \
    fetch_olds_##S(d_olds, h_olds);                                                            \
    check_cycle(#S " dec", 0, 5, 776, (unsigned long long)read_##S(d_p));                      \
  }

TEST_COMMON(i32, int)
TEST_COMMON(u32, unsigned)
TEST_COMMON(i64, long long)
TEST_COMMON(u64, unsigned long long)
TEST_COMMON(f32, float)
TEST_COMMON(f64, double)
TEST_BITS(i32, int, unsigned)
TEST_BITS(u32, unsigned, unsigned)
TEST_BITS(i64, long long, unsigned long long)
TEST_BITS(u64, unsigned long long, unsigned long long)
TEST_WRAP(u32, unsigned)
TEST_WRAP(u64, unsigned long long)

int main(void) {
  kt_start("atomics_contention");
  g_olds = malloc(N * sizeof *g_olds);
  g_seen = malloc(N + 1);
  unsigned long long *h_olds = malloc(N * sizeof *h_olds);
  unsigned long long *d_p = device_array(unsigned long long, SPREAD);
  unsigned long long *d_olds = device_array(unsigned long long, N);
  KT_CHECK(g_olds && g_seen && h_olds, "out of memory");

  test_common_i32((int *)d_p, (int *)d_olds, (int *)h_olds);
  test_common_u32((unsigned *)d_p, (unsigned *)d_olds, (unsigned *)h_olds);
  test_common_i64((long long *)d_p, (long long *)d_olds, (long long *)h_olds);
  test_common_u64(d_p, d_olds, h_olds);
  test_common_f32((float *)d_p, (float *)d_olds, (float *)h_olds);
  test_common_f64((double *)d_p, (double *)d_olds, (double *)h_olds);
  test_bits_i32((int *)d_p);
  test_bits_u32((unsigned *)d_p);
  test_bits_i64((long long *)d_p);
  test_bits_u64(d_p);
  test_wrap_u32((unsigned *)d_p, (unsigned *)d_olds, (unsigned *)h_olds);
  test_wrap_u64(d_p, d_olds, h_olds);

  kp_free(d_p);
  kp_free(d_olds);
  free(h_olds);
  free(g_seen);
  free(g_olds);
  printf("atomics_contention: OK (%d updates per op and type)\n", N);
  return 0;
}
