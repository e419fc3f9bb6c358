// LLVM's warnings about device code, made on the device job's thread, reach clang's
// diagnostics, as errors under -Werror; the host copy of the kernel warns on its own.
#include <kernplug.h>
__attribute__((kernel)) void k(float *x, int n) {
  int i = grid(1);
#pragma clang loop vectorize(enable)
  for (int j = 0; j < n; j++) x[i] = x[i] * x[j] + 1.0f;
}
// DIAG: error: loop not vectorized
// DIAG: error: kernplug: device code: loop not vectorized: the optimizer was unable to perform the requested transformation
