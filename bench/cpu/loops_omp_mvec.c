/* loops_omp_mvec.c — the OpenMP ufunc loops compiled with -fno-math-errno -fveclib=libmvec. */
#include <math.h>

#define LOOP(name) omp_mvec_##name
#include "ufunc_loops_impl.h"
