/* streams.c — streams and events, checked against host computations: the order of work on one
 * stream (steps that do not commute), several streams on separate chunks, the default stream
 * and its ordering with streams, events (query, synchronize, elapsed time), ufunc_stream and
 * kp_reduce_stream on a stream, destroying a stream with work still queued, many
 * create/destroy cycles, and several host threads each with its own stream. */
#include <math.h>
#include <pthread.h>

#include "kernel_test.h"

__attribute__((kernel)) void add_const(float *a, float c, int n) {
  int i = grid(1);
  if (i < n) a[i] += c;
}

__attribute__((kernel)) void scale(float *a, float f, int n) {
  int i = grid(1);
  if (i < n) a[i] *= f;
}

/* Enough arithmetic per element that a launch takes measurable time. */
__attribute__((kernel)) void busy(float *a, int n, int rounds) {
  int i = grid(1);
  if (i >= n) return;
  float x = a[i];
  for (int r = 0; r < rounds; r++) x = x * 0.999f + 0.001f;
  a[i] = x;
}

__attribute__((vectorize("f32(f32)"))) float twice(float x) { return 2 * x; }

__attribute__((reduce)) float fsum(float a, float b) { return a + b; }

enum { THREADS = 128 };
static int blocks_for(int n) { return (n + THREADS - 1) / THREADS; }

/* The steps every pipeline here runs on its stream: ((x + 1) * 3 - 2) * 0.5, which gives a
 * different result in any other order. */
static void pipeline(float *d, int n, kp_stream s) {
  launch(add_const, blocks_for(n), THREADS, 0, s)(d, 1.0f, n);
  launch(scale, blocks_for(n), THREADS, 0, s)(d, 3.0f, n);
  launch(add_const, blocks_for(n), THREADS, 0, s)(d, -2.0f, n);
  launch(scale, blocks_for(n), THREADS, 0, s)(d, 0.5f, n);
}
static float pipeline_host(float x) { return ((x + 1.0f) * 3.0f - 2.0f) * 0.5f; }

static void fill(float *h, int n, int seed) {
  for (int i = 0; i < n; i++) h[i] = (float)((i * 7 + seed) % 1000) * 0.25f;
}

static void check_pipeline(const float *in, const float *out, int n, const char *what) {
  for (int i = 0; i < n; i++)
    KT_CHECK(out[i] == pipeline_host(in[i]), "%s: element %d is %g, expected %g", what, i,
             out[i], pipeline_host(in[i]));
}

/* One stream: copy in, four dependent kernels, copy out, all asynchronous. */
static void one_stream(void) {
  enum { N = 100003 };
  static float in[N], out[N];
  fill(in, N, 1);
  kp_stream s = kp_stream_create();
  KT_CHECK(s != NULL, "kp_stream_create");
  float *d = device_array(float, N);
  copy_to_device_async(d, in, N, s);
  pipeline(d, N, s);
  copy_to_host_async(out, d, N, s);
  kp_stream_synchronize(s);
  check_pipeline(in, out, N, "one stream");
  kp_free(d);
  kp_stream_destroy(s);
}

/* Four streams, each on its own chunk of one array, issued round-robin; the host arrays are
 * pinned, so on a GPU the copies really are asynchronous. */
static void several_streams(void) {
  enum { N = 1 << 20, K = 4, CHUNK = N / K };
  float *in = pinned_array(float, N), *out = pinned_array(float, N);
  fill(in, N, 2);
  kp_stream s[K];
  float *d = device_array(float, N);
  for (int k = 0; k < K; k++) s[k] = kp_stream_create();
  for (int k = 0; k < K; k++) copy_to_device_async(d + k * CHUNK, in + k * CHUNK, CHUNK, s[k]);
  for (int k = 0; k < K; k++) pipeline(d + k * CHUNK, CHUNK, s[k]);
  for (int k = 0; k < K; k++) copy_to_host_async(out + k * CHUNK, d + k * CHUNK, CHUNK, s[k]);
  for (int k = 0; k < K; k++) kp_stream_synchronize(s[k]);
  check_pipeline(in, out, N, "several streams");
  for (int k = 0; k < K; k++) kp_stream_destroy(s[k]);
  kp_free(d);
  kp_free(in);
  kp_free(out);
}

