/* kernplug/rounding.h — CUDA's arithmetic and conversions with an explicit rounding mode
 * (__fadd_rd, __fmul_ru, __fsqrt_rz, __fmaf_rn, __dadd_rd, __float2int_rn, __int2float_rd,
 * __double2float_ru, ...) and the bit reinterpretations (__float_as_int, __double2hiint, ...).
 *
 * The suffix is the rounding: _rn to nearest even, _rz toward zero, _ru up (toward +inf), _rd
 * down (toward -inf). Each result is the exact result rounded once that way, on both
 * backends: on the GPU each kp_<name> is libdevice's __nv_<name> (one instruction: add.rm.f32,
 * cvt.rpi.s32.f32, ...); on the CPU backend libkernplug_rt computes it with the host's
 * rounding mode set for that one operation (runtime/backend/cpu/cpu_rounding.c). Conversions
 * to integers saturate, as the GPU's: values beyond the type's range give its limit, NaN 0.
 * CUDA's spellings (__fadd_rd, ...) are macros in cuda_names.h; the bit reinterpretations are
 * plain C here. */
#ifndef KERNPLUG_ROUNDING_H
#define KERNPLUG_ROUNDING_H

#include "detail/config.h"
#include "cuda_math.h" /* KP_MATH_FN */

#ifdef __cplusplus
extern "C" {
#endif

KP_MATH_FN float kp_fadd_rd(float x, float y);
KP_MATH_FN float kp_fsub_rd(float x, float y);
KP_MATH_FN float kp_fmul_rd(float x, float y);
KP_MATH_FN float kp_fdiv_rd(float x, float y);
KP_MATH_FN float kp_frcp_rd(float x);
KP_MATH_FN float kp_fsqrt_rd(float x);
KP_MATH_FN float kp_fmaf_rd(float x, float y, float z);
KP_MATH_FN double kp_dadd_rd(double x, double y);
KP_MATH_FN double kp_dsub_rd(double x, double y);
KP_MATH_FN double kp_dmul_rd(double x, double y);
KP_MATH_FN double kp_ddiv_rd(double x, double y);
KP_MATH_FN double kp_drcp_rd(double x);
KP_MATH_FN double kp_dsqrt_rd(double x);
KP_MATH_FN double kp_fma_rd(double x, double y, double z);
KP_MATH_FN float kp_double2float_rd(double x);
KP_MATH_FN float kp_int2float_rd(int x);
KP_MATH_FN float kp_uint2float_rd(unsigned x);
KP_MATH_FN float kp_ll2float_rd(long long x);
KP_MATH_FN float kp_ull2float_rd(unsigned long long x);
KP_MATH_FN double kp_ll2double_rd(long long x);
KP_MATH_FN double kp_ull2double_rd(unsigned long long x);
KP_MATH_FN float kp_fadd_rn(float x, float y);
KP_MATH_FN float kp_fsub_rn(float x, float y);
KP_MATH_FN float kp_fmul_rn(float x, float y);
KP_MATH_FN float kp_fdiv_rn(float x, float y);
KP_MATH_FN float kp_frcp_rn(float x);
KP_MATH_FN float kp_fsqrt_rn(float x);
KP_MATH_FN float kp_fmaf_rn(float x, float y, float z);
KP_MATH_FN double kp_dadd_rn(double x, double y);
KP_MATH_FN double kp_dsub_rn(double x, double y);
KP_MATH_FN double kp_dmul_rn(double x, double y);
KP_MATH_FN double kp_ddiv_rn(double x, double y);
KP_MATH_FN double kp_drcp_rn(double x);
KP_MATH_FN double kp_dsqrt_rn(double x);
KP_MATH_FN double kp_fma_rn(double x, double y, double z);
KP_MATH_FN float kp_double2float_rn(double x);
KP_MATH_FN float kp_int2float_rn(int x);
KP_MATH_FN float kp_uint2float_rn(unsigned x);
KP_MATH_FN float kp_ll2float_rn(long long x);
KP_MATH_FN float kp_ull2float_rn(unsigned long long x);
KP_MATH_FN double kp_ll2double_rn(long long x);
KP_MATH_FN double kp_ull2double_rn(unsigned long long x);
KP_MATH_FN float kp_fadd_ru(float x, float y);
KP_MATH_FN float kp_fsub_ru(float x, float y);
KP_MATH_FN float kp_fmul_ru(float x, float y);
KP_MATH_FN float kp_fdiv_ru(float x, float y);
KP_MATH_FN float kp_frcp_ru(float x);
KP_MATH_FN float kp_fsqrt_ru(float x);
KP_MATH_FN float kp_fmaf_ru(float x, float y, float z);
KP_MATH_FN double kp_dadd_ru(double x, double y);
KP_MATH_FN double kp_dsub_ru(double x, double y);
KP_MATH_FN double kp_dmul_ru(double x, double y);
KP_MATH_FN double kp_ddiv_ru(double x, double y);
KP_MATH_FN double kp_drcp_ru(double x);
KP_MATH_FN double kp_dsqrt_ru(double x);
KP_MATH_FN double kp_fma_ru(double x, double y, double z);
KP_MATH_FN float kp_double2float_ru(double x);
KP_MATH_FN float kp_int2float_ru(int x);
KP_MATH_FN float kp_uint2float_ru(unsigned x);
KP_MATH_FN float kp_ll2float_ru(long long x);
KP_MATH_FN float kp_ull2float_ru(unsigned long long x);
KP_MATH_FN double kp_ll2double_ru(long long x);
KP_MATH_FN double kp_ull2double_ru(unsigned long long x);
KP_MATH_FN float kp_fadd_rz(float x, float y);
KP_MATH_FN float kp_fsub_rz(float x, float y);
KP_MATH_FN float kp_fmul_rz(float x, float y);
KP_MATH_FN float kp_fdiv_rz(float x, float y);
KP_MATH_FN float kp_frcp_rz(float x);
KP_MATH_FN float kp_fsqrt_rz(float x);
KP_MATH_FN float kp_fmaf_rz(float x, float y, float z);
KP_MATH_FN double kp_dadd_rz(double x, double y);
KP_MATH_FN double kp_dsub_rz(double x, double y);
KP_MATH_FN double kp_dmul_rz(double x, double y);
KP_MATH_FN double kp_ddiv_rz(double x, double y);
KP_MATH_FN double kp_drcp_rz(double x);
KP_MATH_FN double kp_dsqrt_rz(double x);
KP_MATH_FN double kp_fma_rz(double x, double y, double z);
KP_MATH_FN float kp_double2float_rz(double x);
KP_MATH_FN float kp_int2float_rz(int x);
KP_MATH_FN float kp_uint2float_rz(unsigned x);
KP_MATH_FN float kp_ll2float_rz(long long x);
KP_MATH_FN float kp_ull2float_rz(unsigned long long x);
KP_MATH_FN double kp_ll2double_rz(long long x);
KP_MATH_FN double kp_ull2double_rz(unsigned long long x);
KP_MATH_FN int kp_float2int_rd(float x);
KP_MATH_FN unsigned kp_float2uint_rd(float x);
KP_MATH_FN long long kp_float2ll_rd(float x);
KP_MATH_FN unsigned long long kp_float2ull_rd(float x);
KP_MATH_FN int kp_double2int_rd(double x);
KP_MATH_FN unsigned kp_double2uint_rd(double x);
KP_MATH_FN long long kp_double2ll_rd(double x);
KP_MATH_FN unsigned long long kp_double2ull_rd(double x);
KP_MATH_FN int kp_float2int_rn(float x);
KP_MATH_FN unsigned kp_float2uint_rn(float x);
KP_MATH_FN long long kp_float2ll_rn(float x);
KP_MATH_FN unsigned long long kp_float2ull_rn(float x);
KP_MATH_FN int kp_double2int_rn(double x);
KP_MATH_FN unsigned kp_double2uint_rn(double x);
KP_MATH_FN long long kp_double2ll_rn(double x);
KP_MATH_FN unsigned long long kp_double2ull_rn(double x);
KP_MATH_FN int kp_float2int_ru(float x);
KP_MATH_FN unsigned kp_float2uint_ru(float x);
KP_MATH_FN long long kp_float2ll_ru(float x);
KP_MATH_FN unsigned long long kp_float2ull_ru(float x);
KP_MATH_FN int kp_double2int_ru(double x);
KP_MATH_FN unsigned kp_double2uint_ru(double x);
KP_MATH_FN long long kp_double2ll_ru(double x);
KP_MATH_FN unsigned long long kp_double2ull_ru(double x);
KP_MATH_FN int kp_float2int_rz(float x);
KP_MATH_FN unsigned kp_float2uint_rz(float x);
KP_MATH_FN long long kp_float2ll_rz(float x);
KP_MATH_FN unsigned long long kp_float2ull_rz(float x);
KP_MATH_FN int kp_double2int_rz(double x);
KP_MATH_FN unsigned kp_double2uint_rz(double x);
KP_MATH_FN long long kp_double2ll_rz(double x);
KP_MATH_FN unsigned long long kp_double2ull_rz(double x);
KP_MATH_FN float kp_frsqrt_rn(float x);

#ifdef __cplusplus
}
#endif

