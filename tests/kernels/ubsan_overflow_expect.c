/* ubsan_overflow_expect.c — a signed overflow in a kernel, compiled with -fsanitize=undefined:
 * UBSan reports it with the kernel's file:line on the CPU (sanitizers.cmake checks the text),
 * and the device code prints its own report once (the .gpu test). */
#include "kernel_test.h"

#include <limits.h>

__attribute__((kernel)) void overflow(int *a, int n) {
  int i = grid(1);
  if (i < n) a[i] = a[i] + INT_MAX; /* line 10: overflows for a[i] > 0 */
}

int main(void) {
  kt_start("ubsan_overflow_expect");
  int h[4] = {0, 1, 2, 3};
  int *d = to_device(h, 4);
  launch(overflow, 1, 4)(d, 4);
  copy_to_host(h, d, 4);
  kp_synchronize();
  printf("ubsan_overflow_expect: a[0] = %d\n", h[0]);
  kp_free(d);
  return 0;
}
