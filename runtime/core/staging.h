/* staging.h — a host range moved through a temporary device array for one call
 * (staging.c). */
#ifndef KP_STAGING_H
#define KP_STAGING_H

#include <stddef.h>

#include "backend/backend.h"

/* A host range staged for one call: `device` is what the kernel uses, either a temporary
 * device array (staged) or the host range itself, used in place. */
typedef struct kp_staging {
  const void *user; /* the host range */
  void *device;
  size_t bytes;
  int staged;    /* device is a temporary that kp_unstage releases */
  int is_output; /* kp_unstage copies the temporary back first */
} kp_staging;

/* Stages `bytes` at host: a temporary device array, filled from host when copy_in, copied
 * back by kp_unstage when copy_back (or is_output set later). Used in place instead when
 * nothing needs moving (the backend's kernels can use the host range itself, or no bytes)
 * unless `always`: launch's transfers copy on the CPU too, so that a program behaves alike
 * on both backends. `what` names the argument in messages. On failure s is safe to
 * kp_unstage. */
kp_error kp_stage(const kp_backend *be, kp_staging *s, const void *host, size_t bytes,
                  int copy_in, int copy_back, int always, const char *what);
/* Copies back if staged and is_output, releases the temporary, zeroes s; safe on a failed or
 * zeroed s. Returns the first error. */
kp_error kp_unstage(const kp_backend *be, kp_staging *s, const char *what);

#endif /* KP_STAGING_H */
