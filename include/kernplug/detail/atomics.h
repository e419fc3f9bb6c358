/* kernplug/detail/atomics.h — the typed atomic functions behind atomics.h
 * (kp_atomic_<op>_<type>) and the _Generic selections that pick one from the pointer type. */
#ifndef KERNPLUG_DETAIL_ATOMICS_H
#define KERNPLUG_DETAIL_ATOMICS_H

#include <stdint.h>
#include "config.h"
#include "primitives.h"

/* The integer types atomics accept, with a suffix for the typed function names. */
#define KP_ATOMIC_INT_TYPES(X)                                                                 \
  X(i32, int)                                                                                  \
  X(u32, unsigned)                                                                             \
  X(il, long)                                                                                  \
  X(ul, unsigned long)                                                                         \
  X(i64, long long)                                                                            \
  X(u64, unsigned long long)
#define KP_ATOMIC_FLOAT_TYPES(X) X(f32, float) X(f64, double)

#define KP_RELAXED __ATOMIC_RELAXED

/* A compare-and-swap loop that stores newexpr (a function of `old` and `v`) and returns the
 * value it replaced. */
#define KP_CAS_LOOP(T, p, v, newexpr)                                                          \
  T old, next;                                                                                 \
  __atomic_load(p, &old, KP_RELAXED);                                                          \
  do {                                                                                         \
    next = (newexpr);                                                                          \
  } while (!__atomic_compare_exchange(p, &old, &next, 1, KP_RELAXED, KP_RELAXED));             \
  return old

/* A loop that stores v only while `replace` (a function of `old` and `v`) holds: once the
 * stored value needs no change it returns after one load, without writing, which keeps
 * contended max/min cheap (numba-cuda's loops do the same). */
#define KP_CAS_IF(T, p, v, replace)                                                            \
  T old;                                                                                       \
  __atomic_load(p, &old, KP_RELAXED);                                                          \
  while ((replace) && !__atomic_compare_exchange(p, &old, &v, 1, KP_RELAXED, KP_RELAXED)) {    \
  }                                                                                            \
  return old

/* Integer max/min: one atomicrmw instruction under clang, a compare-and-swap loop elsewhere. */
#if defined(__clang__)
#define KP_DEFINE_INT_MINMAX(sfx, T)                                                           \
  KP_ALWAYS_INLINE T kp_atomic_max_int_##sfx(T *p, T v) {                                      \
    return __atomic_fetch_max(p, v, KP_RELAXED);                                               \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_min_int_##sfx(T *p, T v) {                                      \
    return __atomic_fetch_min(p, v, KP_RELAXED);                                               \
  }
#else
#define KP_DEFINE_INT_MINMAX(sfx, T)                                                           \
  KP_ALWAYS_INLINE T kp_atomic_max_int_##sfx(T *p, T v) { KP_CAS_IF(T, p, v, old < v); }       \
  KP_ALWAYS_INLINE T kp_atomic_min_int_##sfx(T *p, T v) { KP_CAS_IF(T, p, v, v < old); }
#endif

/* Operations every integer type has as one read-modify-write instruction. nanmax/nanmin are
 * max/min (an integer is never NaN), as in numba-cuda. */
#define KP_DEFINE_INT_ATOMICS(sfx, T)                                                          \
  KP_ALWAYS_INLINE T kp_atomic_add_##sfx(T *p, T v) { return __atomic_fetch_add(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_sub_##sfx(T *p, T v) { return __atomic_fetch_sub(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_and_##sfx(T *p, T v) { return __atomic_fetch_and(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_or_##sfx(T *p, T v) { return __atomic_fetch_or(p, v, KP_RELAXED); }   \
  KP_ALWAYS_INLINE T kp_atomic_xor_##sfx(T *p, T v) { return __atomic_fetch_xor(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_exch_##sfx(T *p, T v) {                                         \
    return __atomic_exchange_n(p, v, KP_RELAXED);                                              \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_cas_##sfx(T *p, T expected, T desired) {                        \
    __atomic_compare_exchange_n(p, &expected, desired, 0, KP_RELAXED, KP_RELAXED);             \
    return expected;                                                                           \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_max_##sfx(T *p, T v) { return kp_atomic_max_int_##sfx(p, v); }   \
  KP_ALWAYS_INLINE T kp_atomic_min_##sfx(T *p, T v) { return kp_atomic_min_int_##sfx(p, v); }   \
  KP_ALWAYS_INLINE T kp_atomic_nanmax_##sfx(T *p, T v) { return kp_atomic_max_int_##sfx(p, v); } \
  KP_ALWAYS_INLINE T kp_atomic_nanmin_##sfx(T *p, T v) { return kp_atomic_min_int_##sfx(p, v); }

KP_ATOMIC_INT_TYPES(KP_DEFINE_INT_MINMAX)
KP_ATOMIC_INT_TYPES(KP_DEFINE_INT_ATOMICS)

/* NaN tests on the bits, so that -ffast-math (which lets the compiler assume x == x) cannot
 * fold them away. */
