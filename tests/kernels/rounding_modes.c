/* rounding_modes.c — kernplug/rounding.h in kernels: __fadd_rd … __fma_rz, __frcp_*,
 * __fsqrt_*, the float and double conversions with a rounding mode, the saturating
 * conversions to integers, and the bit reinterpretations. The host's references do not use
 * the host's rounding modes (which libkernplug_rt's CPU versions do): a directed result is
 * the round-to-nearest result moved one ulp when the exact error, found with error-free
 * transformations (TwoSum, fma), points the other way; integer conversions are checked by
 * integer comparisons. The PTX assembles (compile.ptx.rounding_modes). */
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "kernel_test.h"

enum { N = 2048, MODES = 4, F_OPS = 6, D_OPS = 6 };
enum { RD, RN, RU, RZ };
static const char *const mode_names[MODES] = {"rd", "rn", "ru", "rz"};

typedef struct results {
  float f[MODES][F_OPS];  /* add, sub, mul, div, rcp, sqrt */
  double d[MODES][D_OPS]; /* the same in double */
  float fmaf_[MODES];
  double fma_[MODES];
  float d2f[MODES], i2f[MODES], u2f[MODES], ll2f[MODES], ull2f[MODES];
  double ll2d[MODES], ull2d[MODES];
  long long f2i[MODES], f2u[MODES], f2ll[MODES], d2i[MODES], d2u[MODES], d2ll[MODES];
  unsigned long long f2ull[MODES], d2ull[MODES];
  long long bits[6];
} results;

#define MODE_OPS(m, M)                                                                            \
  r->f[M][0] = __fadd_##m(a, b), r->f[M][1] = __fsub_##m(a, b), r->f[M][2] = __fmul_##m(a, b),  \
  r->f[M][3] = __fdiv_##m(a, b), r->f[M][4] = __frcp_##m(a), r->f[M][5] = __fsqrt_##m(fabsf(a)), \
  r->d[M][0] = __dadd_##m(x, y), r->d[M][1] = __dsub_##m(x, y), r->d[M][2] = __dmul_##m(x, y),  \
  r->d[M][3] = __ddiv_##m(x, y), r->d[M][4] = __drcp_##m(x), r->d[M][5] = __dsqrt_##m(fabs(x)), \
  r->fmaf_[M] = __fmaf_##m(a, b, c), r->fma_[M] = __fma_##m(x, y, z),                          \
  r->d2f[M] = __double2float_##m(x * 1e-3), r->i2f[M] = __int2float_##m(i),                    \
  r->u2f[M] = __uint2float_##m((unsigned)i), r->ll2f[M] = __ll2float_##m(l),                   \
  r->ull2f[M] = __ull2float_##m((unsigned long long)l), r->ll2d[M] = __ll2double_##m(l),       \
  r->ull2d[M] = __ull2double_##m((unsigned long long)l), r->f2i[M] = __float2int_##m(big),     \
  r->f2u[M] = __float2uint_##m(big), r->f2ll[M] = __float2ll_##m(big),                         \
  r->f2ull[M] = __float2ull_##m(big), r->d2i[M] = __double2int_##m(dbig),                      \
  r->d2u[M] = __double2uint_##m(dbig), r->d2ll[M] = __double2ll_##m(dbig),                     \
  r->d2ull[M] = __double2ull_##m(dbig)

__attribute__((kernel)) void rounded(const float *fa, const double *da, const long long *la,
                                     results *out) {
  int k = grid(1);
  if (k >= N) return;
  results *r = &out[k];
  float a = fa[3 * k], b = fa[3 * k + 1], c = fa[3 * k + 2], big = c * c * c * 1e3f;
  double x = da[3 * k], y = da[3 * k + 1], z = da[3 * k + 2], dbig = x * y * 1e7;
  long long l = la[k];
  int i = (int)l;
  MODE_OPS(rd, RD);
  MODE_OPS(rn, RN);
  MODE_OPS(ru, RU);
  MODE_OPS(rz, RZ);
  r->bits[0] = __float_as_int(a), r->bits[1] = (long long)__float_as_uint(b);
  r->bits[2] = __double_as_longlong(x), r->bits[3] = __double2hiint(x);
  r->bits[4] = __double2loint(x);
  r->bits[5] = __double_as_longlong(__hiloint2double(__double2hiint(y), __double2loint(y))) ==
               __double_as_longlong(y);
}

