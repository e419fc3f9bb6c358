/* memcheck_overrun_expect.c — a kernel writing y[n], one element past a device array, the
 * bug a checker must see although the CPU backend's guard page (256-byte aligned arrays) would
 * not: under AddressSanitizer and under valgrind's memcheck the runtime allocates device arrays
 * with the checker's malloc, exactly sized, so the report names the kernel's CPU entry and the
 * array's origin (this file's device_array line). memcheck.cmake runs it both ways. */
#include "kernel_test.h"

__attribute__((kernel)) void off_by_one(const float *x, float *y, int n) {
  int i = grid(1);
  if (i <= n) /* should be i < n */
    y[i] = 2.0f * x[i % n];
}

int main(void) {
  kt_start("memcheck_overrun_expect");
  int n = 1000;
  float *x = device_array(float, n);
  float *y = device_array(float, n); /* the array overrun: memcheck.cmake looks for this line */
  for (int i = 0; i < n; i++)
    x[i] = (float)i;
  launch(off_by_one, 4, 256)(x, y, n);
  kp_synchronize();
  printf("memcheck_overrun_expect: not detected\n");
  kp_free(x);
  kp_free(y);
  return 0;
}
