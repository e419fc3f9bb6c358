// Without -ffast-math the float math functions are libdevice's accurate ones: no sin.approx
// (sinf reduces its argument and evaluates a polynomial), and / is div.rn.f32, not .ftz.
// (ptx_fastmath_approx.c is the same kernel under -ffast-math.)
#include <kernplug.h>
#include <math.h>
__attribute__((kernel)) void precise(float *f, double *d) {
  int i = grid(1);
  f[i] = expf(f[i]) + sinf(f[i + 1]) * cosf(f[i + 2]) + logf(f[i + 3]) + powf(f[i + 4], f[i + 5]) +
         log2f(f[i + 6]) + f[i + 7] / f[i + 8];
  d[i] = sin(d[i]);
}
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry precise(
// PTX-NOT: sin.approx
// PTX-NOT: div.approx
// PTX: div.rn.f32
// PTX-NOT: sin.approx
// PTX-NOT: div.approx
// PTX: ret;
