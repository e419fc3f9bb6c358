/* native_handles.c — the driver objects behind kernplug's (kernplug/cuda_interop.h):
 * kp_cuda_stream and kp_cuda_context; kp_stream_from_cuda, which makes a handle, is in
 * stream.c. The backend answers through its native_context hook; a backend without one (the
 * CPU backend) has no driver objects, which is an error here rather than a NULL that a CUDA
 * library would take for its legacy default stream or "no context". */
#include <stdio.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/stream.h"

/* The backend, if it has driver objects; else reports why not and returns NULL. */
static const kp_backend *driver_backend(const char *what) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  if (be->native_context) return be;
  const char *why = kp_backend_reason();
  kp_fail(KP_ERROR_UNSUPPORTED,
          "%s: kernels run on the %s backend, which has no CUDA driver objects%s%s%s; CUDA "
          "libraries need the CUDA backend (a GPU, KP_BACKEND=cuda)",
          what, be->name, why && *why ? " (" : "", why && *why ? why : "",
          why && *why ? ")" : "");
  return NULL;
}

KP_EXPORT void *kp_cuda_stream(kp_stream s) {
  char what[96], label[64];
  snprintf(what, sizeof what, "kp_cuda_stream(%s)", kp_stream_label(s, label, sizeof label));
  if (!driver_backend(what) || kp_stream_check(s, "%s", what)) return NULL;
  return s ? s->h.native : NULL;
}

KP_EXPORT void *kp_cuda_context(void) {
  const kp_backend *be = driver_backend("kp_cuda_context()");
  void *ctx = NULL;
  if (be) be->native_context(&ctx, "kp_cuda_context()");
  return ctx;
}
