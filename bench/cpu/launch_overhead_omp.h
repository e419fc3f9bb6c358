/* launch_overhead_omp.h — the OpenMP loops of launch_overhead.c (launch_overhead_omp.c). */
#ifndef KP_BENCH_LAUNCH_OVERHEAD_OMP_H
#define KP_BENCH_LAUNCH_OVERHEAD_OMP_H

/* An empty `parallel for` over n iterations on `threads` threads. */
void lo_omp_empty(long n, int threads);
/* out = x + y over n elements on `threads` threads. */
void lo_omp_vec_add(const float *x, const float *y, float *out, long n, int threads);

#endif
