/* cuda_stream.c — streams and events of the CUDA backend (its stream and event hooks), on the
 * driver's CUstream and CUevent.
 *
 * Streams are created with CU_STREAM_DEFAULT, i.e. blocking: the legacy default stream (the
 * NULL stream: launches without a stream, the synchronous copies of copies.c) waits for them
 * and they wait for it, so mixing synchronous calls with streams stays ordered;
 * kp_stream_create_with_flags(KP_STREAM_NON_BLOCKING) makes a CU_STREAM_NON_BLOCKING one,
 * which opts out of that order. Events keep
 * timing enabled. A stream or event belongs to the device the creating thread used; work on it
 * runs in that device's context, whichever device the calling thread has selected. stream.c
 * has already checked every handle and range. */
#include <stdint.h>

#include "backend/cuda/cuda_backend.h"
#include "core/stream.h"

/* Live non-blocking streams: while there are any, freeing device memory waits for the whole
 * device (cuda_memory.c), since the legacy default stream that orders frees does not wait for
 * them. */
static int g_non_blocking;

static CUstream native_stream(kp_stream s) { return s ? (CUstream)s->h.native : NULL; }
static CUevent native_event(kp_event e) { return (CUevent)e->h.native; }

/* Work on s needs s's device current; on the default stream, the thread's own device. */
static kp_error use_stream_device(kp_stream s, const char *what) {
  return s ? kp_cuda_use_device(s->h.device, what) : kp_cuda_ensure_context(what);
}

/* ---- streams ----------------------------------------------------------------------------- */

kp_error kp_cuda_stream_create(kp_stream s, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  s->h.device = kp_cuda_current_device();
  CUstream cs = NULL;
  int non_blocking = (s->flags & KP_STREAM_NON_BLOCKING) != 0;
  CUresult r = kp_cu.cuStreamCreate(&cs, non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuStreamCreate", "%s on %s", what,
                        kp_cuda_device_owner(s->h.device));
  s->h.native = cs;
  if (non_blocking) __atomic_add_fetch(&g_non_blocking, 1, __ATOMIC_ACQ_REL);
  return KP_SUCCESS;
}

kp_error kp_cuda_stream_destroy(kp_stream s, const char *what) {
  if (!s->external) { /* a wrapped stream stays its creator's to destroy */
    kp_error err = kp_cuda_use_device(s->h.device, what);
    if (err) return err;
    /* Returns at once; work still queued on the stream completes first (CUDA semantics). */
    CUresult r = kp_cu.cuStreamDestroy(native_stream(s));
    if (r != CUDA_SUCCESS) return kp_cuda_fail(r, KP_ERROR_CUDA, "cuStreamDestroy", "%s", what);
  }
  /* Counted down only when destroyed: until then its queued work may still use memory. */
  if (s->flags & KP_STREAM_NON_BLOCKING) __atomic_sub_fetch(&g_non_blocking, 1, __ATOMIC_ACQ_REL);
  return KP_SUCCESS;
}

/* A driver stream other code created (cudaStreamCreate, cuStreamCreate): it must belong to a
 * device's primary context, the one kernplug and the CUDA runtime use, so that kernplug's
 * launches and copies on it run where its other work runs. */
kp_error kp_cuda_stream_wrap(kp_stream s, void *native, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUstream cs = (CUstream)native;
  CUcontext ctx = NULL;
  CUresult r = kp_cu.cuStreamGetCtx(cs, &ctx);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_INVALID_VALUE, "cuStreamGetCtx",
                        "%s: %p is not a stream the CUDA driver knows (destroyed, or not a "
                        "CUstream/cudaStream_t)",
                        what, native);
  int device = kp_cuda_device_of_context(ctx, what);
  if (device < 0)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: stream %p belongs to CUDA context %p, which is not the primary context "
                   "of any device; kernplug (like the CUDA runtime) works in primary contexts: "
                   "create the stream with cudaStreamCreate, or in kp_cuda_context()",
                   what, native, (void *)ctx);
  unsigned flags = 0;
  r = kp_cu.cuStreamGetFlags(cs, &flags);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuStreamGetFlags", "%s: stream %p", what, native);
  s->h.device = device;
  s->h.native = cs;
  s->external = 1;
  s->flags = (flags & CU_STREAM_NON_BLOCKING) ? KP_STREAM_NON_BLOCKING : KP_STREAM_DEFAULT;
  if (s->flags & KP_STREAM_NON_BLOCKING) __atomic_add_fetch(&g_non_blocking, 1, __ATOMIC_ACQ_REL);
  return KP_SUCCESS;
}

int kp_cuda_non_blocking_streams(void) {
  return __atomic_load_n(&g_non_blocking, __ATOMIC_ACQUIRE);
}

kp_error kp_cuda_stream_wait_event(kp_stream s, kp_event e, const char *what) {
  kp_error err = use_stream_device(s, what);
  if (err) return err;
  CUresult r = kp_cu.cuStreamWaitEvent(native_stream(s), native_event(e), 0);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuStreamWaitEvent", "%s", what);
  return KP_SUCCESS;
}

kp_error kp_cuda_stream_add_callback(kp_stream s, void (*run)(void *), void *arg,
                                     const char *what) {
  kp_error err = use_stream_device(s, what);
  if (err) return err;
  /* The driver calls run(arg) on a thread of its own once the earlier work is done. */
  CUresult r = kp_cu.cuLaunchHostFunc(native_stream(s), run, arg);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuLaunchHostFunc", "%s", what);
  return KP_SUCCESS;
}

