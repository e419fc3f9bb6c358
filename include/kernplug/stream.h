/* kernplug/stream.h — streams, events and the asynchronous copies (docs/runtime.md, "Streams
 * and events").
 *
 * A stream is a queue of device work: launches (launch(k, b, t, shared, stream)), the
 * asynchronous copies below, ufunc_stream/gufunc_stream/kp_reduce_stream and event records
 * run in the order they were issued to one stream; work on different streams may overlap.
 * NULL is the default stream, which waits for (and is waited for by) the other streams
 * except non-blocking ones, as CUDA's legacy default stream. Events mark a point in a stream:
 * wait for it, ask whether it has passed, make another stream wait for it, time the work
 * between two of them. On the CPU backend everything runs at once,
 * in call order, so stream order holds trivially, waits on events return at once, callbacks
 * run in the call that adds them, and events measure host time.
 * The names keep their kp_ prefix (stream_create would be too generic a macro); the
 * asynchronous copies also have short names, next to copy_to_host.
 */
#ifndef KERNPLUG_STREAM_H
#define KERNPLUG_STREAM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kp_stream_s *kp_stream; /* NULL is the default stream */
typedef struct kp_event_s *kp_event;

kp_stream kp_stream_create(void);          /* NULL after an error */
/* Flags of kp_stream_create_with_flags. A non-blocking stream is not ordered with the default
 * stream (CUDA's CU_STREAM_NON_BLOCKING): its work may overlap a launch or copy on the default
 * stream, and a synchronous copy_to_host does not wait for it; synchronize it (or wait for an
 * event recorded on it) before reading its results. */
enum { KP_STREAM_DEFAULT = 0, KP_STREAM_NON_BLOCKING = 1 };
kp_stream kp_stream_create_with_flags(unsigned flags); /* NULL after an error */
void kp_stream_destroy(kp_stream stream);  /* queued work still completes; NULL: nothing */
void kp_stream_synchronize(kp_stream stream); /* waits for the stream's work (NULL: default) */

kp_event kp_event_create(void);            /* timing enabled; NULL after an error */
void kp_event_destroy(kp_event event);     /* NULL: nothing */
void kp_event_record(kp_event event, kp_stream stream); /* marks the end of stream's work */
void kp_event_synchronize(kp_event event); /* waits until the recorded point has passed */
int kp_event_query(kp_event event);        /* 1 passed (or never recorded), 0 pending, -1 error */
/* Milliseconds between two recorded events (waits for both first); NaN after an error. */
float kp_event_elapsed_ms(kp_event start, kp_event end);

/* Makes work issued to `stream` after this call wait until `event`'s recorded point has
 * passed (cuStreamWaitEvent); the host does not wait. An event never recorded: no wait. */
void kp_stream_wait_event(kp_stream stream, kp_event event);
/* Queues a call of fn(data) on the host after the work issued to `stream` before it; work
 * issued after it waits for it (cuLaunchHostFunc). A callback must not call kernplug (CUDA
 * forbids driver calls there; the runtime reports it on both backends): set a flag or signal
 * a host thread instead. */
typedef void (*kp_stream_callback)(void *data);
void kp_stream_add_callback(kp_stream stream, kp_stream_callback fn, void *data);

/* Copies queued on `stream`; they return at once on a GPU when the host memory is pinned
 * (pinned_array, kp_register), otherwise CUDA copies synchronously with the host. The host
 * memory must stay valid until the stream has finished the copy. The other side than the
 * one named may be of any kind, as for kp_copy_to_device_bytes. */
void kp_copy_to_device_async_bytes(void *device_ptr, const void *host, size_t bytes,
                                   kp_stream stream);
void kp_copy_to_host_async_bytes(void *host, const void *device_ptr, size_t bytes,
                                 kp_stream stream);
/* Device to device on `stream` (never waits for the host), and fills (kp_memset, kp_fill). */
void kp_copy_device_to_device_async_bytes(void *dst, const void *src, size_t bytes,
                                          kp_stream stream);
void kp_memset_async(void *d, int value, size_t bytes, kp_stream stream);
void kp_fill_async_elems(void *d, const void *value, size_t count, size_t elem_size,
                         kp_stream stream);
/* Element counts, checked like kp_copy_to_host_elems. */
void kp_copy_to_device_async_elems(void *device_ptr, const void *host, size_t count,
                                   size_t elem_size, kp_stream stream);
void kp_copy_to_host_async_elems(void *host, const void *device_ptr, size_t count,
                                 size_t elem_size, kp_stream stream);
void kp_copy_device_to_device_async_elems(void *dst, const void *src, size_t count,
                                          size_t elem_size, kp_stream stream);
#define kp_copy_device_to_device_async(dst, src, n, stream)                                    \
  kp_copy_device_to_device_async_elems((dst), (src), (size_t)(n), sizeof *(src), (stream))
#define kp_fill_async(d, value, n, stream)                                                     \
  kp_fill_async_elems((d), &(__typeof__(*(d))){(value)}, (size_t)(n), sizeof *(d), (stream))
#define kp_copy_to_device_async(d, host, n, stream)                                            \
  kp_copy_to_device_async_elems((d), (host), (size_t)(n), sizeof *(host), (stream))
#define kp_copy_to_host_async(host, d, n, stream)                                              \
  kp_copy_to_host_async_elems((host), (d), (size_t)(n), sizeof *(host), (stream))

#ifdef __cplusplus
}
#endif

#endif /* KERNPLUG_STREAM_H */
