/* launch_bounds_errors_expect.c — a launch over a kernel's launch_bounds stops with a message
 * naming the kernel and the bound (launch_bounds.cmake), on the CPU backend as on a GPU (on
 * the fake driver: before any cuLaunchKernel); forall on the fake driver caps the
 * occupancy answer (768 threads) at the bound.
 * Usage: kt_launch_bounds_errors_expect <scenario> */
#include "kernel_test.h"

__attribute__((kernel, launch_bounds(256))) void bounded(int *a, int n) {
  int i = grid(1);
  if (i < n) a[i] = i;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  kt_start("launch_bounds_errors");
  int *d = device_array(int, 100000);
  if (!strcmp(what, "over")) {
    launch(bounded, 1, 512)(d, 512);
  } else if (!strcmp(what, "over_2d")) {
    launch(bounded, 1, dim3(32, 16))(d, 512);
  } else if (!strcmp(what, "return_mode")) {
    kp_set_error_mode(KP_ERRORS_RETURN);
    launch(bounded, 1, 257)(d, 257);
    KT_CHECK(kp_last_error() == KP_ERROR_LAUNCH, "no error for 257 threads");
    launch(bounded, 1, 256)(d, 256);
    kp_synchronize();
    KT_CHECK(kp_last_error() == KP_SUCCESS, "256 threads refused");
  } else if (!strcmp(what, "forall")) {
    forall(bounded, 100000)(d, 100000);
    kp_synchronize();
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", what);
    return 2;
  }
  kp_free(d);
  printf("launch_bounds_errors %s: finished\n", what);
  return 0;
}
