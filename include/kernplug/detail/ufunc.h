/* kernplug/detail/ufunc.h — how ufunc() and gufunc() pass their arguments: each packed with
 * its element type by a _Generic selection (KP_UARG), counted (KP_NARGS), and handed to the
 * runtime entries kp_ufunc_call and kp_gufunc_call. The plugin's ufunc checks
 * (plugin/frontend/UfuncCallChecks.cpp) read this expansion in the AST: kp_ufunc_call's
 * arguments and the kp_uarg_* packers, by name. */
#ifndef KERNPLUG_DETAIL_UFUNC_H
#define KERNPLUG_DETAIL_UFUNC_H

#include "config.h"
#include "scalar_types.h"
#include "../stream.h"
#include "../runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element types, as in signature strings (kp_type_short_name gives "i8" ... "f64"). */
typedef enum kp_type {
  KP_TYPE_I8, KP_TYPE_I16, KP_TYPE_I32, KP_TYPE_I64,
  KP_TYPE_U8, KP_TYPE_U16, KP_TYPE_U32, KP_TYPE_U64,
  KP_TYPE_F32, KP_TYPE_F64,
  KP_TYPE_F16, /* _Float16 (numba's float16); appended, the codes are the ABI's */
  KP_TYPE_COUNT
} kp_type;

/* One packed argument: v.p for arrays; v.i, v.u or v.f for a signed, unsigned or floating
 * scalar (the widest of its kind, so that the runtime converts exactly once). */
typedef struct kp_ufunc_arg {
  int type;     /* kp_type of the element (of the scalar for scalars) */
  int is_array; /* a pointer: one element per index */
  int is_const; /* a pointer to const (never an output) */
  union {
    const void *p;
    long long i;
    unsigned long long u;
    double f;
  } v;
} kp_ufunc_arg;

/* The kp_type of C's integer types, whose widths the ABI picks. */
#define KP_TYPE_OF_INT(T, is_signed)                                                           \
  (sizeof(T) == 1   ? ((is_signed) ? KP_TYPE_I8 : KP_TYPE_U8)                                  \
   : sizeof(T) == 2 ? ((is_signed) ? KP_TYPE_I16 : KP_TYPE_U16)                                \
   : sizeof(T) == 4 ? ((is_signed) ? KP_TYPE_I32 : KP_TYPE_U32)                                \
                    : ((is_signed) ? KP_TYPE_I64 : KP_TYPE_U64))

/* X(suffix, C type, kp_type, union member) for every arithmetic type a ufunc accepts.
 * _Bool is an unsigned byte (0 or 1); plain char follows its signedness. */
#define KP_UFUNC_TYPES(X)                                                                      \
  X(bool, kp_bool_, KP_TYPE_U8, u)                                                             \
  X(char, char, KP_TYPE_OF_INT(char, (char)-1 < 0), i)                                         \
  X(schar, kp_schar_, KP_TYPE_I8, i)                                                           \
  X(uchar, kp_uchar_, KP_TYPE_U8, u)                                                           \
  X(short, short, KP_TYPE_I16, i)                                                              \
  X(ushort, kp_ushort_, KP_TYPE_U16, u)                                                        \
  X(int, int, KP_TYPE_OF_INT(int, 1), i)                                                       \
  X(uint, kp_uint_, KP_TYPE_OF_INT(unsigned, 0), u)                                            \
  X(long, long, KP_TYPE_OF_INT(long, 1), i)                                                    \
  X(ulong, kp_ulong_, KP_TYPE_OF_INT(unsigned long, 0), u)                                    \
  X(llong, kp_llong_, KP_TYPE_I64, i)                                                          \
  X(ullong, kp_ullong_, KP_TYPE_U64, u)                                                        \
  X(float, float, KP_TYPE_F32, f)                                                              \
  X(double, double, KP_TYPE_F64, f)                                                            \
  KP_UFUNC_HALF_TYPE_(X)
/* _Float16 where the compiler has it: clang, and GCC (12 on x86-64) in C, not in C++ before
 * GCC 13 (__FLT16_MAX__ says it is there); __bf16 has no signature type. */
