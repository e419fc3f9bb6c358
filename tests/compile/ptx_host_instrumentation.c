// Host instrumentation flags on a file with kernels: entry/exit hooks (-finstrument-functions,
// -pg), profile counters (-fprofile-instr-generate: "Cannot select llvm.instrprof.increment"
// before) and patchable entries (a .p2align ptxas rejects) stay out of the PTX.
#include <kernplug.h>

__attribute__((device)) int twice(int x) { return x > 0 ? 2 * x : -x; }
__attribute__((kernel)) void scale(int *a, int n) {
  int i = grid(1);
  if (i < n) a[i] = twice(a[i]);
}
// PTX-NOT: {{__cyg_profile|mcount|__profc|__llvm_prf|p2align}}
// PTX: .visible .entry scale(
// PTX-NOT: {{__cyg_profile|mcount|__profc|__llvm_prf|p2align}}
