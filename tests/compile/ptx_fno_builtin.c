// -fno-builtin leaves memset/memcpy/memmove as calls, which no device library defines (ptxas:
// "Unresolved extern function 'memset'"): the device module gets LLVM's intrinsics instead.
#include <kernplug.h>
#include <string.h>
__attribute__((kernel)) void k(int *out, int v) {
  int buf[8];
  memset(buf, v, sizeof buf);
  buf[grid(1) % 8] = grid(1);
  memmove(buf + 1, buf, 7 * sizeof(int));
  memcpy(out + 8 * grid(1), buf, sizeof buf);
}
// PTX-LABEL: .visible .entry k(
// PTX-NOT: memset
// PTX-NOT: memcpy
// PTX-NOT: memmove
// PTX: ret;
