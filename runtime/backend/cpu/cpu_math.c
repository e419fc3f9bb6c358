/* cpu_math.c — CUDA's math functions that <math.h> lacks (kernplug/cuda_math.h), for the CPU
 * backend and host code: reciprocal roots, sinpi/cospi, norms, and the fast single-precision
 * intrinsics. On the GPU the plugin calls libdevice's __nv_<name> instead.
 *
 * Each is computed in long double (64-bit significand) and rounded once to float or double,
 * which keeps it within about half an ulp, inside CUDA's documented bounds for the GPU's
 * version (tests/kernels/math_sweep.c checks both). The inverse error functions, erfcx,
 * normcdf and the Bessel functions are in cpu_math_special.c. */
#include <math.h>

#include "core/common.h"

/* ---- reciprocal roots ------------------------------------------------------------------ */

KP_EXPORT float kp_rsqrtf(float x) { return (float)(1.0L / sqrtl(x)); }
KP_EXPORT double kp_rsqrt(double x) { return (double)(1.0L / sqrtl(x)); }
KP_EXPORT float kp_rcbrtf(float x) { return (float)(1.0L / cbrtl(x)); }
KP_EXPORT double kp_rcbrt(double x) { return (double)(1.0L / cbrtl(x)); }

/* ---- sin(pi x), cos(pi x) -------------------------------------------------------------- */

static const long double pi_l = 3.141592653589793238462643383279502884L;

/* sin(pi x) for finite x: reduced exactly to [-1/2, 1/2] (fmodl and the subtractions are
 * exact), then sinl of pi times it. sinpi(n) is +0 for n > 0 and -0 for n < 0 (C23). */
static long double sinpi_l(long double x) {
  long double r = fmodl(x, 2.0L); /* (-2, 2), the sign of x */
  if (r > 1) r -= 2;
  else if (r < -1) r += 2;
  if (r > 0.5L) r = 1 - r;
  else if (r < -0.5L) r = -1 - r;
  if (r == 0) return copysignl(0.0L, x);
  return sinl(pi_l * r);
}

/* cos(pi x) = sin(pi (1/2 - |x| mod 2)), exact reduction again; +0 at the half-integers. */
static long double cospi_l(long double x) {
  long double r = fmodl(fabsl(x), 2.0L); /* [0, 2) */
  if (r > 1) r = 2 - r;                   /* [0, 1], cos(pi r) unchanged */
  long double s = 0.5L - r;               /* [-1/2, 1/2] */
  if (s == 0) return 0.0L;
  return sinl(pi_l * s);
}

KP_EXPORT float kp_sinpif(float x) { return isfinite(x) ? (float)sinpi_l(x) : x - x; }
KP_EXPORT double kp_sinpi(double x) { return isfinite(x) ? (double)sinpi_l(x) : x - x; }
KP_EXPORT float kp_cospif(float x) { return isfinite(x) ? (float)cospi_l(x) : x - x; }
KP_EXPORT double kp_cospi(double x) { return isfinite(x) ? (double)cospi_l(x) : x - x; }
KP_EXPORT void kp_sincospif(float x, float *s, float *c) {
  *s = kp_sinpif(x);
  *c = kp_cospif(x);
}
KP_EXPORT void kp_sincospi(double x, double *s, double *c) {
  *s = kp_sinpi(x);
  *c = kp_cospi(x);
}

/* ---- norms ----------------------------------------------------------------------------- */

/* sqrt of the sum of squares of n values in long double, whose range holds any double
 * squared; an infinite value gives +inf even with a NaN among the others (as hypot). */
static long double norm_l(int n, const long double *v) {
  long double sum = 0;
  int inf = 0;
  for (int i = 0; i < n; i++) {
    inf |= isinf(v[i]);
    sum += v[i] * v[i];
  }
  return inf ? INFINITY : sqrtl(sum);
}

