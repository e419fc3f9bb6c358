/* detect.c — kp_detect(): what numba.cuda.detect() prints, or why kernels run on the CPU.
 * It never fails: when KP_BACKEND=cuda cannot start, printing the reason is its whole point. */
#include <stdio.h>

#include "backend/backend.h"

KP_EXPORT void kp_detect(void) {
  const kp_backend *be = kp_backend_peek();
  if (be) {
    be->detect();
  } else {
    printf("kernplug %d.%d.%d: no backend can run kernels\n", KP_VERSION_MAJOR,
           KP_VERSION_MINOR, KP_VERSION_PATCH);
    printf("Reason: %s\n", kp_backend_reason());
  }
  fflush(stdout);
}
