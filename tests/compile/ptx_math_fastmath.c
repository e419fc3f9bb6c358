// Under -ffast-math math calls arrive as intrinsics (llvm.exp.f32, …); they
// map to libdevice too.
#include <kernplug.h>
#include <math.h>
__attribute__((kernel)) void m(float *f, double *d) {
  int i = grid(1);
  f[i] = expf(f[i]) + logf(f[i]) + cosf(f[i]);
  d[i] = pow(d[i], 1.5) + exp2(d[i]);
}
// Only libdevice-internal helpers may be called; nothing external remains.
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry m(
// PTX: ret;
