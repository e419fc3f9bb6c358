/* stream.h — streams and events inside the runtime (never installed): what a kp_stream and a
 * kp_event are and the argument checks every entry point shares (stream.c); the backends'
 * stream and event hooks (backend/backend.h) fill in the handles' device and native fields.
 *
 * Handles are never given back to malloc: a destroyed one stays readable with a dead magic,
 * so that using it again (or destroying it twice) is an error message instead of a read of
 * freed memory. Its memory is reused only after many later destroys (stream.c). */
#ifndef KP_STREAM_H
#define KP_STREAM_H

#include <stdint.h>

#include "core/common.h"

enum {
  KP_STREAM_MAGIC = 0x4d525453, /* "STRM" */
  KP_EVENT_MAGIC = 0x544e5645,  /* "EVNT" */
  KP_DEAD_MAGIC = 0x44414544    /* "DEAD": destroyed */
};

/* What streams and events share: the handle bookkeeping of stream.c. */
typedef struct kp_handle {
  uint32_t magic;           /* atomic: KP_STREAM/EVENT_MAGIC while live, else KP_DEAD_MAGIC */
  int device;               /* the device it belongs to (set by the backend's create) */
  unsigned long long id;    /* "stream 3", "event 2" in messages; never reused */
  void *native;             /* CUstream / CUevent on the CUDA backend, NULL on the CPU */
  struct kp_handle *next_dead;
} kp_handle;

struct kp_stream_s {
  kp_handle h;
  unsigned flags; /* KP_STREAM_DEFAULT or KP_STREAM_NON_BLOCKING, set before the backend's create */
  int external;   /* wraps a driver stream other code created (kp_stream_from_cuda): the
                   * backend's stream_destroy forgets it without destroying it */
};

struct kp_event_s {
  kp_handle h;
  int recorded;                /* atomic: kp_event_record succeeded at least once */
  unsigned long long host_ns;  /* atomic: CPU backend, monotonic time of the last record */
};

/* Checks a stream argument: NULL (the default stream) or a live stream; otherwise reports
 * "<what>: stream 3 was destroyed …" (what formatted from fmt only then) and returns the
 * code. */
kp_error kp_stream_check(kp_stream s, const char *fmt, ...) KP_PRINTF(2, 3);

/* Nonzero while the calling thread runs a stream callback (kp_stream_add_callback), during
 * which kp_backend_get refuses every kernplug call: on a GPU a driver call there deadlocks or
 * fails, so the CPU backend, which runs callbacks in the calling thread, refuses too. */
extern _Thread_local int kp_tls_in_stream_callback;

/* A callback as the backends run it: run_stream_callback(arg) calls the user's function with
 * the flag above set and frees arg (stream.c); a backend calls it exactly once. */
void kp_run_stream_callback(void *arg);

/* "the default stream" or "stream 3", into buf. */
const char *kp_stream_label(kp_stream s, char *buf, size_t size);

#endif /* KP_STREAM_H */
