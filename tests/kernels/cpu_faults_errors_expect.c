/* cpu_faults_errors_expect.c — kernels that trap, abort, fail an assert, overflow a worker
 * thread's stack, write past the end of a device array or never return (KP_CPU_TIMEOUT_MS);
 * cpu_faults.cmake checks that the
 * CPU backend reports each as a launch error naming the kernel, block and thread (and, in
 * return mode, stays usable) instead of dying with a signal.
 *   cpu_faults_errors_expect <scenario>   (scenarios: see main) */
#undef NDEBUG /* the build type defines it: these kernels need assert() */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "kernel_test.h"

__attribute__((kernel)) void trap_at(int *out, int bad) {
  int i = grid(1);
  if (i == bad) __builtin_trap();
  out[i] = i;
}

__attribute__((kernel)) void abort_at(int *out, int bad) {
  int i = grid(1);
  if (i == bad) abort();
  out[i] = i;
}

__attribute__((kernel)) void assert_at(int *out, int bad) {
  int i = grid(1);
  assert(i != bad);
  out[i] = i;
}

/* A 12 MiB frame: more than a worker's default stack of 8 MiB. With the stack probes the
 * plugin adds, the frame is entered page by page and faults on the guard below the stack. */
__attribute__((device)) int big_frame(int i, int seed) {
  volatile char frame[12 << 20];
  frame[i] = (char)seed;
  return frame[i];
}

__attribute__((kernel)) void deep_frame(int *out, int deep) {
  int i = grid(1);
  out[i] = deep ? big_frame(i, i) : i;
}

/* Writes out[n]: one element past the end of an array of n elements. */
__attribute__((kernel)) void write_past_end(int *out, int n) {
  int i = grid(1);
  out[i] = i;
  if (i == n - 1) out[n] = -1;
}

/* Never returns while *stop is 0 (volatile: the loop cannot be assumed to end). */
__attribute__((kernel)) void spin(int *stop, int *out) {
  int i = grid(1);
  while (*(volatile int *)stop == 0) {
  }
  out[i] = i;
}

/* The same, printing now and then: the watchdog must not stop it inside printf. */
__attribute__((kernel)) void spin_printing(int *stop, int *out) {
  int i = grid(1);
  for (long k = 0; *(volatile int *)stop == 0; k++)
    if (k % 4000000 == 0) printf("spin_printing: thread %d still running\n", i);
  out[i] = i;
}

/* With a barrier: the block runs as fibers (or split), and is stopped all the same. */
__attribute__((kernel)) void spin_at_barrier(int *stop, int *out) {
  int i = grid(1);
  syncthreads();
  while (threadIdx.x == 3 && *(volatile int *)stop == 0) {
  }
  out[i] = i;
}

static int *device_ints(int n) {
  int *d = device_array(int, n);
  int *h = calloc((size_t)n, sizeof *h);
  copy_to_device(d, h, n);
  free(h);
  return d;
}

/* The last launch failed with KP_ERROR_LAUNCH; print its message for the expectations. */
static void expect_launch_error(const char *what) {
  kp_error e = kp_last_error();
  KT_CHECK(e == KP_ERROR_LAUNCH, "%s: error %d, expected a launch error", what, (int)e);
  printf("%s: %s\n", what, kp_last_error_message());
}

/* After a failed launch the runtime still allocates, launches and copies correctly. */
static void check_still_usable(void) {
  enum { N = 1000 };
  int *d = device_ints(N);
  launch(trap_at, 4, 256)(d, -1);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  int h[N];
  copy_to_host(h, d, N);
  for (int i = 0; i < N; i++) KT_CHECK(h[i] == i, "out[%d] = %d", i, h[i]);
  kp_free(d);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
}

/* Runs deep_frame from a host thread with a stack of the given size (the launching thread
 * runs blocks too, so its stack matters as much as the workers'). */
typedef struct frame_job {
  int blocks;
  kp_error error;
} frame_job;

static void *launch_deep_frame(void *p) {
  frame_job *job = p;
  int *d = device_ints(job->blocks * 32);
  launch(deep_frame, job->blocks, 32)(d, 1);
  job->error = kp_last_error();
  if (job->error) fprintf(stderr, "%s\n", kp_last_error_message());
  kp_free(d);
  return NULL;
}

