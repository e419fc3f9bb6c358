/* staging.c — a host range moved through a temporary device array for the length of one
 * call: launch()'s automatic transfers of pinned and registered arrays (transfers.c) and the
 * host array operands of ufunc, gufunc and kp_reduce (ufunc_common.c). One primitive, so the
 * two agree on when to copy in, copy back and release. */
#include <string.h>

#include "core/staging.h"

/* Whether a kernel on `be` can use [host, host + bytes) only through a device copy. */
static int copy_needed(const kp_backend *be, const void *host, size_t bytes) {
  return bytes && (!be->host_range_needs_copy || be->host_range_needs_copy(host, bytes));
}

kp_error kp_stage(const kp_backend *be, kp_staging *s, const void *host, size_t bytes,
                  int copy_in, int copy_back, int always, const char *what) {
  *s = (kp_staging){host, NULL, bytes, 0, copy_back};
  if (!always && !copy_needed(be, host, bytes)) { /* nothing to move */
    s->device = (void *)(uintptr_t)host;
    return KP_SUCCESS;
  }
  void *d = NULL;
  kp_error err = be->alloc(bytes, &d, what);
  if (err) return err;
  s->device = d;
  s->staged = 1;
  if (copy_in && bytes) return be->to_device(d, host, bytes, what);
  return KP_SUCCESS;
}

kp_error kp_unstage(const kp_backend *be, kp_staging *s, const char *what) {
  kp_error err = KP_SUCCESS;
  if (s->staged) {
    if (s->is_output && s->bytes)
      err = be->to_host((void *)(uintptr_t)s->user, s->device, s->bytes, what);
    kp_error freed = be->release(s->device, s->bytes, what);
    if (!err) err = freed;
  }
  memset(s, 0, sizeof *s);
  return err;
}
