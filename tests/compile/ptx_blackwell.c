// Clang 22 only (tests/compile/CMakeLists.txt): PTX for sm_100 with cubins for sm_100 and
// sm_120. LLVM picks the oldest PTX ISA each target allows (8.6 for sm_100), which CUDA 13's
// ptxas assembles; check.sh assembles it for sm_100 and sm_120.
#include <kernplug.h>
__attribute__((kernel)) void saxpy(float a, const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) y[i] = a * x[i] + y[i];
}
// PTX: .version 8.6
// PTX: .target sm_100
// PTX-LABEL: .visible .entry saxpy(
// PTX: fma.rn.f32
