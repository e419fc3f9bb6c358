/* kernel_test.h — what the kernel-language tests share: the skip rule of the gpu variants
 * (exit 77 when KP_BACKEND=cuda finds no GPU, from the examples' helper) and checks that print
 * where and why they failed (the runtime tests' CHECK_MSG). Not part of kernplug's API. */
#ifndef KP_KERNEL_TEST_H
#define KP_KERNEL_TEST_H

#include "../../examples/example_util.h"
#include "../runtime/test_util.h"

/* Starts the runtime and returns the backend's name; exits 77 (CTest: skipped) when
 * KP_BACKEND=cuda finds no usable GPU. */
static inline const char *kt_start(const char *name) {
  const char *backend = example_start(name);
  printf("%s: %s backend\n", name, backend);
  return backend;
}

#define KT_CHECK(cond, ...) CHECK_MSG(cond, __VA_ARGS__)

/* Makes each named mistake in KP_ERRORS_RETURN mode (and leaves that mode on): `mistake`
 * returns the error it must cause, which must be the one reported; each message is printed
 * for the CTest expectations. */
static inline void kt_each_mistake_returns(kp_error (*mistake)(const char *),
                                           const char *const *names, size_t count) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  for (size_t i = 0; i < count; i++) {
    kp_error want = mistake(names[i]);
    kp_error got = kp_last_error();
    KT_CHECK(got == want, "%s: error %d, expected %d (%s)", names[i], (int)got, (int)want,
             kp_last_error_message());
    printf("%s: %s\n", names[i], kp_last_error_message());
  }
}

#endif
