/* fake_cuda_stream.c — the fake driver's streams, events and asynchronous copies.
 *
 * Nothing is queued: copies happen at once (after the same pointer checks as the synchronous
 * ones), synchronizing returns the sticky error of a failed launch like cuCtxSynchronize.
 * Handles are never freed, only marked dead, so that a destroyed or unknown handle is
 * CUDA_ERROR_INVALID_HANDLE rather than a crash. Each cuEventRecord takes the next tick of a
 * counter and cuEventElapsedTime answers 0.25 ms per tick between the two records, so tests
 * see deterministic times. Every call is logged with its handles ("cuEventRecord 0x.. stream=
 * 0x.."), so tests can follow a handle from its creation to the launches and copies that use
 * it (device to device and fills: fake_cuda_memory.c's checks after the stream's).
 * FAKE_CUDA_FAIL=stream_create / event_create fail creation with
 * CUDA_ERROR_OUT_OF_MEMORY; FAKE_CUDA_FAIL=event_pending makes cuEventQuery answer
 * CUDA_ERROR_NOT_READY; wait_event and host_func fail cuStreamWaitEvent and
 * cuLaunchHostFunc; stream_ctx makes cuStreamGetCtx answer a context that is no device's
 * primary context. Host functions run at once, on a thread of their own. A stream or event
 * belongs to the context current at its creation: recording an event on a stream of another
 * context, recording or copying while another device's context is current fail as on the real
 * driver, logged as "... belongs to device N's context". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"

enum { FAKE_LIVE = 0x11fe, FAKE_DEAD = 0xdead };

struct CUstream_st {
  int state;
  CUcontext context;
  unsigned flags;
};
struct CUevent_st {
  int state;
  CUcontext context;
  int recorded;
  long long tick;
};

static long long g_tick; /* under fake_lock */

static int stream_ok(CUstream s) { return !s || s->state == FAKE_LIVE; } /* NULL: default */
static int event_ok(CUevent e) { return e && e->state == FAKE_LIVE; }

/* A stream (NULL: the current context's default stream) or event of another context than the
 * current one. */
static int foreign(CUcontext owner, const char *call, const void *handle) {
  if (!owner || owner == fake_tls_current) return 0;
  fake_log("%s %p: belongs to device %d's context", call, handle, owner->device);
  return 1;
}
static CUcontext stream_context(CUstream s) { return s ? s->context : NULL; }

