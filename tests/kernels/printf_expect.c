/* printf_expect.c — printf in a kernel: every thread prints a line, and thread 0 prints ints,
 * longs, doubles, a float (promoted to double as for any variadic call), strings, a char and
 * "%%". printf.cmake checks the lines: each on the CPU backend (threads in any order), thread
 * 0's in program order on a GPU. */
#include "kernel_test.h"

__attribute__((kernel)) void print_values(int n, double scale, long big) {
  int i = grid(1);
  if (i >= n) return;
  printf("thread %d of %d: %.3f\n", i, n, i * scale);
  if (i != 0) return;
  printf("int %d, negative %d, unsigned %u, hex %#x\n", 42, -7, 4000000000u, 255);
  printf("long %ld, long long %lld\n", big, -2 * (long long)big);
  printf("double %g %.2e %f\n", 0.125, 6.02e-23, -2.5);
  printf("float %.1f\n", 1.5f);
  printf("string %s, char %c, percent %%\n", "kernplug", 'k');
  printf("no arguments\n");
}

int main(void) {
  kt_start("printf_expect");
  fflush(stdout); /* before the kernel's lines, whoever writes them */
  launch(print_values, 2, 4)(8, 0.25, 1234567890123L);
  kp_synchronize();
  printf("printf_expect: done\n");
  return 0;
}
