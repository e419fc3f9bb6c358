/* error.c — how runtime errors reach the user.
 *
 * Default: print "kernplug: error: <message>" and abort, because a failed launch or copy that
 * is silently ignored leaves wrong data behind (Numba raises). KP_ERRORS=return, or
 * kp_set_error_mode(KP_ERRORS_RETURN), records the error per host thread instead so that
 * code (and the runtime's tests) can inspect kp_last_error()/kp_last_error_message(). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"

enum { KP_MESSAGE_MAX = 4096 }; /* JIT logs are cut to fit; the first lines matter most */

static _Thread_local kp_error tls_last_error;
static _Thread_local char tls_last_message[KP_MESSAGE_MAX];

/* A backend that turns an abort() in kernel code into a failed launch (the CPU backend's
 * fault guard) must let the runtime's own abort through. */
static void backend_before_abort(void) {
  const kp_backend *be = kp_backend_chosen();
  if (be && be->before_abort) be->before_abort();
}

/* -1: not decided yet (read KP_ERRORS on first use), else a kp_error_mode. */
static atomic_int g_error_mode = -1;

static kp_error_mode error_mode(void) {
  int mode = atomic_load_explicit(&g_error_mode, memory_order_relaxed);
  if (mode >= 0) return (kp_error_mode)mode;
  const char *env = getenv("KP_ERRORS");
  int from_env = KP_ERRORS_ABORT;
  if (env && strcmp(env, "return") == 0) {
    from_env = KP_ERRORS_RETURN;
  } else if (env && *env && strcmp(env, "abort") != 0) {
    fprintf(stderr, "kernplug: warning: KP_ERRORS=%s is not 'abort' or 'return'; using abort\n",
            env);
  }
  int expected = -1;
  /* A concurrent kp_set_error_mode() wins over the environment. */
  atomic_compare_exchange_strong(&g_error_mode, &expected, from_env);
  return (kp_error_mode)atomic_load(&g_error_mode);
}

KP_EXPORT void kp_set_error_mode(kp_error_mode mode) {
  if (mode != KP_ERRORS_ABORT && mode != KP_ERRORS_RETURN) {
    kp_fail(KP_ERROR_INVALID_VALUE, "kp_set_error_mode: %d is not KP_ERRORS_ABORT or "
                                    "KP_ERRORS_RETURN", (int)mode);
    return;
  }
  atomic_store(&g_error_mode, (int)mode);
}

KP_EXPORT kp_error kp_last_error(void) {
  kp_error e = tls_last_error;
  tls_last_error = KP_SUCCESS;
  return e;
}

KP_EXPORT const char *kp_last_error_message(void) { return tls_last_message; }

kp_error kp_vfail(kp_error code, const char *fmt, va_list ap) {
  vsnprintf(tls_last_message, sizeof tls_last_message, fmt, ap);
  tls_last_error = code;
  if (error_mode() == KP_ERRORS_ABORT) {
    /* One fputs so that messages from several threads do not interleave mid-line. */
    char line[KP_MESSAGE_MAX + 32];
    snprintf(line, sizeof line, "kernplug: error: %s\n", tls_last_message);
    fputs(line, stderr);
    fflush(stderr);
    backend_before_abort();
    abort();
  }
  return code;
}

kp_error kp_fail(kp_error code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kp_error e = kp_vfail(code, fmt, ap);
  va_end(ap);
  return e;
}

void kp_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tls_last_message, sizeof tls_last_message, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kernplug: error: %s\n", tls_last_message);
  fflush(stderr);
  backend_before_abort();
  abort();
}
