/* loops_serial_mvec.c — the serial ufunc loops compiled with -fno-math-errno
 * -fveclib=libmvec (and -fopenmp-simd, without OpenMP). */
#include <math.h>

#define LOOP(name) serial_mvec_##name
#include "ufunc_loops_impl.h"
