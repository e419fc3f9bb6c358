/* forall_errors_expect.c — forall() and kp_occupancy() used wrongly (forall.cmake lists the
 * messages), and the CUDA path on the fake driver: the block size forall asks the occupancy
 * calculator for, with the launch's dynamic shared memory, and the grid it then launches.
 * Usage: kt_forall_errors_expect <scenario> */
#include "kernel_test.h"

__attribute__((kernel)) void fill(int *a, int v, int n) {
  int i = grid(1);
  if (i < n) a[i] = v;
}

static void plain(int *a, int v, int n) {
  for (int i = 0; i < n; i++) a[i] = v;
}

/* Launches for the fake driver's log (forall.cmake checks the lines). */
static void fake(void) {
  int *d = device_array(int, 1000000);
  forall(fill, 1000000)(d, 1, 1000000); /* the fake's 768 threads: 1303 blocks */
  forall(fill, 100)(d, 2, 100);         /* 100 tasks: one block of 128 threads */
  forall(fill, 5000, 4096)(d, 3, 5000); /* dynamic shared bytes reach the calculator */
  int block = 0, min_grid = 0;
  KT_CHECK(kp_occupancy(fill, 0, &block, &min_grid) == KP_SUCCESS, "kp_occupancy");
  printf("kp_occupancy(fill): block %d, min_grid %d\n", block, min_grid);
  kp_synchronize();
  kp_free(d);
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  kt_start("forall_errors");
  int a[4];
  if (!strcmp(what, "negative")) {
    forall(fill, -3)(a, 0, 4);
  } else if (!strcmp(what, "plain")) {
    forall(plain, 4)(a, 0, 4);
  } else if (!strcmp(what, "occupancy_plain")) {
    kp_occupancy(plain, 0, NULL, NULL);
  } else if (!strcmp(what, "return_mode")) {
    kp_set_error_mode(KP_ERRORS_RETURN);
    a[0] = 5;
    forall(fill, -1)(a, 0, 4);
    KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "negative n: no error");
    forall(plain, 1)(a, 0, 1);
    KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE && a[0] == 5,
             "a plain function ran or no error");
    KT_CHECK(kp_occupancy(plain, 0, NULL, NULL) == KP_ERROR_INVALID_VALUE, "occupancy(plain)");
    kp_last_error();
  } else if (!strcmp(what, "fake")) {
    fake();
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", what);
    return 2;
  }
  printf("forall_errors %s: finished\n", what);
  return 0;
}
