/* cpu_rounding.c — CUDA's arithmetic and conversions with an explicit rounding mode
 * (kernplug/rounding.h) for the CPU backend and host code: each operation runs with the host's
 * rounding mode set for it (SSE and glibc's sqrt and fma honour it), and the mode is put back.
 * Conversions to integers round in the floating type (floor, ceil, trunc, roundeven), then
 * saturate as the GPU's cvt does: NaN gives 0, values beyond the range the range's limit. On
 * the GPU the plugin calls libdevice's __nv_<name> instead. */
#include <fenv.h>
#include <limits.h>
#include <math.h>

#include "core/common.h"

#pragma STDC FENV_ACCESS ON

/* expr (of the parameters) rounded by `mode`; volatile keeps the operation between the two
 * fesetround calls. */
#define ROUNDED(mode, T, expr)                                                                 \
  int saved_ = fegetround();                                                                   \
  fesetround(mode);                                                                            \
  volatile T r_ = (expr);                                                                      \
  fesetround(saved_);                                                                          \
  return r_

#define TO_INT(T, rounded, lo, hi)                                                             \
  double v_ = (double)(rounded);                                                               \
  if (v_ != v_) return 0;                                                                      \
  if (v_ <= (double)(lo)) return (lo);                                                         \
  if (v_ >= (double)(hi)) return (hi);                                                         \
  return (T)v_

/* Each operation in one rounding mode: the function kp_<name><sfx>. */
#define ROUNDED_OPS(sfx, mode)                                                                 \
  KP_EXPORT float kp_fadd##sfx(float x, float y) { ROUNDED(mode, float, x + y); }              \
  KP_EXPORT float kp_fsub##sfx(float x, float y) { ROUNDED(mode, float, x - y); }              \
  KP_EXPORT float kp_fmul##sfx(float x, float y) { ROUNDED(mode, float, x * y); }              \
  KP_EXPORT float kp_fdiv##sfx(float x, float y) { ROUNDED(mode, float, x / y); }              \
  KP_EXPORT float kp_frcp##sfx(float x) { ROUNDED(mode, float, 1.0f / x); }                    \
  KP_EXPORT float kp_fsqrt##sfx(float x) { ROUNDED(mode, float, sqrtf(x)); }                   \
  KP_EXPORT float kp_fmaf##sfx(float x, float y, float z) { ROUNDED(mode, float, fmaf(x, y, z)); } \
  KP_EXPORT double kp_dadd##sfx(double x, double y) { ROUNDED(mode, double, x + y); }          \
  KP_EXPORT double kp_dsub##sfx(double x, double y) { ROUNDED(mode, double, x - y); }          \
  KP_EXPORT double kp_dmul##sfx(double x, double y) { ROUNDED(mode, double, x * y); }          \
  KP_EXPORT double kp_ddiv##sfx(double x, double y) { ROUNDED(mode, double, x / y); }          \
  KP_EXPORT double kp_drcp##sfx(double x) { ROUNDED(mode, double, 1.0 / x); }                  \
  KP_EXPORT double kp_dsqrt##sfx(double x) { ROUNDED(mode, double, sqrt(x)); }                 \
  KP_EXPORT double kp_fma##sfx(double x, double y, double z) { ROUNDED(mode, double, fma(x, y, z)); } \
  KP_EXPORT float kp_double2float##sfx(double x) { ROUNDED(mode, float, (float)x); }           \
  KP_EXPORT float kp_int2float##sfx(int x) { ROUNDED(mode, float, (float)x); }                 \
  KP_EXPORT float kp_uint2float##sfx(unsigned x) { ROUNDED(mode, float, (float)x); }           \
  KP_EXPORT float kp_ll2float##sfx(long long x) { ROUNDED(mode, float, (float)x); }            \
  KP_EXPORT float kp_ull2float##sfx(unsigned long long x) { ROUNDED(mode, float, (float)x); }  \
  KP_EXPORT double kp_ll2double##sfx(long long x) { ROUNDED(mode, double, (double)x); }        \
  KP_EXPORT double kp_ull2double##sfx(unsigned long long x) { ROUNDED(mode, double, (double)x); }

/* The conversions to integers in one rounding mode, rounding with fround / dround. */
#define TO_INT_OPS(sfx, fround, dround)                                                        \
  KP_EXPORT int kp_float2int##sfx(float x) { TO_INT(int, fround(x), INT_MIN, INT_MAX); }       \
  KP_EXPORT unsigned kp_float2uint##sfx(float x) { TO_INT(unsigned, fround(x), 0, UINT_MAX); } \
  KP_EXPORT long long kp_float2ll##sfx(float x) {                                              \
    TO_INT(long long, fround(x), LLONG_MIN, LLONG_MAX);                                        \
  }                                                                                            \
  KP_EXPORT unsigned long long kp_float2ull##sfx(float x) {                                    \
    TO_INT(unsigned long long, fround(x), 0, ULLONG_MAX);                                      \
  }                                                                                            \
  KP_EXPORT int kp_double2int##sfx(double x) { TO_INT(int, dround(x), INT_MIN, INT_MAX); }     \
  KP_EXPORT unsigned kp_double2uint##sfx(double x) { TO_INT(unsigned, dround(x), 0, UINT_MAX); } \
  KP_EXPORT long long kp_double2ll##sfx(double x) {                                            \
    TO_INT(long long, dround(x), LLONG_MIN, LLONG_MAX);                                        \
  }                                                                                            \
  KP_EXPORT unsigned long long kp_double2ull##sfx(double x) {                                  \
    TO_INT(unsigned long long, dround(x), 0, ULLONG_MAX);                                      \
  }

ROUNDED_OPS(_rd, FE_DOWNWARD)
ROUNDED_OPS(_rn, FE_TONEAREST)
ROUNDED_OPS(_ru, FE_UPWARD)
ROUNDED_OPS(_rz, FE_TOWARDZERO)
TO_INT_OPS(_rd, floorf, floor)
TO_INT_OPS(_rn, roundevenf, roundeven)
TO_INT_OPS(_ru, ceilf, ceil)
TO_INT_OPS(_rz, truncf, trunc)

/* 1/sqrt(x) rounded to nearest: long double has 40 bits to spare for float. */
KP_EXPORT float kp_frsqrt_rn(float x) { return (float)(1.0L / sqrtl(x)); }
