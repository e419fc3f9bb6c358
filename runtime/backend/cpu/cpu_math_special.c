/* cpu_math_special.c — CUDA's special functions that <math.h> lacks (kernplug/cuda_math.h),
 * for the CPU backend and host code: erfinv, erfcinv, erfcx, normcdf, normcdfinv and the
 * modified Bessel functions I0 and I1. On the GPU the plugin calls libdevice's instead.
 *
 * Computed in long double from glibc's erfl/erfcl/expl (inverses by Newton's method) and
 * rounded once, so that float and double results stay within about an ulp, inside CUDA's
 * documented bounds (tests/kernels/math_sweep.c). */
#include <math.h>

#include "core/common.h"

static const long double two_over_sqrt_pi = 1.128379167095512573896158903121545172L;
static const long double sqrt2_l = 1.414213562373095048801688724209698079L;

/* erf(x) = y for 0 <= y <= 1/2: Newton from 0. erf is concave there, so the iterates rise
 * monotonically to the root; six or seven steps reach long double precision. */
static long double erfinv_small(long double y) {
  long double x = 0;
  for (int i = 0; i < 40; i++) {
    long double step = (erfl(x) - y) / (two_over_sqrt_pi * expl(-x * x));
    x -= step;
    if (fabsl(step) <= 0x1p-66L * fabsl(x)) break;
  }
  return x;
}

/* erfc(x) = z for 0 < z <= 1/2 (x >= 0.4769): Newton on log erfc(x) - log z, which is
 * nearly linear in x^2 (erfc(x) ~ exp(-x^2) / (x sqrt(pi))), from that asymptotic guess. */
static long double erfcinv_small(long double z) {
  long double x = sqrtl(-logl(z));
  for (int i = 0; i < 2; i++) x = sqrtl(fmaxl(-logl(z) - logl(x * 1.772453850905516027298L), 0.25L));
  for (int i = 0; i < 60; i++) {
    long double e = erfcl(x);
    /* d/dx log erfc(x) = -2/sqrt(pi) exp(-x^2) / erfc(x) */
    long double step = (logl(e) - logl(z)) / (-two_over_sqrt_pi * expl(-x * x) / e);
    x -= step;
    if (fabsl(step) <= 0x1p-66L * x) break;
  }
  return x;
}

/* erfcinv on all of [0, 2]: z > 1 by symmetry, [1/2, 1] through erfinv(1 - z) (exact). */
static long double erfcinv_l(long double z) {
  if (isnan(z) || z < 0 || z > 2) return NAN;
  if (z == 0) return INFINITY;
  if (z == 2) return -INFINITY;
  if (z > 1) return -erfcinv_l(2 - z);
  if (z >= 0.5L) return erfinv_small(1 - z);
  return erfcinv_small(z);
}

/* erfinv: |y| <= 1/2 directly, else through erfcinv(1 - |y|) (1 - |y| is exact). */
static long double erfinv_l(long double y) {
  if (isnan(y) || fabsl(y) > 1) return NAN;
  if (fabsl(y) == 1) return copysignl(INFINITY, y);
  if (y == 0) return y; /* keeps the sign of zero */
  long double a = fabsl(y);
  long double x = a <= 0.5L ? erfinv_small(a) : erfcinv_small(1 - a);
  return copysignl(x, y);
}

KP_EXPORT float kp_erfinvf(float x) { return (float)erfinv_l(x); }
KP_EXPORT double kp_erfinv(double x) { return (double)erfinv_l(x); }
KP_EXPORT float kp_erfcinvf(float x) { return (float)erfcinv_l(x); }
KP_EXPORT double kp_erfcinv(double x) { return (double)erfcinv_l(x); }

/* normcdf(x) = erfc(-x / sqrt 2) / 2; normcdfinv(p) = -sqrt 2 erfcinv(2p). */
KP_EXPORT float kp_normcdff(float x) { return (float)(0.5L * erfcl(-(long double)x / sqrt2_l)); }
KP_EXPORT double kp_normcdf(double x) { return (double)(0.5L * erfcl(-(long double)x / sqrt2_l)); }
KP_EXPORT float kp_normcdfinvf(float p) { return (float)(-sqrt2_l * erfcinv_l(2.0L * p)); }
KP_EXPORT double kp_normcdfinv(double p) { return (double)(-sqrt2_l * erfcinv_l(2.0L * p)); }

/* erfcx(x) = exp(x^2) erfc(x). x^2 is split into a long double and its exact remainder
 * (fmal) so that exp's argument carries no rounding error; beyond x = 100, where erfcl
 * would underflow the product's scale, the asymptotic series (6 terms, error < 1e-22). */
static long double erfcx_l(long double x) {
  if (isnan(x)) return x;
  if (x == INFINITY) return 0;
  if (x < -110) return INFINITY; /* exp(x^2) overflows long double, the result every type */
  if (x < 100) {
    long double hi = x * x, lo = fmal(x, x, -hi);
    return expl(hi) * expl(lo) * erfcl(x);
  }
  long double t = 1 / (2 * x * x), sum = 1, term = 1;
  for (int k = 1; k <= 6; k++) {
    term *= -(2 * k - 1) * t;
    sum += term;
  }
  return sum / (x * 1.772453850905516027298L);
}

KP_EXPORT float kp_erfcxf(float x) { return (float)erfcx_l(x); }
KP_EXPORT double kp_erfcx(double x) { return (double)erfcx_l(x); }

/* I0(x) = sum (x^2/4)^k / (k!)^2 and I1(x) = (x/2) sum (x^2/4)^k / (k! (k+1)!): positive
 * terms, so the sum is as accurate as its terms; up to x ~ 800 (beyond what double holds)
 * they fit in long double. */
static long double bessel_i_l(long double x, int order) {
  long double ax = fabsl(x);
  if (isnan(x)) return x;
  if (ax > 800) return order == 0 ? INFINITY : copysignl(INFINITY, x);
  long double q = ax * ax / 4, term = order == 0 ? 1 : ax / 2, sum = term;
  for (int k = 1; k < 4000; k++) {
    term *= q / ((long double)k * (k + order));
    sum += term;
    if (term <= sum * 0x1p-66L) break;
  }
  return order == 0 ? sum : copysignl(sum, x);
}

KP_EXPORT float kp_cyl_bessel_i0f(float x) { return (float)bessel_i_l(x, 0); }
KP_EXPORT double kp_cyl_bessel_i0(double x) { return (double)bessel_i_l(x, 0); }
KP_EXPORT float kp_cyl_bessel_i1f(float x) { return (float)bessel_i_l(x, 1); }
KP_EXPORT double kp_cyl_bessel_i1(double x) { return (double)bessel_i_l(x, 1); }
