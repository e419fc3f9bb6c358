/* kernplug/cuda_names.h — CUDA C's spellings of the device functions kernplug has under kp_
 * names, so that CUDA kernels port with fewer edits: __popc(x) is kp_popc(x),
 * __match_any_sync(m, v) is kp_match_any_sync(m, v), and so on. Each is a macro for the kp_
 * name, with the same arguments.
 *
 * kernplug.h includes this file (through short_names.h) unless KP_NO_SHORT_NAMES is defined
 * before it. CUDA's names that start with two underscores are reserved to the
 * implementation, so they clash with nothing in a C program. */
#ifndef KERNPLUG_CUDA_NAMES_H
#define KERNPLUG_CUDA_NAMES_H

#include "intrinsics.h"
#include "warp_match.h"

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

#endif /* KERNPLUG_CUDA_NAMES_H */
