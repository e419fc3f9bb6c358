/* ufunc_loops_impl.h — the loops of the two ufunc rows (loops.h), included with LOOP(name)
 * defined by loops_{omp,serial}{,_mvec}.c; the _mvec copies are compiled with
 * -fno-math-errno -fveclib=libmvec, as the kernplug ufuncs they are compared with. */
#include "loops.h"

#ifdef _OPENMP
#define UNUSED_THREADS(t) ((void)0)
#else
#define UNUSED_THREADS(t) ((void)(t))
#endif

void LOOP(uf_add)(const float *x, const float *y, float *out, long n, int threads) {
  UNUSED_THREADS(threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) out[i] = x[i] + y[i];
}

void LOOP(gaussian_pdf)(const float *x, float mean, float sigma, float *out, long n,
                        int threads) {
  UNUSED_THREADS(threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) {
    float z = (x[i] - mean) / sigma;
    out[i] = expf(-0.5f * z * z) / (sigma * 2.50662827463f);
  }
}
