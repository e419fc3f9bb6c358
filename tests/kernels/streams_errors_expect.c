/* streams_errors_expect.c — streams and events used wrongly, each stopping with a message that
 * names the call and the handle (streams.cmake lists them), the same mistakes in return mode
 * (the program goes on), and the CUDA path on the fake driver: the program reads the driver's
 * log back and follows each CUstream and CUevent from its creation to the launches, copies
 * and records that must have used it.
 * Usage: kt_streams_errors_expect <scenario> */
#include <math.h>

#include "kernel_test.h"
#include "../runtime/fake_log.h"

__attribute__((kernel)) void add_const(float *a, float c, int n) {
  int i = grid(1);
  if (i < n) a[i] += c;
}

__attribute__((vectorize("f32(f32)"))) float twice(float x) { return 2 * x; }

enum { N = 100 };
static float g_host[N];

/* ---- the driver's log -------------------------------------------------------------------- */

/* The text after `prefix` up to the end of the line, on the n-th line (from 0) starting with
 * prefix; "" if there is none. */
static const char *nth_after(const char *log, const char *prefix, int n, char *out, size_t size) {
  out[0] = '\0';
  for (const char *line = log; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
    if (strncmp(line, prefix, strlen(prefix)) != 0 || n-- > 0) continue;
    const char *v = line + strlen(prefix), *end = strchr(v, '\n');
    size_t len = end ? (size_t)(end - v) : strlen(v);
    if (len >= size) len = size - 1;
    memcpy(out, v, len);
    out[len] = '\0';
    break;
  }
  return out;
}

/* How many lines start with `prefix` and contain `needle`. */
static int count_lines(const char *log, const char *prefix, const char *needle) {
  int count = 0;
  char line[4096];
  for (const char *p = log; *p;) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len >= sizeof line) len = sizeof line - 1;
    memcpy(line, p, len);
    line[len] = '\0';
    if (strncmp(line, prefix, strlen(prefix)) == 0 && strstr(line, needle)) count++;
    p = end ? end + 1 : p + len;
  }
  return count;
}

#define CHECK_LINES(log, prefix, needle, n)                                                    \
  do {                                                                                         \
    int c_ = count_lines(log, prefix, needle);                                                 \
    KT_CHECK(c_ == (n), "%d lines start with \"%s\" and contain \"%s\", expected %d; log:\n%s", \
             c_, prefix, needle, (n), log);                                                    \
  } while (0)

