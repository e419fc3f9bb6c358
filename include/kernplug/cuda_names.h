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

#endif /* KERNPLUG_CUDA_NAMES_H */
