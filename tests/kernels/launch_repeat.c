/* launch_repeat.c — launches repeated with one shape, the case launch.c's remembered check
 * serves (a kernel launched again with the grid, block and shared memory that last passed on
 * this thread is not checked again), and the launches around it that must still be checked:
 * each launch's result against the same loop in plain C, every bad configuration after a
 * run of good ones still refused with its error, another kernel with the same shape checked
 * against its own launch_bounds, a destroyed stream refused after launches on it passed, and
 * host threads launching at once (the pool's run lock). */
#include <pthread.h>

#include "kernel_test.h"

__attribute__((kernel)) void rep_axpy(float a, const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) y[i] = a * x[i] + y[i];
}

__attribute__((kernel, launch_bounds(128))) void rep_bounded(int *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = 3 * i + 1;
}

__attribute__((kernel)) void rep_fill(int *out, int n, int v) {
  int i = grid(1);
  if (i < n) out[i] = v + i;
}

enum { N = 1000, REPS = 50, HOSTS = 4, HOST_REPS = 200 };

/* y = a*x + y, REPS times, on the device and in plain C. */
static void check_axpy_series(void) {
  float hx[N], hy[N], want[N], got[N];
  for (int i = 0; i < N; i++) hx[i] = (float)(i % 17) * 0.25f, hy[i] = want[i] = (float)i;
  float *x = to_device(hx, N), *y = to_device(hy, N);
  for (int r = 0; r < REPS; r++) {
    float a = 0.5f + (float)r;
    launch(rep_axpy, (N + 255) / 256, 256)(a, x, y, N);
    for (int i = 0; i < N; i++) want[i] = a * hx[i] + want[i];
  }
  copy_to_host(got, y, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(got[i] == want[i], "axpy series: y[%d] = %g, want %g", i, got[i], want[i]);
  kp_free(x), kp_free(y);
}

/* A launch that must fail with `want` and a message naming the kernel. */
static void expect_refused(kp_error want, const char *kernel, const char *what) {
  kp_error got = kp_last_error();
  KT_CHECK(got == want, "%s: error %d, expected %d (%s)", what, (int)got, (int)want,
           kp_last_error_message());
  KT_CHECK(strstr(kp_last_error_message(), kernel) != NULL, "%s: message '%s' lacks '%s'", what,
           kp_last_error_message(), kernel);
  printf("%s: %s\n", what, kp_last_error_message());
}

static void expect_ok(const char *what) {
  kp_error got = kp_last_error();
  KT_CHECK(got == KP_SUCCESS, "%s: error %d (%s)", what, (int)got, kp_last_error_message());
}

static void check_fill(const int *d, int n, int v, const char *what) {
  int host[N];
  copy_to_host(host, d, n);
  for (int i = 0; i < n; i++)
    KT_CHECK(host[i] == v + i, "%s: out[%d] = %d, want %d", what, i, host[i], v + i);
}

/* Good launches, then each bad one, then the good shape again. */
static void check_refusals_after_repeats(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  int *d = device_array(int, N);
  for (int r = 0; r < 3; r++) launch(rep_fill, 4, 256)(d, N, r);
  kp_synchronize();
  expect_ok("repeated fill");
  check_fill(d, N, 2, "repeated fill");

  launch(rep_fill, 0, 256)(d, N, 7);
  expect_refused(KP_ERROR_INVALID_VALUE, "rep_fill", "zero blocks after repeats");
  launch(rep_fill, 4, 2048)(d, N, 7);
  expect_refused(KP_ERROR_LAUNCH, "rep_fill", "2048 threads after repeats");
  launch(rep_fill, 4, 256, (size_t)1 << 40)(d, N, 7);
  expect_refused(KP_ERROR_LAUNCH, "rep_fill", "dynamic shared memory over the limit");
  launch(rep_fill, dim3(1, 70000), 256)(d, N, 7);
  expect_refused(KP_ERROR_LAUNCH, "rep_fill", "grid.y over the limit");
  check_fill(d, N, 2, "after the refused launches"); /* none of them ran */

  launch(rep_fill, 4, 256)(d, N, 5);
  kp_synchronize();
  expect_ok("the good shape again");
  check_fill(d, N, 5, "the good shape again");

  /* The same shape as rep_fill's last launch passes for rep_fill, not for a kernel whose
   * launch_bounds it exceeds; that kernel's own good shape then passes. */
  launch(rep_bounded, 4, 256)(d, N);
  expect_refused(KP_ERROR_LAUNCH, "rep_bounded", "another kernel, same shape");
  check_fill(d, N, 5, "after rep_bounded was refused");
  for (int r = 0; r < 2; r++) launch(rep_bounded, 8, 128)(d, N);
  kp_synchronize();
  expect_ok("rep_bounded at 128");
  int host[N];
  copy_to_host(host, d, N);
  for (int i = 0; i < N; i++) KT_CHECK(host[i] == 3 * i + 1, "rep_bounded: out[%d] = %d", i, host[i]);
  launch(rep_bounded, 8, 129)(d, N);
  expect_refused(KP_ERROR_LAUNCH, "rep_bounded", "one thread over launch_bounds");

  /* A stream that passed twice, then destroyed: refused, not remembered. */
  kp_stream s = kp_stream_create();
  for (int r = 0; r < 2; r++) launch(rep_fill, 4, 256, 0, s)(d, N, 11);
  kp_stream_synchronize(s);
  expect_ok("launches on a stream");
  check_fill(d, N, 11, "launches on a stream");
  kp_stream_destroy(s);
  launch(rep_fill, 4, 256, 0, s)(d, N, 13);
  expect_refused(KP_ERROR_INVALID_VALUE, "rep_fill", "a destroyed stream");
  check_fill(d, N, 11, "after the destroyed stream");
  kp_free(d);
  kp_set_error_mode(KP_ERRORS_ABORT);
}

/* Host threads launching at once, each its own kernel's shape, each checking its results. */
typedef struct host_job {
  int id, ok;
} host_job;

static void *host_thread(void *p) {
  host_job *job = p;
  int *d = device_array(int, N);
  int blocks = 1 + job->id, n = blocks * 64 < N ? blocks * 64 : N;
  job->ok = 1;
  for (int r = 0; r < HOST_REPS && job->ok; r++) {
    launch(rep_fill, blocks, 64)(d, n, r * 10 + job->id);
    int host[N];
    copy_to_host(host, d, n);
    for (int i = 0; i < n; i++)
      if (host[i] != r * 10 + job->id + i) {
        printf("host %d, launch %d: out[%d] = %d\n", job->id, r, i, host[i]);
        job->ok = 0;
        break;
      }
  }
  kp_free(d);
  return NULL;
}

static void check_hosts(void) {
  pthread_t t[HOSTS];
  host_job jobs[HOSTS];
  for (int h = 0; h < HOSTS; h++) {
    jobs[h] = (host_job){h, 0};
    KT_CHECK(pthread_create(&t[h], NULL, host_thread, &jobs[h]) == 0, "pthread_create");
  }
  for (int h = 0; h < HOSTS; h++) {
    pthread_join(t[h], NULL);
    KT_CHECK(jobs[h].ok, "host thread %d got wrong results", h);
  }
}

int main(void) {
  kt_start("launch_repeat");
  check_axpy_series();
  check_refusals_after_repeats();
  check_hosts();
  printf("launch_repeat: ok\n");
  return 0;
}
