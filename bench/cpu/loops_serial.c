/* loops_serial.c — the serial side (loops.h): the OpenMP loops compiled without OpenMP
 * (-fopenmp-simd keeps only the `simd` pragmas). */
#include <math.h>

#define LOOP(name) serial_##name
#include "loops_impl.h"
#include "ufunc_loops_impl.h"