static kp_error deep_frame_on_thread(size_t stack_bytes, int blocks) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  frame_job job = {blocks, KP_SUCCESS};
  pthread_t t;
  KT_CHECK(pthread_create(&t, &attr, launch_deep_frame, &job) == 0, "pthread_create");
  pthread_join(t, NULL);
  pthread_attr_destroy(&attr);
  return job.error;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  const char *s = argv[1];
  kt_start("cpu_faults");
  enum { N = 128 };
  int *out = device_ints(N);
  if (!strcmp(s, "trap")) {
    launch(trap_at, 4, 32)(out, 77);
  } else if (!strcmp(s, "abort")) {
    launch(abort_at, 4, 32)(out, 77);
  } else if (!strcmp(s, "assert")) {
    launch(assert_at, 4, 32)(out, 77);
  } else if (!strcmp(s, "recover")) {
    /* Each becomes an error in return mode; the runtime stays usable after each. */
    kp_set_error_mode(KP_ERRORS_RETURN);
    launch(trap_at, 4, 32)(out, 77);
    expect_launch_error("trap");
    check_still_usable();
    launch(abort_at, 4, 32)(out, 5);
    expect_launch_error("abort");
    check_still_usable();
    launch(assert_at, 4, 32)(out, 100);
    expect_launch_error("assert");
    check_still_usable();
    /* Twice: a second fault must be caught as well as the first (the signal mask). */
    launch(assert_at, 4, 32)(out, 3);
    expect_launch_error("assert again");
    check_still_usable();
  } else if (!strcmp(s, "host_abort")) {
    /* abort() outside kernel code still aborts, after kernels have run. */
    launch(trap_at, 4, 32)(out, -1);
    kp_synchronize();
    printf("cpu_faults host_abort: aborting\n");
    fflush(stdout);
    abort();
  } else if (!strcmp(s, "stack_overflow")) {
    /* Every stack (the launching thread's; the workers', by default) is smaller than the
     * 12 MiB frame. */
    kp_set_error_mode(KP_ERRORS_RETURN);
    kp_error e = deep_frame_on_thread(1 << 20, 8);
    KT_CHECK(e == KP_ERROR_LAUNCH, "expected a launch error, got %d", (int)e);
    check_still_usable();
  } else if (!strcmp(s, "stack_raised")) {
    /* Every stack is larger than the 12 MiB frame (KP_CPU_WORKER_STACK in the test). */
    kp_set_error_mode(KP_ERRORS_RETURN);
    kp_error e = deep_frame_on_thread(64 << 20, 8);
    KT_CHECK(e == KP_SUCCESS, "expected success, got %d", (int)e);
  } else if (!strcmp(s, "past_end")) {
    /* 64 ints: 256 bytes, so the array ends right at the guard page after it. */
    int *small = device_ints(64);
    launch(write_past_end, 2, 32)(small, 64);
  } else if (!strcmp(s, "past_end_recover")) {
    /* Arrays that do not end at a guard page: the write lands in the padding, which belongs
     * to nothing, and the runtime's bookkeeping (the allocation table) is intact. */
    kp_set_error_mode(KP_ERRORS_RETURN);
    enum { K = 50 };
    int *arrays[K];
    for (int k = 0; k < K; k++) arrays[k] = device_ints(10 + k);
    for (int k = 0; k < K; k++) {
      launch(write_past_end, 1, 32)(arrays[k], k < 22 ? 10 + k : 32);
      KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
    }
    for (int k = 0; k < K; k++) {
      KT_CHECK(kp_alloc_size(arrays[k]) == (size_t)(10 + k) * sizeof(int),
               "array %d: kp_alloc_size %zu", k, kp_alloc_size(arrays[k]));
      kp_free(arrays[k]);
      KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
    }
    int *full = device_ints(64);
    launch(write_past_end, 2, 32)(full, 64);
    expect_launch_error("past_end");
    kp_free(full);
    check_still_usable();
  } else if (!strcmp(s, "timeout")) {
    int *stop = device_ints(1);
    launch(spin, 4, 32)(stop, out);
  } else if (!strcmp(s, "timeout_recover")) {
    /* Each endless kernel fails after KP_CPU_TIMEOUT_MS; the program goes on. */
    kp_set_error_mode(KP_ERRORS_RETURN);
    int *stop = device_ints(1);
    launch(spin, 4, 32)(stop, out);
    expect_launch_error("spin");
    check_still_usable();
    launch(spin_printing, 2, 4)(stop, out);
    expect_launch_error("spin_printing");
    check_still_usable();
    launch(spin_at_barrier, 2, 32)(stop, out);
    expect_launch_error("spin_at_barrier");
    check_still_usable();
    int one = 1;
    copy_to_device(stop, &one, 1); /* now they end: the watchdog lets finished kernels be */
    launch(spin, 4, 32)(stop, out);
    KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    return 2;
  }
  kp_synchronize();
  kp_free(out);
  printf("cpu_faults %s: finished\n", s);
  return 0;
}
