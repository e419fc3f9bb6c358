/* env.c — reading numeric settings from the environment with messages that name the
 * variable, because a typo in KP_NUM_THREADS should not silently mean "one per core". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/env.h"

/* Parses a whole number in [min, max] from `name`; the message says the range. */
static long long env_in_range(const char *name, long long fallback, long long min, long long max,
                              char *why, size_t why_size) {
  const char *s = getenv(name);
  if (!s || !*s) return fallback;
  char *end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end != '\0' || v < min || v > max) {
    snprintf(why, why_size, "%s=%s is not a whole number between %lld and %lld", name, s, min,
             max);
    return -1;
  }
  return v;
}

long long kp_env_positive(const char *name, long long fallback, long long max, char *why,
                          size_t why_size) {
  return env_in_range(name, fallback, 1, max, why, why_size);
}

long long kp_env_nonnegative(const char *name, long long fallback, long long max, char *why,
                             size_t why_size) {
  return env_in_range(name, fallback, 0, max, why, why_size);
}
