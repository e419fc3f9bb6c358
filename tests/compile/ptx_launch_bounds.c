// launch_bounds(max_threads[, min_blocks]) is .maxntid / .minnctapersm on the kernel's entry,
// as nvcc writes __launch_bounds__; maxrregcount=N (the test's option) is .maxnreg N on every
// kernel. ptxas assembles it (ptx label).
#include <kernplug.h>

__attribute__((kernel, launch_bounds(256, 2))) void bounded(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] *= 2;
}
// PTX-LABEL: .entry bounded(
// PTX: .maxntid 256{{(, 1, 1)?$}}
// PTX-NEXT: .minnctapersm 2
// PTX-NEXT: .maxnreg 40

__attribute__((kernel)) __attribute__((launch_bounds(1024))) void wide(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] += 1;
}
// PTX-LABEL: .entry wide(
// PTX: .maxntid 1024{{(, 1, 1)?$}}
// PTX-NOT: .minnctapersm
// PTX-NEXT: .maxnreg 40

__attribute__((kernel)) void unbounded(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] -= 1;
}
// PTX-LABEL: .entry unbounded(
// PTX-NOT: .maxntid
// PTX: .maxnreg 40
