/* test_util.h — assertions for the runtime tests (no test framework: a failed check prints
 * where and why and exits 1, which CTest reports as a failure). */
#ifndef KP_TEST_UTIL_H
#define KP_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernplug.h"

#define CHECK(cond)                                                                            \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                 \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

#define CHECK_MSG(cond, ...)                                                                   \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                 \
      fprintf(stderr, __VA_ARGS__);                                                            \
      fputc('\n', stderr);                                                                     \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

/* The last runtime error must be `code` and its message must contain `text`. */
#define CHECK_ERROR(code, text) check_error_at(__FILE__, __LINE__, (code), (text))
static inline void check_error_at(const char *file, int line, kp_error code, const char *text) {
  const char *msg = kp_last_error_message();
  kp_error got = kp_last_error();
  if (got != code || !strstr(msg, text)) {
    fprintf(stderr, "%s:%d: expected error %d containing \"%s\"; got error %d: \"%s\"\n", file,
            line, (int)code, text, (int)got, msg);
    exit(1);
  }
}

/* No error since the last check. */
#define CHECK_NO_ERROR()                                                                       \
  do {                                                                                         \
    kp_error e_ = kp_last_error();                                                             \
    CHECK_MSG(e_ == KP_SUCCESS, "unexpected error %d: %s", (int)e_, kp_last_error_message());  \
  } while (0)

#endif