/* ---- references -------------------------------------------------------------------------- */

/* The round-to-nearest result rn moved to the mode's neighbour: err is the sign of
 * exact - rn (0: exact). */
static double directed_d(double rn, int err, int mode) {
  if (err == 0 || mode == RN) return rn;
  int toward_up = mode == RU || (mode == RZ && rn < 0);
  if (err > 0 && toward_up) return nextafter(rn, INFINITY);
  if (err < 0 && !toward_up) return nextafter(rn, -INFINITY);
  if (mode == RZ && err < 0 && rn > 0) return nextafter(rn, 0);
  if (mode == RZ && err > 0 && rn < 0) return nextafter(rn, 0);
  return rn;
}
static float directed_f(float rn, int err, int mode) {
  if (err == 0 || mode == RN) return rn;
  if (mode == RU) return err > 0 ? nextafterf(rn, INFINITY) : rn;
  if (mode == RD) return err < 0 ? nextafterf(rn, -INFINITY) : rn;
  /* RZ: toward zero, so only an error pointing at zero moves it. */
  return (rn > 0 && err < 0) || (rn < 0 && err > 0) ? nextafterf(rn, 0) : rn;
}
static int sign_of(double e) { return (e > 0) - (e < 0); }

/* Error-free transformations: exact - rn for each operation (no overflow or underflow with
 * the inputs used). */
