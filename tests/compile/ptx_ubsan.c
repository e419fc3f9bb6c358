// -fsanitize=undefined (and integer): the device code reports each failed check once per
// source location with printf (vprintf) instead of calling the UBSan runtime; the CPU copy
// keeps clang's checks (tests/kernels/ubsan_overflow_expect.c).
#include <kernplug.h>

__attribute__((kernel)) void checks(int *a, int n, unsigned s) {
  int i = grid(1);
  int local[4] = {1, 2, 3, 4};
  if (i < n) a[i] = a[i] * 3 + (1 << s) + local[s] + a[i] / n;
}
// PTX-NOT: __ubsan
// PTX: kp_$_ubsan_$_msg
// PTX: kp_$_ubsan_$_reported
// PTX-LABEL: .visible .entry checks(
// PTX: atom.global.exch.b32
// PTX: vprintf
// PTX-NOT: __ubsan
