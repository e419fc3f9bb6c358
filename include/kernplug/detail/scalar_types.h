/* kernplug/detail/scalar_types.h — one-word names of C's multi-word arithmetic types, for
 * token pasting (kp_shfl_idx_kp_uint_) and _Generic lists (warp.h, ufunc.h). */
#ifndef KERNPLUG_DETAIL_SCALAR_TYPES_H
#define KERNPLUG_DETAIL_SCALAR_TYPES_H

typedef unsigned kp_uint_;
typedef long long kp_llong_;
typedef unsigned long long kp_ullong_;
typedef unsigned long kp_ulong_;
#ifdef __cplusplus
typedef bool kp_bool_; /* the header stays includable from C++; the macros are C only */
#else
typedef _Bool kp_bool_;
#endif
typedef signed char kp_schar_;
typedef unsigned char kp_uchar_;
typedef unsigned short kp_ushort_;

#endif /* KERNPLUG_DETAIL_SCALAR_TYPES_H */