#define EFT(T, FMA, op, a, b, rn)                                                              \
  (op == 0   ? sign_of((double)two_sum_err_##T(a, b, rn))                                      \
   : op == 1 ? sign_of((double)two_sum_err_##T(a, -(b), rn))                                   \
   : op == 2 ? sign_of((double)FMA(a, b, -(rn)))                                               \
   : op == 3 ? sign_of((double)FMA(-(rn), b, a)) * sign_of((double)(b))                        \
   : op == 4 ? sign_of((double)FMA(-(rn), a, (T)1)) * sign_of((double)(a))                     \
             : sign_of((double)FMA(-(rn), rn, fabs(a))))
static float two_sum_err_float(float a, float b, float s) {
  float bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
static double two_sum_err_double(double a, double b, double s) {
  double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
static float rn_f(int op, float a, float b) {
  return op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : op == 3 ? a / b : op == 4 ? 1 / a : sqrtf(fabsf(a));
}
static double rn_d(int op, double a, double b) {
  return op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : op == 3 ? a / b : op == 4 ? 1 / a : sqrt(fabs(a));
}

/* Float to integer: truncate, then step by the fraction's sign, then saturate. */
static long long ref_to_int(double v, int mode, long long lo, long long hi) {
  if (v != v) return 0;
  if (v <= (double)lo) return lo;
  if (v >= (double)hi) return hi;
  long long t = (long long)v; /* toward zero */
  double frac = v - (double)t;
  if (mode == RD && frac < 0) t--;
  if (mode == RU && frac > 0) t++;
  if (mode == RN && (fabs(frac) > 0.5 || (fabs(frac) == 0.5 && (t & 1)))) t += frac > 0 ? 1 : -1;
  return t < lo ? lo : t > hi ? hi : t;
}
static unsigned long long ref_to_ull(double v, int mode) {
  if (v != v || v <= 0) return v != v ? 0 : (unsigned long long)ref_to_int(v, mode, 0, 1);
  if (v >= 18446744073709551616.0) return ULLONG_MAX;
  if (v < 9223372036854775808.0) return (unsigned long long)ref_to_int(v, mode, 0, LLONG_MAX);
  return (unsigned long long)v; /* >= 2^63: an integer already */
}
/* Integer to floating point: the nearest value, moved by comparing exactly in __int128. */
#define REF_INT_TO(Tf, name, dir)                                                              \
  static Tf name(__int128 v, Tf rn, int mode) {                                                \
    __int128 back = (__int128)rn;                                                              \
    return dir(rn, (v > back) - (v < back), mode);                                             \
  }
REF_INT_TO(float, int_to_f, directed_f)
REF_INT_TO(double, int_to_d, directed_d)

static uint64_t st = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) {
  st ^= st << 13, st ^= st >> 7, st ^= st << 17;
  return st;
}
static double moderate(void) { /* |v| in [2^-20, 2^20], random sign and bits */
  double m = 1 + (double)(rnd() >> 11) * 0x1p-53;
  return ldexp(rnd() & 1 ? -m : m, (int)(rnd() % 41) - 20);
}

static int bad;
#define EXPECT(cond, ...)                                                                      \
  do {                                                                                         \
    if (!(cond) && bad++ < 12) fprintf(stderr, __VA_ARGS__), fputc('\n', stderr);              \
  } while (0)

int main(void) {
  kt_start("rounding_modes");
  float *fa = managed_array(float, 3 * N);
  double *da = managed_array(double, 3 * N);
  long long *la = managed_array(long long, N);
  results *out = managed_array(results, N);
  for (int k = 0; k < 3 * N; k++) fa[k] = (float)moderate(), da[k] = moderate();
  for (int k = 0; k < N; k++) {
    /* fma inputs: a, b in [1, 2), c up to 2^8, so the long double sum is exact */
    fa[3 * k] = 1 + (float)(rnd() >> 41) * 0x1p-23f, fa[3 * k + 1] = 1 + (float)(rnd() >> 41) * 0x1p-23f;
    fa[3 * k + 2] = fmodf(fa[3 * k + 2], 256.0f); /* c^3 * 1e3 passes INT_MAX and UINT_MAX */
    la[k] = (long long)(rnd() >> (rnd() % 64)) * (rnd() & 1 ? -1 : 1);
  }
  launch(rounded, N / 128, 128)(fa, da, la, out);
  kp_synchronize();
  for (int k = 0; k < N; k++) {
    const results *r = &out[k];
    float a = fa[3 * k], b = fa[3 * k + 1], c = fa[3 * k + 2], big = c * c * c * 1e3f;
    double x = da[3 * k], y = da[3 * k + 1], z = da[3 * k + 2], dbig = x * y * 1e7;
    long long l = la[k];
    int i = (int)l;
    for (int m = 0; m < MODES; m++) {
      for (int op = 0; op < F_OPS; op++) {
        float rn = rn_f(op, a, b);
        float want = directed_f(rn, EFT(float, fmaf, op, a, b, rn), m);
        if (op <= 1 && rn == 0 && m == RD) want = -0.0f; /* IEEE: x - x is -0 rounding down */
        EXPECT(memcmp(&r->f[m][op], &want, 4) == 0, "float op %d _%s (%a, %a): %a, want %a",
               op, mode_names[m], a, b, r->f[m][op], want);
        double rnd_ = rn_d(op, x, y);
        double wantd = directed_d(rnd_, EFT(double, fma, op, x, y, rnd_), m);
        if (op <= 1 && rnd_ == 0 && m == RD) wantd = -0.0;
        EXPECT(memcmp(&r->d[m][op], &wantd, 8) == 0, "double op %d _%s (%a, %a): %a, want %a",
               op, mode_names[m], x, y, r->d[m][op], wantd);
      }
      long double exact = (long double)a * b + c;
      float fr = (float)exact;
      EXPECT(r->fmaf_[m] == directed_f(fr, sign_of((double)(exact - fr)), m),
             "fmaf _%s(%a, %a, %a): %a", mode_names[m], a, b, c, r->fmaf_[m]);
      double fn = fma(x, y, z);
      EXPECT(m == RN ? r->fma_[m] == fn : fabs(r->fma_[m] - fn) <= fabs(nextafter(fn, INFINITY) - fn),
             "fma _%s(%a, %a, %a): %a, nearest %a", mode_names[m], x, y, z, r->fma_[m], fn);
      double dd = x * 1e-3;
      float df = (float)dd;
      EXPECT(r->d2f[m] == directed_f(df, sign_of(dd - (double)df), m), "double2float _%s(%a): %a",
             mode_names[m], dd, r->d2f[m]);
      EXPECT(r->i2f[m] == int_to_f(i, (float)i, m), "int2float _%s(%d): %a", mode_names[m], i, r->i2f[m]);
      EXPECT(r->u2f[m] == int_to_f((unsigned)i, (float)(unsigned)i, m), "uint2float _%s", mode_names[m]);
      EXPECT(r->ll2f[m] == int_to_f(l, (float)l, m), "ll2float _%s(%lld): %a", mode_names[m], l, r->ll2f[m]);
      EXPECT(r->ull2f[m] == int_to_f((unsigned long long)l, (float)(unsigned long long)l, m),
             "ull2float _%s(%llu): %a", mode_names[m], (unsigned long long)l, r->ull2f[m]);
      EXPECT(r->ll2d[m] == int_to_d(l, (double)l, m), "ll2double _%s(%lld): %a", mode_names[m], l, r->ll2d[m]);
      EXPECT(r->ull2d[m] == int_to_d((unsigned long long)l, (double)(unsigned long long)l, m),
             "ull2double _%s", mode_names[m]);
      EXPECT(r->f2i[m] == ref_to_int(big, m, INT_MIN, INT_MAX), "float2int _%s(%a): %lld", mode_names[m], big, r->f2i[m]);
      EXPECT(r->f2u[m] == ref_to_int(big, m, 0, UINT_MAX), "float2uint _%s(%a): %lld", mode_names[m], big, r->f2u[m]);
      EXPECT(r->f2ll[m] == ref_to_int(big, m, LLONG_MIN, LLONG_MAX), "float2ll _%s(%a)", mode_names[m], big);
      EXPECT(r->f2ull[m] == ref_to_ull(big, m), "float2ull _%s(%a): %llu", mode_names[m], big, r->f2ull[m]);
      EXPECT(r->d2i[m] == ref_to_int(dbig, m, INT_MIN, INT_MAX), "double2int _%s(%a): %lld", mode_names[m], dbig, r->d2i[m]);
      EXPECT(r->d2u[m] == ref_to_int(dbig, m, 0, UINT_MAX), "double2uint _%s(%a)", mode_names[m], dbig);
      EXPECT(r->d2ll[m] == ref_to_int(dbig, m, LLONG_MIN, LLONG_MAX), "double2ll _%s(%a)", mode_names[m], dbig);
      EXPECT(r->d2ull[m] == ref_to_ull(dbig, m), "double2ull _%s(%a)", mode_names[m], dbig);
    }
    uint32_t ua, ub;
    uint64_t ux;
    memcpy(&ua, &a, 4), memcpy(&ub, &b, 4), memcpy(&ux, &x, 8);
    EXPECT(r->bits[0] == (int)ua && r->bits[1] == (long long)ub && r->bits[2] == (long long)ux &&
               r->bits[3] == (int)(ux >> 32) && r->bits[4] == (int)(uint32_t)ux && r->bits[5] == 1,
           "bit reinterpretations of %a, %a, %a", a, b, x);
  }
  kp_free(fa), kp_free(da), kp_free(la), kp_free(out);
  KT_CHECK(bad == 0, "%d results differ from the references", bad);
  printf("rounding_modes: %d inputs x 4 modes agree with the references\n", N);
  return 0;
}

/* PTX-NOT: .extern
 * PTX-LABEL: .visible .entry rounded(
 * PTX-DAG: add.rm.f32
 * PTX-DAG: add.rp.f64
 * PTX-DAG: sqrt.rz.f32
 * PTX-DAG: cvt.rpi.s32.f32
 * PTX-DAG: cvt.rm.f32.s64
 * PTX: ret;
 */
