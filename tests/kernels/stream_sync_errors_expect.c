/* stream_sync_errors_expect.c — kp_stream_wait_event, kp_stream_add_callback and
 * kp_stream_create_with_flags used wrongly, each stopping with a message naming the call and
 * the handles (stream_sync.cmake lists them), the same mistakes in return mode, and the CUDA
 * path on the fake driver: the program reads the driver's log back and checks the flags of a
 * non-blocking stream, the CUstream and CUevent of each cuStreamWaitEvent, that callbacks go
 * through cuLaunchHostFunc on their stream, and that while a non-blocking stream lives,
 * freeing device memory waits for the device first and synchronous copies and fills finish
 * before they return.
 * Usage: kt_stream_sync_errors_expect <scenario> */
#include "kernel_test.h"
#include "../runtime/fake_log.h"

static int g_called;
static void count_call(void *data) {
  (void)data;
  g_called++;
}
static void calls_kernplug(void *data) {
  (void)data;
  kp_synchronize();
}

static kp_error mistake(const char *s) {
  if (!strcmp(s, "wait_null_event")) {
    kp_stream st = kp_stream_create();
    kp_stream_wait_event(st, NULL);
    kp_stream_destroy(st);
  } else if (!strcmp(s, "wait_destroyed_stream")) {
    kp_stream st = kp_stream_create();
    kp_event e = kp_event_create();
    kp_stream_destroy(st);
    kp_stream_wait_event(st, e);
    kp_event_destroy(e);
  } else if (!strcmp(s, "wait_destroyed_event")) {
    kp_event e = kp_event_create();
    kp_event_destroy(e);
    kp_stream_wait_event(NULL, e);
  } else if (!strcmp(s, "callback_null")) {
    kp_stream_add_callback(NULL, NULL, NULL);
  } else if (!strcmp(s, "callback_destroyed_stream")) {
    kp_stream st = kp_stream_create();
    kp_stream_destroy(st);
    kp_stream_add_callback(st, count_call, NULL);
  } else if (!strcmp(s, "bad_flags")) {
    kp_stream_create_with_flags(4);
  } else if (!strcmp(s, "callback_calls_kernplug")) {
    kp_stream_add_callback(NULL, calls_kernplug, NULL); /* on a GPU it runs later */
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    exit(2);
  }
  return KP_ERROR_INVALID_VALUE;
}

static const char *const g_mistakes[] = {
    "wait_null_event",   "wait_destroyed_stream",     "wait_destroyed_event",
    "callback_null",     "callback_destroyed_stream", "bad_flags",
    "callback_calls_kernplug"};

static void return_mode(void) {
  /* On a GPU the callback runs on a driver thread, whose kp_last_error the caller cannot see:
   * the last mistake is checked in return mode on the CPU only (abort mode stops on both). */
  size_t n = sizeof g_mistakes / sizeof g_mistakes[0];
  if (strcmp(kp_backend_name(), "cpu") != 0) n--;
  kt_each_mistake_returns(mistake, g_mistakes, n);
  kp_stream st = kp_stream_create_with_flags(KP_STREAM_NON_BLOCKING);
  g_called = 0;
  kp_stream_add_callback(st, count_call, NULL);
  kp_stream_synchronize(st);
  KT_CHECK(g_called == 1 && kp_last_error() == KP_SUCCESS, "the runtime works afterwards");
  kp_stream_destroy(st);
}

/* The handle logged after "<prefix>" on the n-th line that has it ("cuStreamCreate flags=1 ->
 * 0x.." gives 0x..). */
static void logged_handle(const char *prefix, int n, char *out, size_t size) {
  out[0] = '\0';
  const char *p = read_log();
  while (p && (p = strstr(p, prefix)) && n-- > 0) p += strlen(prefix);
  KT_CHECK(p != NULL, "the log has \"%s\"", prefix);
  char fmt[32];
  snprintf(fmt, sizeof fmt, "%%%zus", size - 1);
  sscanf(p + strlen(prefix), fmt, out);
}

static void fake_driver(void) {
  char blocking[32], non_blocking[32], ev[32], needle[160];
  kp_stream a = kp_stream_create(), b = kp_stream_create_with_flags(KP_STREAM_NON_BLOCKING);
  logged_handle("cuStreamCreate flags=0 -> ", 0, blocking, sizeof blocking);
  logged_handle("cuStreamCreate flags=1 -> ", 0, non_blocking, sizeof non_blocking);
  kp_event e = kp_event_create();
  logged_handle("cuEventCreate flags=0 -> ", 0, ev, sizeof ev);

  kp_stream_wait_event(b, e); /* never recorded: nothing to wait for */
  CHECK_LOG_COUNT("cuStreamWaitEvent", 0);
  kp_event_record(e, a);
  kp_stream_wait_event(b, e);
  snprintf(needle, sizeof needle, "cuStreamWaitEvent stream=%s event=%s flags=0\n", non_blocking,
           ev);
  CHECK_LOG_COUNT(needle, 1);
  kp_stream_wait_event(NULL, e);
  snprintf(needle, sizeof needle, "cuStreamWaitEvent stream=(nil) event=%s flags=0\n", ev);
  CHECK_LOG_COUNT(needle, 1);

  g_called = 0;
  kp_stream_add_callback(a, count_call, NULL);
  kp_stream_add_callback(b, count_call, NULL);
  snprintf(needle, sizeof needle, "cuLaunchHostFunc stream=%s\n", blocking);
  CHECK_LOG_COUNT(needle, 1);
  snprintf(needle, sizeof needle, "cuLaunchHostFunc stream=%s\n", non_blocking);
  CHECK_LOG_COUNT(needle, 1);
  KT_CHECK(g_called == 2, "the callbacks ran: %d", g_called);

  /* A free waits for the device while the non-blocking stream lives, and only then. */
  float *d = device_array(float, 10);
  int syncs = count(read_log(), "cuCtxSynchronize");
  kp_free(d);
  CHECK_LOG_COUNT("cuCtxSynchronize", syncs + 1);
  /* Synchronous copies and fills finish before they return while it lives, and only then. */
  float h[10] = {0};
  d = device_array(float, 10);
  int waits = count(read_log(), "cuStreamSynchronize (nil)");
  copy_to_device(d, h, 10);
  kp_memset(d, 0, sizeof h);
  CHECK_LOG_COUNT("cuStreamSynchronize (nil)", waits + 2);
  kp_free(d);
  kp_stream_destroy(b);
  d = device_array(float, 10);
  copy_to_device(d, h, 10);
  CHECK_LOG_COUNT("cuStreamSynchronize (nil)", waits + 2);
  kp_free(d);
  CHECK_LOG_COUNT("cuCtxSynchronize", syncs + 2); /* the free before the destroy only */
  CHECK_LOG_COUNT("INVALID", 0);
  kp_event_destroy(e);
  kp_stream_destroy(a);
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (strncmp(s, "fake", 4) == 0 && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("stream_sync_errors");
  if (strcmp(s, "fake") == 0) {
    fake_driver();
  } else if (strcmp(s, "fake_wait_fails") == 0) {
    kp_stream st = kp_stream_create();
    kp_event e = kp_event_create();
    kp_event_record(e, NULL);
    kp_stream_wait_event(st, e);
  } else if (strcmp(s, "fake_callback_fails") == 0) {
    kp_stream st = kp_stream_create();
    kp_stream_add_callback(st, count_call, NULL);
  } else if (strcmp(s, "return_mode") == 0) {
    return_mode();
  } else {
    mistake(s);
  }
  printf("stream_sync_errors %s: finished\n", s);
  return 0;
}
