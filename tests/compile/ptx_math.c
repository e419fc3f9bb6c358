// math.h maps to libdevice and leaves no external call.
#include <kernplug.h>
#include <math.h>
__attribute__((kernel)) void m(float *f, double *d) {
  int i = grid(1);
  f[i] = expf(f[i]) + sinf(f[i]) + powf(f[i], 2.5f) + sqrtf(f[i]) + fabsf(f[i]);
  d[i] = exp(d[i]) + log(d[i]) + atan2(d[i], 2.0) + erf(d[i]) + tgamma(d[i]);
}
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry m(
// PTX: ex2.approx
// PTX-NOT: call
// PTX: ret;
