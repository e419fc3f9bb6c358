/* stream.c — streams and events: kp_stream_*, kp_event_* (the asynchronous copies and fills
 * are in copies.c).
 *
 * Every argument is checked here, the same way on both backends, before a backend sees it:
 * NULL, destroyed or foreign handles, events timed before they were recorded, a stream and an
 * event of different devices, unknown flags, NULL callbacks. Messages name the
 * call and the handles ("kp_event_record(event 2, stream 5): ..."). The backends
 * (cuda_stream.c, cpu_stream.c) then only do the work. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/fork.h"
#include "core/memory.h"
#include "core/stream.h"

/* ---- handles ----------------------------------------------------------------------------- */

/* Destroyed handles kept (dead, readable) before their memory is reused: a stale handle used
 * soon after its destroy is reported, not mistaken for a newer stream. */
enum { KP_KEEP_DEAD = 64 };

typedef struct handle_pool {
  const char *kind; /* "stream", "event" */
  size_t size;
  pthread_mutex_t lock;
  kp_handle *dead_head, *dead_tail; /* oldest first */
  size_t dead_count;
  unsigned long long next_id;
} handle_pool;

static handle_pool g_streams = {"stream", sizeof(struct kp_stream_s), PTHREAD_MUTEX_INITIALIZER,
                                NULL, NULL, 0, 0};
static handle_pool g_events = {"event", sizeof(struct kp_event_s), PTHREAD_MUTEX_INITIALIZER,
                               NULL, NULL, 0, 0};

static void pool_fork(handle_pool *p, kp_fork_phase phase) {
  if (phase == KP_FORK_PREPARE) pthread_mutex_lock(&p->lock);
  else if (phase == KP_FORK_PARENT) pthread_mutex_unlock(&p->lock);
  else p->lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
}

void kp_stream_fork(kp_fork_phase phase) {
  pool_fork(&g_streams, phase);
  pool_fork(&g_events, phase);
}

/* A zeroed handle with a new id, not live yet (magic 0). NULL when out of memory. */
static kp_handle *pool_take(handle_pool *p) {
  kp_handle *h = NULL;
  pthread_mutex_lock(&p->lock);
  if (p->dead_count > KP_KEEP_DEAD) {
    h = p->dead_head;
    p->dead_head = h->next_dead;
    if (!p->dead_head) p->dead_tail = NULL;
    p->dead_count--;
  }
  unsigned long long id = ++p->next_id;
  pthread_mutex_unlock(&p->lock);
  if (h) memset(h, 0, p->size);
  else if (!(h = calloc(1, p->size))) return NULL;
  h->id = id;
  return h;
}

/* Marks h dead and queues its memory for reuse. */
static void pool_bury(handle_pool *p, kp_handle *h) {
  __atomic_store_n(&h->magic, (uint32_t)KP_DEAD_MAGIC, __ATOMIC_RELEASE);
  pthread_mutex_lock(&p->lock);
  h->next_dead = NULL;
  if (p->dead_tail) p->dead_tail->next_dead = h;
  else p->dead_head = h;
  p->dead_tail = h;
  p->dead_count++;
  pthread_mutex_unlock(&p->lock);
}

/* Whether h carries `magic` (KP_DEAD_MAGIC: whether it was destroyed). */
static int is_live(const kp_handle *h, uint32_t magic) {
  return __atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) == magic;
}

/* Reports why h (not NULL, not live) cannot be used. */
static kp_error report_unusable(const char *what, const kp_handle *h, uint32_t seen,
                                const char *kind, const char *creator) {
  if (seen == KP_DEAD_MAGIC)
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s: %s %llu was destroyed (kp_%s_destroy)", what,
                   kind, h->id, kind);
  return kp_fail(KP_ERROR_INVALID_VALUE, "%s: %p is not a%s %s (not returned by %s)", what,
                 (const void *)h, kind[0] == 'e' ? "n" : "", kind, creator);
}

kp_error kp_stream_check(kp_stream s, const char *fmt, ...) {
  if (!s || is_live(&s->h, KP_STREAM_MAGIC)) return KP_SUCCESS;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return report_unusable(what, &s->h, __atomic_load_n(&s->h.magic, __ATOMIC_ACQUIRE), "stream",
                         "kp_stream_create");
}

static kp_error check_event(kp_event e, const char *what) {
  if (!e)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: the event is NULL (create one with kp_event_create())", what);
  if (is_live(&e->h, KP_EVENT_MAGIC)) return KP_SUCCESS;
  return report_unusable(what, &e->h, __atomic_load_n(&e->h.magic, __ATOMIC_ACQUIRE), "event",
                         "kp_event_create");
}

const char *kp_stream_label(kp_stream s, char *buf, size_t size) {
  if (!s) snprintf(buf, size, "the default stream");
  else if (is_live(&s->h, KP_STREAM_MAGIC) || is_live(&s->h, KP_DEAD_MAGIC))
    snprintf(buf, size, "stream %llu", s->h.id);
  else snprintf(buf, size, "stream %p", (void *)s);
  return buf;
}

