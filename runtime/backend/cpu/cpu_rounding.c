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

KP_EXPORT float kp_fadd_rd(float x, float y) { ROUNDED(FE_DOWNWARD, float, x + y); }
KP_EXPORT float kp_fsub_rd(float x, float y) { ROUNDED(FE_DOWNWARD, float, x - y); }
KP_EXPORT float kp_fmul_rd(float x, float y) { ROUNDED(FE_DOWNWARD, float, x * y); }
KP_EXPORT float kp_fdiv_rd(float x, float y) { ROUNDED(FE_DOWNWARD, float, x / y); }
KP_EXPORT float kp_frcp_rd(float x) { ROUNDED(FE_DOWNWARD, float, 1.0f / x); }
KP_EXPORT float kp_fsqrt_rd(float x) { ROUNDED(FE_DOWNWARD, float, sqrtf(x)); }
KP_EXPORT float kp_fmaf_rd(float x, float y, float z) { ROUNDED(FE_DOWNWARD, float, fmaf(x, y, z)); }
KP_EXPORT double kp_dadd_rd(double x, double y) { ROUNDED(FE_DOWNWARD, double, x + y); }
KP_EXPORT double kp_dsub_rd(double x, double y) { ROUNDED(FE_DOWNWARD, double, x - y); }
KP_EXPORT double kp_dmul_rd(double x, double y) { ROUNDED(FE_DOWNWARD, double, x * y); }
KP_EXPORT double kp_ddiv_rd(double x, double y) { ROUNDED(FE_DOWNWARD, double, x / y); }
KP_EXPORT double kp_drcp_rd(double x) { ROUNDED(FE_DOWNWARD, double, 1.0 / x); }
KP_EXPORT double kp_dsqrt_rd(double x) { ROUNDED(FE_DOWNWARD, double, sqrt(x)); }
KP_EXPORT double kp_fma_rd(double x, double y, double z) { ROUNDED(FE_DOWNWARD, double, fma(x, y, z)); }
KP_EXPORT float kp_double2float_rd(double x) { ROUNDED(FE_DOWNWARD, float, (float)x); }
KP_EXPORT float kp_int2float_rd(int x) { ROUNDED(FE_DOWNWARD, float, (float)x); }
KP_EXPORT float kp_uint2float_rd(unsigned x) { ROUNDED(FE_DOWNWARD, float, (float)x); }
KP_EXPORT float kp_ll2float_rd(long long x) { ROUNDED(FE_DOWNWARD, float, (float)x); }
KP_EXPORT float kp_ull2float_rd(unsigned long long x) { ROUNDED(FE_DOWNWARD, float, (float)x); }
KP_EXPORT double kp_ll2double_rd(long long x) { ROUNDED(FE_DOWNWARD, double, (double)x); }
KP_EXPORT double kp_ull2double_rd(unsigned long long x) { ROUNDED(FE_DOWNWARD, double, (double)x); }
KP_EXPORT float kp_fadd_rn(float x, float y) { ROUNDED(FE_TONEAREST, float, x + y); }
KP_EXPORT float kp_fsub_rn(float x, float y) { ROUNDED(FE_TONEAREST, float, x - y); }
KP_EXPORT float kp_fmul_rn(float x, float y) { ROUNDED(FE_TONEAREST, float, x * y); }
KP_EXPORT float kp_fdiv_rn(float x, float y) { ROUNDED(FE_TONEAREST, float, x / y); }
KP_EXPORT float kp_frcp_rn(float x) { ROUNDED(FE_TONEAREST, float, 1.0f / x); }
KP_EXPORT float kp_fsqrt_rn(float x) { ROUNDED(FE_TONEAREST, float, sqrtf(x)); }
KP_EXPORT float kp_fmaf_rn(float x, float y, float z) { ROUNDED(FE_TONEAREST, float, fmaf(x, y, z)); }
KP_EXPORT double kp_dadd_rn(double x, double y) { ROUNDED(FE_TONEAREST, double, x + y); }
KP_EXPORT double kp_dsub_rn(double x, double y) { ROUNDED(FE_TONEAREST, double, x - y); }
KP_EXPORT double kp_dmul_rn(double x, double y) { ROUNDED(FE_TONEAREST, double, x * y); }
KP_EXPORT double kp_ddiv_rn(double x, double y) { ROUNDED(FE_TONEAREST, double, x / y); }
KP_EXPORT double kp_drcp_rn(double x) { ROUNDED(FE_TONEAREST, double, 1.0 / x); }
KP_EXPORT double kp_dsqrt_rn(double x) { ROUNDED(FE_TONEAREST, double, sqrt(x)); }
KP_EXPORT double kp_fma_rn(double x, double y, double z) { ROUNDED(FE_TONEAREST, double, fma(x, y, z)); }
KP_EXPORT float kp_double2float_rn(double x) { ROUNDED(FE_TONEAREST, float, (float)x); }
KP_EXPORT float kp_int2float_rn(int x) { ROUNDED(FE_TONEAREST, float, (float)x); }
KP_EXPORT float kp_uint2float_rn(unsigned x) { ROUNDED(FE_TONEAREST, float, (float)x); }
KP_EXPORT float kp_ll2float_rn(long long x) { ROUNDED(FE_TONEAREST, float, (float)x); }
KP_EXPORT float kp_ull2float_rn(unsigned long long x) { ROUNDED(FE_TONEAREST, float, (float)x); }
KP_EXPORT double kp_ll2double_rn(long long x) { ROUNDED(FE_TONEAREST, double, (double)x); }
KP_EXPORT double kp_ull2double_rn(unsigned long long x) { ROUNDED(FE_TONEAREST, double, (double)x); }
KP_EXPORT float kp_fadd_ru(float x, float y) { ROUNDED(FE_UPWARD, float, x + y); }
KP_EXPORT float kp_fsub_ru(float x, float y) { ROUNDED(FE_UPWARD, float, x - y); }
KP_EXPORT float kp_fmul_ru(float x, float y) { ROUNDED(FE_UPWARD, float, x * y); }
KP_EXPORT float kp_fdiv_ru(float x, float y) { ROUNDED(FE_UPWARD, float, x / y); }
KP_EXPORT float kp_frcp_ru(float x) { ROUNDED(FE_UPWARD, float, 1.0f / x); }
KP_EXPORT float kp_fsqrt_ru(float x) { ROUNDED(FE_UPWARD, float, sqrtf(x)); }
KP_EXPORT float kp_fmaf_ru(float x, float y, float z) { ROUNDED(FE_UPWARD, float, fmaf(x, y, z)); }
KP_EXPORT double kp_dadd_ru(double x, double y) { ROUNDED(FE_UPWARD, double, x + y); }
KP_EXPORT double kp_dsub_ru(double x, double y) { ROUNDED(FE_UPWARD, double, x - y); }
KP_EXPORT double kp_dmul_ru(double x, double y) { ROUNDED(FE_UPWARD, double, x * y); }
KP_EXPORT double kp_ddiv_ru(double x, double y) { ROUNDED(FE_UPWARD, double, x / y); }
KP_EXPORT double kp_drcp_ru(double x) { ROUNDED(FE_UPWARD, double, 1.0 / x); }
KP_EXPORT double kp_dsqrt_ru(double x) { ROUNDED(FE_UPWARD, double, sqrt(x)); }
KP_EXPORT double kp_fma_ru(double x, double y, double z) { ROUNDED(FE_UPWARD, double, fma(x, y, z)); }
KP_EXPORT float kp_double2float_ru(double x) { ROUNDED(FE_UPWARD, float, (float)x); }
KP_EXPORT float kp_int2float_ru(int x) { ROUNDED(FE_UPWARD, float, (float)x); }
KP_EXPORT float kp_uint2float_ru(unsigned x) { ROUNDED(FE_UPWARD, float, (float)x); }
KP_EXPORT float kp_ll2float_ru(long long x) { ROUNDED(FE_UPWARD, float, (float)x); }
KP_EXPORT float kp_ull2float_ru(unsigned long long x) { ROUNDED(FE_UPWARD, float, (float)x); }
KP_EXPORT double kp_ll2double_ru(long long x) { ROUNDED(FE_UPWARD, double, (double)x); }
KP_EXPORT double kp_ull2double_ru(unsigned long long x) { ROUNDED(FE_UPWARD, double, (double)x); }
KP_EXPORT float kp_fadd_rz(float x, float y) { ROUNDED(FE_TOWARDZERO, float, x + y); }
KP_EXPORT float kp_fsub_rz(float x, float y) { ROUNDED(FE_TOWARDZERO, float, x - y); }
KP_EXPORT float kp_fmul_rz(float x, float y) { ROUNDED(FE_TOWARDZERO, float, x * y); }
KP_EXPORT float kp_fdiv_rz(float x, float y) { ROUNDED(FE_TOWARDZERO, float, x / y); }
KP_EXPORT float kp_frcp_rz(float x) { ROUNDED(FE_TOWARDZERO, float, 1.0f / x); }
KP_EXPORT float kp_fsqrt_rz(float x) { ROUNDED(FE_TOWARDZERO, float, sqrtf(x)); }
KP_EXPORT float kp_fmaf_rz(float x, float y, float z) { ROUNDED(FE_TOWARDZERO, float, fmaf(x, y, z)); }
KP_EXPORT double kp_dadd_rz(double x, double y) { ROUNDED(FE_TOWARDZERO, double, x + y); }
KP_EXPORT double kp_dsub_rz(double x, double y) { ROUNDED(FE_TOWARDZERO, double, x - y); }
KP_EXPORT double kp_dmul_rz(double x, double y) { ROUNDED(FE_TOWARDZERO, double, x * y); }
KP_EXPORT double kp_ddiv_rz(double x, double y) { ROUNDED(FE_TOWARDZERO, double, x / y); }
KP_EXPORT double kp_drcp_rz(double x) { ROUNDED(FE_TOWARDZERO, double, 1.0 / x); }
KP_EXPORT double kp_dsqrt_rz(double x) { ROUNDED(FE_TOWARDZERO, double, sqrt(x)); }
KP_EXPORT double kp_fma_rz(double x, double y, double z) { ROUNDED(FE_TOWARDZERO, double, fma(x, y, z)); }
KP_EXPORT float kp_double2float_rz(double x) { ROUNDED(FE_TOWARDZERO, float, (float)x); }
KP_EXPORT float kp_int2float_rz(int x) { ROUNDED(FE_TOWARDZERO, float, (float)x); }
KP_EXPORT float kp_uint2float_rz(unsigned x) { ROUNDED(FE_TOWARDZERO, float, (float)x); }
KP_EXPORT float kp_ll2float_rz(long long x) { ROUNDED(FE_TOWARDZERO, float, (float)x); }
KP_EXPORT float kp_ull2float_rz(unsigned long long x) { ROUNDED(FE_TOWARDZERO, float, (float)x); }
KP_EXPORT double kp_ll2double_rz(long long x) { ROUNDED(FE_TOWARDZERO, double, (double)x); }
KP_EXPORT double kp_ull2double_rz(unsigned long long x) { ROUNDED(FE_TOWARDZERO, double, (double)x); }
KP_EXPORT int kp_float2int_rd(float x) { TO_INT(int, floorf(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_float2uint_rd(float x) { TO_INT(unsigned, floorf(x), 0, UINT_MAX); }
KP_EXPORT long long kp_float2ll_rd(float x) { TO_INT(long long, floorf(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_float2ull_rd(float x) { TO_INT(unsigned long long, floorf(x), 0, ULLONG_MAX); }
KP_EXPORT int kp_double2int_rd(double x) { TO_INT(int, floor(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_double2uint_rd(double x) { TO_INT(unsigned, floor(x), 0, UINT_MAX); }
KP_EXPORT long long kp_double2ll_rd(double x) { TO_INT(long long, floor(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_double2ull_rd(double x) { TO_INT(unsigned long long, floor(x), 0, ULLONG_MAX); }
KP_EXPORT int kp_float2int_rn(float x) { TO_INT(int, roundevenf(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_float2uint_rn(float x) { TO_INT(unsigned, roundevenf(x), 0, UINT_MAX); }
KP_EXPORT long long kp_float2ll_rn(float x) { TO_INT(long long, roundevenf(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_float2ull_rn(float x) { TO_INT(unsigned long long, roundevenf(x), 0, ULLONG_MAX); }
KP_EXPORT int kp_double2int_rn(double x) { TO_INT(int, roundeven(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_double2uint_rn(double x) { TO_INT(unsigned, roundeven(x), 0, UINT_MAX); }
KP_EXPORT long long kp_double2ll_rn(double x) { TO_INT(long long, roundeven(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_double2ull_rn(double x) { TO_INT(unsigned long long, roundeven(x), 0, ULLONG_MAX); }
KP_EXPORT int kp_float2int_ru(float x) { TO_INT(int, ceilf(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_float2uint_ru(float x) { TO_INT(unsigned, ceilf(x), 0, UINT_MAX); }
KP_EXPORT long long kp_float2ll_ru(float x) { TO_INT(long long, ceilf(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_float2ull_ru(float x) { TO_INT(unsigned long long, ceilf(x), 0, ULLONG_MAX); }
KP_EXPORT int kp_double2int_ru(double x) { TO_INT(int, ceil(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_double2uint_ru(double x) { TO_INT(unsigned, ceil(x), 0, UINT_MAX); }
KP_EXPORT long long kp_double2ll_ru(double x) { TO_INT(long long, ceil(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_double2ull_ru(double x) { TO_INT(unsigned long long, ceil(x), 0, ULLONG_MAX); }
KP_EXPORT int kp_float2int_rz(float x) { TO_INT(int, truncf(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_float2uint_rz(float x) { TO_INT(unsigned, truncf(x), 0, UINT_MAX); }
KP_EXPORT long long kp_float2ll_rz(float x) { TO_INT(long long, truncf(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_float2ull_rz(float x) { TO_INT(unsigned long long, truncf(x), 0, ULLONG_MAX); }
KP_EXPORT int kp_double2int_rz(double x) { TO_INT(int, trunc(x), INT_MIN, INT_MAX); }
KP_EXPORT unsigned kp_double2uint_rz(double x) { TO_INT(unsigned, trunc(x), 0, UINT_MAX); }
KP_EXPORT long long kp_double2ll_rz(double x) { TO_INT(long long, trunc(x), LLONG_MIN, LLONG_MAX); }
KP_EXPORT unsigned long long kp_double2ull_rz(double x) { TO_INT(unsigned long long, trunc(x), 0, ULLONG_MAX); }

/* 1/sqrt(x) rounded to nearest: long double has 40 bits to spare for float. */
KP_EXPORT float kp_frsqrt_rn(float x) { return (float)(1.0L / sqrtl(x)); }