/* Launches, copies and records reach the driver with the CUstream of their kp_stream. */
static void fake_driver(void) {
  kp_stream s1 = kp_stream_create(), s2 = kp_stream_create();
  kp_event e1 = kp_event_create(), e2 = kp_event_create();
  float *d = device_array(float, N);
  copy_to_device_async(d, g_host, N, s1);
  launch(add_const, 1, 128, 0, s1)(d, 1.0f, N);
  launch(add_const, 2, 64, 0, s2)(d, 1.0f, N);
  kp_event_record(e1, s2);
  kp_event_record(e2, s2);
  copy_to_host_async(g_host, d, N, s2);
  KT_CHECK(ufunc_stream(s1, twice, N, d, d) == KP_SUCCESS, "ufunc_stream");
  launch(add_const, 4, 32)(d, 1.0f, N);
  kp_stream_synchronize(s1);
  kp_stream_synchronize(NULL);
  float ms = kp_event_elapsed_ms(e1, e2); /* the fake: 0.25 ms per record between them */
  KT_CHECK(ms == 0.25f, "elapsed %g ms, expected the fake's 0.25", ms);
  KT_CHECK(kp_event_query(e2) == 1, "query");
  kp_event_destroy(e1);
  kp_event_destroy(e2);
  kp_stream_destroy(s1);
  kp_stream_destroy(s2);
  CHECK_NO_ERROR();

  const char *log = read_log();
  char cs1[64], cs2[64], ce1[64], ce2[64], dev[64], needle[256];
  nth_after(log, "cuStreamCreate flags=0 -> ", 0, cs1, sizeof cs1);
  nth_after(log, "cuStreamCreate flags=0 -> ", 1, cs2, sizeof cs2);
  nth_after(log, "cuEventCreate flags=0 -> ", 0, ce1, sizeof ce1);
  nth_after(log, "cuEventCreate flags=0 -> ", 1, ce2, sizeof ce2);
  KT_CHECK(strncmp(cs1, "0x", 2) == 0 && strncmp(cs2, "0x", 2) == 0 && strcmp(cs1, cs2) != 0,
           "two streams created: '%s', '%s'; log:\n%s", cs1, cs2, log);
  KT_CHECK(strncmp(ce1, "0x", 2) == 0 && strncmp(ce2, "0x", 2) == 0, "two events created");
  snprintf(dev, sizeof dev, "%p", (void *)d);

  snprintf(needle, sizeof needle, "%s 400 stream=%s", dev, cs1);
  CHECK_LINES(log, "cuMemcpyHtoDAsync ", needle, 1);
  snprintf(needle, sizeof needle, "%s 400 stream=%s", dev, cs2);
  CHECK_LINES(log, "cuMemcpyDtoHAsync ", needle, 1);
  CHECK_LINES(log, "cuMemcpyHtoD ", "", 0); /* no synchronous copy: device arrays only */
  CHECK_LINES(log, "cuMemcpyDtoH ", "", 0);
  snprintf(needle, sizeof needle, "grid=1,1,1 block=128,1,1 shared=0 stream=%s params=", cs1);
  CHECK_LINES(log, "cuLaunchKernel add_const ", needle, 1);
  snprintf(needle, sizeof needle, "grid=2,1,1 block=64,1,1 shared=0 stream=%s params=", cs2);
  CHECK_LINES(log, "cuLaunchKernel add_const ", needle, 1);
  CHECK_LINES(log, "cuLaunchKernel add_const ", "grid=4,1,1 block=32,1,1 shared=0 stream=(nil)", 1);
  snprintf(needle, sizeof needle, " stream=%s params=", cs1);
  CHECK_LINES(log, "cuLaunchKernel __kp_vec_twice", needle, 1);
  snprintf(needle, sizeof needle, "cuEventRecord %s stream=%s\n", ce1, cs2);
  KT_CHECK(strstr(log, needle), "no '%s' in the log:\n%s", needle, log);
  snprintf(needle, sizeof needle, "cuEventRecord %s stream=%s\n", ce2, cs2);
  KT_CHECK(strstr(log, needle), "no '%s' in the log:\n%s", needle, log);
  snprintf(needle, sizeof needle, "cuStreamSynchronize %s\n", cs1);
  KT_CHECK(strstr(log, needle), "no '%s' in the log", needle);
  CHECK_LINES(log, "cuStreamSynchronize (nil)", "", 1);
  snprintf(needle, sizeof needle, "cuEventElapsedTime %s %s -> 0.25", ce1, ce2);
  CHECK_LINES(log, needle, "", 1);
  snprintf(needle, sizeof needle, "cuStreamDestroy %s\n", cs2);
  KT_CHECK(strstr(log, needle), "no '%s' in the log", needle);
  snprintf(needle, sizeof needle, "cuEventDestroy %s\n", ce1);
  KT_CHECK(strstr(log, needle), "no '%s' in the log", needle);
  KT_CHECK(!strstr(log, "INVALID"), "the driver saw an invalid handle or pointer:\n%s", log);
}

/* Two fake GPUs: a stream and an event belong to the device selected when they were made; work
 * on them runs in that device's context whichever device the thread has selected since, and
 * mixing devices is an error naming both. */
