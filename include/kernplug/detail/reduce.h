/* kernplug/detail/reduce.h — what kp_reduce() expands to: a typed wrapper per element type
 * (kp_reduce_<type>) picked by _Generic from the array, over the runtime entry
 * kp_reduce_bytes. */
#ifndef KERNPLUG_DETAIL_REDUCE_H
#define KERNPLUG_DETAIL_REDUCE_H

#include "config.h"
#include "scalar_types.h"
#include "ufunc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Folds n elements of kp_type `type` at `in` with the reduce function f (spelled f_expr)
 * into *result (untouched when n == 0). Returns KP_SUCCESS or the error (which abort mode
 * has already reported). */
kp_error kp_reduce_bytes(const void *f, const char *f_expr, int type, const void *in,
                         long long n, void *result, kp_stream stream);

/* kp_reduce_<s>(f, f_expr, in, n, has_init, init, stream) for every type of KP_UFUNC_TYPES.
 * init is combined on the host, by calling f, so that it may be any value. */
#define KP_DEFINE_REDUCE(sfx, T, code, member)                                                 \
  KP_ALWAYS_INLINE T kp_reduce_##sfx(T (*f)(T, T), const char *f_expr, const T *in,             \
                                     long long n, int has_init, T init, kp_stream stream) {     \
    T r = 0;                                                                                   \
    if (kp_reduce_bytes((const void *)f, f_expr, (int)(code), in, n, &r, stream) != KP_SUCCESS \
        || n < 1)                                                                              \
      return has_init ? init : (T)0;                                                           \
    return has_init ? f(init, r) : r;                                                          \
  }
KP_UFUNC_TYPES(KP_DEFINE_REDUCE)

/* Never defined: an array of anything else (a struct, a pointer) fails to compile here. */
void kp_reduce_needs_an_array_of_arithmetic_values(void);
#ifndef __cplusplus
#define KP_REDUCE_PICK(in)                                                                     \
  _Generic(*(in), kp_bool_: kp_reduce_bool, char: kp_reduce_char, kp_schar_: kp_reduce_schar,  \
           kp_uchar_: kp_reduce_uchar, short: kp_reduce_short, kp_ushort_: kp_reduce_ushort,   \
           int: kp_reduce_int, kp_uint_: kp_reduce_uint, long: kp_reduce_long,                 \
           kp_ulong_: kp_reduce_ulong, kp_llong_: kp_reduce_llong,                             \
           kp_ullong_: kp_reduce_ullong, float: kp_reduce_float, double: kp_reduce_double,     \
           default: kp_reduce_needs_an_array_of_arithmetic_values)
#endif

#ifdef __cplusplus
}
/* C++: an overload per element type in place of the _Generic selection. */
#define KP_DEFINE_REDUCE_OF(sfx, T, code, member)                                              \
  KP_ALWAYS_INLINE T kp_reduce_of(T (*f)(T, T), const char *f_expr, const T *in, long long n,  \
                                  int has_init, T init, kp_stream stream) {                    \
    return kp_reduce_##sfx(f, f_expr, in, n, has_init, init, stream);                          \
  }
KP_UFUNC_TYPES(KP_DEFINE_REDUCE_OF)
#undef KP_DEFINE_REDUCE_OF
#define KP_REDUCE_PICK(in) kp_reduce_of
#endif

#endif /* KERNPLUG_DETAIL_REDUCE_H */
