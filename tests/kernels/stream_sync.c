/* stream_sync.c — ordering between streams and the host: kp_stream_wait_event (work on one
 * stream after an event of another), host callbacks (kp_stream_add_callback) running in
 * order after the stream's earlier work and before its later work, and non-blocking streams
 * (kp_stream_create_with_flags). Every step depends on the one before, so a wrong order gives
 * other values; each is checked against the host's computation. */
#include "kernel_test.h"

__attribute__((kernel)) void add_const(float *a, float c, int n) {
  int i = grid(1);
  if (i < n) a[i] += c;
}

__attribute__((kernel)) void scale(float *a, float f, int n) {
  int i = grid(1);
  if (i < n) a[i] *= f;
}

enum { N = 1 << 16, THREADS = 256, BLOCKS = N / THREADS };

/* s1 computes x + 1 and records e; s2 waits for e, then computes * 3 on the same array and
 * copies out: (x + 1) * 3 only if s2's kernel ran after s1's. */
static void wait_event_orders_streams(unsigned flags) {
  kp_stream s1 = kp_stream_create_with_flags(flags), s2 = kp_stream_create_with_flags(flags);
  KT_CHECK(s1 && s2, "kp_stream_create_with_flags(%u)", flags);
  kp_event e = kp_event_create();
  float *in = pinned_array(float, N), *out = pinned_array(float, N);
  for (int i = 0; i < N; i++) in[i] = (float)(i % 1000);
  float *d = device_array(float, N);
  copy_to_device_async(d, in, N, s1);
  launch(add_const, BLOCKS, THREADS, 0, s1)(d, 1.0f, N);
  kp_event_record(e, s1);
  kp_stream_wait_event(s2, e);
  launch(scale, BLOCKS, THREADS, 0, s2)(d, 3.0f, N);
  copy_to_host_async(out, d, N, s2);
  kp_stream_synchronize(s2);
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == (in[i] + 1.0f) * 3.0f, "wait_event (flags %u): element %d is %g", flags,
             i, out[i]);
  kp_stream_synchronize(s1);
  kp_free(d), kp_free(in), kp_free(out);
  kp_event_destroy(e);
  kp_stream_destroy(s1), kp_stream_destroy(s2);
}

/* What the callbacks saw, in the order they ran. They only read pinned memory and write
 * these host variables: a callback must not call kernplug. */
enum { MAX_CALLS = 8 };
static struct {
  int order[MAX_CALLS];
  float seen[MAX_CALLS];
  int calls;
} g_log;
static float *g_snapshot; /* pinned; copied from the device before each callback */

static void note(void *data) {
  int id = (int)(intptr_t)data;
  if (g_log.calls < MAX_CALLS) {
    g_log.order[g_log.calls] = id;
    g_log.seen[g_log.calls] = g_snapshot[N - 1];
  }
  g_log.calls++;
}

/* Each callback follows a kernel and a copy of its result: it must see that result, not a
 * later one, and the callbacks run in the order they were added. */
static void callbacks_in_order(unsigned flags) {
  kp_stream s = kp_stream_create_with_flags(flags);
  g_log.calls = 0;
  g_snapshot = pinned_array(float, N);
  float *d = device_array(float, N);
  kp_memset_async(d, 0, N * sizeof(float), s);
  for (int k = 1; k <= 4; k++) {
    launch(add_const, BLOCKS, THREADS, 0, s)(d, (float)k, N);
    copy_to_host_async(g_snapshot, d, N, s);
    kp_stream_add_callback(s, note, (void *)(intptr_t)k);
  }
  kp_stream_synchronize(s);
  KT_CHECK(g_log.calls == 4, "callbacks (flags %u): %d ran, expected 4", flags, g_log.calls);
  float sum = 0;
  for (int k = 1; k <= 4; k++) {
    sum += (float)k;
    KT_CHECK(g_log.order[k - 1] == k, "callback %d ran as number %d", g_log.order[k - 1], k);
    KT_CHECK(g_log.seen[k - 1] == sum, "callback %d saw %g, expected %g", k, g_log.seen[k - 1],
             sum);
  }
  kp_free(d), kp_free(g_snapshot);
  kp_stream_destroy(s);
}

int main(void) {
  kt_start("stream_sync");
  wait_event_orders_streams(KP_STREAM_DEFAULT);
  wait_event_orders_streams(KP_STREAM_NON_BLOCKING);
  callbacks_in_order(KP_STREAM_DEFAULT);
  callbacks_in_order(KP_STREAM_NON_BLOCKING);
  /* the default stream takes callbacks and waits too */
  kp_event e = kp_event_create();
  kp_event_record(e, NULL);
  kp_stream_wait_event(NULL, e);
  g_log.calls = 0;
  g_snapshot = pinned_array(float, N);
  g_snapshot[N - 1] = 7.0f;
  kp_stream_add_callback(NULL, note, (void *)(intptr_t)9);
  kp_synchronize();
  KT_CHECK(g_log.calls == 1 && g_log.order[0] == 9 && g_log.seen[0] == 7.0f,
           "a callback on the default stream");
  kp_free(g_snapshot);
  kp_event_destroy(e);
  printf("stream_sync: all checks passed\n");
  return 0;
}
