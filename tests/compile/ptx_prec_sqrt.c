// libdevice functions built on sqrt (hypotf here) use the correctly rounded sqrt.rn, as nvcc
// does by default, not sqrt.approx (LLVM 19 answers __CUDA_PREC_SQRT with 0 on its own).
#include <kernplug.h>
#include <math.h>
__attribute__((kernel)) void k(float *out, const float *a, const float *b) {
  int i = grid(1);
  out[i] = hypotf(a[i], b[i]);
}
// PTX-LABEL: .entry k
// PTX-NOT: sqrt.approx
// PTX: sqrt.rn.f32
// PTX-NOT: sqrt.approx
