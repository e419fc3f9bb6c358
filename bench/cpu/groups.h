/* groups.h — the rows of the GPU idioms table, by the file that holds their kernels. Each
 * function allocates its inputs, hands its rows to the harness (harness.h) and frees them.
 * o->check_only picks small sizes. */
#ifndef KP_BENCH_GROUPS_H
#define KP_BENCH_GROUPS_H

#include "harness.h"

/* idioms_seeds.c: the seeds' and the documentation's kernels (bench/common/kp_kernels.h) */
void rows_grid_stride(const bench_opts *o); /* grid-stride add; seed 004's atomic sum */
void rows_matmul(const bench_opts *o, int m); /* tiled and naive matmul, m x m */
void rows_launch(const bench_opts *o);        /* empty launches; vector add at 10^3..10^5 */
void rows_other(const bench_opts *o);         /* not target rows: vector add 2^27, kp_reduce */
/* idioms_ufunc.c and idioms_ufunc_mvec.c: ufunc add and gaussian_pdf, default flags and
 * -fno-math-errno -fveclib=libmvec on both sides */
void rows_ufunc(const bench_opts *o);
void rows_ufunc_mvec(const bench_opts *o);
/* idioms_shared.c: shared memory and barriers (Rodinia, cuda-samples, PolyBench-ACC style) */
void rows_shared(const bench_opts *o);

/* Device arrays of random inputs (the CPU backend's device memory is host memory, which the
 * OpenMP and serial loops read directly). */
float *bench_device_uniform(long n, unsigned long long seed, float lo, float hi);

#endif