static const char *event_label(kp_event e, char *buf, size_t size) {
  if (!e) snprintf(buf, size, "NULL");
  else if (is_live(&e->h, KP_EVENT_MAGIC) || is_live(&e->h, KP_DEAD_MAGIC))
    snprintf(buf, size, "event %llu", e->h.id);
  else snprintf(buf, size, "event %p", (void *)e);
  return buf;
}

/* ---- streams ----------------------------------------------------------------------------- */

KP_EXPORT kp_stream kp_stream_create(void) {
  return kp_stream_create_with_flags(KP_STREAM_DEFAULT);
}

KP_EXPORT kp_stream kp_stream_create_with_flags(unsigned flags) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  const char *what = flags ? "kp_stream_create_with_flags" : "kp_stream_create";
  if (flags & ~(unsigned)KP_STREAM_NON_BLOCKING) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "%s(%#x): unknown flags %#x (KP_STREAM_DEFAULT or KP_STREAM_NON_BLOCKING)", what,
            flags, flags & ~(unsigned)KP_STREAM_NON_BLOCKING);
    return NULL;
  }
  kp_stream s = (kp_stream)pool_take(&g_streams);
  if (!s) {
    kp_fail(KP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    return NULL;
  }
  s->flags = flags;
  if (be->stream_create(s, what)) {
    pool_bury(&g_streams, &s->h);
    return NULL;
  }
  __atomic_store_n(&s->h.magic, (uint32_t)KP_STREAM_MAGIC, __ATOMIC_RELEASE);
  return s;
}

/* A handle for a driver stream other code created (kernplug/cuda_interop.h); the backend
 * checks it, fills in its device and flags, and marks it external. */
KP_EXPORT kp_stream kp_stream_from_cuda(void *native) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  char what[96];
  snprintf(what, sizeof what, "kp_stream_from_cuda(%p)", native);
  if (!be->stream_wrap) {
    kp_fail(KP_ERROR_UNSUPPORTED,
            "%s: kernels run on the %s backend, which has no CUDA streams; CUDA libraries need "
            "the CUDA backend (a GPU, KP_BACKEND=cuda)",
            what, be->name);
    return NULL;
  }
  if (!native) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "%s: NULL is CUDA's legacy default stream, which is kernplug's default stream "
            "already: pass NULL as the kp_stream",
            what);
    return NULL;
  }
  kp_stream s = (kp_stream)pool_take(&g_streams);
  if (!s) {
    kp_fail(KP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    return NULL;
  }
  if (be->stream_wrap(s, native, what)) {
    pool_bury(&g_streams, &s->h);
    return NULL;
  }
  __atomic_store_n(&s->h.magic, (uint32_t)KP_STREAM_MAGIC, __ATOMIC_RELEASE);
  return s;
}