/* NULL is the default stream for launches, copies and synchronize; it is ordered with the
 * other (blocking) streams, so synchronous copies see what a stream computed. */
static void default_stream(void) {
  enum { N = 5000 };
  static float in[N], out[N];
  fill(in, N, 3);
  float *d = device_array(float, N);
  copy_to_device_async(d, in, N, NULL);
  pipeline(d, N, NULL);
  copy_to_host_async(out, d, N, NULL);
  kp_stream_synchronize(NULL);
  check_pipeline(in, out, N, "default stream");

  kp_stream s = kp_stream_create();
  copy_to_device(d, in, N);               /* synchronous, default stream */
  pipeline(d, N, s);                      /* waits for it */
  copy_to_host(out, d, N);                /* waits for the stream's kernels */
  check_pipeline(in, out, N, "stream between synchronous copies");
  kp_stream_destroy(s);
  kp_free(d);
}

static void events(void) {
  enum { N = 1 << 20 };
  static float h[N];
  for (int i = 0; i < N; i++) h[i] = 1.0f;
  kp_stream s = kp_stream_create();
  kp_event start = kp_event_create(), end = kp_event_create(), never = kp_event_create();
  KT_CHECK(start && end && never, "kp_event_create");
  KT_CHECK(kp_event_query(never) == 1, "an event never recorded has nothing pending");
  kp_event_synchronize(never); /* returns at once */

  float *d = to_device(h, N);
  kp_event_record(start, s);
  launch(busy, blocks_for(N), THREADS, 0, s)(d, N, 200);
  kp_event_record(end, s);
  kp_event_synchronize(end);
  KT_CHECK(kp_event_query(end) == 1, "query after synchronize");
  KT_CHECK(kp_event_query(start) == 1, "an earlier event on the same stream has passed too");
  float ms = kp_event_elapsed_ms(start, end);
  KT_CHECK(ms >= 0 && !isnan(ms), "elapsed %g ms", ms);
  float zero = kp_event_elapsed_ms(start, start);
  KT_CHECK(zero == 0, "an event against itself: %g ms", zero);
  float back = kp_event_elapsed_ms(end, start);
  KT_CHECK(back <= 0, "end to start: %g ms", back);
  printf("events: busy kernel over %d elements took %.3f ms\n", N, ms);

  /* Recording again moves the event; the default stream takes records too. */
  kp_event_record(start, NULL);
  launch(add_const, blocks_for(N), THREADS)(d, 1.0f, N);
  kp_event_record(end, NULL);
  KT_CHECK(kp_event_elapsed_ms(start, end) >= 0, "default-stream timing");
  copy_to_host(h, d, N);
  float want = 1.0f;
  for (int r = 0; r < 200; r++) want = want * 0.999f + 0.001f;
  want += 1.0f;
  /* A GPU contracts x * 0.999f + 0.001f to one fma: allow for the rounding. */
  for (int i = 0; i < N; i++)
    KT_CHECK(fabsf(h[i] - want) <= 1e-5f, "events: element %d is %g, expected %g", i, h[i],
             want);

  kp_event_destroy(start);
  kp_event_destroy(end);
  kp_event_destroy(never);
  kp_stream_destroy(s);
}