#if defined(__FLT16_MAX__) && (defined(__clang__) || !defined(__cplusplus))
#define KP_UFUNC_HALF_TYPE_(X) X(half, _Float16, KP_TYPE_F16, f)
#define KP_UARG_HALF_CASES_                                                                    \
  const _Float16 *: kp_uarg_array_half, _Float16 *: kp_uarg_mut_half,                          \
      _Float16: kp_uarg_scalar_half,
#else
#define KP_UFUNC_HALF_TYPE_(X)
#define KP_UARG_HALF_CASES_
#endif

/* kp_uarg_array_<s>(const T *), kp_uarg_mut_<s>(T *), kp_uarg_scalar_<s>(T). A plain char
 * scalar is signed or unsigned like char itself; its value goes in v.i (it fits). */
#define KP_DEFINE_UARG(sfx, T, code, member)                                                   \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_array_##sfx(const T *p) {                              \
    kp_ufunc_arg a = {(int)(code), 1, 1, {p}};                                                 \
    return a;                                                                                  \
  }                                                                                            \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_mut_##sfx(T *p) {                                      \
    kp_ufunc_arg a = {(int)(code), 1, 0, {p}};                                                 \
    return a;                                                                                  \
  }                                                                                            \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_scalar_##sfx(T x) {                                    \
    kp_ufunc_arg a = {(int)(code), 0, 0, {0}};                                                 \
    a.v.member = x;                                                                            \
    return a;                                                                                  \
  }
KP_UFUNC_TYPES(KP_DEFINE_UARG)

/* Packs one ufunc argument. Anything else (void *, a struct, a pointer to pointer, a 2D
 * array: pass &a[0][0]) selects this function, which takes no argument, so the call fails to
 * compile with its name in the message. */
kp_ufunc_arg kp_ufunc_argument_must_be_an_arithmetic_value_or_a_pointer_to_one(void);
#ifndef __cplusplus
#define KP_UARG(x)                                                                             \
  _Generic((x),                                                                                \
      const kp_bool_ *: kp_uarg_array_bool, kp_bool_ *: kp_uarg_mut_bool,                      \
      kp_bool_: kp_uarg_scalar_bool,                                                           \
      const char *: kp_uarg_array_char, char *: kp_uarg_mut_char, char: kp_uarg_scalar_char,   \
      const kp_schar_ *: kp_uarg_array_schar, kp_schar_ *: kp_uarg_mut_schar,                  \
      kp_schar_: kp_uarg_scalar_schar,                                                         \
      const kp_uchar_ *: kp_uarg_array_uchar, kp_uchar_ *: kp_uarg_mut_uchar,                  \
      kp_uchar_: kp_uarg_scalar_uchar,                                                         \
      const short *: kp_uarg_array_short, short *: kp_uarg_mut_short,                          \
      short: kp_uarg_scalar_short,                                                             \
      const kp_ushort_ *: kp_uarg_array_ushort, kp_ushort_ *: kp_uarg_mut_ushort,              \
      kp_ushort_: kp_uarg_scalar_ushort,                                                       \
      const int *: kp_uarg_array_int, int *: kp_uarg_mut_int, int: kp_uarg_scalar_int,         \
      const kp_uint_ *: kp_uarg_array_uint, kp_uint_ *: kp_uarg_mut_uint,                      \
      kp_uint_: kp_uarg_scalar_uint,                                                           \
      const long *: kp_uarg_array_long, long *: kp_uarg_mut_long, long: kp_uarg_scalar_long,   \
      const kp_ulong_ *: kp_uarg_array_ulong, kp_ulong_ *: kp_uarg_mut_ulong,                \
      kp_ulong_: kp_uarg_scalar_ulong,                                                        \
      const kp_llong_ *: kp_uarg_array_llong, kp_llong_ *: kp_uarg_mut_llong,                  \
      kp_llong_: kp_uarg_scalar_llong,                                                         \
      const kp_ullong_ *: kp_uarg_array_ullong, kp_ullong_ *: kp_uarg_mut_ullong,              \
      kp_ullong_: kp_uarg_scalar_ullong,                                                       \
      const float *: kp_uarg_array_float, float *: kp_uarg_mut_float,                          \
      float: kp_uarg_scalar_float,                                                             \
      const double *: kp_uarg_array_double, double *: kp_uarg_mut_double,                      \
      double: kp_uarg_scalar_double,                                                           \
      KP_UARG_HALF_CASES_                                                                      \
      default: kp_ufunc_argument_must_be_an_arithmetic_value_or_a_pointer_to_one)(x)
