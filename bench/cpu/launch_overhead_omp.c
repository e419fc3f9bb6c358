/* launch_overhead_omp.c — the OpenMP side of launch_overhead.c, compiled with -fopenmp and
 * without the plugin: an empty `parallel for` (the fork/join alone) and a vector add, each on
 * a fixed number of threads with a static schedule. */
#include "launch_overhead_omp.h"

#include <omp.h>

/* The loop body is an empty asm that the compiler must keep, so the loop and its schedule
 * are not optimised away; the fork and join are what is measured. */
void lo_omp_empty(long n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) __asm__ __volatile__("" ::: "memory");
}

void lo_omp_vec_add(const float *x, const float *y, float *out, long n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) out[i] = x[i] + y[i];
}
