/* kernplug/detail/warp.h — the typed shuffles behind warp.h (kp_shfl_<kind>_<type>_) and
 * the _Generic selection that picks one from the value's type. */
#ifndef KERNPLUG_DETAIL_WARP_H
#define KERNPLUG_DETAIL_WARP_H

#include "config.h"
#include "primitives.h"
#include "scalar_types.h"

#define KP_DEFINE_SHFL32(kind, T, L)                                                           \
  KP_ALWAYS_INLINE T kp_shfl_##kind##_##T##_(unsigned mask, T v, L lane) {                     \
    union { T v; int i; } u = {v};                                                             \
    u.i = kp_dev_shfl_##kind(mask, u.i, lane);                                                 \
    return u.v;                                                                                \
  }
#define KP_DEFINE_SHFL64(kind, T, N, L)                                                        \
  KP_ALWAYS_INLINE T kp_shfl_##kind##_##N##_(unsigned mask, T v, L lane) {                     \
    union { T v; int i[2]; } u = {v};                                                          \
    u.i[0] = kp_dev_shfl_##kind(mask, u.i[0], lane);                                           \
    u.i[1] = kp_dev_shfl_##kind(mask, u.i[1], lane);                                           \
    return u.v;                                                                                \
  }
#define KP_DEFINE_SHFL_KIND(kind, L)                                                           \
  KP_DEFINE_SHFL32(kind, int, L)                                                               \
  KP_DEFINE_SHFL32(kind, kp_uint_, L)                                                          \
  KP_DEFINE_SHFL32(kind, float, L)                                                             \
  KP_DEFINE_SHFL64(kind, long, long, L)                                                        \
  KP_DEFINE_SHFL64(kind, kp_ulong_, ulong, L)                                                  \
  KP_DEFINE_SHFL64(kind, kp_llong_, llong, L)                                                  \
  KP_DEFINE_SHFL64(kind, kp_ullong_, ullong, L)                                                \
  KP_DEFINE_SHFL64(kind, double, double, L)
KP_DEFINE_SHFL_KIND(idx, int)
KP_DEFINE_SHFL_KIND(up, unsigned)
KP_DEFINE_SHFL_KIND(down, unsigned)
KP_DEFINE_SHFL_KIND(xor, int)

/* Types narrower than int move as an int (as C promotes them) and come back as an int. */
#define KP_SHFL(kind, v)                                                                       \
  _Generic((v), int: kp_shfl_##kind##_int_, unsigned: kp_shfl_##kind##_kp_uint__,              \
           float: kp_shfl_##kind##_float_, long: kp_shfl_##kind##_long_,                       \
           unsigned long: kp_shfl_##kind##_ulong_, long long: kp_shfl_##kind##_llong_,         \
           unsigned long long: kp_shfl_##kind##_ullong_, double: kp_shfl_##kind##_double_,     \
           _Bool: kp_shfl_##kind##_int_, char: kp_shfl_##kind##_int_,                          \
           signed char: kp_shfl_##kind##_int_, unsigned char: kp_shfl_##kind##_int_,           \
           short: kp_shfl_##kind##_int_, unsigned short: kp_shfl_##kind##_int_)

#endif /* KERNPLUG_DETAIL_WARP_H */