static void fake_two_devices(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  kp_select_device(1);
  kp_stream s1 = kp_stream_create();
  kp_event e1 = kp_event_create();
  float *d1 = device_array(float, N);
  kp_select_device(0);
  kp_event e0 = kp_event_create();
  CHECK_NO_ERROR();

  copy_to_device_async(d1, g_host, N, s1); /* in device 1's context */
  kp_event_record(e1, s1);
  copy_to_host_async(g_host, d1, N, s1);
  kp_stream_synchronize(s1);
  kp_event_synchronize(e1);
  KT_CHECK(kp_event_query(e1) == 1, "query");
  CHECK_NO_ERROR();

  kp_event_record(e0, s1);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_event_record(event 2, stream 1): event 2 belongs to "
                                      "device 0 and stream 1 to device 1");
  launch(add_const, 1, 128, 0, s1)(d1, 1.0f, N);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE,
              "launch(add_const, ...): stream 1 belongs to CUDA device 1 (Fake GPU 1 sm_80, "
              "sm_80), but this thread launches on CUDA device 0 (Fake GPU sm_90, sm_90)");
  kp_event_record(e1, NULL);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_event_record(event 1, the default stream): event 1 "
                                      "belongs to CUDA device 1 (Fake GPU 1 sm_80, sm_80), but "
                                      "this thread's default stream is on CUDA device 0");
  kp_event_record(e0, NULL);
  KT_CHECK(isnan(kp_event_elapsed_ms(e1, e0)), "timing events of two devices gives NaN");
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_event_elapsed_ms(event 1, event 2): event 1 belongs "
                                      "to device 1 and event 2 to device 0");
  kp_event_destroy(e1);
  kp_event_destroy(e0);
  kp_stream_destroy(s1);
  kp_free(d1);
  CHECK_NO_ERROR();

  const char *log = read_log();
  CHECK_LINES(log, "dev1: cuStreamCreate ", "", 1);
  CHECK_LINES(log, "dev1: cuMemcpyHtoDAsync ", "", 1);
  CHECK_LINES(log, "dev1: cuMemcpyDtoHAsync ", "", 1);
  CHECK_LINES(log, "dev1: cuEventRecord ", "", 1);
  CHECK_LINES(log, "dev0: cuEventRecord ", "", 1);
  CHECK_LINES(log, "dev1: cuStreamDestroy ", "", 1);
  CHECK_LINES(log, "", "belongs to device", 0); /* the runtime stopped every mix itself */
  CHECK_LINES(log, "", "INVALID", 0);
  CHECK_LINES(log, "", "cuLaunchKernel", 0);
}

/* ---- mistakes ---------------------------------------------------------------------------- */

static kp_stream destroyed_stream(void) {
  kp_stream s = kp_stream_create();
  kp_stream_destroy(s);
  return s;
}
static kp_event destroyed_event(void) {
  kp_event e = kp_event_create();
  kp_event_destroy(e);
  return e;
}

/* Not a stream: memory that kp_stream_create never returned (zeroed, so reading it is safe). */
static long long g_not_a_handle[8];

