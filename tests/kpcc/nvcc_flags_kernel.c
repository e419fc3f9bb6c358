/* nvcc_flags_kernel.c — a kernel whose PTX shows the effect of -lineinfo (.loc) and
 * --use_fast_math (div.approx, sin.approx, .ftz) for nvcc_flags.sh. */
#include <kernplug.h>
#include <math.h>

__attribute__((kernel)) void roots(float *y, const float *x, int n) {
  int i = grid(1);
  if (i < n) y[i] = sqrtf(x[i]) / x[i] + sinf(x[i]);
}
