/* kernplug/atomics.h — atomics for device code. Each returns the value *p held immediately
 * before the operation took effect. Relaxed ordering, as CUDA's. Types and NaN rules follow
 * numba-cuda's cuda.atomic (docs/kernels.md#atomics has the table): add, sub, max, min,
 * nanmax, nanmin, exch and cas take a pointer to int, unsigned, long, unsigned long,
 * long long, unsigned long long, float or double; and, or and xor the integer types; inc and
 * dec the unsigned ones.
 */
#ifndef KERNPLUG_ATOMICS_H
#define KERNPLUG_ATOMICS_H

#include "detail/atomics.h"

#define kp_atomic_add(p, v) KP_ATOMIC_ALL(add, p)((p), (v))
#define kp_atomic_sub(p, v) KP_ATOMIC_ALL(sub, p)((p), (v))
#define kp_atomic_max(p, v) KP_ATOMIC_ALL(max, p)((p), (v))
#define kp_atomic_min(p, v) KP_ATOMIC_ALL(min, p)((p), (v))
#define kp_atomic_nanmax(p, v) KP_ATOMIC_ALL(nanmax, p)((p), (v))
#define kp_atomic_nanmin(p, v) KP_ATOMIC_ALL(nanmin, p)((p), (v))
#define kp_atomic_exch(p, v) KP_ATOMIC_ALL(exch, p)((p), (v))
#define kp_atomic_cas(p, expected, desired) KP_ATOMIC_ALL(cas, p)((p), (expected), (desired))
#define kp_atomic_and(p, v) KP_ATOMIC_INTS(and, p)((p), (v))
#define kp_atomic_or(p, v) KP_ATOMIC_INTS(or, p)((p), (v))
#define kp_atomic_xor(p, v) KP_ATOMIC_INTS(xor, p)((p), (v))
#define kp_atomic_inc(p, limit) KP_ATOMIC_UNSIGNED(inc, p)((p), (limit))
#define kp_atomic_dec(p, limit) KP_ATOMIC_UNSIGNED(dec, p)((p), (limit))

#endif /* KERNPLUG_ATOMICS_H */
