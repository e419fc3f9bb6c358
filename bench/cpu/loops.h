/* loops.h — the OpenMP and serial sides of the GPU idioms table: each computation of a
 * kernplug kernel written as the loop a C programmer would write. loops_impl.h holds them
 * once; loops_omp.c compiles it with -fopenmp (omp_*, a `parallel for` on `threads`
 * threads) and loops_serial.c without OpenMP (serial_*, the same loop on one thread; only
 * the `simd` pragmas are kept, with -fopenmp-simd). ufunc_loops_impl.h: the same for the
 * two ufunc computations, compiled four times (omp_/serial_, then omp_mvec_/serial_mvec_
 * with -fno-math-errno -fveclib=libmvec). */
#ifndef KP_BENCH_LOOPS_H
#define KP_BENCH_LOOPS_H

#define KP_BENCH_LOOP_DECLS(P)                                                                 \
  void P##vec_add(const float *x, const float *y, float *out, long n, int threads);          \
  float P##sum(const float *x, long n, int threads);                                         \
  void P##histogram(const unsigned char *v, long n, unsigned *bins, int threads);            \
  void P##block_scan(const int *in, int *out, long n, int block, int threads);               \
  void P##hotspot(const float *temp, const float *power, float *scratch, float *out,         \
                  int rows, int cols, float k, float dt, int steps, int threads);            \
  void P##conv2d(const float *A, float *B, int ni, int nj, int threads);                     \
  void P##matmul_naive(const float *A, const float *B, float *C, int n, int threads);        \
  void P##matmul_tiled(const float *A, const float *B, float *C, int n, int threads);        \
  void P##empty(long iters, int threads);

#define KP_BENCH_UFUNC_LOOP_DECLS(P)                                                           \
  void P##uf_add(const float *x, const float *y, float *out, long n, int threads);           \
  void P##gaussian_pdf(const float *x, float mean, float sigma, float *out, long n,          \
                       int threads);

KP_BENCH_LOOP_DECLS(omp_)
KP_BENCH_LOOP_DECLS(serial_)
KP_BENCH_UFUNC_LOOP_DECLS(omp_)
KP_BENCH_UFUNC_LOOP_DECLS(serial_)
KP_BENCH_UFUNC_LOOP_DECLS(omp_mvec_)
KP_BENCH_UFUNC_LOOP_DECLS(serial_mvec_)

/* The OpenMP runtime's version (for the report). */
const char *omp_description(void);

/* PolyBench-ACC 2DCONV's coefficients, shared by the kernel and the loops. */
#define CONV_C11 0.2f
#define CONV_C21 0.5f
#define CONV_C31 (-0.8f)
#define CONV_C12 (-0.3f)
#define CONV_C22 0.6f
#define CONV_C32 (-0.9f)
#define CONV_C13 0.4f
#define CONV_C23 0.7f
#define CONV_C33 0.10f
/* The convolution at interior point (i, j) of the ni x nj matrix A: one expression for the
 * kernel and the loops, so that both sides compute the same sums in the same order. */
#define CONV_AT(A, i, j, nj)                                                                   \
  (CONV_C11 * (A)[((i) - 1) * (nj) + ((j) - 1)] + CONV_C12 * (A)[(i) * (nj) + ((j) - 1)] +       \
   CONV_C13 * (A)[((i) + 1) * (nj) + ((j) - 1)] + CONV_C21 * (A)[((i) - 1) * (nj) + (j)] +       \
   CONV_C22 * (A)[(i) * (nj) + (j)] + CONV_C23 * (A)[((i) + 1) * (nj) + (j)] +                   \
   CONV_C31 * (A)[((i) - 1) * (nj) + ((j) + 1)] + CONV_C32 * (A)[(i) * (nj) + ((j) + 1)] +       \
   CONV_C33 * (A)[((i) + 1) * (nj) + ((j) + 1)])

#endif