KP_EXPORT float kp_rhypotf(float x, float y) {
  return (float)(1.0L / norm_l(2, (long double[]){x, y}));
}
KP_EXPORT double kp_rhypot(double x, double y) {
  return (double)(1.0L / norm_l(2, (long double[]){x, y}));
}
KP_EXPORT float kp_norm3df(float a, float b, float c) {
  return (float)norm_l(3, (long double[]){a, b, c});
}
KP_EXPORT double kp_norm3d(double a, double b, double c) {
  return (double)norm_l(3, (long double[]){a, b, c});
}
KP_EXPORT float kp_rnorm3df(float a, float b, float c) {
  return (float)(1.0L / norm_l(3, (long double[]){a, b, c}));
}
KP_EXPORT double kp_rnorm3d(double a, double b, double c) {
  return (double)(1.0L / norm_l(3, (long double[]){a, b, c}));
}
KP_EXPORT float kp_norm4df(float a, float b, float c, float d) {
  return (float)norm_l(4, (long double[]){a, b, c, d});
}
KP_EXPORT double kp_norm4d(double a, double b, double c, double d) {
  return (double)norm_l(4, (long double[]){a, b, c, d});
}
KP_EXPORT float kp_rnorm4df(float a, float b, float c, float d) {
  return (float)(1.0L / norm_l(4, (long double[]){a, b, c, d}));
}
KP_EXPORT double kp_rnorm4d(double a, double b, double c, double d) {
  return (double)(1.0L / norm_l(4, (long double[]){a, b, c, d}));
}

/* The dim-element forms, summed in the same way. */
static long double norm_of_floats(int dim, const float *p) {
  long double sum = 0;
  int inf = 0;
  for (int i = 0; i < dim; i++) {
    inf |= isinf(p[i]);
    sum += (long double)p[i] * p[i];
  }
  return inf ? INFINITY : sqrtl(sum);
}
static long double norm_of_doubles(int dim, const double *p) {
  long double sum = 0;
  int inf = 0;
  for (int i = 0; i < dim; i++) {
    inf |= isinf(p[i]);
    sum += (long double)p[i] * p[i];
  }
  return inf ? INFINITY : sqrtl(sum);
}
KP_EXPORT float kp_normf(int dim, const float *p) { return (float)norm_of_floats(dim, p); }
KP_EXPORT double kp_norm(int dim, const double *p) { return (double)norm_of_doubles(dim, p); }
KP_EXPORT float kp_rnormf(int dim, const float *p) {
  return (float)(1.0L / norm_of_floats(dim, p));
}
KP_EXPORT double kp_rnorm(int dim, const double *p) {
  return (double)(1.0L / norm_of_doubles(dim, p));
}

/* ---- the fast intrinsics: the accurate results, within the GPU's documented error ------- */

KP_EXPORT float kp_fast_expf(float x) { return expf(x); }
KP_EXPORT float kp_fast_exp10f(float x) { return exp10f(x); }
KP_EXPORT float kp_fast_logf(float x) { return logf(x); }
KP_EXPORT float kp_fast_log2f(float x) { return log2f(x); }
KP_EXPORT float kp_fast_log10f(float x) { return log10f(x); }
KP_EXPORT float kp_fast_sinf(float x) { return sinf(x); }
KP_EXPORT float kp_fast_cosf(float x) { return cosf(x); }
KP_EXPORT float kp_fast_tanf(float x) { return tanf(x); }
KP_EXPORT float kp_fast_powf(float x, float y) { return powf(x, y); }
KP_EXPORT void kp_fast_sincosf(float x, float *s, float *c) { sincosf(x, s, c); }

/* CUDA: for 2^126 < |y| < 2^128, __fdividef(x, y) is 0, and NaN for an infinite x. */
KP_EXPORT float kp_fast_fdividef(float x, float y) {
  float ay = fabsf(y);
  if (ay > 0x1p126f && ay <= 0x1.fffffep127f) return isinf(x) ? NAN : 0.0f * x * y;
  return x / y;
}

KP_EXPORT float kp_saturatef(float x) {
  if (!(x > 0)) return 0.0f; /* NaN and -0 included */
  return x < 1 ? x : 1.0f;
}
