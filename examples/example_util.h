/* example_util.h — two helpers the examples share: a wall-clock timer and the skip rule of
 * the `gpu` test variants (exit 77 when KP_BACKEND=cuda finds no usable GPU, so that CTest
 * reports the test as skipped instead of failed). Not part of kernplug's API. */
#ifndef KP_EXAMPLE_UTIL_H
#define KP_EXAMPLE_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernplug.h"

static inline double example_now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC); /* C11: no POSIX needed under -std=c17 */
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Starts the runtime; when the backend cannot start because there is no GPU, prints why and
 * exits 77. Any other error keeps the default behaviour (message + abort). */
static inline const char *example_start(const char *name) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  const char *backend = kp_backend_name();
  kp_error e = kp_last_error();
  kp_set_error_mode(KP_ERRORS_ABORT);
  if (e == KP_ERROR_NO_DEVICE) {
    printf("%s: skipped: %s\n", name, kp_last_error_message());
    exit(77);
  }
  if (e != KP_SUCCESS) {
    fprintf(stderr, "%s: %s\n", name, kp_last_error_message());
    exit(1);
  }
  return backend;
}

/* A standard normal sample (np.random.normal's role), reproducible from *seed: Box-Muller
 * over a 64-bit LCG. */
static inline double example_normal(unsigned long long *seed) {
  double u[2];
  for (int k = 0; k < 2; k++) {
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    u[k] = ((double)(*seed >> 11) + 0.5) / 9007199254740992.0;
  }
  return sqrt(-2 * log(u[0])) * cos(2 * 3.14159265358979323846 * u[1]);
}

#endif
