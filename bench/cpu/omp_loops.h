/* omp_loops.h — the OpenMP side of the CPU benchmark (omp_loops.c, compiled without the
 * plugin): each function is the computation of one kernplug kernel of
 * bench/common/kp_kernels.h as a `parallel for` on `threads` threads. */
#ifndef KP_BENCH_OMP_LOOPS_H
#define KP_BENCH_OMP_LOOPS_H

void omp_vec_add(const float *x, const float *y, float *out, long n, int threads);
void omp_saxpy(float a, const float *x, float *y, long n, int threads);
void omp_gaussian_pdf(const float *x, float mean, float sigma, float *out, long n, int threads);
float omp_sum(const float *x, long n, int threads);
void omp_matmul_naive(const float *A, const float *B, float *C, int n, int threads);
void omp_matmul_tiled(const float *A, const float *B, float *C, int n, int threads);
/* The OpenMP runtime's name and version string (for the report). */
const char *omp_description(void);

#endif
