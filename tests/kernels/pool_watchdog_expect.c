/* pool_watchdog_expect.c — KP_CPU_TIMEOUT_MS on each of the pool's launch paths: an endless
 * kernel launched as one block (run on the launching thread alone), as 3 small blocks (the
 * launching thread and any spinning worker) and as a grid large enough to wake sleeping
 * workers, with pauses before the launches so that the workers are asleep, and back to back.
 * Each launch fails with the watchdog's message (return mode) and the next computes right;
 * pool.cmake runs it with KP_CPU_TIMEOUT_MS=200. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <time.h>

#include "kernel_test.h"

/* Never returns while *stop is 0 (volatile: the loop cannot be assumed to end). */
__attribute__((kernel)) void endless(int *stop, int *out) {
  int i = grid(1);
  while (*(volatile int *)stop == 0) {
  }
  out[i] = i;
}

__attribute__((kernel)) void iota(int *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = i;
}

enum { N = 160 * 256 }; /* the largest grid: above pool.c's KP_POOL_WAKE_THREADS */

static void check_iota(int *d, unsigned blocks, unsigned threads) {
  static int h[N];
  int n = (int)(blocks * threads);
  launch(iota, blocks, threads)(d, n);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "iota %ux%u: %s", blocks, threads,
           kp_last_error_message());
  copy_to_host(h, d, n);
  for (int i = 0; i < n; i++) KT_CHECK(h[i] == i, "iota %ux%u: out[%d] = %d", blocks, threads, i, h[i]);
}

int main(void) {
  kt_start("pool_watchdog");
  kp_set_error_mode(KP_ERRORS_RETURN);
  int *stop = device_array(int, 1), *out = device_array(int, N);
  int zero = 0;
  copy_to_device(stop, &zero, 1);
  static const unsigned grids[][2] = {{1, 32}, {3, 32}, {160, 256}};
  for (int pause = 0; pause < 2; pause++) {
    for (int g = 0; g < 3; g++) {
      if (pause) {
        struct timespec ts = {0, 20 * 1000 * 1000}; /* the workers fall asleep */
        nanosleep(&ts, NULL);
      }
      launch(endless, grids[g][0], grids[g][1])(stop, out);
      kp_error e = kp_last_error();
      KT_CHECK(e == KP_ERROR_LAUNCH, "endless %ux%u: error %d, expected a launch error",
               grids[g][0], grids[g][1], (int)e);
      printf("endless %ux%u: %s\n", grids[g][0], grids[g][1], kp_last_error_message());
      check_iota(out, grids[g][0], grids[g][1]);
    }
  }
  kp_free(stop);
  kp_free(out);
  printf("pool_watchdog: finished\n");
  return 0;
}
