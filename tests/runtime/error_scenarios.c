/* error_scenarios.c — one user mistake or environment problem per run, in the default error
 * mode (print "kernplug: error: …" and abort). run_expect.cmake runs it, requires a failing
 * exit and checks the message on stderr; "detect_*" scenarios print kp_detect() and exit 0.
 * Usage: error_scenarios <scenario> */
#include <string.h>

#include "hand_kernels.h"
#include "test_util.h"

static float h[1000];

static int run(const char *s) {
  if (!strcmp(s, "detect")) {
    kp_detect();
    return 0;
  }
  if (!strcmp(s, "backend_name")) {
    printf("backend: %s\n", kp_backend_name());
    return 0;
  }
  float *d = to_device(h, 1000);
  if (!strcmp(s, "no_launch")) foo(d, d);
  else if (!strcmp(s, "zero_blocks")) launch(foo, 0, 10)(d, d);
  else if (!strcmp(s, "negative_threads")) launch(foo, 1, -3)(d, d);
  else if (!strcmp(s, "too_many_threads")) launch(foo, 1, 2048)(d, d);
  else if (!strcmp(s, "threads_768")) launch(foo, 1, 768)(d, d);
  else if (!strcmp(s, "grid_too_big")) launch(foo, dim3(1, 1, 70000), 1)(d, d);
  else if (!strcmp(s, "barrier_cpu")) launch(with_barrier, 1, 10)(d);
  else if (!strcmp(s, "warp_cpu")) launch(with_warp, 1, 10)((int *)d);
  else if (!strcmp(s, "unflagged_barrier")) launch(unflagged_barrier, 1, 10)(d);
  else if (!strcmp(s, "not_a_kernel")) launch(not_a_kernel, 1, 1)((int *)h);
  else if (!strcmp(s, "double_free")) {
    kp_free(d);
    kp_free(d);
  } else if (!strcmp(s, "copy_too_much")) copy_to_host(h, d, 1001);
  else if (!strcmp(s, "copy_unknown")) copy_to_device(h, d, 1);
  else if (!strcmp(s, "launch")) { /* for the CUDA fake: a launch, then a synchronising copy */
    launch(scale, 8, 125)(d, 2.0f, 1000);
    copy_to_host(h, d, 1000);
    kp_synchronize();
    kp_free(d);
    return 0;
  } else if (!strcmp(s, "dyn_shared_64k") || !strcmp(s, "static_shared_64k")) {
    /* 64 KiB of dynamic shared memory: over the CPU default, an opt-in on a GPU */
    if (s[0] == 'd') launch(dyn_shared, 1, 32, 64 * 1024)((int *)d);
    else launch(static_shared, 1, 32, 64 * 1024)((int *)d);
    kp_synchronize();
    puts("launched");
    return 0;
  } else if (!strcmp(s, "missing_entry")) launch(missing_entry, 1, 1)((int *)d);
  else {
    fprintf(stderr, "error_scenarios: unknown scenario '%s'\n", s);
    return 2;
  }
  fprintf(stderr, "error_scenarios: scenario '%s' did not stop the program\n", s);
  return 0; /* run_expect.cmake fails the test: an error was expected */
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: error_scenarios <scenario>\n");
    return 2;
  }
  return run(argv[1]);
}
