// assert() and abort() in device code (runtime/device/trap.c): a failed assert calls the
// driver's __assertfail (CUDA_ERROR_ASSERT, with file, line, function and thread printed),
// abort() traps (CUDA_ERROR_LAUNCH_FAILED), as with nvcc.
#undef NDEBUG
#include <assert.h>
#include <kernplug.h>
#include <stdlib.h>
__attribute__((kernel)) void checked(int *a, int n) {
  int i = grid(1);
  assert(i < n);
  if (a[i] < 0) abort();
  a[i] += 1;
}
// PTX: .extern .func __assertfail
// PTX-LABEL: .visible .entry checked(
// PTX: __assertfail,
// PTX: trap;
