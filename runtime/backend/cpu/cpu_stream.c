/* cpu_stream.c — streams and events of the CPU backend (its stream and event hooks).
 *
 * Launches and copies run to completion before they return, in call order, so every stream's
 * order (and the order between streams that the default stream imposes) holds without a
 * queue: creating (blocking or not), destroying and synchronizing a stream do nothing, an
 * event has always passed (query is 1, waiting for it returns at once), a callback runs in
 * the call that adds it, and recording one takes the host's monotonic time, so that
 * kp_event_elapsed_ms measures the host time between the two records — which on this backend
 * is the time the work between them took. stream.c has checked every handle and range. */
#include <string.h>
#include <time.h>

#include "backend/cpu/cpu_backend.h"
#include "core/stream.h"

static unsigned long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

kp_error kp_cpu_stream_create(kp_stream s, const char *what) {
  (void)what;
  s->h.device = 0; /* the one "device": all cores */
  return KP_SUCCESS;
}

kp_error kp_cpu_stream_destroy(kp_stream s, const char *what) {
  (void)s, (void)what;
  return KP_SUCCESS;
}

kp_error kp_cpu_stream_synchronize(kp_stream s, const char *what) {
  (void)s, (void)what; /* its work finished when each call returned */
  return KP_SUCCESS;
}

kp_error kp_cpu_event_create(kp_event e, const char *what) {
  (void)what;
  e->h.device = 0;
  return KP_SUCCESS;
}

kp_error kp_cpu_event_destroy(kp_event e, const char *what) {
  (void)e, (void)what;
  return KP_SUCCESS;
}

kp_error kp_cpu_event_record(kp_event e, kp_stream s, const char *what) {
  (void)s, (void)what;
  __atomic_store_n(&e->host_ns, now_ns(), __ATOMIC_RELEASE);
  return KP_SUCCESS;
}

kp_error kp_cpu_event_synchronize(kp_event e, const char *what) {
  (void)e, (void)what;
  return KP_SUCCESS;
}

int kp_cpu_event_query(kp_event e, const char *what) {
  (void)e, (void)what;
  return 1;
}

kp_error kp_cpu_event_elapsed_ms(kp_event start, kp_event end, float *ms, const char *what) {
  (void)what;
  /* Signed: the end may have been recorded before the start, as on a GPU. */
  long long ns = (long long)(__atomic_load_n(&end->host_ns, __ATOMIC_ACQUIRE) -
                             __atomic_load_n(&start->host_ns, __ATOMIC_ACQUIRE));
  *ms = (float)((double)ns / 1e6);
  return KP_SUCCESS;
}

/* The event's work finished when the calls before its record returned. */
kp_error kp_cpu_stream_wait_event(kp_stream s, kp_event e, const char *what) {
  (void)s, (void)e, (void)what;
  return KP_SUCCESS;
}

/* The stream's earlier work is done: the callback runs now, before later work is issued. */
kp_error kp_cpu_stream_add_callback(kp_stream s, void (*run)(void *), void *arg,
                                    const char *what) {
  (void)s, (void)what;
  run(arg);
  return KP_SUCCESS;
}

/* "Device" arrays are host memory here: the copy is done when the call returns. */
kp_error kp_cpu_to_device_async(void *dst, const void *src, size_t bytes, kp_stream s,
                                const char *what) {
  (void)s, (void)what;
  memmove(dst, src, bytes);
  return KP_SUCCESS;
}

kp_error kp_cpu_to_host_async(void *dst, const void *src, size_t bytes, kp_stream s,
                              const char *what) {
  (void)s, (void)what;
  memmove(dst, src, bytes);
  return KP_SUCCESS;
}

kp_error kp_cpu_device_to_device_async(void *dst, const void *src, size_t bytes, kp_stream s,
                                       const char *what) {
  (void)s, (void)what;
  memmove(dst, src, bytes);
  return KP_SUCCESS;
}

kp_error kp_cpu_fill_async(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                           kp_stream s, const char *what) {
  (void)s;
  return kp_cpu_fill(dst, pattern, elem_size, count, what);
}