/* Bit reinterpretations and exact conversions (CUDA's __float_as_int & co.). */
KP_ALWAYS_INLINE int kp_float_as_int(float x) {
  union { float f; int i; } u = {x};
  return u.i;
}
KP_ALWAYS_INLINE unsigned kp_float_as_uint(float x) {
  union { float f; unsigned i; } u = {x};
  return u.i;
}
KP_ALWAYS_INLINE float kp_int_as_float(int x) {
  union { int i; float f; } u = {x};
  return u.f;
}
KP_ALWAYS_INLINE float kp_uint_as_float(unsigned x) {
  union { unsigned i; float f; } u = {x};
  return u.f;
}
KP_ALWAYS_INLINE long long kp_double_as_longlong(double x) {
  union { double d; long long i; } u = {x};
  return u.i;
}
KP_ALWAYS_INLINE double kp_longlong_as_double(long long x) {
  union { long long i; double d; } u = {x};
  return u.d;
}
/* The high and low 32 bits of a double, and a double from them. */
KP_ALWAYS_INLINE int kp_double2hiint(double x) {
  return (int)(unsigned)((unsigned long long)kp_double_as_longlong(x) >> 32);
}
KP_ALWAYS_INLINE int kp_double2loint(double x) {
  return (int)(unsigned)(unsigned long long)kp_double_as_longlong(x);
}
KP_ALWAYS_INLINE double kp_hiloint2double(int hi, int lo) {
  return kp_longlong_as_double(
      (long long)((unsigned long long)(unsigned)hi << 32 | (unsigned)lo));
}
KP_ALWAYS_INLINE double kp_int2double_rn(int x) { return (double)x; }        /* exact */
KP_ALWAYS_INLINE double kp_uint2double_rn(unsigned x) { return (double)x; }  /* exact */

#endif /* KERNPLUG_ROUNDING_H */
