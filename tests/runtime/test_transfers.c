/* test_transfers.c — launch()'s pointer checks and automatic copies around its fast paths:
 * transfers.c remembers, per thread and kernel, the pointers of the last launch that needed
 * no copies, and alloc_table.c caches lookups per thread, both valid while the allocation
 * table is unchanged. Launches that saw only device arrays must still copy a pinned or
 * registered array that appears later, still refuse a plain host pointer, and refuse the
 * pinned array again once it is freed (also on another thread).
 *
 * Run on the fake driver (FAKE_CUDA_LOG set: the copies are counted in its log; it runs no
 * kernels) and on the CPU backend (no log: the kernel runs, so the copy back is checked in
 * the data). */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include <pthread.h>
#include <unistd.h>

#include "fake_log.h"
#include "hand_kernels.h"

enum { N = 256, LAUNCHES = 50 };
static const size_t BYTES = N * sizeof(float);

static int g_fake; /* the fake driver's log is there to read */

/* Lines of the fake driver's log that contain needle (0 on the CPU backend). */
static int log_count(const char *needle) { return g_fake ? count(read_log(), needle) : 0; }

#define CHECK_LOG_GREW(needle, before, by)                                                     \
  do {                                                                                         \
    if (g_fake) {                                                                              \
      int now_ = log_count(needle);                                                            \
      CHECK_MSG(now_ == (before) + (by), "\"%s\": %d lines, expected %d", needle, now_,        \
                (before) + (by));                                                              \
    }                                                                                          \
  } while (0)

/* The last error is INVALID_VALUE with both texts (around the pointer's address). */
#define CHECK_REFUSED(first, second) check_refused_at(__LINE__, (first), (second))
static void check_refused_at(int line, const char *first, const char *second) {
  const char *msg = kp_last_error_message();
  const char *at = strstr(msg, first);
  CHECK_MSG(at && strstr(at, second), "line %d: expected \"%s...%s\"; got \"%s\"", line, first,
            second, msg);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, first);
}

static void launch_device_only(float *d, float *d2) {
  for (int i = 0; i < LAUNCHES; i++) launch(foo, 1, 10)(d, d2);
  CHECK_NO_ERROR();
}

static void refuses_host_pointer(float *d, float *host) {
  launch(foo, 1, 10)(d, host);
  CHECK_REFUSED("launch(foo, ...): parameter 'out' is ", "a host pointer kernplug cannot size");
}

/* A thread that launches on d, waits for main to free d, and launches on it again. */
static float *g_d, *g_d2;
static pthread_barrier_t g_freed;
static void *launch_then_after_free(void *arg) {
  (void)arg;
  kp_set_error_mode(KP_ERRORS_RETURN);
  launch_device_only(g_d2, g_d); /* remembered by this thread */
  pthread_barrier_wait(&g_freed); /* main frees g_d */
  pthread_barrier_wait(&g_freed);
  launch(foo, 1, 10)(g_d2, g_d);
  CHECK_REFUSED("launch(foo, ...): parameter 'out' is ", "an array that was freed");
  return NULL;
}

int main(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  g_fake = getenv("FAKE_CUDA_LOG") != NULL;
  if (g_fake) unlink(getenv("FAKE_CUDA_LOG"));
  CHECK(strcmp(kp_backend_name(), g_fake ? "cuda" : "cpu") == 0);

  float *d = device_array(float, N), *d2 = device_array(float, N);
  static float host[N];
  CHECK(d && d2);

  /* Device arrays only: no copies, however often. */
  launch_device_only(d, d2);
  CHECK_LOG_GREW("cuLaunchKernel foo", 0, LAUNCHES);
  CHECK_LOG_GREW("cuMemcpy", 0, 0);
  refuses_host_pointer(d, host);
  launch_device_only(d, d2); /* the refusal is not remembered as a success */
  refuses_host_pointer(d, host);

  /* A pinned array appears: copied in and, as 'out' is not const, back. */
  int in0 = log_count("cuMemcpyHtoD "), back0 = log_count("cuMemcpyDtoH ");
  float *p = pinned_array(float, N);
  CHECK(p);
  for (int i = 0; i < N; i++) p[i] = -1;
  launch(foo, 1, 10)(d, p);
  CHECK_NO_ERROR();
  CHECK_LOG_GREW("cuMemcpyHtoD ", in0, 1);
  CHECK_LOG_GREW("cuMemcpyDtoH ", back0, 1);
  if (!g_fake) /* the kernel ran on the copy, which came back */
    for (int i = 0; i < N; i++) CHECK(p[i] == (i < 10 ? (float)i : -1.0f));
  launch(foo, 1, 10)(d, p); /* a repeated launch copies again */
  launch(foo, 1, 10)(p, d2); /* 'in' is const: copied in, not back */
  CHECK_NO_ERROR();
  CHECK_LOG_GREW("cuMemcpyHtoD ", in0, 3);
  CHECK_LOG_GREW("cuMemcpyDtoH ", back0, 2);
  launch_device_only(d, d2); /* device arrays beside a pinned one: still no copies */
  CHECK_LOG_GREW("cuMemcpyHtoD ", in0, 3);
  refuses_host_pointer(d, host);

  /* Freed: the same pointer is refused, device arrays need no copies again. */
  kp_free(p);
  CHECK_NO_ERROR();
  launch(foo, 1, 10)(d, p);
  CHECK_REFUSED("launch(foo, ...): parameter 'out' is ", "an array that was freed");
  launch_device_only(d, d2);
  CHECK_LOG_GREW("cuMemcpyHtoD ", in0, 3);

  /* Registered host memory: known while registered, a plain host pointer after. */
  kp_register(host, BYTES);
  CHECK_NO_ERROR();
  launch(foo, 1, 10)(d, host);
  CHECK_NO_ERROR();
  CHECK_LOG_GREW("cuMemcpyHtoD ", in0, 4);
  CHECK_LOG_GREW("cuMemcpyDtoH ", back0, 3);
  kp_unregister(host);
  CHECK_NO_ERROR();
  launch(foo, 1, 10)(d, host); /* (the message names it as freed: unregistered just now) */
  CHECK_REFUSED("launch(foo, ...): parameter 'out' is ", "an array that was freed");
  static float other[N];
  refuses_host_pointer(d, other);
  launch_device_only(d, d2);

  /* Another thread's remembered launch does not survive a free on this one. */
  g_d = device_array(float, N), g_d2 = d2;
  CHECK(pthread_barrier_init(&g_freed, NULL, 2) == 0);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, launch_then_after_free, NULL) == 0);
  pthread_barrier_wait(&g_freed);
  kp_free(g_d);
  pthread_barrier_wait(&g_freed);
  pthread_join(t, NULL);
  pthread_barrier_destroy(&g_freed);

  kp_free(d), kp_free(d2);
  CHECK_NO_ERROR();
  puts("test_transfers: OK");
  return 0;
}