FAKE_EXPORT CUresult cuStreamCreate(CUstream *out, unsigned flags) {
  NEED_CONTEXT();
  if (fake_failing("stream_create")) {
    fake_log("cuStreamCreate flags=%u -> CUDA_ERROR_OUT_OF_MEMORY", flags);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  CUstream s = calloc(1, sizeof *s);
  if (!s) return CUDA_ERROR_OUT_OF_MEMORY;
  s->state = FAKE_LIVE;
  s->context = fake_tls_current;
  s->flags = flags;
  *out = s;
  fake_log("cuStreamCreate flags=%u -> %p", flags, (void *)s);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamDestroy_v2(CUstream s) {
  NEED_CONTEXT();
  int ok = s && s->state == FAKE_LIVE;
  fake_log("cuStreamDestroy %p%s", (void *)s, ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_HANDLE;
  s->state = FAKE_DEAD;
  return CUDA_SUCCESS;
}

/* What a stream handle given by other code is: a live stream of the fake (the first page is
 * never one, so a small integer is refused without being read), or NULL, the current
 * context's default stream. FAKE_CUDA_FAIL=stream_ctx answers with a context that is no
 * device's primary context (made with cuCtxCreate). */
static int known_stream(CUstream s) { return !s || ((uintptr_t)s >= 4096 && stream_ok(s)); }

FAKE_EXPORT CUresult cuStreamGetCtx(CUstream s, CUcontext *ctx) {
  NEED_CONTEXT();
  static struct CUctx_st other = {0};
  int ok = known_stream(s);
  if (ok) *ctx = fake_failing("stream_ctx") ? &other : s ? s->context : fake_tls_current;
  fake_log("cuStreamGetCtx %p%s", (void *)s, ok ? "" : " INVALID");
  return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

FAKE_EXPORT CUresult cuStreamGetFlags(CUstream s, unsigned *flags) {
  NEED_CONTEXT();
  int ok = known_stream(s);
  if (ok) *flags = s ? s->flags : 0;
  fake_log("cuStreamGetFlags %p%s", (void *)s, ok ? "" : " INVALID");
  return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

FAKE_EXPORT CUresult cuStreamSynchronize(CUstream s) {
  NEED_CONTEXT();
  fake_log("cuStreamSynchronize %p%s", (void *)s, stream_ok(s) ? "" : " INVALID");
  if (!stream_ok(s)) return CUDA_ERROR_INVALID_HANDLE;
  return fake_sticky_error;
}

FAKE_EXPORT CUresult cuEventCreate(CUevent *out, unsigned flags) {
  NEED_CONTEXT();
  if (fake_failing("event_create")) {
    fake_log("cuEventCreate flags=%u -> CUDA_ERROR_OUT_OF_MEMORY", flags);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  CUevent e = calloc(1, sizeof *e);
  if (!e) return CUDA_ERROR_OUT_OF_MEMORY;
  e->state = FAKE_LIVE;
  e->context = fake_tls_current;
  *out = e;
  fake_log("cuEventCreate flags=%u -> %p", flags, (void *)e);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventDestroy_v2(CUevent e) {
  NEED_CONTEXT();
  int ok = event_ok(e);
  fake_log("cuEventDestroy %p%s", (void *)e, ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_HANDLE;
  e->state = FAKE_DEAD;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
  NEED_CONTEXT();
  int ok = event_ok(e) && stream_ok(s);
  if (ok && (foreign(e->context, "cuEventRecord", e) ||
             foreign(stream_context(s), "cuEventRecord", s)))
    return CUDA_ERROR_INVALID_HANDLE;
  if (ok) {
    pthread_mutex_lock(&fake_lock);
    e->tick = ++g_tick;
    e->recorded = 1;
    pthread_mutex_unlock(&fake_lock);
  }
  fake_log("cuEventRecord %p stream=%p%s", (void *)e, (void *)s, ok ? "" : " INVALID");
  return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

FAKE_EXPORT CUresult cuEventSynchronize(CUevent e) {
  NEED_CONTEXT();
  fake_log("cuEventSynchronize %p%s", (void *)e, event_ok(e) ? "" : " INVALID");
  if (!event_ok(e)) return CUDA_ERROR_INVALID_HANDLE;
  return fake_sticky_error;
}

FAKE_EXPORT CUresult cuEventQuery(CUevent e) {
  NEED_CONTEXT();
  fake_log("cuEventQuery %p%s", (void *)e, event_ok(e) ? "" : " INVALID");
  if (!event_ok(e)) return CUDA_ERROR_INVALID_HANDLE;
  if (fake_failing("event_pending")) return CUDA_ERROR_NOT_READY;
  return fake_sticky_error;
}

FAKE_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  NEED_CONTEXT();
  if (!event_ok(start) || !event_ok(end) || !start->recorded || !end->recorded) {
    fake_log("cuEventElapsedTime %p %p INVALID", (void *)start, (void *)end);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  pthread_mutex_lock(&fake_lock);
  *ms = (float)(end->tick - start->tick) * 0.25f;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuEventElapsedTime %p %p -> %.2f", (void *)start, (void *)end, (double)*ms);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes,
                                          CUstream s) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int ok = fake_find_alloc(dst, bytes) >= 0 && stream_ok(s);
  pthread_mutex_unlock(&fake_lock);
  if (ok && foreign(stream_context(s), "cuMemcpyHtoDAsync", s)) return CUDA_ERROR_INVALID_HANDLE;
  fake_log("cuMemcpyHtoDAsync 0x%llx %zu stream=%p%s%s", dst, bytes, (void *)s,
           fake_device_range(src) ? " from device MISMATCH" : "", ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream s) {
  NEED_CONTEXT();
  if (fake_sticky_error) return fake_sticky_error;
  pthread_mutex_lock(&fake_lock);
  int ok = fake_find_alloc(src, bytes) >= 0 && stream_ok(s);
  pthread_mutex_unlock(&fake_lock);
  if (ok && foreign(stream_context(s), "cuMemcpyDtoHAsync", s)) return CUDA_ERROR_INVALID_HANDLE;
  fake_log("cuMemcpyDtoHAsync 0x%llx %zu stream=%p%s%s", src, bytes, (void *)s,
           fake_device_range(dst) ? " to device MISMATCH" : "", ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

/* Device to device and fills on a stream: the synchronous checks, after the stream's. */
static CUresult stream_checks(CUstream s, const char *call, char *extra, size_t size) {
  snprintf(extra, size, " stream=%p", (void *)s);
  if (!stream_ok(s)) {
    fake_log("%s stream=%p INVALID", call, (void *)s);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  if (foreign(stream_context(s), call, s)) return CUDA_ERROR_INVALID_HANDLE;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                          CUstream s) {
  NEED_CONTEXT();
  char extra[64];
  CUresult r = stream_checks(s, "cuMemcpyDtoDAsync", extra, sizeof extra);
  return r ? r : fake_dtod("cuMemcpyDtoDAsync", dst, src, bytes, extra);
}

FAKE_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count,
                                     CUstream s) {
  NEED_CONTEXT();
  char extra[64];
  CUresult r = stream_checks(s, "cuMemsetD8Async", extra, sizeof extra);
  return r ? r : fake_memset("cuMemsetD8Async", dst, value, 1, count, extra);
}

FAKE_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                                      CUstream s) {
  NEED_CONTEXT();
  char extra[64];
  CUresult r = stream_checks(s, "cuMemsetD16Async", extra, sizeof extra);
  return r ? r : fake_memset("cuMemsetD16Async", dst, value, 2, count, extra);
}

FAKE_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                                      CUstream s) {
  NEED_CONTEXT();
  char extra[64];
  CUresult r = stream_checks(s, "cuMemsetD32Async", extra, sizeof extra);
  return r ? r : fake_memset("cuMemsetD32Async", dst, value, 4, count, extra);
}

/* Nothing is queued, so the event's work is done: logged and checked only.
 * FAKE_CUDA_FAIL=wait_event fails it with CUDA_ERROR_INVALID_HANDLE. */
FAKE_EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
  NEED_CONTEXT();
  int ok = stream_ok(s) && event_ok(e) && !fake_failing("wait_event");
  fake_log("cuStreamWaitEvent stream=%p event=%p flags=%u%s", (void *)s, (void *)e, flags,
           ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_HANDLE;
  if (foreign(stream_context(s), "cuStreamWaitEvent", s)) return CUDA_ERROR_INVALID_HANDLE;
  return CUDA_SUCCESS;
}

/* The earlier work is done (nothing is queued): the function runs now, on a thread of its own
 * as on the driver, which this call joins. FAKE_CUDA_FAIL=host_func fails it with
 * CUDA_ERROR_INVALID_VALUE without calling it. */
static void *host_func_thread(void *arg) {
  void **call = arg;
  ((CUhostFn)(uintptr_t)call[0])(call[1]);
  return NULL;
}

FAKE_EXPORT CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *data) {
  NEED_CONTEXT();
  int ok = stream_ok(s) && fn && !fake_failing("host_func");
  fake_log("cuLaunchHostFunc stream=%p%s", (void *)s, ok ? "" : " INVALID");
  if (!ok) return fn && stream_ok(s) ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_HANDLE;
  if (foreign(stream_context(s), "cuLaunchHostFunc", s)) return CUDA_ERROR_INVALID_HANDLE;
  void *call[2] = {(void *)(uintptr_t)fn, data};
  pthread_t t;
  if (pthread_create(&t, NULL, host_func_thread, call) != 0) return CUDA_ERROR_OUT_OF_MEMORY;
  pthread_join(t, NULL);
  return CUDA_SUCCESS;
}
