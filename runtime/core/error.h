/* error.h — how the runtime reports errors (error.c). */
#ifndef KP_ERROR_H
#define KP_ERROR_H

#include <stdarg.h>

#include "core/common.h"

/* Records `code` with a formatted message for kp_last_error(); in abort mode prints
 * "kernplug: error: <message>" to stderr and aborts. Returns `code` in return mode so that
 * callers can write `return kp_fail(...)`. */
kp_error kp_fail(kp_error code, const char *fmt, ...) KP_PRINTF(2, 3);
kp_error kp_vfail(kp_error code, const char *fmt, va_list ap);
/* For errors after which nothing can continue (a device primitive the CPU cannot honour
 * called from inside a kernel): prints and aborts whatever the error mode. */
KP_NORETURN void kp_fatal(const char *fmt, ...) KP_PRINTF(1, 2);

#endif /* KP_ERROR_H */
