// -g with a call that stays a call (recursion through a volatile frame): NVPTX 19 prints a
// debug label inside the multi-line call.uni sequence, which ptxas rejects; the plugin drops
// those labels.
#include <kernplug.h>
__attribute__((device)) int deep(int d) {
  volatile int frame[4];
  frame[d & 3] = d;
  int below = d > 0 ? deep(d - 1) : 0;
  return below + frame[d & 3];
}
__attribute__((kernel)) void k(int *out, int d) {
  out[grid(1)] = deep(d);
}
// PTX: call.uni
// PTX-NOT: $L__tmp
// PTX: .loc {{[0-9]+}} 12