KP_EXPORT void kp_stream_destroy(kp_stream s) {
  if (!s) return; /* like free(NULL): the default stream is never destroyed */
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  char what[96], label[64];
  snprintf(what, sizeof what, "kp_stream_destroy(%s)", kp_stream_label(s, label, sizeof label));
  /* Exactly one caller wins the live -> dead transition; a second destroy is reported. */
  uint32_t seen = KP_STREAM_MAGIC;
  if (!__atomic_compare_exchange_n(&s->h.magic, &seen, (uint32_t)KP_DEAD_MAGIC, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    if (seen == KP_DEAD_MAGIC)
      kp_fail(KP_ERROR_INVALID_VALUE, "%s: stream %llu was already destroyed", what, s->h.id);
    else
      report_unusable(what, &s->h, seen, "stream", "kp_stream_create");
    return;
  }
  be->stream_destroy(s, what); /* an error is reported; the handle is dead either way */
  pool_bury(&g_streams, &s->h);
}

KP_EXPORT void kp_stream_synchronize(kp_stream s) {
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  char what[96], label[64];
  snprintf(what, sizeof what, "kp_stream_synchronize(%s)",
           kp_stream_label(s, label, sizeof label));
  if (kp_stream_check(s, "%s", what)) return;
  be->stream_synchronize(s, what);
}

KP_EXPORT void kp_stream_wait_event(kp_stream s, kp_event e) {
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  char what[160], sl[64], el[64];
  snprintf(what, sizeof what, "kp_stream_wait_event(%s, %s)", kp_stream_label(s, sl, sizeof sl),
           event_label(e, el, sizeof el));
  if (kp_stream_check(s, "%s", what) || check_event(e, what)) return;
  /* As CUDA: an event never recorded has nothing to wait for. */
  if (!__atomic_load_n(&e->recorded, __ATOMIC_ACQUIRE)) return;
  be->stream_wait_event(s, e, what);
}

/* ---- callbacks --------------------------------------------------------------------------- */

_Thread_local int kp_tls_in_stream_callback;

typedef struct stream_callback {
  kp_stream_callback fn;
  void *data;
} stream_callback;

void kp_run_stream_callback(void *arg) {
  stream_callback c = *(stream_callback *)arg;
  free(arg);
  kp_tls_in_stream_callback++;
  c.fn(c.data);
  kp_tls_in_stream_callback--;
}

KP_EXPORT void kp_stream_add_callback(kp_stream s, kp_stream_callback fn, void *data) {
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  char what[96], label[64];
  snprintf(what, sizeof what, "kp_stream_add_callback(%s)",
           kp_stream_label(s, label, sizeof label));
  if (kp_stream_check(s, "%s", what)) return;
  if (!fn) {
    kp_fail(KP_ERROR_INVALID_VALUE, "%s: the callback is NULL", what);
    return;
  }
  stream_callback *c = malloc(sizeof *c);
  if (!c) {
    kp_fail(KP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    return;
  }
  c->fn = fn, c->data = data;
  if (be->stream_add_callback(s, kp_run_stream_callback, c, what)) free(c);
}

/* ---- events ------------------------------------------------------------------------------ */

KP_EXPORT kp_event kp_event_create(void) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  kp_event e = (kp_event)pool_take(&g_events);
  if (!e) {
    kp_fail(KP_ERROR_OUT_OF_MEMORY, "kp_event_create: out of host memory");
    return NULL;
  }
  if (be->event_create(e, "kp_event_create")) {
    pool_bury(&g_events, &e->h);
    return NULL;
  }
  __atomic_store_n(&e->h.magic, (uint32_t)KP_EVENT_MAGIC, __ATOMIC_RELEASE);
  return e;
}

KP_EXPORT void kp_event_destroy(kp_event e) {
  if (!e) return;
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  char what[96], label[64];
  snprintf(what, sizeof what, "kp_event_destroy(%s)", event_label(e, label, sizeof label));
  uint32_t seen = KP_EVENT_MAGIC;
  if (!__atomic_compare_exchange_n(&e->h.magic, &seen, (uint32_t)KP_DEAD_MAGIC, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    if (seen == KP_DEAD_MAGIC)
      kp_fail(KP_ERROR_INVALID_VALUE, "%s: event %llu was already destroyed", what, e->h.id);
    else
      report_unusable(what, &e->h, seen, "event", "kp_event_create");
    return;
  }
  be->event_destroy(e, what);
  pool_bury(&g_events, &e->h);
}

KP_EXPORT void kp_event_record(kp_event e, kp_stream s) {
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  char what[160], el[64], sl[64];
  snprintf(what, sizeof what, "kp_event_record(%s, %s)", event_label(e, el, sizeof el),
           kp_stream_label(s, sl, sizeof sl));
  if (check_event(e, what) || kp_stream_check(s, "%s", what)) return;
  if (s && s->h.device != e->h.device) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "%s: %s belongs to device %d and %s to device %d; record an event on a stream of "
            "the device it was created on",
            what, el, e->h.device, sl, s->h.device);
    return;
  }
  if (be->event_record(e, s, what)) return;
  __atomic_store_n(&e->recorded, 1, __ATOMIC_RELEASE);
}

KP_EXPORT void kp_event_synchronize(kp_event e) {
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  char what[96], label[64];
  snprintf(what, sizeof what, "kp_event_synchronize(%s)", event_label(e, label, sizeof label));
  if (check_event(e, what)) return;
  if (!__atomic_load_n(&e->recorded, __ATOMIC_ACQUIRE)) return; /* nothing to wait for */
  be->event_synchronize(e, what);
}

KP_EXPORT int kp_event_query(kp_event e) {
  const kp_backend *be = kp_backend_get();
  if (!be) return -1;
  char what[96], label[64];
  snprintf(what, sizeof what, "kp_event_query(%s)", event_label(e, label, sizeof label));
  if (check_event(e, what)) return -1;
  if (!__atomic_load_n(&e->recorded, __ATOMIC_ACQUIRE)) return 1; /* as CUDA: nothing pending */
  return be->event_query(e, what);
}

KP_EXPORT float kp_event_elapsed_ms(kp_event start, kp_event end) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NAN;
  char what[160], a[64], b[64];
  snprintf(what, sizeof what, "kp_event_elapsed_ms(%s, %s)", event_label(start, a, sizeof a),
           event_label(end, b, sizeof b));
  if (check_event(start, what) || check_event(end, what)) return NAN;
  kp_event both[2] = {start, end};
  for (int i = 0; i < 2; i++)
    if (!__atomic_load_n(&both[i]->recorded, __ATOMIC_ACQUIRE)) {
      kp_fail(KP_ERROR_INVALID_VALUE,
              "%s: %s (the %s) was never recorded; record both events with "
              "kp_event_record(event, stream) before timing them",
              what, i ? b : a, i ? "end" : "start");
      return NAN;
    }
  if (start->h.device != end->h.device) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "%s: %s belongs to device %d and %s to device %d; time events of one device", what,
            a, start->h.device, b, end->h.device);
    return NAN;
  }
  /* Wait for both, so that the driver has both times (it would say "not ready"). */
  if (be->event_synchronize(start, what) || be->event_synchronize(end, what)) return NAN;
  float ms = NAN;
  if (be->event_elapsed_ms(start, end, &ms, what)) return NAN;
  return ms;
}