/* Runs one mistake; returns the error code it must leave in return mode. */
static kp_error mistake(const char *s) {
  float *d = device_array(float, N);
  if (strcmp(s, "stream_destroy_twice") == 0) {
    kp_stream_destroy(destroyed_stream());
  } else if (strcmp(s, "event_destroy_twice") == 0) {
    kp_event_destroy(destroyed_event());
  } else if (strcmp(s, "sync_destroyed") == 0) {
    kp_stream_synchronize(destroyed_stream());
  } else if (strcmp(s, "launch_destroyed") == 0) {
    launch(add_const, 1, 128, 0, destroyed_stream())(d, 1.0f, N);
  } else if (strcmp(s, "ufunc_destroyed") == 0) {
    ufunc_stream(destroyed_stream(), twice, N, d, d);
  } else if (strcmp(s, "copy_destroyed") == 0) {
    copy_to_device_async(d, g_host, N, destroyed_stream());
  } else if (strcmp(s, "record_null_event") == 0) {
    kp_event_record(NULL, NULL);
  } else if (strcmp(s, "record_destroyed_stream") == 0) {
    kp_stream st = destroyed_stream();
    kp_event e = kp_event_create();
    kp_event_record(e, st);
    kp_event_destroy(e); /* return mode goes on: nothing leaked (LeakSanitizer builds) */
  } else if (strcmp(s, "query_destroyed_event") == 0) {
    KT_CHECK(kp_event_query(destroyed_event()) == -1, "query of a destroyed event");
  } else if (strcmp(s, "sync_destroyed_event") == 0) {
    kp_event_synchronize(destroyed_event());
  } else if (strcmp(s, "elapsed_unrecorded") == 0) {
    kp_event a = kp_event_create(), b = kp_event_create();
    kp_event_record(a, NULL);
    KT_CHECK(isnan(kp_event_elapsed_ms(a, b)), "elapsed without an end record is NaN");
    kp_event_destroy(a); /* succeeds: the error stays for the caller */
    kp_event_destroy(b);
  } else if (strcmp(s, "elapsed_null") == 0) {
    kp_event a = kp_event_create();
    kp_event_record(a, NULL);
    KT_CHECK(isnan(kp_event_elapsed_ms(a, NULL)), "elapsed to NULL is NaN");
    kp_event_destroy(a);
  } else if (strcmp(s, "not_a_stream") == 0) {
    kp_stream_synchronize((kp_stream)(void *)g_not_a_handle);
  } else if (strcmp(s, "not_an_event") == 0) {
    kp_event_record((kp_event)(void *)g_not_a_handle, NULL);
  } else if (strcmp(s, "copy_async_too_much") == 0) {
    kp_stream st = kp_stream_create();
    copy_to_host_async(g_host, d + 1, N, st);
    kp_stream_destroy(st);
  } else if (strcmp(s, "copy_async_not_device") == 0) {
    static float other[N];
    copy_to_device_async(other, g_host, N, NULL);
  } else if (strcmp(s, "copy_async_freed") == 0) {
    float *f = device_array(float, N);
    kp_free(f);
    copy_to_host_async(g_host, f, N, NULL);
  } else if (strcmp(s, "copy_async_null_host") == 0) {
    kp_stream st = kp_stream_create();
    copy_to_host_async((float *)NULL, d, N, st);
    kp_stream_destroy(st);
  } else {
    fprintf(stderr, "streams_errors: unknown scenario '%s'\n", s);
    exit(2);
  }
  return KP_ERROR_INVALID_VALUE;
}

static const char *const g_mistakes[] = {
    "stream_destroy_twice", "event_destroy_twice", "sync_destroyed", "launch_destroyed",
    "ufunc_destroyed", "copy_destroyed", "record_null_event", "record_destroyed_stream",
    "query_destroyed_event", "sync_destroyed_event", "elapsed_unrecorded", "elapsed_null",
    "not_a_stream", "not_an_event", "copy_async_too_much", "copy_async_not_device",
    "copy_async_freed", "copy_async_null_host"};

/* Every mistake in return mode: each is reported, nothing crashes or hangs, and streams still
 * work afterwards. */
static void return_mode(void) {
  kt_each_mistake_returns(mistake, g_mistakes, sizeof g_mistakes / sizeof g_mistakes[0]);
  kp_stream s = kp_stream_create();
  float *d = to_device(g_host, N);
  launch(add_const, 1, 128, 0, s)(d, 1.0f, N);
  copy_to_host_async(g_host, d, N, s);
  kp_stream_synchronize(s);
  CHECK_NO_ERROR();
  if (getenv("KP_LIBCUDA")) return; /* the fake driver runs no kernels */
  for (int i = 0; i < N; i++) KT_CHECK(g_host[i] == 1.0f, "element %d after the mistakes", i);
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (strncmp(s, "fake", 4) == 0 && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("streams_errors");
  if (strcmp(s, "fake") == 0) {
    fake_driver();
  } else if (strcmp(s, "fake_two_devices") == 0) {
    fake_two_devices();
  } else if (strcmp(s, "fake_event_pending") == 0) {
    kp_event e = kp_event_create();
    kp_event_record(e, NULL);
    KT_CHECK(kp_event_query(e) == 0, "the fake says the event is pending");
    kp_event_destroy(e);
  } else if (strcmp(s, "fake_illegal_address") == 0) {
    float *d = device_array(float, N);
    kp_stream st = kp_stream_create();
    launch(add_const, 1, 128, 0, st)(d, 1.0f, N);
    kp_stream_synchronize(st);
  } else if (strcmp(s, "fake_stream_create") == 0) {
    kp_stream_create();
  } else if (strcmp(s, "return_mode") == 0) {
    return_mode();
  } else {
    mistake(s);
  }
  printf("streams_errors %s: finished\n", s);
  return 0;
}
