/* asan_kernel_expect.c — a kernel writing one element past a local array, compiled with
 * -fsanitize=address: ASan stops it on the CPU backend, naming the kernel's CPU entry
 * (sanitizers.cmake), because the plugin's generated CPU entries keep the kernel's
 * sanitize_address attribute. (Device arrays have guard pages of their own on the CPU
 * backend: the runtime reports an access past one without ASan.) */
#include "kernel_test.h"

__attribute__((kernel)) void past_the_end(int *out, int n) {
  int i = grid(1);
  int local[4] = {0, 0, 0, 0};
  local[i % (n + 1)] = i; /* i % 5 == 4 writes local[4] */
  out[i] = local[0] + local[1] + local[2] + local[3];
}

int main(void) {
  kt_start("asan_kernel_expect");
  int *d = device_array(int, 64);
  launch(past_the_end, 1, 64)(d, 4);
  kp_synchronize();
  printf("asan_kernel_expect: not detected\n");
  kp_free(d);
  return 0;
}