kp_error kp_cuda_stream_synchronize(kp_stream s, const char *what) {
  kp_error err = use_stream_device(s, what);
  if (err) return err;
  CUresult r = kp_cu.cuStreamSynchronize(native_stream(s));
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuStreamSynchronize", "%s", what);
  return KP_SUCCESS;
}

kp_error kp_cuda_launch_stream(kp_stream s, const char *kernel, void **out) {
  *out = NULL;
  if (!s) return KP_SUCCESS;
  if (kp_stream_check(s, "launch(%s, ...)", kernel)) return KP_ERROR_INVALID_VALUE;
  int device = kp_cuda_current_device();
  if (s->h.device != device)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "launch(%s, ...): stream %llu belongs to %s, but this thread launches on %s "
                   "(kp_select_device); create the stream after selecting the device",
                   kernel, s->h.id, kp_cuda_device_owner(s->h.device),
                   kp_cuda_device_owner(device));
  *out = s->h.native;
  return KP_SUCCESS;
}

/* ---- events ------------------------------------------------------------------------------ */

kp_error kp_cuda_event_create(kp_event e, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  e->h.device = kp_cuda_current_device();
  CUevent ce = NULL;
  CUresult r = kp_cu.cuEventCreate(&ce, CU_EVENT_DEFAULT);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuEventCreate", "%s on %s", what,
                        kp_cuda_device_owner(e->h.device));
  e->h.native = ce;
  return KP_SUCCESS;
}

kp_error kp_cuda_event_destroy(kp_event e, const char *what) {
  kp_error err = kp_cuda_use_device(e->h.device, what);
  if (err) return err;
  CUresult r = kp_cu.cuEventDestroy(native_event(e));
  if (r != CUDA_SUCCESS) return kp_cuda_fail(r, KP_ERROR_CUDA, "cuEventDestroy", "%s", what);
  return KP_SUCCESS;
}

kp_error kp_cuda_event_record(kp_event e, kp_stream s, const char *what) {
  /* stream.c compared the devices of an explicit stream; the default stream is the thread's. */
  int device = kp_cuda_current_device();
  if (!s && e->h.device != device)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: event %llu belongs to %s, but this thread's default stream is on %s "
                   "(kp_select_device); record it on a stream of its own device",
                   what, e->h.id, kp_cuda_device_owner(e->h.device),
                   kp_cuda_device_owner(device));
  kp_error err = kp_cuda_use_device(e->h.device, what);
  if (err) return err;
  CUresult r = kp_cu.cuEventRecord(native_event(e), native_stream(s));
  if (r != CUDA_SUCCESS) return kp_cuda_fail(r, KP_ERROR_CUDA, "cuEventRecord", "%s", what);
  return KP_SUCCESS;
}

kp_error kp_cuda_event_synchronize(kp_event e, const char *what) {
  kp_error err = kp_cuda_use_device(e->h.device, what);
  if (err) return err;
  CUresult r = kp_cu.cuEventSynchronize(native_event(e));
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuEventSynchronize", "%s", what);
  return KP_SUCCESS;
}

int kp_cuda_event_query(kp_event e, const char *what) {
  if (kp_cuda_use_device(e->h.device, what)) return -1;
  CUresult r = kp_cu.cuEventQuery(native_event(e));
  if (r == CUDA_SUCCESS) return 1;
  if (r == CUDA_ERROR_NOT_READY) return 0;
  kp_cuda_fail(r, KP_ERROR_CUDA, "cuEventQuery", "%s", what);
  return -1;
}

kp_error kp_cuda_event_elapsed_ms(kp_event start, kp_event end, float *ms, const char *what) {
  kp_error err = kp_cuda_use_device(start->h.device, what);
  if (err) return err;
  CUresult r = kp_cu.cuEventElapsedTime(ms, native_event(start), native_event(end));
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuEventElapsedTime", "%s", what);
  return KP_SUCCESS;
}

/* ---- asynchronous copies ----------------------------------------------------------------- */

/* From pageable host memory the driver stages the copy and returns only when the source has
 * been read (to the device) or the data has arrived (to the host): the copy is ordered on the
 * stream but does not overlap with the host. Pinned memory makes it truly asynchronous. */
kp_error kp_cuda_to_device_async(void *dst, const void *src, size_t bytes, kp_stream s,
                                 const char *what) {
  kp_error err = use_stream_device(s, what);
  if (err) return err;
  CUresult r = kp_cu.cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)dst, src, bytes, native_stream(s));
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyHtoDAsync", "%s: copying %zu bytes to %p",
                        what, bytes, dst);
  return KP_SUCCESS;
}

kp_error kp_cuda_to_host_async(void *dst, const void *src, size_t bytes, kp_stream s,
                               const char *what) {
  kp_error err = use_stream_device(s, what);
  if (err) return err;
  CUresult r = kp_cu.cuMemcpyDtoHAsync(dst, (CUdeviceptr)(uintptr_t)src, bytes, native_stream(s));
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyDtoHAsync", "%s: copying %zu bytes from %p",
                        what, bytes, src);
  return KP_SUCCESS;
}

kp_error kp_cuda_device_to_device_async(void *dst, const void *src, size_t bytes, kp_stream s,
                                        const char *what) {
  kp_error err = use_stream_device(s, what);
  if (err) return err;
  CUresult r = kp_cu.cuMemcpyDtoDAsync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src,
                                       bytes, native_stream(s));
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyDtoDAsync",
                        "%s: copying %zu bytes from %p to %p", what, bytes, src, dst);
  return KP_SUCCESS;
}

kp_error kp_cuda_fill_async(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                            kp_stream s, const char *what) {
  kp_error err = use_stream_device(s, what);
  if (err) return err;
  return kp_cuda_fill_on(dst, pattern, elem_size, count, native_stream(s), 1, what);
}
