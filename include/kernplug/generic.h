/* kernplug/generic.h — one kernel body for several element types, picked at the launch by
 * _Generic: the C answer to numba's per-type specialisation (docs/kernels.md, "Generic
 * kernels").
 *
 *   // The types, as a list macro: X(T, S, ...) for each element type T with suffix S.
 *   #define SAXPY_TYPES(X, ...) X(float, f32, __VA_ARGS__) X(double, f64, __VA_ARGS__)
 *   // The body once, as a macro of the kernel's name and T.
 *   #define SAXPY_BODY(NAME, T)                                                  \
 *     __attribute__((kernel)) void NAME(T *y, const T *x, T a, int n) {          \
 *       int i = grid(1);                                                         \
 *       if (i < n) y[i] = a * x[i] + y[i];                                       \
 *     }
 *   KP_GENERIC_KERNELS(saxpy, SAXPY_BODY, SAXPY_TYPES)   // saxpy_f32, saxpy_f64
 *   ...
 *   launch(kp_generic(saxpy, SAXPY_TYPES, y), blocks, threads)(y, x, a, n);
 *
 * kp_generic(name, TYPES, array) is name_<S> for the T of *array (const or not), a compile
 * error ("controlling expression type ... not compatible with any generic association type")
 * for an array of a type the list lacks. Each instance is an ordinary kernel: it has its own
 * name in messages, remarks and profiles, and forall() and kp_occupancy() take it too. */
#ifndef KERNPLUG_GENERIC_H
#define KERNPLUG_GENERIC_H

/* Ready-made lists (T, suffix) in the shape KP_GENERIC_KERNELS and kp_generic expect. */
#define KP_GENERIC_REAL_TYPES(X, ...) X(float, f32, __VA_ARGS__) X(double, f64, __VA_ARGS__)
#define KP_GENERIC_INT_TYPES(X, ...)                                                           \
  X(int, i32, __VA_ARGS__) X(unsigned, u32, __VA_ARGS__) X(long long, i64, __VA_ARGS__)        \
  X(unsigned long long, u64, __VA_ARGS__)
#define KP_GENERIC_NUMERIC_TYPES(X, ...)                                                       \
  KP_GENERIC_REAL_TYPES(X, __VA_ARGS__) KP_GENERIC_INT_TYPES(X, __VA_ARGS__)

#define KP_GENERIC_NAME(name, S) name##_##S
#define KP_GENERIC_DEFINE_ONE(T, S, name, BODY) BODY(KP_GENERIC_NAME(name, S), T)
/* Defines BODY(name_<S>, T) for each (T, S) of TYPES. */
#define KP_GENERIC_KERNELS(name, BODY, TYPES) TYPES(KP_GENERIC_DEFINE_ONE, name, BODY)

/* Each association starts with its comma, so that the list needs no trailing element. */
#define KP_GENERIC_ASSOC(T, S, name, unused) , T : KP_GENERIC_NAME(name, S)
#ifndef __cplusplus
/* The instance of `name` for the element type of `array` (a pointer or an array). */
#define kp_generic(name, TYPES, array) _Generic(*(array)TYPES(KP_GENERIC_ASSOC, name, ~))
#endif

#endif /* KERNPLUG_GENERIC_H */
