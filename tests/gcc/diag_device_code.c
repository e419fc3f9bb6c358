/* Device-code errors come from clang's half (kernplug.so), at the original lines, once;
 * GCC adds one line saying the kernel side failed. Host warnings are GCC's only, printed
 * once (GCC's come first: it parses the whole file before clang runs). */
#include <kernplug.h>

int main(void) {
  int unused;
  // DIAG: diag_device_code.c:[[@LINE-1]]:{{[0-9]+}}: warning: unused variable 'unused'
  // DIAG-NOT: unused variable
  return 0;
}

int counter;
void host_only(void);

__attribute__((kernel)) void k(int *x) {
  x[0] = counter;
  // DIAG: diag_device_code.c:[[@LINE-1]]:{{[0-9]+}}: error: device code cannot use the non-const global variable 'counter'
  // DIAG-NOT: unused variable
  host_only();
  // DIAG: diag_device_code.c:[[@LINE-1]]:{{[0-9]+}}: error: 'host_only' has no definition in this file
  // DIAG-NOT: unused variable
  // DIAG: error: kernplug-gcc: the kernel side of '{{.*}}diag_device_code.c', compiled by '{{.*}}clang{{.*}}', failed (its messages are above)
  // DIAG-NOT: unused variable
}
