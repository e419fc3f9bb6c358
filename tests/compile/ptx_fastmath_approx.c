// -ffast-math is nvcc's --use_fast_math: expf, sinf, cosf, logf, powf, ... become the fast
// intrinsics (__expf: ex2.approx; __sinf: sin.approx), float subnormals are flushed (.ftz),
// and double functions stay libdevice's accurate ones. (Run with -ffast-math; the same
// kernel without it is ptx_precise_math.c.)
#include <kernplug.h>
#include <math.h>
__attribute__((kernel)) void approx(float *f, double *d) {
  int i = grid(1);
  f[i] = expf(f[i]) + sinf(f[i + 1]) * cosf(f[i + 2]) + logf(f[i + 3]) + powf(f[i + 4], f[i + 5]) +
         log2f(f[i + 6]) + f[i + 7] / f[i + 8];
  d[i] = sin(d[i]);
}
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry approx(
// PTX-DAG: ex2.approx.ftz.f32
// PTX-DAG: sin.approx.ftz.f32
// PTX-DAG: cos.approx.ftz.f32
// PTX-DAG: lg2.approx.ftz.f32
// PTX-DAG: div.approx.ftz.f32
// PTX-NOT: sin.approx.f64
// PTX: ret;
