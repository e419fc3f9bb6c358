/* kernplug/cuda_names.h — CUDA C's spellings of the device functions kernplug has under kp_
 * names, so that CUDA kernels port with fewer edits: __popc(x) is kp_popc(x),
 * __match_any_sync(m, v) is kp_match_any_sync(m, v), and so on. Each is a macro for the kp_
 * name, with the same arguments.
 *
 * kernplug.h includes this file (through short_names.h) unless KP_NO_SHORT_NAMES is defined
 * before it. CUDA's names that start with two underscores are reserved to the
 * implementation, so they clash with nothing in a C program; the math names without them
 * (rsqrtf, sinpi, norm, ...) are function-like macros, so only calls are renamed: a variable
 * called norm stays one. */
#ifndef KERNPLUG_CUDA_NAMES_H
#define KERNPLUG_CUDA_NAMES_H

#include "intrinsics.h"
#include "warp_match.h"
#include "cuda_math.h"
#include "timing.h"
#include "rounding.h"

/* Integer intrinsics (intrinsics.h). */
#define __popc(x) kp_popc(x)
#define __popcll(x) kp_popcll(x)
#define __brev(x) kp_brev(x)
#define __brevll(x) kp_brevll(x)
#define __clz(x) kp_clz(x)
#define __clzll(x) kp_clzll(x)
#define __ffs(x) kp_ffs(x)
#define __ffsll(x) kp_ffsll(x)
#define __mul24(x, y) kp_mul24(x, y)
#define __umul24(x, y) kp_umul24(x, y)
#define __mulhi(x, y) kp_mulhi(x, y)
#define __umulhi(x, y) kp_umulhi(x, y)
#define __mul64hi(x, y) kp_mul64hi(x, y)
#define __umul64hi(x, y) kp_umul64hi(x, y)
#define __byte_perm(x, y, s) kp_byte_perm(x, y, s)
#define __funnelshift_l(lo, hi, s) kp_funnelshift_l(lo, hi, s)
#define __funnelshift_r(lo, hi, s) kp_funnelshift_r(lo, hi, s)
#define __funnelshift_lc(lo, hi, s) kp_funnelshift_lc(lo, hi, s)
#define __funnelshift_rc(lo, hi, s) kp_funnelshift_rc(lo, hi, s)
#define __sad(x, y, z) kp_sad(x, y, z)
#define __usad(x, y, z) kp_usad(x, y, z)
#define __hadd(x, y) kp_hadd(x, y)
#define __rhadd(x, y) kp_rhadd(x, y)
#define __uhadd(x, y) kp_uhadd(x, y)
#define __urhadd(x, y) kp_urhadd(x, y)

/* Lane masks, match and reduce (warp_match.h). */
#define __lanemask_lt() kp_lanemask_lt()
#define __lanemask_le() kp_lanemask_le()
#define __lanemask_gt() kp_lanemask_gt()
#define __lanemask_ge() kp_lanemask_ge()
#define __lanemask_eq() kp_lanemask_eq()
#define __match_any_sync(mask, v) kp_match_any_sync(mask, v)
#define __match_all_sync(mask, v, pred) kp_match_all_sync(mask, v, pred)
#define __reduce_add_sync(mask, v) kp_reduce_add_sync(mask, v)
#define __reduce_min_sync(mask, v) kp_reduce_min_sync(mask, v)
#define __reduce_max_sync(mask, v) kp_reduce_max_sync(mask, v)
#define __reduce_and_sync(mask, v) kp_reduce_and_sync(mask, v)
#define __reduce_or_sync(mask, v) kp_reduce_or_sync(mask, v)
#define __reduce_xor_sync(mask, v) kp_reduce_xor_sync(mask, v)

/* Timing (timing.h); clock64() is a short name. */
#define __nanosleep(ns) kp_nanosleep(ns)

