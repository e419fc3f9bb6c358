/* kernplug/cuda_math.h — the CUDA Math API functions that C's <math.h> does not have, for
 * device code (and host code): reciprocal roots, sinpi/cospi, the inverse error functions,
 * the normal distribution, scaled erfc, modified Bessel functions, 3- and 4-D norms, and the
 * fast single-precision intrinsics (__expf, __sinf, __fdividef, __saturatef, ...).
 *
 * On the GPU each kp_<name> is libdevice's __nv_<name> (kp_fast_<name> is __nv_fast_<name>),
 * as nvcc compiles CUDA's <name>; on the CPU backend (and in host code) libkernplug_rt
 * computes it in long double and rounds, well within the error bounds CUDA documents for the
 * GPU's version (docs/kernels.md, "CUDA's math functions"; tests/kernels/math_sweep.c). The
 * fast intrinsics are approximations on the GPU (ex2.approx, sin.approx, ...); on the CPU they
 * return the accurate result, which is within their documented error.
 *
 * The kp_ names are declared here; CUDA's names (rsqrtf, sinpi, normcdff, erfinv, __expf,
 * __fdividef, ...) are macros for them in cuda_names.h, which kernplug.h includes unless
 * KP_NO_SHORT_NAMES is defined. */
#ifndef KERNPLUG_CUDA_MATH_H
#define KERNPLUG_CUDA_MATH_H

/* The functions without pointers read and write no memory and set no errno: the compiler may
 * move and merge their calls, and the CPU backend's loop transformations see through them. */
#ifndef KP_MATH_FN
#if defined(__GNUC__) || defined(__clang__)
#define KP_MATH_FN __attribute__((const, nothrow))
#else
#define KP_MATH_FN
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Each function as (name, float version, double version): the float version has CUDA's f
 * suffix. Declared for both: float kp_<name>f(float), double kp_<name>(double). */
#define KP_CUDA_MATH_UNARY(X)                                                                  \
  X(rsqrt)          /* 1 / sqrt(x) */                                                          \
  X(rcbrt)          /* 1 / cbrt(x) */                                                          \
  X(sinpi)          /* sin(pi x) */                                                            \
  X(cospi)          /* cos(pi x) */                                                            \
  X(erfinv)         /* the y with erf(y) = x, x in [-1, 1] */                                  \
  X(erfcinv)        /* the y with erfc(y) = x, x in [0, 2] */                                  \
  X(erfcx)          /* exp(x^2) erfc(x), without the overflow */                               \
  X(normcdf)        /* the standard normal distribution function */                            \
  X(normcdfinv)     /* its inverse, x in [0, 1] */                                             \
  X(cyl_bessel_i0)  /* modified Bessel function of the first kind, order 0 */                  \
  X(cyl_bessel_i1)  /* ... order 1 */

#define KP_DECLARE_CUDA_MATH_UNARY_(name)                                                      \
  KP_MATH_FN float kp_##name##f(float x);                                                      \
  KP_MATH_FN double kp_##name(double x);
KP_CUDA_MATH_UNARY(KP_DECLARE_CUDA_MATH_UNARY_)

/* sin(pi x) and cos(pi x) at once. */
void kp_sincospif(float x, float *s, float *c);
void kp_sincospi(double x, double *s, double *c);
/* 1 / sqrt(x^2 + y^2), the length of (a, b, c) and (a, b, c, d) and their reciprocals (an
 * infinite component gives +inf, resp. 0, even with a NaN), and of a vector of dim elements. */
KP_MATH_FN float kp_rhypotf(float x, float y);
KP_MATH_FN double kp_rhypot(double x, double y);
KP_MATH_FN float kp_norm3df(float a, float b, float c);
KP_MATH_FN double kp_norm3d(double a, double b, double c);
KP_MATH_FN float kp_rnorm3df(float a, float b, float c);
KP_MATH_FN double kp_rnorm3d(double a, double b, double c);
KP_MATH_FN float kp_norm4df(float a, float b, float c, float d);
KP_MATH_FN double kp_norm4d(double a, double b, double c, double d);
KP_MATH_FN float kp_rnorm4df(float a, float b, float c, float d);
KP_MATH_FN double kp_rnorm4d(double a, double b, double c, double d);
float kp_normf(int dim, const float *p);
double kp_norm(int dim, const double *p);
float kp_rnormf(int dim, const float *p);
double kp_rnorm(int dim, const double *p);

/* The fast single-precision intrinsics (CUDA's __expf, __sinf, ...; nvcc's --use_fast_math
 * and kernplug's -ffast-math use them for expf, sinf, ... on the GPU). */
KP_MATH_FN float kp_fast_expf(float x);
KP_MATH_FN float kp_fast_exp10f(float x);
KP_MATH_FN float kp_fast_logf(float x);
KP_MATH_FN float kp_fast_log2f(float x);
KP_MATH_FN float kp_fast_log10f(float x);
KP_MATH_FN float kp_fast_sinf(float x);
KP_MATH_FN float kp_fast_cosf(float x);
KP_MATH_FN float kp_fast_tanf(float x);
KP_MATH_FN float kp_fast_powf(float x, float y);
void kp_fast_sincosf(float x, float *s, float *c);
/* x / y, approximately; 0 when 2^126 < |y| < 2^128 (NaN for an infinite x there). */
KP_MATH_FN float kp_fast_fdividef(float x, float y);
/* x clamped to [0, 1]; NaN gives 0. */
KP_MATH_FN float kp_saturatef(float x);

#ifdef __cplusplus
}
#endif

#endif /* KERNPLUG_CUDA_MATH_H */
