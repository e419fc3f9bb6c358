/* loops_omp.c — the OpenMP side (loops.h), compiled with -fopenmp. */
#include <math.h>
#include <omp.h>
#include <stdio.h>

#define LOOP(name) omp_##name
#include "loops_impl.h"
#include "ufunc_loops_impl.h"

const char *omp_description(void) {
  static char buf[64];
  snprintf(buf, sizeof buf, "OpenMP %d", _OPENMP);
  return buf;
}