#endif

/* KP_NARGS(a, ...): how many arguments (1 to 12); KP_UARGS(a, ...): KP_UARG of each. */
#define KP_NARGS(...) KP_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, )
#define KP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N, ...) N
#define KP_UARGS(...) KP_UARGS_N_(KP_NARGS(__VA_ARGS__), __VA_ARGS__)
#define KP_UARGS_N_(n, ...) KP_UARGS_N2_(n, __VA_ARGS__)
#define KP_UARGS_N2_(n, ...) KP_UARGS_##n(__VA_ARGS__)
#define KP_UARGS_1(a) KP_UARG(a)
#define KP_UARGS_2(a, ...) KP_UARG(a), KP_UARGS_1(__VA_ARGS__)
#define KP_UARGS_3(a, ...) KP_UARG(a), KP_UARGS_2(__VA_ARGS__)
#define KP_UARGS_4(a, ...) KP_UARG(a), KP_UARGS_3(__VA_ARGS__)
#define KP_UARGS_5(a, ...) KP_UARG(a), KP_UARGS_4(__VA_ARGS__)
#define KP_UARGS_6(a, ...) KP_UARG(a), KP_UARGS_5(__VA_ARGS__)
#define KP_UARGS_7(a, ...) KP_UARG(a), KP_UARGS_6(__VA_ARGS__)
#define KP_UARGS_8(a, ...) KP_UARG(a), KP_UARGS_7(__VA_ARGS__)
#define KP_UARGS_9(a, ...) KP_UARG(a), KP_UARGS_8(__VA_ARGS__)
#define KP_UARGS_10(a, ...) KP_UARG(a), KP_UARGS_9(__VA_ARGS__)
#define KP_UARGS_11(a, ...) KP_UARG(a), KP_UARGS_10(__VA_ARGS__)
#define KP_UARGS_12(a, ...) KP_UARG(a), KP_UARGS_11(__VA_ARGS__)

/* Runs the vectorize function f (spelled f_expr) over n elements: args[0] is the output
 * array, args[1..nargs-1] the inputs in f's parameter order. Host arrays are copied to the
 * device and the output back; device arrays stay where they are. Returns KP_SUCCESS or the
 * error (which abort mode has already reported). */
kp_error kp_ufunc_call(const void *f, const char *f_expr, long long n, kp_stream stream,
                       int nargs, const kp_ufunc_arg *args);

/* Runs the guvectorize function f (spelled f_expr) over n blocks; args are f's nargs
 * arguments packed with KP_UARG. Host arrays are copied to the device (inputs and outputs)
 * and the outputs back; device arrays stay where they are. Returns KP_SUCCESS or the error
 * (which abort mode has already reported). */
kp_error kp_gufunc_call(const void *f, const char *f_expr, long long n, kp_stream stream,
                        int nargs, const kp_ufunc_arg *args);

#ifdef __cplusplus
}
/* C++ has neither _Generic nor array compound literals: an overload per packer picks the
 * element type (anything else matches none, or several), and a variadic template builds the
 * array. The runtime entries are the same. */
#define KP_DEFINE_UARG_OF(sfx, T, code, member)                                                \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_of(const T *p) { return kp_uarg_array_##sfx(p); }      \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_of(T *p) { return kp_uarg_mut_##sfx(p); }              \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_of(T x) { return kp_uarg_scalar_##sfx(x); }
KP_UFUNC_TYPES(KP_DEFINE_UARG_OF)
#undef KP_DEFINE_UARG_OF
template <class... A>
static inline kp_error kp_ufunc_call_of(const void *f, const char *f_expr, long long n,
                                        kp_stream stream, A... a) {
  const kp_ufunc_arg args[] = {kp_uarg_of(a)...};
  return kp_ufunc_call(f, f_expr, n, stream, (int)sizeof...(A), args);
}
template <class... A>
static inline kp_error kp_gufunc_call_of(const void *f, const char *f_expr, long long n,
                                         kp_stream stream, A... a) {
  const kp_ufunc_arg args[] = {kp_uarg_of(a)...};
  return kp_gufunc_call(f, f_expr, n, stream, (int)sizeof...(A), args);
}
#endif

#endif /* KERNPLUG_DETAIL_UFUNC_H */