/* CUDA's math functions beyond <math.h> (cuda_math.h): the float versions end in f. */
#define rsqrtf(x) kp_rsqrtf(x)
#define rsqrt(x) kp_rsqrt(x)
#define rcbrtf(x) kp_rcbrtf(x)
#define rcbrt(x) kp_rcbrt(x)
#define sinpif(x) kp_sinpif(x)
#define sinpi(x) kp_sinpi(x)
#define cospif(x) kp_cospif(x)
#define cospi(x) kp_cospi(x)
#define erfinvf(x) kp_erfinvf(x)
#define erfinv(x) kp_erfinv(x)
#define erfcinvf(x) kp_erfcinvf(x)
#define erfcinv(x) kp_erfcinv(x)
#define erfcxf(x) kp_erfcxf(x)
#define erfcx(x) kp_erfcx(x)
#define normcdff(x) kp_normcdff(x)
#define normcdf(x) kp_normcdf(x)
#define normcdfinvf(x) kp_normcdfinvf(x)
#define normcdfinv(x) kp_normcdfinv(x)
#define cyl_bessel_i0f(x) kp_cyl_bessel_i0f(x)
#define cyl_bessel_i0(x) kp_cyl_bessel_i0(x)
#define cyl_bessel_i1f(x) kp_cyl_bessel_i1f(x)
#define cyl_bessel_i1(x) kp_cyl_bessel_i1(x)
#define sincospif(x, s, c) kp_sincospif(x, s, c)
#define sincospi(x, s, c) kp_sincospi(x, s, c)
#define rhypotf(x, y) kp_rhypotf(x, y)
#define rhypot(x, y) kp_rhypot(x, y)
#define norm3df(a, b, c) kp_norm3df(a, b, c)
#define norm3d(a, b, c) kp_norm3d(a, b, c)
#define rnorm3df(a, b, c) kp_rnorm3df(a, b, c)
#define rnorm3d(a, b, c) kp_rnorm3d(a, b, c)
#define norm4df(a, b, c, d) kp_norm4df(a, b, c, d)
#define norm4d(a, b, c, d) kp_norm4d(a, b, c, d)
#define rnorm4df(a, b, c, d) kp_rnorm4df(a, b, c, d)
#define rnorm4d(a, b, c, d) kp_rnorm4d(a, b, c, d)
#define normf(dim, p) kp_normf(dim, p)
#define norm(dim, p) kp_norm(dim, p)
#define rnormf(dim, p) kp_rnormf(dim, p)
#define rnorm(dim, p) kp_rnorm(dim, p)
/* The fast intrinsics. */
#define __expf(x) kp_fast_expf(x)
#define __exp10f(x) kp_fast_exp10f(x)
#define __logf(x) kp_fast_logf(x)
#define __log2f(x) kp_fast_log2f(x)
#define __log10f(x) kp_fast_log10f(x)
#define __sinf(x) kp_fast_sinf(x)
#define __cosf(x) kp_fast_cosf(x)
#define __tanf(x) kp_fast_tanf(x)
#define __powf(x, y) kp_fast_powf(x, y)
#define __sincosf(x, s, c) kp_fast_sincosf(x, s, c)
#define __fdividef(x, y) kp_fast_fdividef(x, y)
#define __saturatef(x) kp_saturatef(x)