/* The generated-kernel calls take a stream too. */
static void ufunc_and_reduce_on_a_stream(void) {
  enum { N = 77777 };
  static float in[N], out[N];
  for (int i = 0; i < N; i++) in[i] = (float)(i % 8);
  kp_stream s = kp_stream_create();
  float *d_in = device_array(float, N), *d_out = device_array(float, N);
  copy_to_device_async(d_in, in, N, s);
  KT_CHECK(ufunc_stream(s, twice, N, d_out, d_in) == KP_SUCCESS, "ufunc_stream");
  copy_to_host_async(out, d_out, N, s);
  kp_stream_synchronize(s);
  for (int i = 0; i < N; i++) KT_CHECK(out[i] == 2 * in[i], "ufunc_stream element %d", i);
  KT_CHECK(ufunc_stream(s, twice, N, out, in) == KP_SUCCESS, "ufunc_stream, host arrays");
  for (int i = 0; i < N; i++) KT_CHECK(out[i] == 2 * in[i], "ufunc_stream host element %d", i);
  double want = 0;
  for (int i = 0; i < N; i++) want += 2 * in[i];
  float got = kp_reduce_stream(fsum, d_out, N, 0.0f, s); /* small integers: exact */
  KT_CHECK(got == (float)want, "kp_reduce_stream: %g, expected %g", got, want);
  kp_free(d_in);
  kp_free(d_out);
  kp_stream_destroy(s);
}

/* Destroying a stream does not cancel its work; handles are reused safely. */
static void destroy_with_work_queued(void) {
  enum { N = 1 << 18 };
  static float in[N], out[N];
  fill(in, N, 4);
  float *d = to_device(in, N);
  kp_stream s = kp_stream_create();
  pipeline(d, N, s);
  kp_stream_destroy(s);
  kp_synchronize();
  copy_to_host(out, d, N);
  check_pipeline(in, out, N, "destroyed with work queued");
  kp_free(d);
  for (int i = 0; i < 300; i++) {
    kp_stream t = kp_stream_create();
    kp_event e = kp_event_create();
    KT_CHECK(t && e, "create/destroy cycle %d", i);
    kp_event_record(e, t);
    kp_stream_synchronize(t);
    kp_event_destroy(e);
    kp_stream_destroy(t);
  }
}

/* Host threads, each with its own stream, array and events, at the same time. */
enum { HOST_THREADS = 4, ROUNDS = 6, PER_THREAD = 50000 };
static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  static float in[HOST_THREADS][PER_THREAD], out[HOST_THREADS][PER_THREAD];
  kp_stream s = kp_stream_create();
  kp_event a = kp_event_create(), b = kp_event_create();
  float *d = device_array(float, PER_THREAD);
  for (int r = 0; r < ROUNDS; r++) {
    fill(in[id], PER_THREAD, id * 100 + r);
    kp_event_record(a, s);
    copy_to_device_async(d, in[id], PER_THREAD, s);
    pipeline(d, PER_THREAD, s);
    copy_to_host_async(out[id], d, PER_THREAD, s);
    kp_event_record(b, s);
    kp_event_synchronize(b);
    KT_CHECK(kp_event_query(b) == 1, "thread %d round %d: query", id, r);
    KT_CHECK(kp_event_elapsed_ms(a, b) >= 0, "thread %d round %d: elapsed", id, r);
    char what[64];
    snprintf(what, sizeof what, "thread %d round %d", id, r);
    check_pipeline(in[id], out[id], PER_THREAD, what);
  }
  kp_free(d);
  kp_event_destroy(a);
  kp_event_destroy(b);
  kp_stream_destroy(s);
  return NULL;
}

static void host_threads(void) {
  pthread_t t[HOST_THREADS];
  for (int i = 0; i < HOST_THREADS; i++)
    KT_CHECK(pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) == 0, "pthread_create");
  for (int i = 0; i < HOST_THREADS; i++) pthread_join(t[i], NULL);
}

int main(void) {
  kt_start("streams");
  one_stream();
  several_streams();
  default_stream();
  events();
  ufunc_and_reduce_on_a_stream();
  destroy_with_work_queued();
  host_threads();
  printf("streams: OK\n");
  return 0;
}
