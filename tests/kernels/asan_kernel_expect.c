/* asan_kernel_expect.c — a kernel writing one element past its device array, compiled with
 * -fsanitize=address: ASan stops it on the CPU backend, naming the kernel's CPU entry
 * (sanitizers.cmake), because the plugin's generated CPU entries keep the kernel's
 * sanitize_address attribute. */
#include "kernel_test.h"

__attribute__((kernel)) void past_the_end(int *a, int n) {
  int i = grid(1);
  if (i < n) a[i + 1] = i; /* the last thread writes a[n] */
}

int main(void) {
  kt_start("asan_kernel_expect");
  int *d = device_array(int, 64);
  launch(past_the_end, 1, 64)(d, 64);
  kp_synchronize();
  printf("asan_kernel_expect: not detected\n");
  kp_free(d);
  return 0;
}
