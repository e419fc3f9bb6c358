/* atomics_semantics.c — what each atomic stores and returns, case by case: every pair (old, v)
 * from a list of awkward values (NaN, -0.0, infinities, signed/unsigned extremes, values past
 * 32 bits) goes to its own element, one thread each, and the stored and returned values are
 * compared with a host reference of the rule:
 *   max/min on floats keep *p when either side is NaN (numba-cuda: Python's max(a, b) is a);
 *   nanmax/nanmin ignore a NaN operand and replace a NaN in *p (numpy.fmax/fmin);
 *   inc/dec wrap around `limit` as CUDA's atomicInc/atomicDec; cas compares bits;
 *   every atomic returns the old value.
 * atomics_contention.c checks the same operations under contention. */
#include <math.h>

#include "kernel_test.h"

#define KERNEL __attribute__((kernel)) void
enum { MAX_CASES = 256 };

/* One kernel per op and type: thread t applies the op to p[t] with operand v[t]. */
#define PAIR_KERNEL(name, T, op)                                                               \
  KERNEL name(T *p, const T *v, T *r, int n) {                                                 \
    int t = grid(1);                                                                           \
    if (t < n) r[t] = op(&p[t], v[t]);                                                         \
  }
/* cas: v[t] is the expected value, `desired` the replacement. */
#define CAS_KERNEL(name, T)                                                                    \
  KERNEL name(T *p, const T *v, T *r, int n, T desired) {                                      \
    int t = grid(1);                                                                           \
    if (t < n) r[t] = atomic_cas(&p[t], v[t], desired);                                        \
  }