KP_ALWAYS_INLINE int kp_isnan_f32_(float x) {
  union { float f; uint32_t u; } b = {x};
  return (b.u & 0x7fffffffu) > 0x7f800000u;
}
KP_ALWAYS_INLINE int kp_isnan_f64_(double x) {
  union { double f; uint64_t u; } b = {x};
  return (b.u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

#if defined(__clang__)
#define KP_FLOAT_ADD(T, p, v) return __atomic_fetch_add(p, v, KP_RELAXED)
#else
#define KP_FLOAT_ADD(T, p, v) KP_CAS_LOOP(T, p, v, old + v)
#endif

/* Floating point: add/sub are native on the GPU (atom.add.f32/f64; sub adds -v). max/min and
 * nanmax/nanmin are compare-and-swap loops with numba-cuda's NaN rules:
 *   max/min:       a NaN on either side leaves *p as it is (Python's max(a, b) is a then);
 *   nanmax/nanmin: NaN is a missing value (numpy.fmax/fmin): a NaN operand leaves *p as it
 *                  is, a NaN in *p is replaced by v.
 * exch and cas move bit patterns: cas compares bits (so -0.0 is not 0.0, and a NaN matches
 * the same NaN). */
#define KP_DEFINE_FLOAT_ATOMICS(sfx, T)                                                        \
  KP_ALWAYS_INLINE T kp_atomic_add_##sfx(T *p, T v) { KP_FLOAT_ADD(T, p, v); }                 \
  KP_ALWAYS_INLINE T kp_atomic_sub_##sfx(T *p, T v) { KP_FLOAT_ADD(T, p, -v); }                \
  KP_ALWAYS_INLINE T kp_atomic_max_##sfx(T *p, T v) {                                          \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && !kp_isnan_##sfx##_(old) && old < v);           \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_min_##sfx(T *p, T v) {                                          \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && !kp_isnan_##sfx##_(old) && v < old);           \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_nanmax_##sfx(T *p, T v) {                                       \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && (kp_isnan_##sfx##_(old) || old < v));          \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_nanmin_##sfx(T *p, T v) {                                       \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && (kp_isnan_##sfx##_(old) || v < old));          \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_exch_##sfx(T *p, T v) {                                         \
    T old;                                                                                     \
    __atomic_exchange(p, &v, &old, KP_RELAXED);                                                \
    return old;                                                                                \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_cas_##sfx(T *p, T expected, T desired) {                        \
    __atomic_compare_exchange(p, &expected, &desired, 0, KP_RELAXED, KP_RELAXED);              \
    return expected;                                                                           \
  }

KP_ATOMIC_FLOAT_TYPES(KP_DEFINE_FLOAT_ATOMICS)
#include "atomics_half.h" /* _Float16, __bf16 and their pairs */

/* inc/dec with CUDA's wrap-around: inc stores (old >= limit) ? 0 : old + 1;
 * dec stores (old == 0 || old > limit) ? limit : old - 1. 32 bits: atom.inc/atom.dec on the
 * GPU; 64 bits: a compare-and-swap loop (the hardware has no 64-bit form). */
KP_ALWAYS_INLINE unsigned kp_atomic_inc_u32(unsigned *p, unsigned limit) {
  return kp_dev_atomic_inc_u32(p, limit);
}
KP_ALWAYS_INLINE unsigned kp_atomic_dec_u32(unsigned *p, unsigned limit) {
  return kp_dev_atomic_dec_u32(p, limit);
}
#define KP_DEFINE_INCDEC_CAS(sfx, T)                                                           \
  KP_ALWAYS_INLINE T kp_atomic_inc_##sfx(T *p, T limit) {                                      \
    KP_CAS_LOOP(T, p, limit, old >= limit ? 0 : old + 1);                                      \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_dec_##sfx(T *p, T limit) {                                      \
    KP_CAS_LOOP(T, p, limit, (old == 0 || old > limit) ? limit : old - 1);                     \
  }
KP_DEFINE_INCDEC_CAS(ul, unsigned long)
KP_DEFINE_INCDEC_CAS(u64, unsigned long long)

/* Type-generic front ends: the pointer's element type picks the function. */
#define KP_ATOMIC_ALL(op, p)                                                                   \
  _Generic((p), int *: kp_atomic_##op##_i32, unsigned *: kp_atomic_##op##_u32,                 \
           long *: kp_atomic_##op##_il, unsigned long *: kp_atomic_##op##_ul,                  \
           long long *: kp_atomic_##op##_i64, unsigned long long *: kp_atomic_##op##_u64,      \
           float *: kp_atomic_##op##_f32, double *: kp_atomic_##op##_f64                       \
               KP_ATOMIC_HALF_CASES_##op)
#define KP_ATOMIC_INTS(op, p)                                                                  \
  _Generic((p), int *: kp_atomic_##op##_i32, unsigned *: kp_atomic_##op##_u32,                 \
           long *: kp_atomic_##op##_il, unsigned long *: kp_atomic_##op##_ul,                  \
           long long *: kp_atomic_##op##_i64, unsigned long long *: kp_atomic_##op##_u64)
#define KP_ATOMIC_UNSIGNED(op, p)                                                              \
  _Generic((p), unsigned *: kp_atomic_##op##_u32, unsigned long *: kp_atomic_##op##_ul,        \
           unsigned long long *: kp_atomic_##op##_u64)

#endif /* KERNPLUG_DETAIL_ATOMICS_H */
