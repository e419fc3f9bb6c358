/* fir_constant.c — a FIR filter whose taps live in constant memory, filled at run time
 * (CUDA C's __constant__ + cudaMemcpyToSymbol, numba's cuda.const.array_like), launched with
 * forall (numba's kernel.forall(n)) so that the occupancy calculator picks the block size,
 * and written once for float and double (a generic kernel dispatched with kp_generic).
 *
 *   taps = cuda.const.array_like(host_taps)      # fixed when the kernel compiles in numba;
 *   fir.forall(n)(signal, out, n)                # here refilled between launches
 *
 * Each output is checked against the same sum on the host. */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

enum { TAPS = 8, N = 100000 };

__attribute__((constant)) float taps_f32[TAPS];
__attribute__((constant)) double taps_f64[TAPS];

/* out[i] = sum_k taps[k] * in[i + k]; TAPS(T) names the constant array of T's precision. */
#define FIR_TAPS_float taps_f32
#define FIR_TAPS_double taps_f64
#define FIR_BODY(NAME, T)                                                                      \
  __attribute__((kernel)) void NAME(const T *in, T *out, int n) {                              \
    int i = grid(1);                                                                           \
    if (i >= n) return;                                                                        \
    T acc = 0;                                                                                 \
    for (int k = 0; k < TAPS; k++) acc += FIR_TAPS_##T[k] * in[i + k];                         \
    out[i] = acc;                                                                              \
  }
#define FIR_TYPES(X, ...) X(float, f32, __VA_ARGS__) X(double, f64, __VA_ARGS__)
KP_GENERIC_KERNELS(fir, FIR_BODY, FIR_TYPES)

#define RUN(T, TAPS_VAR, TOL)                                                                  \
  do {                                                                                         \
    T *in = managed_array(T, N + TAPS), *out = managed_array(T, N);                            \
    for (int i = 0; i < N + TAPS; i++) in[i] = (T)sin(i * 0.01);                               \
    for (int round = 0; round < 2; round++) {                                                  \
      T t[TAPS];                                                                               \
      for (int k = 0; k < TAPS; k++) t[k] = round ? (T)1 / TAPS : (T)(k + 1) / 36;             \
      kp_copy_to_constant(TAPS_VAR, t, sizeof t);                                              \
      forall(kp_generic(fir, FIR_TYPES, in), N)(in, out, N);                                   \
      kp_synchronize();                                                                        \
      for (int i = 0; i < N; i++) {                                                            \
        T want = 0;                                                                            \
        for (int k = 0; k < TAPS; k++) want += t[k] * in[i + k];                               \
        if (fabs((double)(out[i] - want)) > TOL) {                                             \
          fprintf(stderr, "fir<" #T "> round %d: out[%d] = %g, expected %g\n", round, i,       \
                  (double)out[i], (double)want);                                               \
          return 1;                                                                            \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
    int block = 0;                                                                             \
    kp_occupancy(kp_generic(fir, FIR_TYPES, in), 0, &block, NULL);                             \
    printf("fir<%s>: %d outputs, two sets of taps, forall's block %d threads\n", #T, N,        \
           block);                                                                             \
    kp_free(in);                                                                               \
    kp_free(out);                                                                              \
  } while (0)

int main(void) {
  example_start("fir_constant");
  RUN(float, taps_f32, 1e-5);
  RUN(double, taps_f64, 1e-12);
  return 0;
}