#define COMMON_KERNELS(S, T)                                                                   \
  PAIR_KERNEL(add_##S, T, atomic_add)                                                          \
  PAIR_KERNEL(sub_##S, T, atomic_sub)                                                          \
  PAIR_KERNEL(max_##S, T, atomic_max)                                                          \
  PAIR_KERNEL(min_##S, T, atomic_min)                                                          \
  PAIR_KERNEL(nanmax_##S, T, atomic_nanmax)                                                    \
  PAIR_KERNEL(nanmin_##S, T, atomic_nanmin)                                                    \
  PAIR_KERNEL(exch_##S, T, atomic_exch)                                                        \
  CAS_KERNEL(cas_##S, T)
#define INT_KERNELS(S, T)                                                                      \
  COMMON_KERNELS(S, T)                                                                         \
  PAIR_KERNEL(and_##S, T, atomic_and)                                                          \
  PAIR_KERNEL(or_##S, T, atomic_or)                                                            \
  PAIR_KERNEL(xor_##S, T, atomic_xor)
/* inc/dec: v[t] is the limit. */
#define WRAP_KERNELS(S, T)                                                                     \
  PAIR_KERNEL(inc_##S, T, atomic_inc)                                                          \
  PAIR_KERNEL(dec_##S, T, atomic_dec)

COMMON_KERNELS(f32, float)
COMMON_KERNELS(f64, double)
INT_KERNELS(i32, int)
INT_KERNELS(u32, unsigned)
INT_KERNELS(il, long)
INT_KERNELS(ul, unsigned long)
INT_KERNELS(i64, long long)
INT_KERNELS(u64, unsigned long long)
WRAP_KERNELS(u32, unsigned)
WRAP_KERNELS(ul, unsigned long)
WRAP_KERNELS(u64, unsigned long long)

/* ---- host references ---- */

#define FLOAT_REFS(S, T)                                                                       \
  static T ref_add_##S(T o, T v) { return o + v; }                                             \
  static T ref_sub_##S(T o, T v) { return o - v; }                                             \
  static T ref_max_##S(T o, T v) { return isnan(o) || isnan(v) ? o : (o < v ? v : o); }        \
  static T ref_min_##S(T o, T v) { return isnan(o) || isnan(v) ? o : (v < o ? v : o); }        \
  static T ref_nanmax_##S(T o, T v) { return isnan(v) ? o : isnan(o) || o < v ? v : o; }       \
  static T ref_nanmin_##S(T o, T v) { return isnan(v) ? o : isnan(o) || v < o ? v : o; }       \
  static T ref_exch_##S(T o, T v) { return (void)o, v; }                                       \
  /* Stored bits equal, or both NaN where arithmetic made the NaN (its payload may vary). */   \
  static int same_##S(T a, T b, int arith) {                                                   \
    return memcmp(&a, &b, sizeof a) == 0 || (arith && isnan(a) && isnan(b));                   \
  }                                                                                            \
  static int cas_matches_##S(T o, T e) { return memcmp(&o, &e, sizeof o) == 0; }
FLOAT_REFS(f32, float)
FLOAT_REFS(f64, double)

/* Integer references compute in the unsigned type U, where overflow wraps as the atomics do. */
#define INT_REFS(S, T, U)                                                                      \
  static T ref_add_##S(T o, T v) { return (T)((U)o + (U)v); }                                  \
  static T ref_sub_##S(T o, T v) { return (T)((U)o - (U)v); }                                  \
  static T ref_max_##S(T o, T v) { return o < v ? v : o; }                                     \
  static T ref_min_##S(T o, T v) { return v < o ? v : o; }                                     \
  static T ref_nanmax_##S(T o, T v) { return ref_max_##S(o, v); }                              \
  static T ref_nanmin_##S(T o, T v) { return ref_min_##S(o, v); }                              \
  static T ref_exch_##S(T o, T v) { return (void)o, v; }                                       \
  static T ref_and_##S(T o, T v) { return o & v; }                                             \
  static T ref_or_##S(T o, T v) { return o | v; }                                              \
  static T ref_xor_##S(T o, T v) { return o ^ v; }                                             \
  static int same_##S(T a, T b, int arith) { return (void)arith, a == b; }                     \
  static int cas_matches_##S(T o, T e) { return o == e; }
INT_REFS(i32, int, unsigned)
INT_REFS(u32, unsigned, unsigned)
INT_REFS(il, long, unsigned long)
INT_REFS(ul, unsigned long, unsigned long)
INT_REFS(i64, long long, unsigned long long)
INT_REFS(u64, unsigned long long, unsigned long long)

/* CUDA's atomicInc/atomicDec, with v the limit. */
#define WRAP_REFS(S, T)                                                                        \
  static T ref_inc_##S(T o, T limit) { return o >= limit ? 0 : o + 1; }                        \
  static T ref_dec_##S(T o, T limit) { return o == 0 || o > limit ? limit : o - 1; }
WRAP_REFS(u32, unsigned)
WRAP_REFS(ul, unsigned long)
WRAP_REFS(u64, unsigned long long)

/* ---- the driver: every pair of values, one element each ---- */

static double as_double_f32(float x) { return x; }
static double as_double_f64(double x) { return x; }
#define AS_DOUBLE_INT(S, T)                                                                    \
  static double as_double_##S(T x) { return (double)x; }
AS_DOUBLE_INT(i32, int)
AS_DOUBLE_INT(u32, unsigned)
AS_DOUBLE_INT(il, long)
AS_DOUBLE_INT(ul, unsigned long)
AS_DOUBLE_INT(i64, long long)
AS_DOUBLE_INT(u64, unsigned long long)

#define DRIVER(S, T)                                                                           \
  typedef struct {                                                                             \
    int n;                                                                                     \
    T old[MAX_CASES], v[MAX_CASES];                                                            \
    T *d_p, *d_v, *d_r;                                                                        \
  } cases_##S;                                                                                 \
  /* All pairs (values[i], values[j]) as (old, v). */                                          \
  static cases_##S *make_cases_##S(const T *values, int count) {                               \
    static cases_##S c;                                                                        \
    KT_CHECK(count * count <= MAX_CASES, "too many values");                                   \
    c.n = 0;                                                                                   \
    for (int i = 0; i < count; i++)                                                            \
      for (int j = 0; j < count; j++) c.old[c.n] = values[i], c.v[c.n++] = values[j];         \
    if (!c.d_p) {                                                                              \
      c.d_p = device_array(T, MAX_CASES);                                                      \
      c.d_v = device_array(T, MAX_CASES);                                                      \
      c.d_r = device_array(T, MAX_CASES);                                                      \
    }                                                                                          \
    copy_to_device(c.d_v, c.v, c.n);                                                           \
    return &c;                                                                                 \
  }                                                                                            \
  /* Runs k over the cases and checks *p against ref(old, v) and the return against old. */   \
  static void check_##S(const char *what, const cases_##S *c, void (*k)(T *, const T *, T *, int), \
                        T (*ref)(T, T), int arith) {                                           \
    T p[MAX_CASES], r[MAX_CASES];                                                              \
    copy_to_device(c->d_p, c->old, c->n);                                                      \
    launch(k, (c->n + 63) / 64, 64)(c->d_p, c->d_v, c->d_r, c->n);                             \
    copy_to_host(p, c->d_p, c->n);                                                             \
    copy_to_host(r, c->d_r, c->n);                                                             \
    for (int t = 0; t < c->n; t++) {                                                           \
      T want = ref(c->old[t], c->v[t]);                                                        \
      KT_CHECK(same_##S(p[t], want, arith), #S " %s(old %.17g, v %.17g): stored %.17g, "       \
               "expected %.17g", what, as_double_##S(c->old[t]), as_double_##S(c->v[t]),       \
               as_double_##S(p[t]), as_double_##S(want));                                      \
      KT_CHECK(same_##S(r[t], c->old[t], 0), #S " %s(old %.17g, v %.17g): returned %.17g",     \
               what, as_double_##S(c->old[t]), as_double_##S(c->v[t]), as_double_##S(r[t]));  \
    }                                                                                          \
  }                                                                                            \
  /* cas(p, expected = v, desired): stores desired only when *p has the bits of expected. */   \
  static void check_cas_##S(const cases_##S *c, T desired) {                                   \
    T p[MAX_CASES], r[MAX_CASES];                                                              \
    copy_to_device(c->d_p, c->old, c->n);                                                      \
    launch(cas_##S, (c->n + 63) / 64, 64)(c->d_p, c->d_v, c->d_r, c->n, desired);              \
    copy_to_host(p, c->d_p, c->n);                                                             \
    copy_to_host(r, c->d_r, c->n);                                                             \
    int swaps = 0;                                                                             \
    for (int t = 0; t < c->n; t++) {                                                           \
      int match = cas_matches_##S(c->old[t], c->v[t]);                                         \
      swaps += match;                                                                          \
      KT_CHECK(same_##S(p[t], match ? desired : c->old[t], 0),                                 \
               #S " cas(old %.17g, expected %.17g): stored %.17g", as_double_##S(c->old[t]),   \
               as_double_##S(c->v[t]), as_double_##S(p[t]));                                   \
      KT_CHECK(same_##S(r[t], c->old[t], 0), #S " cas(old %.17g, expected %.17g): returned %.17g", \
               as_double_##S(c->old[t]), as_double_##S(c->v[t]), as_double_##S(r[t]));         \
    }                                                                                          \
    KT_CHECK(swaps > 0 && swaps < c->n, #S " cas: the cases must both swap and not swap");     \
  }                                                                                            \
  static void check_common_##S(const cases_##S *c, int arith_add) {                            \
    check_##S("add", c, add_##S, ref_add_##S, arith_add);                                      \
    check_##S("sub", c, sub_##S, ref_sub_##S, arith_add);                                      \
    check_##S("max", c, max_##S, ref_max_##S, 0);                                              \
    check_##S("min", c, min_##S, ref_min_##S, 0);                                              \
    check_##S("nanmax", c, nanmax_##S, ref_nanmax_##S, 0);                                     \
    check_##S("nanmin", c, nanmin_##S, ref_nanmin_##S, 0);                                     \
    check_##S("exch", c, exch_##S, ref_exch_##S, 0);                                           \
    check_cas_##S(c, (T)42);                                                                   \
  }

DRIVER(f32, float)
DRIVER(f64, double)
DRIVER(i32, int)
DRIVER(u32, unsigned)
DRIVER(il, long)
DRIVER(ul, unsigned long)
DRIVER(i64, long long)
DRIVER(u64, unsigned long long)

#define CHECK_INTS(S, T, values)                                                               \
  do {                                                                                         \
    const cases_##S *c = make_cases_##S(values, (int)(sizeof values / sizeof values[0]));      \
    check_common_##S(c, 0);                                                                    \
    check_##S("and", c, and_##S, ref_and_##S, 0);                                              \
    check_##S("or", c, or_##S, ref_or_##S, 0);                                                 \
    check_##S("xor", c, xor_##S, ref_xor_##S, 0);                                              \
  } while (0)
#define CHECK_WRAP(S, T, values)                                                               \
  do {                                                                                         \
    const cases_##S *c = make_cases_##S(values, (int)(sizeof values / sizeof values[0]));      \
    check_##S("inc", c, inc_##S, ref_inc_##S, 0);                                              \
    check_##S("dec", c, dec_##S, ref_dec_##S, 0);                                              \
  } while (0)

int main(void) {
  kt_start("atomics_semantics");

  /* No subnormals: atom.add.f32 flushes them to zero on the GPU. */
  const float f32_values[] = {NAN, -NAN, 0.0f, -0.0f, 1.0f, -1.0f, 2.5f, INFINITY, -INFINITY,
                              3.0e38f, -7.25f};
  const double f64_values[] = {NAN, -NAN, 0.0, -0.0, 1.0, -1.0, 2.5, INFINITY, -INFINITY,
                               1.0e300, 0x1.0000000000001p40};
  check_common_f32(make_cases_f32(f32_values, 11), 1);
  check_common_f64(make_cases_f64(f64_values, 11), 1);

  /* Signed/unsigned extremes and the values where signed and unsigned order differ. */
  const int i32_values[] = {0, 1, -1, 5, 42, -42, 0x7fffffff, (int)0x80000000u, 0x55aa55aa};
  const unsigned u32_values[] = {0, 1, 5, 42, 0x7fffffffu, 0x80000000u, 0xffffffffu,
                                 0xa5a5a5a5u};
  const long long i64_values[] = {0, 1, -1, 42, 1ll << 40, -(1ll << 40), 0x7fffffffffffffffll,
                                  (long long)0x8000000000000000ull, 0x0123456789abcdefll};
  const unsigned long long u64_values[] = {0, 1, 42, 0xffffffffull, 1ull << 40,
                                           0x8000000000000000ull, ~0ull, 0xfedcba9876543210ull};
  const long il_values[] = {0, 1, -1, 42, 1l << 40, -(1l << 40), (long)0x8000000000000000ul};
  const unsigned long ul_values[] = {0, 1, 42, 1ul << 40, 0x8000000000000000ul, ~0ul};
  CHECK_INTS(i32, int, i32_values);
  CHECK_INTS(u32, unsigned, u32_values);
  CHECK_INTS(i64, long long, i64_values);
  CHECK_INTS(u64, unsigned long long, u64_values);
  CHECK_INTS(il, long, il_values);
  CHECK_INTS(ul, unsigned long, ul_values);

  /* inc/dec: old and limit from the same list: at, below and above the limit, 0, the top. */
  const unsigned u32_wrap[] = {0, 1, 4, 5, 6, 1000, 0xfffffffeu, 0xffffffffu};
  const unsigned long ul_wrap[] = {0, 1, 5, 6, 1ul << 40, ~0ul};
  const unsigned long long u64_wrap[] = {0, 1, 4, 5, 6, 1ull << 40, (1ull << 40) + 1, ~0ull};
  CHECK_WRAP(u32, unsigned, u32_wrap);
  CHECK_WRAP(ul, unsigned long, ul_wrap);
  CHECK_WRAP(u64, unsigned long long, u64_wrap);

  printf("atomics_semantics: OK\n");
  return 0;
}
