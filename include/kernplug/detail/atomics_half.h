/* kernplug/detail/atomics_half.h — the atomics of _Float16, __bf16 and their pairs
 * (kernplug/half.h), and the _Generic cases atomics.h adds for them (KP_ATOMIC_HALF_CASES_<op>,
 * empty where the compiler has no _Float16). Included by detail/atomics.h after the float
 * atomics it reuses. */
#ifndef KERNPLUG_DETAIL_ATOMICS_HALF_H
#define KERNPLUG_DETAIL_ATOMICS_HALF_H

#include "atomics.h" /* first when this header is included alone */
#include "../half.h"

#ifdef KP_HAVE_HALF
KP_ALWAYS_INLINE int kp_isnan_f16_(_Float16 x) {
  union { _Float16 f; uint16_t u; } b = {x};
  return (b.u & 0x7fffu) > 0x7c00u;
}
KP_ALWAYS_INLINE int kp_isnan_bf16_(__bf16 x) {
  union { __bf16 f; uint16_t u; } b = {x};
  return (b.u & 0x7fffu) > 0x7f80u;
}
KP_DEFINE_FLOAT_ATOMICS(f16, _Float16)
KP_DEFINE_FLOAT_ATOMICS(bf16, __bf16)

/* The pairs: both elements in one 32-bit compare-and-swap loop. The element sums are formed
 * in float and rounded once to the element type (exact: float holds the sum of two halves
 * before that one rounding). */
KP_ALWAYS_INLINE kp_half2 kp_atomic_add_half2(kp_half2 *p, kp_half2 v) {
  KP_CAS_LOOP(kp_half2, p, v,
              kp_half2_make((_Float16)((float)old.x + (float)v.x),
                            (_Float16)((float)old.y + (float)v.y)));
}
KP_ALWAYS_INLINE kp_bfloat162 kp_atomic_add_bfloat162(kp_bfloat162 *p, kp_bfloat162 v) {
  KP_CAS_LOOP(kp_bfloat162, p, v,
              kp_bfloat162_make((__bf16)((float)old.x + (float)v.x),
                                (__bf16)((float)old.y + (float)v.y)));
}

#define KP_ATOMIC_HALF_SCALARS_(op) , _Float16 *: kp_atomic_##op##_f16, __bf16 *: kp_atomic_##op##_bf16
#define KP_ATOMIC_HALF_CASES_add                                                                \
  KP_ATOMIC_HALF_SCALARS_(add), kp_half2 *: kp_atomic_add_half2,                               \
      kp_bfloat162 *: kp_atomic_add_bfloat162
#define KP_ATOMIC_HALF_CASES_sub KP_ATOMIC_HALF_SCALARS_(sub)
#define KP_ATOMIC_HALF_CASES_max KP_ATOMIC_HALF_SCALARS_(max)
#define KP_ATOMIC_HALF_CASES_min KP_ATOMIC_HALF_SCALARS_(min)
#define KP_ATOMIC_HALF_CASES_nanmax KP_ATOMIC_HALF_SCALARS_(nanmax)
#define KP_ATOMIC_HALF_CASES_nanmin KP_ATOMIC_HALF_SCALARS_(nanmin)
#define KP_ATOMIC_HALF_CASES_exch KP_ATOMIC_HALF_SCALARS_(exch)
#define KP_ATOMIC_HALF_CASES_cas KP_ATOMIC_HALF_SCALARS_(cas)
#else
#define KP_ATOMIC_HALF_CASES_add
#define KP_ATOMIC_HALF_CASES_sub
#define KP_ATOMIC_HALF_CASES_max
#define KP_ATOMIC_HALF_CASES_min
#define KP_ATOMIC_HALF_CASES_nanmax
#define KP_ATOMIC_HALF_CASES_nanmin
#define KP_ATOMIC_HALF_CASES_exch
#define KP_ATOMIC_HALF_CASES_cas
#endif

#endif /* KERNPLUG_DETAIL_ATOMICS_HALF_H */
