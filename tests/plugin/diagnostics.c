// The passes' warnings are clang's backend-plugin warnings: -Werror makes them errors and
// -Wno-backend-plugin silences them, natively. (LLVM's warning about the device copy of the
// loop reaches the host's diagnostics as this one; the host copy's own is -Wpass-failed.)
// RUN: %clang -fplugin=%kernplug -I%include -Wno-pass-failed -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not %clang -fplugin=%kernplug -I%include -Wno-pass-failed -Werror -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: %clang -fplugin=%kernplug -I%include -Wno-pass-failed -Wno-backend-plugin -c %s -o %t.o 2>&1 | count 0
#include <kernplug.h>

// WARN: warning: kernplug: device code: loop not vectorized: {{.*}} [-Wbackend-plugin]
// ERROR: error: kernplug: device code: loop not vectorized: {{.*}} [-Werror,-Wbackend-plugin]
__attribute__((kernel)) void k(float *x, int n) {
  int i = grid(1);
#pragma clang loop vectorize(enable)
  for (int j = 0; j < n; j++) x[i] = x[i] * x[j] + 1.0f;
}