/* Rounding modes and bit reinterpretations (rounding.h). */
#define __fadd_rd kp_fadd_rd
#define __fsub_rd kp_fsub_rd
#define __fmul_rd kp_fmul_rd
#define __fdiv_rd kp_fdiv_rd
#define __frcp_rd kp_frcp_rd
#define __fsqrt_rd kp_fsqrt_rd
#define __fmaf_rd kp_fmaf_rd
#define __dadd_rd kp_dadd_rd
#define __dsub_rd kp_dsub_rd
#define __dmul_rd kp_dmul_rd
#define __ddiv_rd kp_ddiv_rd
#define __drcp_rd kp_drcp_rd
#define __dsqrt_rd kp_dsqrt_rd
#define __fma_rd kp_fma_rd
#define __double2float_rd kp_double2float_rd
#define __int2float_rd kp_int2float_rd
#define __uint2float_rd kp_uint2float_rd
#define __ll2float_rd kp_ll2float_rd
#define __ull2float_rd kp_ull2float_rd
#define __ll2double_rd kp_ll2double_rd
#define __ull2double_rd kp_ull2double_rd
#define __fadd_rn kp_fadd_rn
#define __fsub_rn kp_fsub_rn
#define __fmul_rn kp_fmul_rn
#define __fdiv_rn kp_fdiv_rn
#define __frcp_rn kp_frcp_rn
#define __fsqrt_rn kp_fsqrt_rn
#define __fmaf_rn kp_fmaf_rn
#define __dadd_rn kp_dadd_rn
#define __dsub_rn kp_dsub_rn
#define __dmul_rn kp_dmul_rn
#define __ddiv_rn kp_ddiv_rn
#define __drcp_rn kp_drcp_rn
#define __dsqrt_rn kp_dsqrt_rn
#define __fma_rn kp_fma_rn
#define __double2float_rn kp_double2float_rn
#define __int2float_rn kp_int2float_rn
#define __uint2float_rn kp_uint2float_rn
#define __ll2float_rn kp_ll2float_rn
#define __ull2float_rn kp_ull2float_rn
#define __ll2double_rn kp_ll2double_rn
#define __ull2double_rn kp_ull2double_rn
#define __fadd_ru kp_fadd_ru
#define __fsub_ru kp_fsub_ru
#define __fmul_ru kp_fmul_ru
#define __fdiv_ru kp_fdiv_ru
#define __frcp_ru kp_frcp_ru
#define __fsqrt_ru kp_fsqrt_ru
#define __fmaf_ru kp_fmaf_ru
#define __dadd_ru kp_dadd_ru
#define __dsub_ru kp_dsub_ru
#define __dmul_ru kp_dmul_ru
#define __ddiv_ru kp_ddiv_ru
#define __drcp_ru kp_drcp_ru
#define __dsqrt_ru kp_dsqrt_ru
#define __fma_ru kp_fma_ru
#define __double2float_ru kp_double2float_ru
#define __int2float_ru kp_int2float_ru
#define __uint2float_ru kp_uint2float_ru
#define __ll2float_ru kp_ll2float_ru
#define __ull2float_ru kp_ull2float_ru
#define __ll2double_ru kp_ll2double_ru
#define __ull2double_ru kp_ull2double_ru
#define __fadd_rz kp_fadd_rz
#define __fsub_rz kp_fsub_rz
#define __fmul_rz kp_fmul_rz
#define __fdiv_rz kp_fdiv_rz
#define __frcp_rz kp_frcp_rz
#define __fsqrt_rz kp_fsqrt_rz
#define __fmaf_rz kp_fmaf_rz
#define __dadd_rz kp_dadd_rz
#define __dsub_rz kp_dsub_rz
#define __dmul_rz kp_dmul_rz
#define __ddiv_rz kp_ddiv_rz
#define __drcp_rz kp_drcp_rz
#define __dsqrt_rz kp_dsqrt_rz
#define __fma_rz kp_fma_rz
#define __double2float_rz kp_double2float_rz
#define __int2float_rz kp_int2float_rz
#define __uint2float_rz kp_uint2float_rz
#define __ll2float_rz kp_ll2float_rz
#define __ull2float_rz kp_ull2float_rz
#define __ll2double_rz kp_ll2double_rz
#define __ull2double_rz kp_ull2double_rz
#define __float2int_rd kp_float2int_rd
#define __float2uint_rd kp_float2uint_rd
#define __float2ll_rd kp_float2ll_rd
#define __float2ull_rd kp_float2ull_rd
#define __double2int_rd kp_double2int_rd
#define __double2uint_rd kp_double2uint_rd
#define __double2ll_rd kp_double2ll_rd
#define __double2ull_rd kp_double2ull_rd
#define __float2int_rn kp_float2int_rn
#define __float2uint_rn kp_float2uint_rn
#define __float2ll_rn kp_float2ll_rn
#define __float2ull_rn kp_float2ull_rn
#define __double2int_rn kp_double2int_rn
#define __double2uint_rn kp_double2uint_rn
#define __double2ll_rn kp_double2ll_rn
#define __double2ull_rn kp_double2ull_rn
#define __float2int_ru kp_float2int_ru
#define __float2uint_ru kp_float2uint_ru
#define __float2ll_ru kp_float2ll_ru
#define __float2ull_ru kp_float2ull_ru
#define __double2int_ru kp_double2int_ru
#define __double2uint_ru kp_double2uint_ru
#define __double2ll_ru kp_double2ll_ru
#define __double2ull_ru kp_double2ull_ru
#define __float2int_rz kp_float2int_rz
#define __float2uint_rz kp_float2uint_rz
#define __float2ll_rz kp_float2ll_rz
#define __float2ull_rz kp_float2ull_rz
#define __double2int_rz kp_double2int_rz
#define __double2uint_rz kp_double2uint_rz
#define __double2ll_rz kp_double2ll_rz
#define __double2ull_rz kp_double2ull_rz
#define __frsqrt_rn kp_frsqrt_rn
#define __float_as_int(x) kp_float_as_int(x)
#define __float_as_uint(x) kp_float_as_uint(x)
#define __int_as_float(x) kp_int_as_float(x)
#define __uint_as_float(x) kp_uint_as_float(x)
#define __double_as_longlong(x) kp_double_as_longlong(x)
#define __longlong_as_double(x) kp_longlong_as_double(x)
#define __double2hiint(x) kp_double2hiint(x)
#define __double2loint(x) kp_double2loint(x)
#define __hiloint2double(hi, lo) kp_hiloint2double(hi, lo)
#define __int2double_rn(x) kp_int2double_rn(x)
#define __uint2double_rn(x) kp_uint2double_rn(x)

#endif /* KERNPLUG_CUDA_NAMES_H */
