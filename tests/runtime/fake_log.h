/* fake_log.h — reading the fake driver's call log (FAKE_CUDA_LOG) back in a test program. */
#ifndef KP_FAKE_LOG_H
#define KP_FAKE_LOG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* The whole log so far (up to 1 MiB), NUL-terminated; the buffer is reused by each call. */
static inline char *read_log(void) {
  static char buf[1 << 20];
  FILE *f = fopen(getenv("FAKE_CUDA_LOG"), "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  buf[n] = '\0';
  if (f) fclose(f);
  return buf;
}

/* How often needle occurs in text. */
static inline int count(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

#define CHECK_LOG_COUNT(needle, n)                                                             \
  do {                                                                                         \
    int c_ = count(read_log(), needle);                                                        \
    CHECK_MSG(c_ == (n), "log has \"%s\" %d times, expected %d; log:\n%s", needle, c_, (n),    \
              read_log());                                                                     \
  } while (0)

#endif
