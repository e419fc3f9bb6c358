/* generic_kernels.c — one kernel body over several element types (kernplug/generic.h): each
 * instance runs on its own type (integer division and float rounding differ, so a wrong
 * instance gives other numbers), kp_generic picks by the array's element type through const,
 * and forall takes a generic instance too. */
#include "kernel_test.h"

#define AXPY_TYPES(X, ...) X(float, f32, __VA_ARGS__) X(double, f64, __VA_ARGS__) X(int, i32, __VA_ARGS__)
#define AXPY_BODY(NAME, T)                                                                     \
  __attribute__((kernel)) void NAME(T *y, const T *x, T a, int n) {                            \
    int i = grid(1);                                                                           \
    if (i < n) y[i] = a * x[i] / 3 + y[i];                                                     \
  }
KP_GENERIC_KERNELS(axpy, AXPY_BODY, AXPY_TYPES)

/* The ready-made list: the sum of a block's elements by atomics, on every numeric type. */
#define SUM_BODY(NAME, T)                                                                      \
  __attribute__((kernel)) void NAME(const T *x, T *sum, int n) {                               \
    int i = grid(1);                                                                           \
    if (i < n) atomic_add(sum, x[i]);                                                          \
  }
KP_GENERIC_KERNELS(sum, SUM_BODY, KP_GENERIC_NUMERIC_TYPES)

enum { N = 1000 };

#define RUN_AXPY(T, FMT)                                                                       \
  do {                                                                                         \
    T *y = managed_array(T, N), *x = managed_array(T, N);                                      \
    for (int i = 0; i < N; i++) x[i] = (T)(i % 17), y[i] = (T)1;                               \
    const T *cx = x;                                                                           \
    launch(kp_generic(axpy, AXPY_TYPES, y), (N + 127) / 128, 128)(y, cx, (T)2, N);             \
    kp_synchronize();                                                                          \
    for (int i = 0; i < N; i++) {                                                              \
      T want = (T)2 * x[i] / 3 + (T)1;                                                         \
      KT_CHECK(y[i] == want, "axpy<" #T ">: y[%d] = " FMT ", expected " FMT, i, y[i], want);    \
    }                                                                                          \
    forall(kp_generic(axpy, AXPY_TYPES, cx), N)(y, cx, (T)3, N);                               \
    kp_synchronize();                                                                          \
    for (int i = 0; i < N; i++) {                                                              \
      T want = (T)3 * x[i] / 3 + ((T)2 * x[i] / 3 + (T)1);                                     \
      KT_CHECK(y[i] == want, "forall axpy<" #T ">: y[%d] = " FMT ", expected " FMT, i, y[i],    \
               want);                                                                          \
    }                                                                                          \
    kp_free(x);                                                                                \
    kp_free(y);                                                                                \
  } while (0)

#define RUN_SUM(T, S)                                                                          \
  do {                                                                                         \
    T *x = managed_array(T, N), *s = managed_array(T, 1);                                      \
    long long want = 0;                                                                        \
    for (int i = 0; i < N; i++) x[i] = (T)(i % 5), want += i % 5;                              \
    *s = 0;                                                                                    \
    forall(kp_generic(sum, KP_GENERIC_NUMERIC_TYPES, x), N)(x, s, N);                          \
    kp_synchronize();                                                                          \
    KT_CHECK((long long)*s == want, "sum_" #S ": %lld, expected %lld", (long long)*s, want);   \
    kp_free(x);                                                                                \
    kp_free(s);                                                                                \
  } while (0)

int main(void) {
  kt_start("generic_kernels");
  RUN_AXPY(float, "%g");
  RUN_AXPY(double, "%g");
  RUN_AXPY(int, "%d");
  /* Not KP_GENERIC_NUMERIC_TYPES(RUN_SUM, ~): a list macro cannot be used inside its own
   * expansion (kp_generic names it), so each type is spelled out. */
  RUN_SUM(float, f32);
  RUN_SUM(double, f64);
  RUN_SUM(int, i32);
  RUN_SUM(unsigned, u32);
  RUN_SUM(long long, i64);
  RUN_SUM(unsigned long long, u64);
  printf("generic_kernels: every instance ran on its type\n");
  return 0;
}
