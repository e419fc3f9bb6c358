// The atomics with kernplug/atomics.h alone: every operation, every type it takes.
#include "kernplug/atomics.h"

#define USE_ALL(T)                                                                           \
  T use_all_##T(T *p) {                                                                      \
    return kp_atomic_add(p, 1) + kp_atomic_sub(p, 1) + kp_atomic_max(p, 1) +                 \
           kp_atomic_min(p, 1) + kp_atomic_nanmax(p, 1) + kp_atomic_nanmin(p, 1) +           \
           kp_atomic_exch(p, 1) + kp_atomic_cas(p, 1, 2);                                    \
  }
#define USE_INT(T)                                                                           \
  T use_int_##T(T *p) { return kp_atomic_and(p, 1) | kp_atomic_or(p, 2) ^ kp_atomic_xor(p, 3); }
#define USE_UNSIGNED(T)                                                                      \
  T use_unsigned_##T(T *p) { return kp_atomic_inc(p, 9) + kp_atomic_dec(p, 9); }

typedef long long llong;
typedef unsigned long ulong;
typedef unsigned long long ullong;
USE_ALL(int) USE_ALL(unsigned) USE_ALL(long) USE_ALL(ulong) USE_ALL(llong) USE_ALL(ullong)
USE_ALL(float) USE_ALL(double)
USE_INT(int) USE_INT(unsigned) USE_INT(long) USE_INT(ulong) USE_INT(llong) USE_INT(ullong)
USE_UNSIGNED(unsigned) USE_UNSIGNED(ulong) USE_UNSIGNED(ullong)
