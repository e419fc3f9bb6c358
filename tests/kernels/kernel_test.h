/* kernel_test.h — what the kernel-language tests share: the skip rule of the gpu variants
 * (exit 77 when KP_BACKEND=cuda finds no GPU) and checks that print where and why they failed.
 * Not part of kernplug's API. */
#ifndef KP_KERNEL_TEST_H
#define KP_KERNEL_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernplug.h"

/* Starts the runtime and returns the backend's name; exits 77 (CTest: skipped) when
 * KP_BACKEND=cuda finds no usable GPU. */
static inline const char *kt_start(const char *name) {
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
  printf("%s: %s backend\n", name, backend);
  return backend;
}

#define KT_CHECK(cond, ...)                                                                    \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                 \
      fprintf(stderr, __VA_ARGS__);                                                            \
      fputc('\n', stderr);                                                                     \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

#endif
