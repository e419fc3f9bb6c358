/* stream.h — streams and events inside the runtime (never installed): what a kp_stream and a
 * kp_event are, the argument checks every entry point shares (stream.c), and the backends'
 * implementations of the kp_backend stream/event operations (cuda_stream.c, cpu_stream.c).
 *
 * Handles are never given back to malloc: a destroyed one stays readable with a dead magic,
 * so that using it again (or destroying it twice) is an error message instead of a read of
 * freed memory. Its memory is reused only after many later destroys (stream.c). */
#ifndef KP_STREAM_H
#define KP_STREAM_H

#include <stdint.h>

#include "core/kp_internal.h"

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

/* "the default stream" or "stream 3", into buf. */
const char *kp_stream_label(kp_stream s, char *buf, size_t size);

/* ---- the CUDA backend (cuda_stream.c) ---- */
kp_error kp_cuda_stream_create(kp_stream s, const char *what);
kp_error kp_cuda_stream_destroy(kp_stream s, const char *what);
kp_error kp_cuda_stream_synchronize(kp_stream s, const char *what);
kp_error kp_cuda_event_create(kp_event e, const char *what);
kp_error kp_cuda_event_destroy(kp_event e, const char *what);
kp_error kp_cuda_event_record(kp_event e, kp_stream s, const char *what);
kp_error kp_cuda_event_synchronize(kp_event e, const char *what);
int kp_cuda_event_query(kp_event e, const char *what);
kp_error kp_cuda_event_elapsed_ms(kp_event start, kp_event end, float *ms, const char *what);
kp_error kp_cuda_to_device_async(void *dst, const void *src, size_t bytes, kp_stream s,
                                 const char *what);
kp_error kp_cuda_to_host_async(void *dst, const void *src, size_t bytes, kp_stream s,
                               const char *what);
/* The driver's stream for a launch on s (NULL for the default stream), after checking that s
 * belongs to the calling thread's device; `kernel` names the launch in messages. The result
 * is a CUstream, typed void * so that this header needs no driver types. */
kp_error kp_cuda_launch_stream(kp_stream s, const char *kernel, void **out);

/* ---- the CPU backend (cpu_stream.c): everything runs at once, in call order ---- */
kp_error kp_cpu_stream_create(kp_stream s, const char *what);
kp_error kp_cpu_stream_destroy(kp_stream s, const char *what);
kp_error kp_cpu_stream_synchronize(kp_stream s, const char *what);
kp_error kp_cpu_event_create(kp_event e, const char *what);
kp_error kp_cpu_event_destroy(kp_event e, const char *what);
kp_error kp_cpu_event_record(kp_event e, kp_stream s, const char *what);
kp_error kp_cpu_event_synchronize(kp_event e, const char *what);
int kp_cpu_event_query(kp_event e, const char *what);
kp_error kp_cpu_event_elapsed_ms(kp_event start, kp_event end, float *ms, const char *what);
kp_error kp_cpu_to_device_async(void *dst, const void *src, size_t bytes, kp_stream s,
                                const char *what);
kp_error kp_cpu_to_host_async(void *dst, const void *src, size_t bytes, kp_stream s,
                              const char *what);

#endif /* KP_STREAM_H */
